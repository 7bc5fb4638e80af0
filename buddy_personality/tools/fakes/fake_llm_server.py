"""A scripted OpenAI-compatible chat-completions server, bound to 127.0.0.1 only.

For tests, benchmarks and `buddy run --demo`: it answers `POST /v1/chat/completions`
(and `GET /v1/models`) from a script of answers, in one of these modes:

- `normal`      answer as asked (SSE when the request says `stream`, else one JSON body)
- `stream`      always SSE, in small chunks (`chunk_chars`, `chunk_delay_s` apart)
- `malformed`   content that is not JSON
- `wrong_schema` JSON content without the fields of spec 002 §12.3
- `slow`        wait `slow_s` before answering (as `normal` otherwise)
- `error500`    HTTP 500
- `reject_guided` HTTP 400 when the request carries `response_format`, else normal
  (a server without guided decoding)
- `trickle`     SSE written `trickle_bytes` bytes at a time, `trickle_delay_s` apart: a
  stream that never goes silent long enough for a read timeout (issue 19)
- `hang`        accept the request and send nothing for `hang_s` (or until stop())
- `throttle`    HTTP `throttle_status` (429, or 503 as a busy server says it) with
  `Retry-After: retry_after_s` for the first `throttle_count` chat requests, then normal
- `cut`         SSE that stops in the middle of the JSON answer: half of it, then the
  connection is closed with no `[DONE]` (a server or proxy that died mid-stream)

Connection refused: `closed_port_url()` gives a URL on a port nobody listens on.

It is also a fake guard model (issue 27 item 4): a chat request whose `model` is
`guard_model`, and any `POST /v1/moderations`, is answered by the guard script instead
(`guard_verdict(request) -> "safe" | "unsafe\nS6" | any text`), in `guard_mode`:
`normal`, `garbage` (a verdict nobody can read), `error500`, `hang` (nothing for
`hang_s`); after `guard_latency_s`. Guard requests go to `guard_requests` and
`guard_timings`, never to `requests`, so a test counts the chat model's calls as before.
Every request body is recorded (`requests`) so tests can inspect what was sent, and every
chat-completions request gets a `RequestTiming` (`timings`): when the server had it and
when it finished answering, on `time.monotonic()` (system-wide on Linux, so another
process's stamps compare), so a benchmark can subtract the server's own time.

Run standalone: `python -m buddy_personality.tools.fakes.fake_llm_server --port 0` prints the
base URL and serves until interrupted.

Here: the server's settings, records, start/stop and the CLI. Its HTTP handler (each mode's
answer, the SSE writer) is fake_llm_handler.py, the guard's answers fake_guard.py, the chat
answer scripts fake_llm_answers.py; every public name is still importable from here.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import sys
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from buddy_personality.tools.fakes.fake_guard import (
    FAKE_GUARD_MODEL,
    GUARD_MODES,
    MODERATION_NAMES,
    GuardScript,
    guard_flags,
    guard_text_of,
)
from buddy_personality.tools.fakes.fake_llm_answers import (
    DEFAULT_ANSWER,
    Responder,
    echo_responder,
    scripted,
)
from buddy_personality.tools.fakes.fake_llm_handler import make_handler

# the names tests and tools import from here (their modules: fake_guard, fake_llm_answers)
__all__ = ["DEFAULT_ANSWER", "FAKE_GUARD_MODEL", "GUARD_MODES", "MODERATION_NAMES", "MODES",
           "FakeLlmServer", "GuardScript", "RequestTiming", "Responder", "closed_port_url",
           "echo_responder", "guard_flags", "guard_text_of", "scripted"]

MODES = ("normal", "stream", "malformed", "wrong_schema", "slow", "error500", "reject_guided",
         "trickle", "hang", "throttle", "cut")


@dataclass(slots=True, frozen=True)
class RequestTiming:
    """One POST to /chat/completions, as the server saw it."""

    received_at: float          # handler has the request line and headers (monotonic s)
    finished_at: float          # last byte of the answer written and flushed
    status: int                 # HTTP status answered
    chunks: int                 # SSE content events of this answer (0: not streamed)
    request_index: int | None   # index into `requests` (None: not a chat request)

    @property
    def duration_s(self) -> float:
        return self.finished_at - self.received_at




class _QuietServer(ThreadingHTTPServer):
    """Clients that hang up early (timeouts under test) are normal here, not errors."""

    def handle_error(self, request: object, client_address: object) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class FakeLlmServer:
    """Use as a context manager, or call start() / stop()."""

    def __init__(
        self,
        mode: str = "normal",
        responder: Responder | None = None,
        slow_s: float = 2.0,
        chunk_chars: int = 7,
        chunk_delay_s: float = 0.0,
        port: int = 0,
        keep_alive: bool = False,
        trickle_bytes: int = 3,
        trickle_delay_s: float = 0.2,
        hang_s: float = 60.0,
        retry_after_s: float = 1.0,
        throttle_count: int = 1,
        throttle_status: int = 429,
        guard_model: str = FAKE_GUARD_MODEL,
    ) -> None:
        self.set_mode(mode)
        self.guard_model = guard_model
        self.guard_mode = "normal"
        self.guard_verdict: GuardScript = lambda _req: "safe"
        self.guard_latency_s = 0.0
        self.guard_requests: list[dict[str, Any]] = []
        self.guard_timings: list[RequestTiming] = []
        self.responder: Responder = responder or (lambda _req: DEFAULT_ANSWER)
        self.slow_s = slow_s
        self.chunk_chars = max(1, chunk_chars)
        self.chunk_delay_s = chunk_delay_s
        # Streamed answers in HTTP/1.1 chunks on a connection that stays open, as vLLM
        # (uvicorn) serves them; off: `Connection: close` after each stream.
        self.keep_alive = keep_alive
        self.trickle_bytes = max(1, trickle_bytes)
        self.trickle_delay_s = trickle_delay_s
        self.hang_s = hang_s
        self.retry_after_s = retry_after_s
        self.throttle_count = throttle_count
        self.throttle_status = throttle_status
        self._stopping = threading.Event()
        self.requests: list[dict[str, Any]] = []
        self.chunks_sent = 0   # SSE content events written so far (all requests)
        self.raw_requests: list[bytes] = []
        self.timings: list[RequestTiming] = []
        # Test hooks. `connections`: the peer (host, port) of every accepted TCP
        # connection, so a test can see whether a client reused one. `hold_after_done`:
        # when set to an Event, a stream waits for it (at most `hold_timeout_s`) after
        # writing `[DONE]` and before ending the body, so a test can observe what a
        # client does between the two; `holds` says how each hold ended (True: the
        # event released it, False: it timed out).
        self.connections: list[tuple[str, int]] = []
        self.hold_after_done: threading.Event | None = None
        self.hold_timeout_s = 5.0
        self.holds: list[bool] = []
        self._sockets: list[socket.socket] = []   # accepted connections (closed by stop)
        self._lock = threading.Lock()
        self._timing_added = threading.Condition(self._lock)
        self._httpd = _QuietServer(("127.0.0.1", port), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    # --- control ------------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; one of {MODES}")
        self.mode = mode

    def reset(self, mode: str = "normal", responder: Responder | None = None) -> None:
        """Back to a clean state between tests that share one server."""
        self.set_mode(mode)
        self.responder = responder or (lambda _req: DEFAULT_ANSWER)
        self.guard_mode = "normal"
        self.guard_verdict = lambda _req: "safe"
        self.guard_latency_s = 0.0
        with self._lock:
            self.guard_requests.clear()
            self.guard_timings.clear()
            self.requests.clear()
            self.raw_requests.clear()
            self.timings.clear()
            self.connections.clear()
            self.holds.clear()
            self.chunks_sent = 0
        self.hold_after_done = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """Base URL, OpenAI style (ends in /v1)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeLlmServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True,
                                        name="fake-llm-server")
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # ends hanging and trickling answers
        self._httpd.shutdown()
        self._httpd.server_close()
        # A server that is gone keeps no connection open (a kept-alive one would go on
        # answering from its handler thread): close them, as a dying process does.
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeLlmServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def chat_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r for r in self.requests if "messages" in r]

    def request_timings(self) -> list[RequestTiming]:
        with self._lock:
            return list(self.timings)

    def wait_for_timings(self, count: int, timeout_s: float = 5.0) -> list[RequestTiming]:
        """The timings once at least `count` are recorded (or whatever there is after
        `timeout_s`): a client can have the last byte before the server stamps it."""
        with self._timing_added:
            self._timing_added.wait_for(lambda: len(self.timings) >= count, timeout_s)
            return list(self.timings)

    def connection_count(self) -> int:
        """TCP connections accepted so far (since start or the last reset)."""
        with self._lock:
            return len(self.connections)

    # --- serving ------------------------------------------------------------------------
    def _record(self, raw: bytes) -> tuple[dict[str, Any], int]:
        """The parsed body and its index in `requests`."""
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            body = {"_unparsed": raw.decode("utf-8", "replace")}
        with self._lock:
            self.raw_requests.append(raw)
            self.requests.append(body if isinstance(body, dict) else {"_body": body})
            index = len(self.requests) - 1
        return (body if isinstance(body, dict) else {}), index

    def _record_timing(self, received_at: float, status: int, chunks: int,
                       request_index: int | None) -> None:
        finished_at = time.monotonic()
        with self._lock:
            self.timings.append(RequestTiming(received_at, finished_at, status, chunks,
                                              request_index))
            self._timing_added.notify_all()

    def guard_request_list(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.guard_requests)

    def _record_guard_request(self, request: dict[str, Any]) -> None:
        with self._lock:
            self.guard_requests.append(request)

    def _record_guard_timing(self, received_at: float, status: int) -> None:
        with self._lock:
            self.guard_timings.append(RequestTiming(received_at, time.monotonic(), status, 0,
                                                    None))

    def _content_for(self, request: dict[str, Any]) -> str:
        if self.mode == "malformed":
            return '{"inner_thought": "oops", "emotion": "happy", "text": "Hel'
        if self.mode == "wrong_schema":
            return json.dumps({"reply": "Hello!", "mood": 7})
        return json.dumps(self.responder(request))

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        return make_handler(self)


def closed_port_url() -> str:
    """A loopback URL where the connection is refused (the port was just released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--mode", choices=MODES, default="normal")
    p.add_argument("--echo", action="store_true", help="answer with the demo echo responder")
    p.add_argument("--guard-model", default=FAKE_GUARD_MODEL,
                   help="model name the fake guard answers to (always 'safe')")
    p.add_argument("--guard-latency", type=float, default=0.0,
                   help="seconds the fake guard takes per verdict")
    args = p.parse_args(argv)
    server = FakeLlmServer(args.mode, echo_responder if args.echo else None, port=args.port,
                           guard_model=args.guard_model)
    server.guard_latency_s = args.guard_latency
    server.start()
    print(server.url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
