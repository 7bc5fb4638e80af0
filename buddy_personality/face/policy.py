"""What the face shows (DESIGN §4.4, spec 002 §11 and §9).

Normal operation: the personality engine's snapshot is the single source of emotional
truth (spec 002 §11.1) and is shown as is. The face driver repeats the engine's
guardrails only as a backstop while the snapshot is stale (spec 002 §9.1, §9.2:
age > 3000 ms): spec 002 §11.3 fallback (the last raw AI emotion, else NEUTRAL at 0.2),
then the §9.1 duration and intensity caps (plus the SURPRISED startle rule) and the
§9.2 context gate. LISTENING and THINKING phases show attentive NEUTRAL / THINKING
whatever the snapshot says (spec 002 §11.1). The backstop ends with the first fresh
snapshot.

Choices the spec leaves open (documented here, tested in test_policy.py):
- No snapshot yet counts as stale: the face starts on the §11.3 fallback.
- PTT (push-to-talk listening) is a listening phase and shows attentive NEUTRAL too.
- "Conversation active" for the backstop's context gate comes from the conversation
  phase (ATTENTION, LISTENING, PTT, THINKING, SPEAKING), not from the stale snapshot:
  when in doubt the gate blocks negative moods (DESIGN §1.4, safety first).
- The last raw AI emotion is forgotten when the conversation goes IDLE or DONE.
- A capped mood stays replaced by NEUTRAL until the fallback mood changes: repeating
  the same AI emotion does not restart its clock (the cap is on continuous display).

Keepalive: `KeepaliveScheduler` says when to send SET_STATE: on every change and at
least once per `period_s` (DESIGN §4.4: at least once a second).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from buddy_personality.face.protocol import MOOD_IDS, ConvState

STALE_AFTER_S = 3.0                 # spec 002 §9.1 / §9.2 / §11.3: age > 3000 ms
FALLBACK_MOOD = "neutral"           # spec 002 §11.3
FALLBACK_INTENSITY = 0.2            # spec 002 §11.3: send_state(FACE_MOOD_NEUTRAL, 0.2)
NEGATIVE_MOODS = frozenset({"sad", "scared", "angry"})  # spec 002 §4.2
# spec 002 §9.1: mood -> (max continuous duration s, max intensity)
DURATION_CAPS: dict[str, tuple[float, float]] = {
    "sad": (4.0, 0.70),
    "scared": (2.0, 0.60),
    "angry": (2.0, 0.50),
    "surprised": (3.0, 0.80),       # startle-reflex rule (spec 002 §9.1, SURPRISED)
}
# spec 002 §11.1: phases whose face is attentive regardless of the snapshot.
ATTENTIVE_MOODS: dict[int, str] = {
    int(ConvState.LISTENING): "neutral",
    int(ConvState.PTT): "neutral",
    int(ConvState.THINKING): "thinking",
}
ACTIVE_PHASES = frozenset(
    int(p) for p in (ConvState.ATTENTION, ConvState.LISTENING, ConvState.PTT,
                     ConvState.THINKING, ConvState.SPEAKING)
)
CONVERSATION_OVER_PHASES = frozenset({int(ConvState.IDLE), int(ConvState.DONE)})


@dataclass(slots=True)
class BackstopConfig:
    """Backstop rules; the three toggles mirror spec 002 §9.5 (on by default)."""

    stale_after_s: float = STALE_AFTER_S
    negative_duration_caps: bool = True
    negative_intensity_caps: bool = True
    context_gate: bool = True
    attentive_intensity: float = 0.5  # not in the spec: a calm, clearly visible level


@dataclass(slots=True, frozen=True)
class ShownFace:
    """The face to show now, and why."""

    mood: str
    intensity: float
    backstop_active: bool
    reason: str  # snapshot | phase | ai_emotion | fallback | capped | context_gate

    @property
    def mood_id(self) -> int:
        return MOOD_IDS[self.mood]


def _checked_mood(mood: str) -> str:
    if mood not in MOOD_IDS:
        raise ValueError(f"unknown mood {mood!r}")
    return mood


def _checked_intensity(intensity: float) -> float:
    if not math.isfinite(intensity):
        raise ValueError(f"intensity {intensity!r} is not finite")
    return min(1.0, max(0.0, intensity))


class FacePolicy:
    """Decides the shown face from the latest inputs; every method takes `now` (s)."""

    def __init__(self, config: BackstopConfig | None = None) -> None:
        self.config = config or BackstopConfig()
        self._snapshot: tuple[str, float] | None = None
        self._snapshot_at: float | None = None
        self._ai_emotion: tuple[str, float] | None = None
        self._phase = int(ConvState.IDLE)
        self._run_mood: str | None = None   # fallback mood being shown continuously
        self._run_since = 0.0
        self._decided_stale = False         # what the last `decide` saw (next_change_at)

    # --- inputs ----------------------------------------------------------------------

    def on_snapshot(self, mood: str, intensity: float, now: float) -> None:
        """A PersonalitySnapshot arrived. Raise ValueError for unknown mood/NaN."""
        self._snapshot = (_checked_mood(mood), _checked_intensity(intensity))
        self._snapshot_at = now

    def on_ai_emotion(self, emotion: str, intensity: float, now: float) -> None:
        """A raw AI emotion (used only by the backstop, spec 002 §11.3)."""
        self._ai_emotion = (_checked_mood(emotion), _checked_intensity(intensity))

    def on_phase(self, phase: int, now: float) -> None:
        if phase not in {int(p) for p in ConvState}:
            raise ValueError(f"unknown conversation phase {phase}")
        self._phase = phase
        if phase in CONVERSATION_OVER_PHASES:
            self._ai_emotion = None

    # --- queries ---------------------------------------------------------------------

    @property
    def phase(self) -> int:
        return self._phase

    def snapshot_age(self, now: float) -> float | None:
        """Seconds since the last snapshot, None if none yet."""
        if self._snapshot_at is None:
            return None
        return max(0.0, now - self._snapshot_at)

    def is_stale(self, now: float) -> bool:
        age = self.snapshot_age(now)
        return age is None or age > self.config.stale_after_s

    def decide(self, now: float) -> ShownFace:
        stale = self.is_stale(now)
        self._decided_stale = stale
        attentive = ATTENTIVE_MOODS.get(self._phase)
        if attentive is not None:  # spec 002 §11.1: suppress-then-read
            self._run_mood = None
            return ShownFace(attentive, self.config.attentive_intensity, stale, "phase")
        if not stale:
            assert self._snapshot is not None
            self._run_mood = None
            mood, intensity = self._snapshot
            return ShownFace(mood, intensity, False, "snapshot")
        return self._backstop(now)

    def next_change_at(self, now: float) -> float | None:
        """When `decide` may next return another face with no new input, so a driver
        that does not tick at a fixed rate knows when to look again: the snapshot
        turning stale (spec 002 §11.3: age > stale_after_s) or the shown backstop mood
        reaching its §9.1 duration cap. None: nothing changes by the clock alone.
        Both are strict comparisons: the change is visible just after the time returned.
        `now` when the snapshot has turned stale since the last `decide`. Assumes
        `decide` has seen the latest input (the driver decides after each one)."""
        cfg = self.config
        if self._snapshot_at is not None and now - self._snapshot_at <= cfg.stale_after_s:
            return self._snapshot_at + cfg.stale_after_s
        if not self._decided_stale:
            return now   # stale since the last decide: the backstop is due now
        if self._phase in ATTENTIVE_MOODS or self._run_mood is None:
            return None   # attentive face, or no capped run going on (fresh or gated)
        cap = DURATION_CAPS.get(self._run_mood)
        if cap is None or not cfg.negative_duration_caps:
            return None
        max_duration = cap[0]
        if now - self._run_since > max_duration:
            return None   # already capped: NEUTRAL until the mood changes
        return self._run_since + max_duration

    def _backstop(self, now: float) -> ShownFace:
        cfg = self.config
        # spec 002 §11.3: raw AI emotion if any, else NEUTRAL at 0.2.
        if self._ai_emotion is not None:
            mood, intensity = self._ai_emotion
            reason = "ai_emotion"
        else:
            mood, intensity, reason = FALLBACK_MOOD, FALLBACK_INTENSITY, "fallback"
        # spec 002 §9.2 context gate (HC-10): no negative mood outside a conversation.
        if cfg.context_gate and mood in NEGATIVE_MOODS and self._phase not in ACTIVE_PHASES:
            self._run_mood = None
            return ShownFace(FALLBACK_MOOD, FALLBACK_INTENSITY, True, "context_gate")
        if mood != self._run_mood:
            self._run_mood, self._run_since = mood, now
        cap = DURATION_CAPS.get(mood)
        if cap is not None:
            max_duration, max_intensity = cap
            # spec 002 §9.1: continuous-duration cap, then back to NEUTRAL.
            if cfg.negative_duration_caps and now - self._run_since > max_duration:
                return ShownFace(FALLBACK_MOOD, FALLBACK_INTENSITY, True, "capped")
            if cfg.negative_intensity_caps:
                intensity = min(intensity, max_intensity)  # spec 002 §9.1 (RS-8)
        return ShownFace(mood, intensity, True, reason)


class KeepaliveScheduler:
    """SET_STATE on change and at least once per `period_s` (DESIGN §4.4)."""

    def __init__(self, period_s: float = 0.9) -> None:
        self.period_s = period_s
        self._last: object = None
        self._last_at: float | None = None

    def due(self, state: object, now: float) -> bool:
        if state != self._last or self._last_at is None:
            return True
        return now - self._last_at >= self.period_s

    def is_repeat(self, state: object) -> bool:
        """True if `state` is what was last sent (a send now is a keepalive)."""
        return self._last_at is not None and state == self._last

    def next_due_at(self) -> float | None:
        """When the last state sent must be repeated; None if nothing was sent yet."""
        return None if self._last_at is None else self._last_at + self.period_s

    def mark_sent(self, state: object, now: float) -> None:
        self._last, self._last_at = state, now

    def reset(self) -> None:
        """Forget what was sent (after a reconnect the board must be told again)."""
        self._last, self._last_at = None, None
