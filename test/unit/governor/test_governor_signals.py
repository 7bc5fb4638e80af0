"""Signal validation: NaN, infinities and out-of-range values are refused, never integrated."""

from __future__ import annotations

import math

import pytest

from buddy_personality.governor import (
    Governor,
    InvalidSignal,
    Signal,
    classify_signal,
    signal_problem,
)


def test_in_range_signals_including_bounds_are_accepted() -> None:
    for s in (Signal(), Signal(-1.0, 0.0, 0.0, 0.0), Signal(1.0, 1.0, 1.0, 1.0),
              Signal(0, 0, 0, 0)):
        assert signal_problem(s) is None


def test_signal_default_difficulty_is_design_0_1() -> None:
    assert Signal().difficulty == 0.1


@pytest.mark.parametrize(
    ("signal", "reason"),
    [
        (Signal(reward=math.nan), "reward is NaN"),
        (Signal(novelty=math.inf), "novelty is infinite"),
        (Signal(urgency=-math.inf), "urgency is infinite"),
        (Signal(difficulty=math.nan), "difficulty is NaN"),
        (Signal(reward=1.0001), "reward=1.0001 outside [-1.0, 1.0]"),
        (Signal(reward=-1.5), "reward=-1.5 outside"),
        (Signal(novelty=-0.01), "novelty=-0.01 outside [0.0, 1.0]"),
        (Signal(urgency=2.0), "urgency=2.0 outside"),
        (Signal(difficulty=1.2), "difficulty=1.2 outside"),
        (Signal(reward="0.5"), "reward is not a number"),  # type: ignore[arg-type]
        (Signal(novelty=True), "novelty is not a number"),  # type: ignore[arg-type]
    ],
)
def test_bad_signals_are_rejected_with_a_reason_and_change_nothing(signal: Signal,
                                                                  reason: str) -> None:
    gov = Governor(now=0.0)
    gov.step(Signal(0.5, 0.5, 0.1), 1.0)
    before = gov.snapshot()
    assert signal_problem(signal) is not None
    assert reason in signal_problem(signal)  # type: ignore[operator]
    with pytest.raises(InvalidSignal) as err:
        gov.step(signal, 2.0)
    assert reason in err.value.reason
    # Not integrated: the pressures, budgets and step counter are exactly as before.
    assert gov.snapshot() == before
    # And the clock base did not move either: the next good step sees dt from t = 1.0.
    a, b = Governor(now=0.0), gov
    a.step(Signal(0.5, 0.5, 0.1), 1.0)
    assert a.step(Signal(), 3.0) == b.step(Signal(), 3.0)


@pytest.mark.parametrize("now", [math.nan, math.inf, -math.inf])
def test_non_finite_time_is_rejected(now: float) -> None:
    gov = Governor(now=0.0)
    before = gov.snapshot()
    with pytest.raises(InvalidSignal, match="now must be finite"):
        gov.step(Signal(), now)
    assert gov.snapshot() == before
    with pytest.raises(ValueError):
        Governor(now=now)


@pytest.mark.parametrize(
    ("signal", "cause"),
    [
        (Signal(reward=math.nan), "nan"),
        (Signal(urgency=math.inf), "infinite"),
        (Signal(novelty=1.5), "out_of_range"),
        (Signal(difficulty=None), "not_a_number"),  # type: ignore[arg-type]
    ],
)
def test_rejections_carry_a_countable_cause(signal: Signal, cause: str) -> None:
    problem = classify_signal(signal)
    assert problem is not None and problem.cause == cause
    with pytest.raises(InvalidSignal) as err:
        Governor(now=0.0).step(signal, 1.0)
    assert err.value.cause == cause


def test_episode_adopts_the_first_session_and_refuses_others() -> None:
    gov = Governor(now=0.0)
    gov.step(Signal(), 1.0, session_id="s1")
    assert gov.snapshot().session_id == "s1"
    before = gov.snapshot()
    with pytest.raises(InvalidSignal) as err:
        gov.step(Signal(), 2.0, session_id="s2")
    assert err.value.cause == "session_mismatch" and gov.snapshot() == before
    # A signal without a session id is accepted by any episode.
    assert gov.step(Signal(), 3.0).step == 2
    # A new session starts with a new episode.
    assert gov.new_episode(4.0, "s2", session_ended=True).success
    assert gov.step(Signal(), 5.0, session_id="s2").step == 1
