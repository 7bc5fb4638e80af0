"""The spec 000 intent gate in front of the LLM path (DESIGN §4.1)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from buddy_personality.msg_constants import EmotionSource

# AiEmotion.SOURCE_* (written once in msg_constants, ROS-free); RULES is layer 0's emotion
# for its own answer (no server; issue 15)
SOURCE_INLINE = int(EmotionSource.INLINE)
SOURCE_HYBRID = int(EmotionSource.HYBRID)
SOURCE_POST = int(EmotionSource.POST)
SOURCE_RULES = int(EmotionSource.RULES)
SOURCE_NAMES = {int(s): s.name.lower() for s in EmotionSource}
# spec 000: priority INLINE > HYBRID > POST (higher number = higher priority here). A
# RULES intent is a whole answer's emotion, like HYBRID; it never meets an LLM intent of
# the same turn (layer 0 answers only when the LLM does not).
_PRIORITY = {SOURCE_INLINE: 3, SOURCE_HYBRID: 2, SOURCE_POST: 1, SOURCE_RULES: 2}

CONFIDENCE_MIN = 0.2  # spec 000: confidence < 0.2 is ignored
COOLDOWN_S = 1.0  # spec 000 INTENT_COOLDOWN_MS
MAX_TRANSITIONS = 6  # spec 000 MAX_TRANSITIONS_PER_MIN
TRANSITION_WINDOW_S = 60.0
BUDGET_INTENSITY_CAP = 0.35  # spec 000: reset to calm (our neutral) at intensity <= 0.35
ANGRY_CONFIDENCE_MIN = 0.8  # spec 000 angry guard
ANGRY_ALLOWED_FROM: frozenset[str] = frozenset({"neutral", "sad", "scared", "confused"})

ACCEPT = "accept"
DROP_CONFIDENCE = "low_confidence"
DROP_COOLDOWN = "cooldown"
BUDGET_EXHAUSTED = "budget_exhausted"
ANGRY_GUARD = "angry_guard"


@dataclass(slots=True, frozen=True)
class GateDecision:
    verdict: str  # one of the constants above
    confidence: float  # clamped to [0, 1]

    @property
    def applies(self) -> bool:
        """An impulse follows (the intent's own, or THINKING for the angry guard)."""
        return self.verdict in (ACCEPT, ANGRY_GUARD)


class IntentGate:
    """Confidence gate, cooldown with source priority, transition budget, angry guard."""

    __slots__ = ("_last_accept_t", "_last_confidence", "_last_priority", "_transitions")

    def __init__(self) -> None:
        self._last_accept_t: float | None = None
        self._last_priority = 0
        self._last_confidence = 0.0
        self._transitions: deque[float] = deque()

    def record_transition(self, now: float) -> None:
        """The engine reports every projected mood transition here."""
        self._transitions.append(now)

    def _prune(self, now: float) -> None:
        t = self._transitions
        while t and now - t[0] >= TRANSITION_WINDOW_S:
            t.popleft()

    def transitions_in_window(self, now: float) -> int:
        self._prune(now)
        return len(self._transitions)

    def budget_exhausted(self, now: float) -> bool:
        return self.transitions_in_window(now) >= MAX_TRANSITIONS

    def budget_free_at(self, now: float) -> float:
        """When the window will have room again (now if it has room)."""
        self._prune(now)
        t = self._transitions
        if len(t) < MAX_TRANSITIONS:
            return now
        return t[len(t) - MAX_TRANSITIONS] + TRANSITION_WINDOW_S

    def evaluate(self, now: float, emotion: str, confidence: float, source: int,
                 previous_mood: str) -> GateDecision:
        """Decide one intent; accepted (and substituted) intents restart the cooldown."""
        confidence = min(1.0, max(0.0, confidence))  # spec 000: clamp to [0, 1]
        if confidence < CONFIDENCE_MIN:
            return GateDecision(DROP_CONFIDENCE, confidence)
        priority = _PRIORITY[source]
        if self._last_accept_t is not None and now - self._last_accept_t < COOLDOWN_S and not (
            priority > self._last_priority or confidence > self._last_confidence
        ):
            return GateDecision(DROP_COOLDOWN, confidence)
        self._last_accept_t = now
        self._last_priority = priority
        self._last_confidence = confidence
        if self.budget_exhausted(now):
            return GateDecision(BUDGET_EXHAUSTED, confidence)
        if emotion == "angry" and not (
            source == SOURCE_INLINE
            and confidence >= ANGRY_CONFIDENCE_MIN
            and previous_mood in ANGRY_ALLOWED_FROM
        ):
            return GateDecision(ANGRY_GUARD, confidence)
        return GateDecision(ACCEPT, confidence)
