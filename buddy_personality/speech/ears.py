"""The `asr` node's rules around the ears (DESIGN §4.7), without ROS or clocks.

- `SpeakingGate`: whether Buddy's voice may be in the microphone (it speaks, or stopped
  less than `tail_s` ago: the room's echo, the device's buffers). The ears keep listening
  then (erratum 24: a child talks over Buddy), but ask for more evidence.
- `child_evidence`: what a frame's VAD word is worth while Buddy may be heard.
- `EarsHealth`: the transcription server's state. The first failure after a working (or
  unknown) state raises the fault once: Buddy says that its ears are not working and the
  face shows the error state; then it probes with exponential backoff until the server
  answers again, which clears the fault.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

FAULT_NAME = "asr_unavailable"   # SystemEvent.detail of FAULT_RAISED / FAULT_CLEARED
SLOW_FAULT_NAME = "asr_slow"     # the server takes the turn but answers slowly


@dataclass(slots=True)
class SpeakingGate:
    tail_s: float = 0.4
    speaking: bool = False
    _quiet_from: float = -math.inf   # Buddy's last sample + tail

    def on_speaking(self, now: float, speaking: bool) -> None:
        self.speaking = speaking
        if not speaking:
            self._quiet_from = now + self.tail_s

    def buddy_audible(self, at: float) -> bool:
        """Whether audio captured at `at` may contain Buddy's own voice."""
        return self.speaking or at < self._quiet_from


# Frames that are no evidence of a child, whatever the VAD says (erratum 24), and the
# diagnostics counter each is counted under: what the software canceller left is Buddy's
# voice only; or Buddy speaks (tts/speaking) but none of what it plays has reached the
# canceller yet (a tts whose writer has not yet matched this reader): its voice is in the
# frame uncancelled.
ECHO_LEFT = "frames_echo_left"
WITHOUT_REFERENCE = "frames_without_reference"


def child_evidence(prob: float | None, *, buddy_audible: bool, echo_like: bool,
                   unreferenced: bool) -> tuple[float | None, str | None]:
    """The VAD probability the endpointer may use (None: no evidence), and the counter
    of the rule that set it aside (erratum 24, DESIGN §4.7)."""
    if echo_like:
        return None, ECHO_LEFT
    if buddy_audible and unreferenced:
        return None, WITHOUT_REFERENCE
    return prob, None


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


@dataclass(slots=True)
class SlowServer:
    """A transcription server that takes the turn but answers slowly (issue 31 item 7):
    the child hears once that Buddy has trouble hearing when a request has run for
    `after_s`, as when the server is down; a prompt answer ends the episode."""

    after_s: float = 4.0
    noticed: bool = False

    def check(self, request_started: float | None, now: float) -> str | None:
        """Called while a request may be running. RAISE once per slow episode."""
        if request_started is None or self.noticed or now - request_started < self.after_s:
            return None
        self.noticed = True
        return RAISE

    def on_answer(self, latency_s: float) -> str | None:
        """An answer came back (text or error). CLEAR when a slow episode ends."""
        if self.noticed and latency_s < self.after_s:
            self.noticed = False
            return CLEAR
        return None
