"""Governor signals wait for their episode (DESIGN §4.2, issue 19).

The bridge asks `governor/reset` for a new episode at every session start, without
waiting (never a synchronous service call in a callback). A signal published before the
reset is answered reaches the governor while the previous session's episode is still
live, and the governor rightly refuses it as another session's: the first signal of
every session after the first was lost. `SignalOrder` holds a session's signals until
its reset is answered (or `max_hold_s` passed: a governor that never answers must not
hold signals for ever), then releases them in order. ROS-free: the node feeds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(slots=True)
class SignalOrder(Generic[T]):
    max_hold_s: float = 2.0
    waiting_for: str | None = None        # session whose reset is not answered yet
    since: float = 0.0
    held: list[T] = field(default_factory=list)
    released_late: int = 0                 # released by the timeout, not by the answer

    def reset_requested(self, session_id: str, now: float) -> list[T]:
        """A new episode was asked for `session_id`; returns signals held for an older one."""
        older, self.held = self.held, []
        self.waiting_for = session_id
        self.since = now
        return older

    def offer(self, session_id: str, item: T) -> list[T]:
        """What to publish now for this signal: nothing while its reset is pending."""
        if self.waiting_for is not None and session_id == self.waiting_for:
            self.held.append(item)
            return []
        return [item]

    def reset_answered(self, session_id: str) -> list[T]:
        if session_id != self.waiting_for:
            return []
        self.waiting_for = None
        out, self.held = self.held, []
        return out

    def next_deadline(self) -> float | None:
        """When `tick` releases the held signals, if a reset is awaited."""
        return None if self.waiting_for is None else self.since + self.max_hold_s

    def tick(self, now: float) -> list[T]:
        if self.waiting_for is None or now - self.since < self.max_hold_s:
            return []
        self.waiting_for = None
        if self.held:
            self.released_late += 1
        out, self.held = self.held, []
        return out
