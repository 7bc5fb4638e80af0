"""The spec 000 intent gate (DESIGN §4.1) and the §13 modulation pipeline."""

from __future__ import annotations

import pytest

from buddy_personality.personality import intent_gate as g
from buddy_personality.personality.engine import InputRejected
from buddy_personality.personality.intent_gate import IntentGate
from buddy_personality.personality.modulation import emotion_impulse, validate_mood_reason
from buddy_personality.personality.traits import canonical_traits

from .conftest import T0, make_engine

INLINE, HYBRID, POST = g.SOURCE_INLINE, g.SOURCE_HYBRID, g.SOURCE_POST


# ---------------------------------------------------------------- confidence gate
@pytest.mark.parametrize(("confidence", "verdict"), [(0.19, g.DROP_CONFIDENCE),
                                                     (0.2, g.ACCEPT)])
def test_confidence_below_0_2_is_dropped(confidence: float, verdict: str) -> None:
    assert IntentGate().evaluate(T0, "happy", confidence, HYBRID, "neutral").verdict == verdict


def test_dropped_intent_leaves_affect_alone_and_is_counted() -> None:
    engine = make_engine()
    start = engine.on_conversation_started(T0, "s1").snapshot
    out = engine.on_ai_emotion(T0, "happy", 0.9, 0.1, HYBRID, "a joke", "s1", 1)
    assert (out.snapshot.valence, out.snapshot.arousal, out.snapshot.mood) == (
        start.valence, start.arousal, start.mood)
    assert engine.stats.gate_rejections == {g.DROP_CONFIDENCE: 1}


# ---------------------------------------------------------------- cooldown
def test_cooldown_one_second_same_source_same_confidence() -> None:
    gate = IntentGate()
    assert gate.evaluate(T0, "happy", 0.6, HYBRID, "neutral").verdict == g.ACCEPT
    assert gate.evaluate(T0 + 0.99, "curious", 0.6, HYBRID, "happy").verdict == g.DROP_COOLDOWN
    assert gate.evaluate(T0 + 0.5, "curious", 0.5, POST,
                         "happy").verdict == g.DROP_COOLDOWN  # lower priority, lower confidence
    assert gate.evaluate(T0 + 1.0, "curious", 0.6, HYBRID, "happy").verdict == g.ACCEPT


def test_cooldown_broken_by_a_higher_priority_source() -> None:
    gate = IntentGate()
    gate.evaluate(T0, "happy", 0.9, POST, "neutral")
    assert gate.evaluate(T0 + 0.2, "curious", 0.5, HYBRID, "happy").verdict == g.ACCEPT
    assert gate.evaluate(T0 + 0.4, "silly", 0.5, INLINE, "happy").verdict == g.ACCEPT
    assert gate.evaluate(T0 + 0.6, "love", 0.5, HYBRID, "happy").verdict == g.DROP_COOLDOWN


def test_cooldown_broken_by_a_higher_confidence() -> None:
    gate = IntentGate()
    gate.evaluate(T0, "happy", 0.5, INLINE, "neutral")
    assert gate.evaluate(T0 + 0.3, "curious", 0.6, POST, "happy").verdict == g.ACCEPT
    assert gate.evaluate(T0 + 0.5, "silly", 0.6, POST, "happy").verdict == g.DROP_COOLDOWN


# ---------------------------------------------------------------- transition budget
def test_budget_six_transitions_per_sixty_seconds() -> None:
    gate = IntentGate()
    for k in range(6):
        gate.record_transition(T0 + k)
    assert gate.evaluate(T0 + 10, "happy", 0.9, INLINE, "neutral").verdict == g.BUDGET_EXHAUSTED
    assert gate.evaluate(T0 + 60, "happy", 0.9, INLINE, "neutral").verdict == g.ACCEPT


def test_budget_exhausted_pulls_to_baseline_and_reports_neutral_at_most_0_35() -> None:
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    engine.set_guardrail("context_gate", "false")
    t = T0
    for k in range(6):  # six LLM transitions within the window (DESIGN §6.12)
        t += 1.0
        engine.override_affect(t - 0.5, 0.0, 0.0)  # back to NEUTRAL: not counted
        out = engine.on_ai_emotion(t, "happy", 1.0, 0.9, INLINE, "", "s1", k + 1)
        assert out.snapshot.mood == "happy"
    assert engine.gate.budget_exhausted(t)
    displacement = abs(engine.valence - 0.1) + abs(engine.arousal + 0.05)
    out = engine.on_ai_emotion(t + 1.0, "excited", 1.0, 0.9, INLINE, "", "s1", 1)
    assert out.snapshot.mood == "neutral" and out.snapshot.intensity <= 0.35
    assert [(e.rule_id, e.action) for e in out.guardrail_events] == [("BUDGET", "budget_reset")]
    assert abs(engine.valence - 0.1) + abs(engine.arousal + 0.05) < displacement / 1.9
    # the hold lasts until the window has room again; ticks report neutral <= 0.35 meanwhile
    for s in (8, 10, 30, 59):
        snap = engine.tick(T0 + s + 0.5).snapshot
        assert snap.mood == "neutral" and snap.intensity <= 0.35
    assert not engine.gate.budget_exhausted(T0 + 62.0)
    after = engine.on_ai_emotion(T0 + 62.0, "happy", 1.0, 0.9, INLINE, "", "s1", 2)
    assert after.snapshot.mood == "happy"


# ---------------------------------------------------------------- angry guard
@pytest.mark.parametrize(("source", "confidence", "prev", "verdict"), [
    (INLINE, 0.8, "neutral", g.ACCEPT),
    (INLINE, 0.9, "sad", g.ACCEPT),
    (INLINE, 0.9, "scared", g.ACCEPT),
    (INLINE, 0.9, "confused", g.ACCEPT),
    (INLINE, 0.79, "neutral", g.ANGRY_GUARD),
    (HYBRID, 0.95, "neutral", g.ANGRY_GUARD),
    (POST, 0.95, "neutral", g.ANGRY_GUARD),
    (INLINE, 0.95, "happy", g.ANGRY_GUARD),
])
def test_angry_guard(source: int, confidence: float, prev: str, verdict: str) -> None:
    assert IntentGate().evaluate(T0, "angry", confidence, source, prev).verdict == verdict


def test_angry_guard_substitutes_a_thinking_impulse() -> None:
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    out = engine.on_ai_emotion(T0 + 2, "angry", 1.0, 0.9, HYBRID, "volcano game", "s1", 1)
    assert [(e.rule_id, e.action) for e in out.guardrail_events] == [
        ("ANGRY-GUARD", "substitute_thinking")]
    assert out.snapshot.mood == "thinking"


# ---------------------------------------------------------------- spec 000 names
@pytest.mark.parametrize(("name", "mood"), [("calm", "neutral"), ("amused", "silly")])
def test_spec_000_names_map_to_ours(name: str, mood: str) -> None:
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    engine.override_affect(T0, 0.3, 0.3)
    out = engine.on_ai_emotion(T0 + 2, name, 1.0, 0.9, INLINE, "", "s1", 1)
    twin = make_engine()
    twin.on_conversation_started(T0, "s1")
    twin.override_affect(T0, 0.3, 0.3)
    ref = twin.on_ai_emotion(T0 + 2, mood, 1.0, 0.9, INLINE, "", "s1", 1)
    assert (out.snapshot.valence, out.snapshot.arousal) == (ref.snapshot.valence,
                                                            ref.snapshot.arousal)


def test_nervous_is_scared_at_low_intensity() -> None:
    nervous = make_engine()
    nervous.on_conversation_started(T0, "s1")
    start = (nervous.valence, nervous.arousal)
    nervous.on_ai_emotion(T0, "nervous", 1.0, 0.9, INLINE, "spooky story", "s1", 1)
    scared = make_engine()
    scared.on_conversation_started(T0, "s1")
    scared.on_ai_emotion(T0, "scared", 0.3, 0.9, INLINE, "spooky story", "s1", 1)
    assert (nervous.valence, nervous.arousal) == (scared.valence, scared.arousal) != start


@pytest.mark.parametrize(("emotion", "intensity", "confidence", "source"), [
    ("furious", 0.5, 0.9, INLINE), ("happy", float("nan"), 0.9, INLINE),
    ("happy", 1.5, 0.9, INLINE), ("happy", 0.5, float("inf"), INLINE),
    ("happy", 0.5, 0.9, 7),
])
def test_bad_intents_are_rejected_before_the_gate(emotion: str, intensity: float,
                                                  confidence: float, source: int) -> None:
    engine = make_engine()
    with pytest.raises(InputRejected):
        engine.on_ai_emotion(T0, emotion, intensity, confidence, source)
    assert engine.gate.evaluate(T0, "happy", 0.5, POST, "neutral").verdict == g.ACCEPT


# ---------------------------------------------------------------- §13 modulation
def test_spec_13_1_worked_example() -> None:
    """happy, intensity 0.8, valid reason: magnitude 0.8 × 0.60 × 0.95 = 0.456."""
    verdict = validate_mood_reason("child told a joke", "happy", True)
    imp = emotion_impulse("happy", 0.8, verdict.factor, canonical_traits())
    assert (imp.target_valence, imp.target_arousal) == (0.70, 0.35)
    assert imp.magnitude == pytest.approx(0.456)


def test_arousal_target_capped_at_arousal_max() -> None:
    """§13.2 Energy: min(target_a, P12)."""
    imp = emotion_impulse("excited", 1.0, 1.0, canonical_traits())
    assert imp.target_arousal == pytest.approx(0.66)


@pytest.mark.parametrize(("reason", "emotion", "active", "factor", "substitute"), [
    ("child told a joke", "happy", True, 0.95, None),
    ("", "happy", True, 1.0, None),
    ("   ", "sad", True, 1.0, None),
    ("empathizing with child's reluctance", "sad", True, 0.95, None),
    ("angry at child for spilling", "angry", True, 0.0, "thinking"),
    ("Frustrated with child", "sad", True, 0.0, "thinking"),
    ("child won't listen", "scared", True, 0.0, "thinking"),
    ("child is being slow", "angry", True, 0.0, "thinking"),
    ("child refused to answer", "sad", True, 0.0, "thinking"),
    ("annoyed by child", "sad", True, 0.0, "thinking"),
    ("scary shadow", "scared", False, 0.0, "neutral"),
    ("child won't stop laughing", "happy", True, 0.95, None),  # HC-4 is about negatives
])
def test_spec_13_3_mood_reason_validation(reason: str, emotion: str, active: bool,
                                          factor: float, substitute: str | None) -> None:
    verdict = validate_mood_reason(reason, emotion, active)
    assert (verdict.factor, verdict.substitute) == (factor, substitute)


def test_hc4_substitutes_thinking_in_the_engine() -> None:
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    out = engine.on_ai_emotion(T0, "sad", 1.0, 0.9, INLINE, "frustrated with child", "s1", 1)
    assert [(e.rule_id, e.action) for e in out.guardrail_events] == [
        ("HC-4", "substitute_thinking")]
    assert out.snapshot.mood == "thinking"


def test_negative_intent_outside_a_conversation_becomes_neutral() -> None:
    engine = make_engine()
    out = engine.on_ai_emotion(T0, "scared", 1.0, 0.9, INLINE, "a noise")
    assert [(e.rule_id, e.action) for e in out.guardrail_events] == [
        ("HC-10", "substitute_neutral")]
    # the NEUTRAL impulse lands on (0, 0) instead of heading for SCARED
    assert (engine.valence, engine.arousal) == (0.0, 0.0)
    assert out.snapshot.mood == "neutral"


def test_post_intents_mirror_with_the_empathy_gain() -> None:
    """P16: a POST intent (mirroring the child) moves affect by empathy_gain × magnitude."""
    post = make_engine()
    post.on_conversation_started(T0, "s1")
    start = (post.valence, post.arousal)
    post.on_ai_emotion(T0, "happy", 1.0, 0.9, POST, "", "s1", 1)
    inline = make_engine()
    inline.on_conversation_started(T0, "s1")
    inline.on_ai_emotion(T0, "happy", 1.0, 0.9, INLINE, "", "s1", 1)
    moved_post = abs(post.valence - start[0]) + abs(post.arousal - start[1])
    moved_inline = abs(inline.valence - start[0]) + abs(inline.arousal - start[1])
    assert moved_post == pytest.approx(moved_inline * canonical_traits().empathy_gain)


def test_accepted_intent_moves_the_mood_and_sets_layer_1() -> None:
    engine = make_engine()
    start = engine.on_conversation_started(T0, "s1").snapshot
    assert start.mood == "thinking"  # L0-06 lands at (0.10, 0.15), next to THINKING
    out = engine.on_ai_emotion(T0, "happy", 1.0, 0.9, HYBRID, "a joke", "s1", 3)
    assert out.snapshot.mood == "happy" and out.snapshot.layer == 1
    assert [(c.prev, c.next, c.cause) for c in out.mood_changes] == [
        ("thinking", "happy", "ai_emotion")]
    assert engine.turn_id == 3
