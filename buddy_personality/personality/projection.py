"""Affect to mood with asymmetric hysteresis (spec 002 §4.2-§4.3, DESIGN §6.2)."""

from __future__ import annotations

import math

from buddy_personality.personality.moods import MAX_ANCHOR_DISTANCE, MOOD_ANCHORS, NEGATIVE_MOODS

# spec 002 §4.3
THRESHOLD_STANDARD = 0.12  # positive/neutral -> positive/neutral
THRESHOLD_ENTER_NEGATIVE = 0.15  # positive/neutral -> negative (harder)
THRESHOLD_LEAVE_NEGATIVE = 0.08  # negative -> positive/neutral (easier)
THRESHOLD_NEGATIVE_TO_NEGATIVE = 0.10

_ANCHORS: tuple[tuple[str, float, float], ...] = tuple(
    (name, av, aa) for name, (av, aa) in MOOD_ANCHORS.items()
)
_INV_MAX_D = 1.0 / MAX_ANCHOR_DISTANCE


def hysteresis_threshold(current: str, candidate: str) -> float:
    """spec 002 §4.3: entering negative is hard, leaving it easy."""
    curr_neg = current in NEGATIVE_MOODS
    cand_neg = candidate in NEGATIVE_MOODS
    if curr_neg and not cand_neg:
        return THRESHOLD_LEAVE_NEGATIVE
    if not curr_neg and cand_neg:
        return THRESHOLD_ENTER_NEGATIVE
    if curr_neg and cand_neg:
        return THRESHOLD_NEGATIVE_TO_NEGATIVE
    return THRESHOLD_STANDARD


# Precomputed (current, candidate) -> threshold, so the hot path does one dict lookup.
_THRESHOLDS: dict[tuple[str, str], float] = {
    (c, n): hysteresis_threshold(c, n) for c in MOOD_ANCHORS for n in MOOD_ANCHORS
}


def intensity_for(valence: float, arousal: float, mood: str) -> float:
    """DESIGN §6.2: intensity against the returned mood's anchor, rounded as in §4.2."""
    av, aa = MOOD_ANCHORS[mood]
    d = math.sqrt((valence - av) ** 2 + (arousal - aa) ** 2)
    return round(max(0.0, min(1.0, 1.0 - d * _INV_MAX_D)), 2)


def project_mood(valence: float, arousal: float, current_mood: str) -> tuple[str, float]:
    """spec 002 §4.2: nearest anchor; switch only if it beats the current by the threshold."""
    best = current_mood
    best_d2 = math.inf
    cur_d2 = 0.0
    for name, av, aa in _ANCHORS:
        dv = valence - av
        da = arousal - aa
        d2 = dv * dv + da * da
        if d2 < best_d2:
            best, best_d2 = name, d2
        if name == current_mood:
            cur_d2 = d2
    mood = current_mood
    d = math.sqrt(cur_d2)
    if best != current_mood:
        d_best = math.sqrt(best_d2)
        if d - d_best > _THRESHOLDS[(current_mood, best)]:
            mood = best
            d = d_best
    intensity = max(1.0 - d * _INV_MAX_D, 0.0)
    return mood, round(intensity, 2)
