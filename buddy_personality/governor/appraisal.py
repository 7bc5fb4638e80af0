"""Appraisal: one signal to pressure deltas (spec 001 §4.1, coefficients DESIGN §4.2)."""

from __future__ import annotations

from buddy_personality.governor.config import AppraisalConfig
from buddy_personality.governor.records import Pressures
from buddy_personality.governor.signals import Signal


def appraise(signal: Signal, cfg: AppraisalConfig) -> Pressures:
    """The pressure delta of one (already validated) signal; nothing is clipped here."""
    p, n, u, d = signal.reward, signal.novelty, signal.urgency, signal.difficulty
    return Pressures(
        confidence=cfg.progress_to_confidence * p - cfg.difficulty_to_confidence * d,
        # Difficulty frustrates only when the step made no progress (DESIGN §4.2).
        frustration=(0.0 if p > 0.0 else cfg.difficulty_to_frustration * d)
        + cfg.urgency_to_frustration * u,
        # Stale input (low novelty) lowers curiosity.
        curiosity=cfg.novelty_to_curiosity * n - cfg.staleness_to_curiosity * (1.0 - n),
        arousal=cfg.urgency_to_arousal * u,
        # Any decisive outcome, good or bad, lowers the perceived need to take risks.
        risk=-cfg.progress_to_risk * abs(p),
    )
