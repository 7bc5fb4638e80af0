"""Affect to mood with asymmetric hysteresis (spec 002 §4.2-§4.3, DESIGN §6.2)."""

from __future__ import annotations

import math

import numpy as np

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


def round_intensity(x: float) -> float:
    """§4.2 rounds intensity to 2 decimals. Half-up on the hundredth, which is what
    round(x, 2) does except on exact binary ties, at a fifth of its cost (hot path)."""
    return int(x * 100.0 + 0.5) / 100.0


def intensity_for(valence: float, arousal: float, mood: str) -> float:
    """DESIGN §6.2: intensity against the returned mood's anchor, rounded as in §4.2."""
    av, aa = MOOD_ANCHORS[mood]
    d = math.sqrt((valence - av) ** 2 + (arousal - aa) ** 2)
    return round_intensity(max(0.0, min(1.0, 1.0 - d * _INV_MAX_D)))


# Nearest-anchor search, made cheap for the 1 Hz path: the VA square [-1, 1]² is cut into
# cells and each cell lists, in table order, every anchor that can be the nearest one for
# some point of the cell (a conservative superset, so the result is exactly that of a full
# scan, ties included). Most cells list one anchor.
_GRID_N = 100
_GRID_LO = -1.0
_GRID_CELL = 2.0 / _GRID_N


def _build_grid() -> list[tuple[tuple[str, float, float], ...]]:
    edges = np.linspace(_GRID_LO, _GRID_LO + _GRID_N * _GRID_CELL, _GRID_N + 1)
    lo, hi = edges[:-1], edges[1:]
    av = np.array([x[1] for x in _ANCHORS])[:, None]
    aa = np.array([x[2] for x in _ANCHORS])[:, None]
    # per axis: nearest and farthest offset between an anchor and each cell interval
    def near(a: np.ndarray) -> np.ndarray:
        return np.maximum(np.maximum(lo - a, a - hi), 0.0)

    def far(a: np.ndarray) -> np.ndarray:
        return np.maximum(np.abs(a - lo), np.abs(a - hi))

    nv, fv, na, fa = near(av), far(av), near(aa), far(aa)  # (13, N) each
    dmin2 = nv[:, :, None] ** 2 + na[:, None, :] ** 2  # (13, N, N)
    dmax2 = fv[:, :, None] ** 2 + fa[:, None, :] ** 2
    bound = dmax2.min(axis=0) + 1e-9  # no anchor farther than this can be nearest
    cand = dmin2 <= bound[None, :, :]
    # Each cell's candidate set as a bit mask (anchor k is bit k, so table order is kept);
    # only a few dozen distinct sets exist, so each is built once and shared by its cells
    # (a tuple per cell cost about 0.3 s of CPU in every process importing this module).
    weights = np.left_shift(1, np.arange(len(_ANCHORS), dtype=np.int64))
    masks = np.tensordot(weights, cand.astype(np.int64), axes=1).ravel()
    sets = {
        int(m): tuple(a for k, a in enumerate(_ANCHORS) if int(m) >> k & 1)
        for m in np.unique(masks)
    }
    return [sets[m] for m in masks.tolist()]


_GRID = _build_grid()


_INV_CELL = 1.0 / _GRID_CELL


def candidates(valence: float, arousal: float) -> tuple[tuple[str, float, float], ...]:
    """The anchors that can be nearest to this point (all of them outside the square)."""
    if -1.0 <= valence <= 1.0 and -1.0 <= arousal <= 1.0:
        i = min(int((valence - _GRID_LO) * _INV_CELL), _GRID_N - 1)
        j = min(int((arousal - _GRID_LO) * _INV_CELL), _GRID_N - 1)
        return _GRID[i * _GRID_N + j]
    return _ANCHORS


def project_mood(valence: float, arousal: float, current_mood: str) -> tuple[str, float]:
    """spec 002 §4.2: nearest anchor; switch only if it beats the current by the threshold."""
    best = current_mood
    best_d2 = math.inf
    if -1.0 <= valence <= 1.0 and -1.0 <= arousal <= 1.0:  # inlined _candidates (hot path)
        i = int((valence - _GRID_LO) * _INV_CELL)
        j = int((arousal - _GRID_LO) * _INV_CELL)
        if i >= _GRID_N:
            i = _GRID_N - 1
        if j >= _GRID_N:
            j = _GRID_N - 1
        candidates = _GRID[i * _GRID_N + j]
    else:
        candidates = _ANCHORS
    for name, av, aa in candidates:
        dv = valence - av
        da = arousal - aa
        d2 = dv * dv + da * da
        if d2 < best_d2:
            best, best_d2 = name, d2
    cv, ca = MOOD_ANCHORS[current_mood]
    mood = current_mood
    d = math.sqrt((valence - cv) ** 2 + (arousal - ca) ** 2)
    if best != current_mood:
        d_best = math.sqrt(best_d2)
        if d - d_best > _THRESHOLDS[(current_mood, best)]:
            mood = best
            d = d_best
    intensity = 1.0 - d * _INV_MAX_D
    if intensity <= 0.0:
        return mood, 0.0
    return mood, int(intensity * 100.0 + 0.5) / 100.0  # round_intensity, inlined
