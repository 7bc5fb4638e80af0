"""The llm_bridge node's translation (DESIGN §4.5, §5): buddy_msgs in, the core's views;
the core's records out, buddy_msgs. Strings are cut to the message limits here; what is
rejected (a mood outside the vocabulary, an out-of-range enum) the node decides and counts.
"""

from __future__ import annotations

import math
from typing import Any

from buddy_msgs.msg import (
    AiEmotion,
    ConversationEvent,
    ConversationPhase,
    Gesture,
    GovernorSignal,
    GovernorState,
    GuardrailEvent,
    IdentityEvent,
    IdentityState,
    LlmProfile,
    MemoryExtract,
    MemoryTag,
    Say,
)
from buddy_personality.cognition.bridge import (
    ConversationOut,
    IntentOut,
    MemoryOut,
    PhaseOut,
    SayOut,
    SignalOut,
)
from buddy_personality.cognition.speaker import SpeakerEvent
from buddy_personality.cognition.views import GovernorView, IdentityView, ProfileView
from buddy_personality.cognition.vocabulary import ARCS
from buddy_personality.safety.speech_safety import GuardrailOut

TEXT_MAX = 2000   # DESIGN §5: oversize strings are truncated
TAG_MAX = 64


def finite(x: float, default: float = 0.0) -> float:
    return float(x) if math.isfinite(x) else default


# -- in ----------------------------------------------------------------------------------

def profile_view(msg: LlmProfile, mood: str) -> ProfileView:
    """personality/llm_profile, its mood already checked by the node."""
    arc = msg.conversation_arc if msg.conversation_arc in ARCS else "stable"
    tags = tuple(t[:TAG_MAX] for t in msg.memory_tags[:10])
    return ProfileView(
        mood=mood, intensity=finite(msg.intensity), tonic_valence=finite(msg.tonic_valence),
        memory_tags=tags, conversation_arc=arc,
    )


def governor_view(msg: GovernorState) -> GovernorView:
    return GovernorView(
        state=msg.state, effort=finite(msg.effort, 1.0),
        persistence=finite(msg.persistence, 1.0), risk=finite(msg.risk),
        exploration=finite(msg.exploration),
        pressures=tuple(finite(x) for x in (msg.confidence, msg.frustration,
                                            msg.curiosity, msg.arousal,
                                            msg.risk_pressure)),
        episode_id=msg.episode_id,
    )


def identity_view(msg: IdentityState) -> IdentityView:
    return IdentityView(
        state=msg.state, addressing_state=msg.addressing_state,
        preferred_name=msg.preferred_name[:TAG_MAX], age_group=msg.age_group,
        conversation_mode=msg.conversation_mode, child_safe=msg.child_safe,
    )


# -- out (each stamped with the Step's one stamp) -----------------------------------------

def say_msg(s: SayOut, stamp: Any) -> Say:
    m = Say(text=s.text, emotion=s.emotion, session_id=s.session_id, turn_id=s.turn_id)
    m.header.stamp = stamp
    return m


def conversation_msg(c: ConversationOut, stamp: Any) -> ConversationEvent:
    m = ConversationEvent(kind=c.kind, session_id=c.session_id, trigger=c.trigger,
                          turns=c.turns, end_reason=c.end_reason)
    m.header.stamp = stamp
    return m


def identity_event_msg(e: SpeakerEvent, stamp: Any) -> IdentityEvent:
    m = IdentityEvent(kind=e.kind, value=e.value[:TAG_MAX], confidence=1.0)
    m.header.stamp = stamp
    return m


def phase_msg(ph: PhaseOut, stamp: Any) -> ConversationPhase:
    m = ConversationPhase(phase=ph.phase, session_id=ph.session_id)
    m.header.stamp = stamp
    return m


def emotion_msg(i: IntentOut, stamp: Any) -> AiEmotion:
    m = AiEmotion(emotion=i.intent.emotion, intensity=i.intent.intensity,
                  confidence=i.intent.confidence, source=i.intent.source,
                  mood_reason=i.intent.mood_reason, session_id=i.session_id,
                  turn_id=i.turn_id)
    m.header.stamp = stamp
    return m


def guardrail_msg(gr: GuardrailOut, stamp: Any) -> GuardrailEvent:
    m = GuardrailEvent(rule_id=gr.rule_id, action=gr.action, details=gr.details)
    m.header.stamp = stamp
    return m


def gesture_msg(gesture_id: int, stamp: Any) -> Gesture:
    m = Gesture(gesture_id=gesture_id, duration_ms=0)
    m.header.stamp = stamp
    return m


def memory_msg(mem: MemoryOut, stamp: Any) -> MemoryExtract:
    m = MemoryExtract(session_id=mem.session_id, turn_id=mem.turn_id, user_id="",
                      tags=[MemoryTag(tag=t.tag, category=t.category,
                                      valence_bias=t.valence_bias,
                                      arousal_bias=t.arousal_bias) for t in mem.tags])
    m.header.stamp = stamp
    return m


def signal_msg(sig: SignalOut, stamp: Any) -> GovernorSignal:
    r = sig.signal
    m = GovernorSignal(reward=r.reward, novelty=r.novelty, urgency=r.urgency,
                       difficulty=r.difficulty, session_id=sig.session_id)
    m.header.stamp = stamp
    return m
