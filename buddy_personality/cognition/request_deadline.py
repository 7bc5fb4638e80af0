"""Deadlines on LLM requests (issue 19; DESIGN §4.5): the whole request, not each read.

httpx's timeouts bound each phase (connect, every read), so a server that trickles a
few bytes a second is never timed out (one reply took 240.8 s). Two pieces close that:

- `AttemptWatchdog` shuts the request's socket down when the attempt's deadline passes
  or the call is cancelled. A blocked read in the worker thread then fails at once
  (shutdown wakes a `recv` in another thread; close does not), so hung work ends at its
  deadline and frees its worker for the next session.
- `retry_after_s` reads a 429 / 503 `Retry-After` (seconds or an HTTP date).
"""

from __future__ import annotations

import contextlib
import email.utils
import math
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

POLL_S = 0.05  # how often the watchdog looks at the clock and the cancel flag


class AttemptWatchdog:
    """Watches one attempt from its response headers on; `fired` says why it cut."""

    def __init__(self, deadline: float, cancel: threading.Event | None,
                 clock: Callable[[], float]) -> None:
        self._deadline = deadline
        self._cancel = cancel
        self._clock = clock
        self._done = threading.Event()
        self._sock: socket.socket | None = None
        self.fired: str | None = None   # "timeout" or "cancelled"
        self._thread: threading.Thread | None = None

    def watch(self, response: Any) -> None:
        """Start watching the socket under `response` (an httpx.Response)."""
        stream = response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if not isinstance(sock, socket.socket):
            return  # a transport without a socket (tests' mocks): the per-chunk checks remain
        self._sock = sock
        self._thread = threading.Thread(target=self._run, name="llm-deadline", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._done.wait(POLL_S):
            if self._cancel is not None and self._cancel.is_set():
                self._cut("cancelled")
                return
            if self._clock() >= self._deadline:
                self._cut("timeout")
                return

    def _cut(self, why: str) -> None:
        if self._done.is_set() or self._sock is None:
            return
        self.fired = why
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        self._done.set()


def retry_after_s(headers: Any, now_wall: Callable[[], float] = time.time) -> float | None:
    """Seconds to wait from a Retry-After header, None when absent or unreadable."""
    value = headers.get("retry-after") if headers is not None else None
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - now_wall()
    if not math.isfinite(seconds):
        return None
    return max(0.0, seconds)
