"""LLM emotion preprocessing: the §13 modulation pipeline (spec 002 §5.2, §13)."""

from __future__ import annotations

from dataclasses import dataclass

from buddy_personality.personality.affect import Impulse
from buddy_personality.personality.moods import (
    EMOTION_BASE_MAGNITUDE,
    MOOD_ANCHORS,
    NEGATIVE_MOODS,
)
from buddy_personality.personality.traits import TraitParameters

# spec 002 §13.3 HC-4 phrases: negative affect directed at the child
HC4_PHRASES: tuple[str, ...] = (
    "angry at child",
    "frustrated with child",
    "annoyed by child",
    "child won't",
    "child refused",
    "child is being",
)
FACTOR_VALID = 0.95  # §13.3 valid reason: light modulation
FACTOR_UNVALIDATED = 1.00  # §13.3 empty reason: full modulation
FACTOR_REJECTED = 0.0


@dataclass(slots=True, frozen=True)
class ReasonVerdict:
    """What §13.3 decided about a mood_reason."""

    factor: float
    substitute: str | None  # mood whose impulse replaces the rejected one
    rule_id: str | None  # guardrail that rejected it (HC-4 / HC-10)


def validate_mood_reason(mood_reason: str, emotion: str,
                         conversation_active: bool) -> ReasonVerdict:
    """spec 002 §13.3. HC-4 substitutes THINKING; negative outside a conversation, NEUTRAL."""
    reason_lower = mood_reason.lower()
    if emotion in NEGATIVE_MOODS:
        for phrase in HC4_PHRASES:
            if phrase in reason_lower:
                return ReasonVerdict(FACTOR_REJECTED, "thinking", "HC-4")
        if not conversation_active:
            return ReasonVerdict(FACTOR_REJECTED, "neutral", "HC-10")
    if not mood_reason.strip():
        return ReasonVerdict(FACTOR_UNVALIDATED, None, None)
    return ReasonVerdict(FACTOR_VALID, None, None)


def emotion_impulse(emotion: str, intensity: float, factor: float,
                    trait: TraitParameters, source: str = "ai_emotion") -> Impulse:
    """spec 002 §13.1 steps 1-5: VA target, base magnitude × intensity, arousal cap, factor."""
    tv, ta = MOOD_ANCHORS[emotion]
    magnitude = intensity * EMOTION_BASE_MAGNITUDE[emotion] * factor
    return Impulse(tv, min(ta, trait.arousal_max), magnitude, source)
