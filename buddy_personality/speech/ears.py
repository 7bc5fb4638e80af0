"""The `asr` node's rules around the ears (DESIGN §4.7), without ROS or clocks.

- `SpeakingGate`: no transcription while Buddy speaks, nor for `tail_s` after (the room's
  echo, the device's buffers): Buddy must never hear itself as the child.
- `EarsHealth`: the transcription server's state. The first failure after a working (or
  unknown) state raises the fault once: Buddy says that its ears are not working and the
  face shows the error state; then it probes with exponential backoff until the server
  answers again, which clears the fault.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

FAULT_NAME = "asr_unavailable"   # SystemEvent.detail of FAULT_RAISED / FAULT_CLEARED


@dataclass(slots=True)
class SpeakingGate:
    tail_s: float = 0.4
    speaking: bool = False
    _quiet_from: float = -math.inf   # Buddy's last sample + tail

    def on_speaking(self, now: float, speaking: bool) -> None:
        self.speaking = speaking
        if not speaking:
            self._quiet_from = now + self.tail_s

    def closed(self, at: float) -> bool:
        """Whether audio captured at `at` may contain Buddy's own voice."""
        return self.speaking or at < self._quiet_from


RAISE, CLEAR = "raise", "clear"


@dataclass(slots=True)
class EarsHealth:
    backoff_initial_s: float = 1.0
    backoff_max_s: float = 30.0
    up: bool = True
    failures: int = 0
    _backoff_s: float = 0.0
    _next_probe: float = math.inf

    def on_failure(self, now: float) -> str | None:
        """A request failed. Returns RAISE the first time (once per outage)."""
        self.failures += 1
        if self.up:
            self.up = False
            self._backoff_s = self.backoff_initial_s
            self._next_probe = now + self._backoff_s
            return RAISE
        self._backoff_s = min(self.backoff_max_s, max(self.backoff_initial_s,
                                                      self._backoff_s * 2.0))
        self._next_probe = now + self._backoff_s
        return None

    def on_success(self, now: float) -> str | None:
        """A request or probe succeeded. Returns CLEAR when that ends an outage."""
        del now
        self._next_probe = math.inf
        if not self.up:
            self.up = True
            self._backoff_s = 0.0
            return CLEAR
        return None

    def probe_due(self, now: float) -> bool:
        return not self.up and now >= self._next_probe

    def probe_started(self, now: float) -> None:
        self._next_probe = math.inf    # the result reschedules (on_failure) or clears
        del now

    @property
    def backoff_s(self) -> float:
        return self._backoff_s
