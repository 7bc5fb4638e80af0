"""Face policy and backstop with explicit times (spec 002 §9, §11; DESIGN §4.4)."""

from __future__ import annotations

import pytest

from buddy_personality.face.policy import BackstopConfig, FacePolicy, KeepaliveScheduler
from buddy_personality.face.protocol import ConvState

SPEAKING = int(ConvState.SPEAKING)
IDLE = int(ConvState.IDLE)


def shown(policy: FacePolicy, now: float) -> tuple[str, float, bool]:
    face = policy.decide(now)
    return face.mood, round(face.intensity, 3), face.backstop_active


def test_fresh_snapshot_is_shown_as_is() -> None:
    policy = FacePolicy()
    policy.on_snapshot("happy", 0.73, now=10.0)
    assert shown(policy, 10.0) == ("happy", 0.73, False)
    # Negative moods from a fresh snapshot are the engine's business (§9.1 "trusts").
    policy.on_snapshot("sad", 0.9, now=11.0)
    assert shown(policy, 11.0) == ("sad", 0.9, False)


def test_no_snapshot_yet_shows_the_section_11_3_fallback() -> None:
    assert shown(FacePolicy(), 0.0) == ("neutral", 0.2, True)


def test_backstop_starts_after_3000_ms_not_before() -> None:
    # spec 002 §9.1/§9.2: backstop only when the snapshot age is > 3000 ms.
    policy = FacePolicy()
    policy.on_snapshot("happy", 0.8, now=100.0)
    assert shown(policy, 103.0) == ("happy", 0.8, False)
    assert shown(policy, 103.001) == ("neutral", 0.2, True)


def test_backstop_uses_the_last_raw_ai_emotion_and_ends_on_a_fresh_snapshot() -> None:
    policy = FacePolicy()
    policy.on_phase(SPEAKING, 0.0)
    policy.on_snapshot("happy", 0.8, now=0.0)
    policy.on_ai_emotion("excited", 0.9, now=1.0)
    assert shown(policy, 2.0) == ("happy", 0.8, False)   # AI emotion ignored when fresh
    assert shown(policy, 3.5) == ("excited", 0.9, True)  # §11.3 fallback: raw AI emotion
    policy.on_snapshot("curious", 0.4, now=4.0)
    assert shown(policy, 4.0) == ("curious", 0.4, False)  # backstop over at once


@pytest.mark.parametrize(
    ("mood", "max_s", "max_intensity"),
    [("sad", 4.0, 0.70), ("scared", 2.0, 0.60), ("angry", 2.0, 0.50), ("surprised", 3.0, 0.8)],
)
def test_backstop_duration_and_intensity_caps_spec_002_9_1(
    mood: str, max_s: float, max_intensity: float
) -> None:
    policy = FacePolicy()
    policy.on_phase(SPEAKING, 0.0)  # in conversation: the context gate lets it through
    policy.on_ai_emotion(mood, 1.0, 0.0)
    start = 10.0  # first backstop tick (no snapshot ever)
    assert shown(policy, start) == (mood, max_intensity, True)
    assert shown(policy, start + max_s) == (mood, max_intensity, True)
    assert shown(policy, start + max_s + 0.02) == ("neutral", 0.2, True)
    # The same emotion repeated does not restart the clock.
    policy.on_ai_emotion(mood, 1.0, start + max_s + 0.5)
    assert shown(policy, start + max_s + 0.6) == ("neutral", 0.2, True)
    # A different emotion, then the capped one again: a new continuous run.
    policy.on_ai_emotion("happy", 0.5, start + 20.0)
    assert shown(policy, start + 20.0) == ("happy", 0.5, True)
    policy.on_ai_emotion(mood, 1.0, start + 21.0)
    assert shown(policy, start + 21.0) == (mood, max_intensity, True)


def test_caps_can_be_toggled_off_for_development_spec_002_9_5() -> None:
    policy = FacePolicy(BackstopConfig(negative_duration_caps=False,
                                       negative_intensity_caps=False))
    policy.on_phase(SPEAKING, 0.0)
    policy.on_ai_emotion("angry", 0.9, 0.0)
    assert shown(policy, 60.0) == ("angry", 0.9, True)
    assert shown(policy, 120.0) == ("angry", 0.9, True)


def test_backstop_context_gate_blocks_negative_moods_outside_conversation() -> None:
    # spec 002 §9.2 / HC-10.
    policy = FacePolicy()
    policy.on_phase(int(ConvState.ERROR), 0.0)
    policy.on_ai_emotion("sad", 0.5, 0.0)
    face = policy.decide(5.0)
    assert (face.mood, face.intensity, face.reason) == ("neutral", 0.2, "context_gate")
    policy.on_ai_emotion("happy", 0.6, 6.0)  # positive moods pass the gate
    assert shown(policy, 6.0) == ("happy", 0.6, True)


def test_conversation_end_forgets_the_raw_ai_emotion() -> None:
    policy = FacePolicy()
    policy.on_phase(SPEAKING, 0.0)
    policy.on_ai_emotion("silly", 0.7, 0.0)
    assert shown(policy, 5.0) == ("silly", 0.7, True)
    policy.on_phase(IDLE, 6.0)
    assert shown(policy, 6.0) == ("neutral", 0.2, True)


@pytest.mark.parametrize(
    ("phase", "mood"),
    [(ConvState.LISTENING, "neutral"), (ConvState.PTT, "neutral"),
     (ConvState.THINKING, "thinking")],
)
def test_listening_and_thinking_show_attentive_face_regardless_spec_002_11_1(
    phase: ConvState, mood: str
) -> None:
    policy = FacePolicy(BackstopConfig(attentive_intensity=0.5))
    policy.on_snapshot("excited", 0.9, now=0.0)
    policy.on_phase(int(phase), 0.0)
    assert shown(policy, 0.5) == (mood, 0.5, False)
    assert shown(policy, 10.0) == (mood, 0.5, True)  # also over a stale snapshot
    policy.on_phase(SPEAKING, 11.0)                  # SPEAKING: read the snapshot again
    policy.on_snapshot("happy", 0.6, now=11.0)
    assert shown(policy, 11.0) == ("happy", 0.6, False)


def test_inputs_are_validated() -> None:
    policy = FacePolicy()
    with pytest.raises(ValueError):
        policy.on_snapshot("grumpy", 0.5, 0.0)
    with pytest.raises(ValueError):
        policy.on_snapshot("happy", float("nan"), 0.0)
    with pytest.raises(ValueError):
        policy.on_ai_emotion("HAPPY", 0.5, 0.0)
    with pytest.raises(ValueError):
        policy.on_phase(8, 0.0)
    policy.on_snapshot("happy", 4.0, 0.0)  # out of range is clamped
    assert shown(policy, 0.0) == ("happy", 1.0, False)


def test_snapshot_age() -> None:
    policy = FacePolicy()
    assert policy.snapshot_age(5.0) is None
    policy.on_snapshot("love", 0.5, 5.0)
    assert policy.snapshot_age(7.5) == pytest.approx(2.5)


def test_keepalive_sends_on_change_and_at_least_once_per_period() -> None:
    keepalive = KeepaliveScheduler(period_s=0.9)
    assert keepalive.due("a", 0.0)
    keepalive.mark_sent("a", 0.0)
    assert not keepalive.due("a", 0.5)
    assert keepalive.due("b", 0.5)          # change: send at once
    assert keepalive.due("a", 0.9)          # unchanged: keepalive after the period
    keepalive.reset()
    assert keepalive.due("a", 0.1)
