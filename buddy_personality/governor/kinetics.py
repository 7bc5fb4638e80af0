"""Pressure to budget: governance g = Wᵀs − Vᵀs, profile scaling, decay, inertia, clipping
(spec 001 §4.2-§4.3)."""

from __future__ import annotations

from buddy_personality.governor.config import GovernorConfig, Matrix
from buddy_personality.governor.records import Budgets, Pressures


def governance(pressures: Pressures, w: Matrix, v: Matrix) -> tuple[float, ...]:
    """g = Wᵀs − Vᵀs in budget order (effort, risk, exploration, persistence).

    W enables selectively, V suppresses globally (spec 001 §4.2).
    """
    s = pressures.as_tuple()
    return tuple(
        sum((w[i][j] - v[i][j]) * s[i] for i in range(len(s))) for j in range(len(w[0]))
    )


def raw_budgets(g: tuple[float, ...], dt: float, cfg: GovernorConfig) -> tuple[float, ...]:
    """b_raw = ProfileScale(g) − Decay(t) (spec 001 §4.3), not yet clipped.

    Decay is a constant per step plus a rate times the seconds since the previous step,
    on exploration and persistence only (DESIGN §4.2).
    """
    effort, risk, exploration, persistence = (x * s for x, s in zip(g, cfg.scales, strict=True))
    exploration -= cfg.exploration_step_decay + cfg.exploration_time_decay * dt
    persistence -= cfg.persistence_step_decay + cfg.persistence_time_decay * dt
    return (effort, risk, exploration, persistence)


def clip01(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def smooth(previous: Budgets, raw: tuple[float, ...], alpha: float) -> Budgets:
    """b = alpha * b_prev + (1 - alpha) * b_raw, then clipped to [0, 1] (spec 001 §4.3).

    The raw budget is deliberately not clipped first: the spec clips after the update,
    and clipping raw values at 1 would make max_exploration = max_risk = 1.0 reachable
    only asymptotically, i.e. never within max_steps.
    """
    return Budgets(*(
        clip01(alpha * b + (1.0 - alpha) * r)
        for b, r in zip(previous.as_tuple(), raw, strict=True)
    ))
