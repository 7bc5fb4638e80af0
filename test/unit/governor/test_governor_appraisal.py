"""Appraisal formulas of DESIGN §4.2 (spec 001 §4.1), checked against hand arithmetic."""

from __future__ import annotations

import pytest

from buddy_personality.governor import AppraisalConfig, Signal
from buddy_personality.governor.appraisal import appraise

A = AppraisalConfig()


def test_progress_turn() -> None:
    # p=1, n=0.5, u=0.2, d=0.1: confidence 0.3 - 0.01; frustration 0 (p > 0) + 0.04;
    # curiosity 0.25 - 0.1; arousal 0.12; risk -0.3.
    d = appraise(Signal(1.0, 0.5, 0.2, 0.1), A)
    assert d.confidence == pytest.approx(0.29)
    assert d.frustration == pytest.approx(0.04)
    assert d.curiosity == pytest.approx(0.15)
    assert d.arousal == pytest.approx(0.12)
    assert d.risk == pytest.approx(-0.3)


def test_failure_turn_frustrates_through_difficulty() -> None:
    # p=-1, n=0, u=0.3, d=0.8: confidence -0.3 - 0.08; frustration 0.32 + 0.06;
    # curiosity 0 - 0.2; arousal 0.18; risk -0.3 (|p|).
    d = appraise(Signal(-1.0, 0.0, 0.3, 0.8), A)
    assert d.confidence == pytest.approx(-0.38)
    assert d.frustration == pytest.approx(0.38)
    assert d.curiosity == pytest.approx(-0.2)
    assert d.arousal == pytest.approx(0.18)
    assert d.risk == pytest.approx(-0.3)


def test_zero_progress_counts_as_no_progress_for_frustration() -> None:
    # DESIGN §4.2: "(p > 0 ? 0 : 0.4d)": p = 0 is not progress.
    assert appraise(Signal(0.0, 0.0, 0.0, 0.5), A).frustration == pytest.approx(0.2)
    assert appraise(Signal(1e-9, 0.0, 0.0, 0.5), A).frustration == 0.0


def test_curiosity_neutral_point_is_two_sevenths() -> None:
    # 0.5n - 0.2(1 - n) = 0  <=>  n = 2/7: stale input lowers curiosity, new input raises it.
    assert appraise(Signal(novelty=2 / 7), A).curiosity == pytest.approx(0.0, abs=1e-12)
    assert appraise(Signal(novelty=0.0), A).curiosity == pytest.approx(-0.2)
    assert appraise(Signal(novelty=1.0), A).curiosity == pytest.approx(0.5)
