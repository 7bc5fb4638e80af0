"""One LLM emotion intent, from the message's values to the impulse it gives.

The spec 000 intent gate and the spec 002 §13 pipeline, in order: the inbound checks
(DESIGN §5: refused with a reason, never a crash), the gate's verdict (confidence,
cooldown, the transition budget, the angry guard), the §13.3 mood_reason rule, the §13.1
modulation and P16's empathy gain for a POST intent. ROS-free and clock-free: the engine
passes `now`, applies the `Admission` returned (counters, guardrail events, the budget
pull, the impulse) and projects.
"""

from __future__ import annotations

from dataclasses import dataclass

from buddy_personality.personality import intent_gate as gate_mod
from buddy_personality.personality.affect import Impulse
from buddy_personality.personality.inputs import InputRejected, finite, text
from buddy_personality.personality.intent_gate import IntentGate
from buddy_personality.personality.modulation import emotion_impulse, validate_mood_reason
from buddy_personality.personality.moods import (
    EMOTION_ALIASES,
    MOOD_ANCHORS,
    NERVOUS_INTENSITY_CAP,
)
from buddy_personality.personality.traits import TraitParameters

OUTPUT_CAUSE = "ai_emotion"  # the output's cause for an intent the gate let through
BUDGET_CAUSE = "budget"      # ... and for one dropped by the spent transition budget


@dataclass(slots=True, frozen=True)
class EmotionIntent:
    """An AiEmotion's values, checked: the mood name canonical, NERVOUS capped."""

    name: str
    intensity: float
    confidence: float
    source: int
    mood_reason: str
    session_id: str
    turn_id: int


@dataclass(slots=True, frozen=True)
class Admission:
    """What one intent does to the engine; the engine applies it in this order."""

    cause: str                     # OUTPUT_CAUSE or BUDGET_CAUSE
    rejection: str = ""            # the gate verdict counted in gate_rejections, if any
    budget_hold_until: float | None = None  # the budget is spent: pull to baseline, hold
    guardrails: tuple[tuple[str, str, str], ...] = ()  # (rule_id, action, details)
    impulse: Impulse | None = None  # None: the intent moves nothing


def parse_intent(emotion: str, intensity: float, confidence: float, source: int,
                 mood_reason: str, session_id: str, turn_id: int) -> EmotionIntent:
    """The checked values of one intent; raises InputRejected with the cause."""
    name = text("emotion", emotion).strip().lower()
    name = EMOTION_ALIASES.get(name, name)
    if name not in MOOD_ANCHORS:
        raise InputRejected("unknown_emotion", f"unknown emotion {emotion!r}")
    intensity = finite("intensity", intensity, 0.0, 1.0)
    confidence = finite("confidence", confidence, 0.0, 1.0)
    if source not in gate_mod.SOURCE_NAMES:
        raise InputRejected("unknown_enum", f"unknown intent source {source!r}")
    mood_reason = text("mood_reason", mood_reason)
    session_id = text("session_id", session_id)
    if isinstance(turn_id, bool) or not isinstance(turn_id, int) or turn_id < 0:
        raise InputRejected("out_of_range", f"turn_id {turn_id!r} is not a count")
    if emotion.strip().lower() == "nervous":
        intensity = min(intensity, NERVOUS_INTENSITY_CAP)
    return EmotionIntent(name, intensity, confidence, source, mood_reason, session_id,
                         turn_id)


def admit(gate: IntentGate, now: float, intent: EmotionIntent, mood: str,
          conversation_active: bool, traits: TraitParameters) -> Admission:
    """The spec 000 gate, then spec 002 §13.3 and §13.1, for the mood shown now."""
    verdict = gate.evaluate(now, intent.name, intent.confidence, intent.source, mood).verdict
    if verdict in (gate_mod.DROP_CONFIDENCE, gate_mod.DROP_COOLDOWN):
        return Admission(OUTPUT_CAUSE, verdict)
    name = intent.name
    if verdict == gate_mod.BUDGET_EXHAUSTED:
        details = (f"{gate_mod.MAX_TRANSITIONS} mood transitions in "
                   f"{gate_mod.TRANSITION_WINDOW_S:.0f} s; {name} intent dropped")
        return Admission(BUDGET_CAUSE, verdict, gate.budget_free_at(now),
                         (("BUDGET", "budget_reset", details),))
    guardrails: list[tuple[str, str, str]] = []
    rejection = ""
    if verdict == gate_mod.ANGRY_GUARD:
        rejection = verdict
        guardrails.append(("ANGRY-GUARD", "substitute_thinking",
                           f"angry needs an INLINE intent with confidence >= 0.8 from "
                           f"neutral/sad/scared/confused (was {mood})"))
        name = "thinking"
    # spec 002 §13.3 mood_reason validation
    reason = validate_mood_reason(intent.mood_reason, name, conversation_active)
    factor = reason.factor
    if reason.substitute is not None:
        guardrails.append((reason.rule_id or "", "substitute_" + reason.substitute,
                           f"{name} refused ({intent.mood_reason[:60]!r})"))
        name = reason.substitute
        factor = 1.0
    imp = emotion_impulse(name, intent.intensity, factor, traits)
    if intent.source == gate_mod.SOURCE_POST:
        # P16: a POST intent mirrors the child's affect; empathy gain sets how much.
        imp = Impulse(imp.target_valence, imp.target_arousal,
                      imp.magnitude * traits.empathy_gain, imp.source)
    return Admission(OUTPUT_CAUSE, rejection, None, tuple(guardrails), imp)
