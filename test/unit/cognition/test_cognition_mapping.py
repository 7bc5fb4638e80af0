"""Post-cognition tables (spec 003 §6): intents, memory records, governor signal."""

from __future__ import annotations

import pytest

from buddy_personality.cognition.mapping import (
    CONFIDENCE,
    REWARD,
    SOURCE_HYBRID,
    SOURCE_INLINE,
    SOURCE_POST,
    TurnOutcome,
    governor_signal,
    hybrid_intent,
    inline_intent,
    memory_record,
    post_intent,
)
from buddy_personality.cognition.schema import validate_response
from buddy_personality.cognition.vocabulary import MOOD_INTENSITY_CAP, MOODS


def resp(**kw: object):  # type: ignore[no-untyped-def]
    base = {"text": "hi", "emotion": "happy", "intensity": 0.8, "mood_reason": "a joke",
            "child_affect": "unclear", "emotional_arc": "stable"}
    base.update(kw)
    r = validate_response(base).response
    assert r is not None
    return r


def test_confidences_pass_the_spec_000_gate_and_keep_source_priority() -> None:
    # spec 000: < 0.2 dropped; priority INLINE > HYBRID > POST is by source, confidence
    # orders the evidence: the validated whole answer is the most trustworthy.
    assert all(c >= 0.2 for c in CONFIDENCE.values())
    assert CONFIDENCE[SOURCE_HYBRID] > CONFIDENCE[SOURCE_INLINE] > CONFIDENCE[SOURCE_POST]


@pytest.mark.parametrize("mood", MOODS)
def test_intensities_respect_the_prompt_limits_of_spec_002_12_4(mood: str) -> None:
    h = hybrid_intent(resp(emotion=mood, intensity=1.0))
    assert h is not None and h.intensity == MOOD_INTENSITY_CAP[mood]
    assert inline_intent(mood).intensity <= MOOD_INTENSITY_CAP[mood]


def test_spec_002_12_4_caps() -> None:
    assert (MOOD_INTENSITY_CAP["angry"], MOOD_INTENSITY_CAP["sad"],
            MOOD_INTENSITY_CAP["scared"], MOOD_INTENSITY_CAP["surprised"],
            MOOD_INTENSITY_CAP["happy"]) == (0.4, 0.5, 0.5, 0.6, 0.9)


def test_hybrid_carries_the_validated_answer() -> None:
    h = hybrid_intent(resp(emotion="silly", intensity=0.5, mood_reason="playing a game"))
    assert h is not None
    assert (h.emotion, h.intensity, h.source, h.mood_reason) == (
        "silly", 0.5, SOURCE_HYBRID, "playing a game")


def test_no_hybrid_when_the_emotion_was_invalid() -> None:
    assert hybrid_intent(resp(emotion="furious")) is None


@pytest.mark.parametrize(
    ("affect", "expected"),
    [("positive", ("happy", SOURCE_POST)), ("negative", ("sad", SOURCE_POST)),
     ("neutral", None), ("unclear", None)],
)
def test_post_mirrors_child_affect(affect: str, expected: tuple[str, int] | None) -> None:
    p = post_intent(resp(child_affect=affect))
    assert (None if p is None else (p.emotion, p.source)) == expected
    if p is not None and p.emotion == "sad":
        assert p.intensity <= MOOD_INTENSITY_CAP["sad"]


@pytest.mark.parametrize(
    ("tag", "category", "v"),
    [("likes_dinosaurs", "preference", 0.05), ("dislikes_broccoli", "preference", -0.02),
     ("bedtime_story", "ritual", 0.04), ("interested_in_space", "topic", 0.03),
     ("tone_playful", "tone", 0.0)],
)
def test_memory_categories(tag: str, category: str, v: float) -> None:
    r = memory_record(tag)
    assert (r.category, r.valence_bias) == (category, v)
    assert -0.1 <= r.valence_bias <= 0.1 and -0.1 <= r.arousal_bias <= 0.1  # MemoryTag range


def outcome(**kw: object) -> TurnOutcome:
    base = dict(source="llm", child_affect="positive", new_topics=0, session_elapsed_s=0.0,
                session_limit_s=900.0, failed_attempts=0, dropped_parts=0)
    base.update(kw)
    return TurnOutcome(**base)  # type: ignore[arg-type]


def test_reward_from_child_affect_and_success() -> None:
    assert governor_signal(outcome()).reward == REWARD[("llm", "positive")] > 0
    assert governor_signal(outcome(child_affect="negative")).reward < governor_signal(
        outcome()).reward
    assert governor_signal(outcome(source="failed")).reward < 0


def test_novelty_from_new_topics() -> None:
    assert [governor_signal(outcome(new_topics=n)).novelty for n in (0, 1, 2, 3)] == [
        0.0, 0.5, 1.0, 1.0]


def test_urgency_from_session_time_used() -> None:
    assert governor_signal(outcome(session_elapsed_s=450.0)).urgency == 0.5
    assert governor_signal(outcome(session_elapsed_s=2000.0)).urgency == 1.0


def test_difficulty_from_failures() -> None:
    # DESIGN §4.2 default difficulty 0.1 on a clean turn.
    assert governor_signal(outcome()).difficulty == pytest.approx(0.1)
    assert governor_signal(outcome(failed_attempts=2)).difficulty == pytest.approx(0.7)
    assert governor_signal(outcome(failed_attempts=9)).difficulty == 1.0
    assert governor_signal(outcome(dropped_parts=1)).difficulty == pytest.approx(0.2)
