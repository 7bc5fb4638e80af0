"""Mood projection with asymmetric hysteresis (spec 002 §3.3, §4.2-§4.3, DESIGN §6.2)."""

from __future__ import annotations

import math
import random

import pytest

from buddy_personality.personality.moods import MOOD_ANCHORS, nearest_mood
from buddy_personality.personality.projection import (
    hysteresis_threshold,
    intensity_for,
    project_mood,
    round_intensity,
)

from .conftest import T0, make_engine


def test_spec_3_3_rest_state() -> None:
    """§3.3: at baseline (+0.10, -0.05) the nearest mood is NEUTRAL at distance 0.112."""
    v, a = 0.10, -0.05
    assert math.dist((v, a), MOOD_ANCHORS["neutral"]) == pytest.approx(0.112, abs=0.0005)
    assert math.dist((v, a), MOOD_ANCHORS["happy"]) == pytest.approx(0.721, abs=0.0005)
    assert math.dist((v, a), MOOD_ANCHORS["curious"]) == pytest.approx(0.583, abs=0.0005)
    # §4.2 intensity formula: 1 - 0.112 / 1.20 = 0.907 -> 0.91
    assert project_mood(v, a, "neutral") == ("neutral", 0.91)
    snap = make_engine().snapshot(T0).snapshot
    assert (snap.mood, snap.intensity) == ("neutral", 0.91)


# (current, candidate, §4.3 threshold)
BOUNDARIES = [
    ("neutral", "thinking", 0.12),  # positive/neutral -> positive/neutral
    ("neutral", "sad", 0.15),  # -> negative: harder
    ("sad", "neutral", 0.08),  # leaving negative: easier
    ("scared", "angry", 0.10),  # negative -> negative
]


def _point_at_margin(current: str, candidate: str, margin: float) -> tuple[float, float]:
    """A point on the segment current->candidate where d_current - d_candidate = margin."""
    (cv, ca), (nv, na) = MOOD_ANCHORS[current], MOOD_ANCHORS[candidate]
    length = math.dist((cv, ca), (nv, na))
    t = (margin / length + 1.0) / 2.0
    return cv + t * (nv - cv), ca + t * (na - ca)


@pytest.mark.parametrize(("current", "candidate", "threshold"), BOUNDARIES)
def test_hysteresis_threshold_table(current: str, candidate: str, threshold: float) -> None:
    assert hysteresis_threshold(current, candidate) == threshold


@pytest.mark.parametrize(("current", "candidate", "threshold"), BOUNDARIES)
def test_hysteresis_just_below_threshold_keeps_the_mood(
        current: str, candidate: str, threshold: float) -> None:
    v, a = _point_at_margin(current, candidate, threshold - 0.002)
    assert nearest_mood(v, a) == candidate  # the candidate is nearest, yet...
    assert project_mood(v, a, current)[0] == current


@pytest.mark.parametrize(("current", "candidate", "threshold"), BOUNDARIES)
def test_hysteresis_just_above_threshold_switches(
        current: str, candidate: str, threshold: float) -> None:
    v, a = _point_at_margin(current, candidate, threshold + 0.002)
    assert nearest_mood(v, a) == candidate
    assert project_mood(v, a, current)[0] == candidate


def test_intensity_is_measured_against_the_returned_mood() -> None:
    """DESIGN §6.2 (the spec's code used the previous mood's distance)."""
    v, a = _point_at_margin("neutral", "thinking", 0.13)
    mood, intensity = project_mood(v, a, "neutral")
    assert mood == "thinking"
    expected = 1.0 - math.dist((v, a), MOOD_ANCHORS["thinking"]) / 1.2
    assert intensity == pytest.approx(expected, abs=0.005)  # §4.2: 2 decimals
    assert intensity == round(intensity, 2)
    assert intensity == intensity_for(v, a, "thinking")


def test_projection_matches_a_full_scan_everywhere() -> None:
    """The anchor grid is an optimisation: it must agree with scanning all 13 anchors."""
    rng = random.Random(5)
    for _ in range(20000):
        v, a = rng.uniform(-1, 1), rng.uniform(-1, 1)
        mood = rng.choice(list(MOOD_ANCHORS))
        d_cur = math.dist((v, a), MOOD_ANCHORS[mood])
        best = nearest_mood(v, a)
        d_best = math.dist((v, a), MOOD_ANCHORS[best])
        expected = best if d_cur - d_best > hysteresis_threshold(mood, best) else mood
        assert project_mood(v, a, mood)[0] == expected


def test_intensity_rounding_agrees_with_round_to_two_decimals() -> None:
    rng = random.Random(9)
    for _ in range(20000):
        x = rng.random()
        if abs(x * 100.0 % 1.0 - 0.5) > 1e-6:  # away from exact ties
            assert round_intensity(x) == round(x, 2)
