"""When the face driver node ticks (nodes/face_driver_node.py's docstring, "Idle"; issue
8: idle CPU). While the board is busy the tick runs at the fixed `tick_hz`; once the board
has said nothing but heartbeats for `idle_hold_s`, the tick timer is armed for the core's
next deadline instead (keepalive, staleness, duration caps, link timers, the face/state
republish), and the port's reader thread wakes the node through a guard condition when
the board says something new (`BoardNews`). An input that makes a deadline earlier
brings the paused tick forward.

`TickPacing` is mixed into `FaceDriverNode`, which owns the state it reads (the timer,
the core, the flags shared with the reader thread) and runs the tick itself (`_tick`).
"""

from __future__ import annotations

import contextlib
from typing import Any

from rclpy.exceptions import InvalidHandle

# face/state is sent on every change and republished about once a second. The republish
# rides on the 1 Hz personality snapshot when one comes (an input, after 0.75 s): that is
# when the rest of the graph is awake anyway, so the subscribers (the dashboard) take it
# in the same wake. Otherwise a tick republishes it after 1.1 s (issue 14's idle CPU: a
# republish of its own phase was 1.5 wakes a second of `buddy run`'s main thread).
FACE_STATE_PERIOD_S = 1.1
FACE_STATE_ON_INPUT_S = 0.75
# A paused tick wakes this long after a deadline: every deadline of the core is a
# strict comparison (e.g. stale once age > 3.0 s), so it has passed when the tick runs.
DEADLINE_MARGIN_S = 0.001


class TickPacing:
    """The tick's timer callbacks and its pause / resume (mixed into FaceDriverNode)."""

    # owned and set up by the node
    core: Any
    params: dict[str, Any]
    _timer: Any
    _board_wake: Any
    _news: Any
    _paused: bool
    _board_data: bool
    _last_busy: float
    _last_tick: float | None
    _wake_at: float
    _tick_late_max: float
    _last_face_pub: float

    def _on_timer(self) -> None:
        # How late this tick is (a stall of this process shows here, issue 14): past
        # the deadline it was armed for, or past one period of the fixed rate.
        now = self.now()
        if self._paused:
            late = now - self._wake_at
        elif self._last_tick is not None:
            late = now - self._last_tick - 1.0 / float(self.params["tick_hz"])
        else:
            late = 0.0
        self._tick_late_max = max(self._tick_late_max, late)
        self._tick(fixed_rate=not self._paused)

    def _on_board_wake(self) -> None:
        if self._paused:  # while the tick runs, it reads the board's bytes itself
            self._tick(fixed_rate=False)

    def _on_board_data(self, data: bytes) -> None:
        """Reader thread: bytes arrived (or the read failed: b""). Wake a paused tick
        if they say something new (`BoardNews`: not the 20 Hz FACE_STATUS and 1 Hz
        HEARTBEAT chatter, which the next deadline tick reads).

        No lock: `_paused` is set before `_pause` checks `_board_data`, and this sets
        `_board_data` before reading `_paused`, so either this sees the pause and wakes
        the node, or `_pause` sees the bytes and does not pause."""
        if data and not self._news.is_news(data):
            return
        self._board_data = True
        if self._paused:
            with contextlib.suppress(InvalidHandle):  # the node is being destroyed
                self._board_wake.trigger()

    def _schedule(self, now: float) -> None:
        """After a tick: keep the fixed rate while the board is busy, else pause."""
        hold = float(self.params["idle_hold_s"])
        if hold <= 0.0 or now - self._last_busy <= hold:
            if self._paused:
                self._resume()
            return
        self._pause(now)

    def _resume(self) -> None:
        self._paused = False
        self._last_tick = None
        if self._timer is not None:
            self._timer.timer_period_ns = round(1e9 / float(self.params["tick_hz"]))
            self._timer.reset()

    def _pause(self, now: float) -> None:
        self._paused = True
        self._last_tick = None
        if self._board_data:
            # Bytes came after this tick's poll and the reader saw no pause: take them.
            self._board_wake.trigger()
        self._arm(now, self._next_deadline(now))

    def _next_deadline(self, now: float) -> float:
        assert self.core is not None
        deadline = self._last_face_pub + FACE_STATE_PERIOD_S   # face/state republish
        core_deadline = self.core.next_deadline(now)
        if core_deadline is not None:
            deadline = min(deadline, core_deadline)
        return deadline

    def _arm(self, now: float, deadline: float) -> None:
        if self._timer is None:
            return
        delay = max(deadline - now, 0.0) + DEADLINE_MARGIN_S
        self._timer.timer_period_ns = round(delay * 1e9)
        self._timer.reset()
        self._wake_at = now + delay

    def _after_input(self) -> None:
        """An input was applied (and sent): publish face/state; a paused tick is
        brought forward if the input made a deadline earlier (a backstop cap starts)."""
        self._publish_state(republish_after_s=FACE_STATE_ON_INPUT_S)
        if self._paused and self.core is not None:
            now = self.now()
            deadline = self._next_deadline(now)
            if deadline + DEADLINE_MARGIN_S < self._wake_at:
                self._arm(now, deadline)
