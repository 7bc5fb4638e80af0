"""Every coefficient of the runtime governor (spec 001 §4-§5, defaults of DESIGN §4.2).

One frozen record holds the whole parameter set, so a profile is a value that can be
compared, logged and replaced field by field (`dataclasses.replace`). Nothing here has
behaviour beyond validating that a parameter set is usable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

# Pressure axes (rows of W and V) and budget axes (columns), in the order of DESIGN §4.2.
PRESSURE_AXES: tuple[str, ...] = ("confidence", "frustration", "curiosity", "arousal", "risk")
BUDGET_AXES: tuple[str, ...] = ("effort", "risk", "exploration", "persistence")

Matrix = tuple[tuple[float, float, float, float], ...]

# DESIGN §4.2: rows confidence, frustration, curiosity, arousal, risk;
# columns effort, risk, exploration, persistence.
DEFAULT_W: Matrix = (
    (0.6, 0.3, 0.2, 0.5),
    (0.0, 0.0, 0.0, 0.0),
    (0.2, 0.1, 0.7, 0.1),
    (0.3, 0.2, 0.1, 0.2),
    (0.1, 0.5, 0.3, 0.1),
)
# DESIGN §4.2: V is zero except the frustration row ("suppression is global", spec 001 §4.2).
DEFAULT_V: Matrix = (
    (0.0, 0.0, 0.0, 0.0),
    (0.7, 0.9, 0.9, 0.8),
    (0.0, 0.0, 0.0, 0.0),
    (0.0, 0.0, 0.0, 0.0),
    (0.0, 0.0, 0.0, 0.0),
)


@dataclass(slots=True, frozen=True)
class AppraisalConfig:
    """Coefficients of the appraisal (spec 001 §4.1, DESIGN §4.2).

    confidence    += progress_to_confidence * p - difficulty_to_confidence * d
    frustration   += (0 if p > 0 else difficulty_to_frustration * d) + urgency_to_frustration * u
    curiosity     += novelty_to_curiosity * n - staleness_to_curiosity * (1 - n)
    arousal       += urgency_to_arousal * u
    risk_pressure += -progress_to_risk * |p|
    """

    progress_to_confidence: float = 0.3
    difficulty_to_confidence: float = 0.1
    difficulty_to_frustration: float = 0.4
    urgency_to_frustration: float = 0.2
    novelty_to_curiosity: float = 0.5
    staleness_to_curiosity: float = 0.2
    urgency_to_arousal: float = 0.6
    progress_to_risk: float = 0.3
    default_difficulty: float = 0.1


@dataclass(slots=True, frozen=True)
class GovernorConfig:
    """The governor's parameter set. Defaults are DESIGN §4.2 (the balanced profile)."""

    profile: str = "balanced"
    appraisal: AppraisalConfig = field(default_factory=AppraisalConfig)
    w: Matrix = DEFAULT_W
    v: Matrix = DEFAULT_V
    # Profile scaling of g, per budget (spec 001 §4.3 ProfileScale).
    effort_scale: float = 1.0
    risk_scale: float = 1.0
    exploration_scale: float = 1.0
    persistence_scale: float = 1.0
    # Decay (spec 001 §4.3 Decay(t)): a constant per step plus a rate per second of dt,
    # applied to exploration and persistence only (DESIGN §4.2).
    exploration_step_decay: float = 0.05
    persistence_step_decay: float = 0.05
    exploration_time_decay: float = 0.002
    persistence_time_decay: float = 0.002
    # Inertia alpha in (0, 1): b = alpha * b_prev + (1 - alpha) * b_raw (spec 001 §4.3).
    inertia: float = 0.8
    # Budgets at the start of an episode (DESIGN §4.2).
    initial_effort: float = 1.0
    initial_risk: float = 0.0
    initial_exploration: float = 0.0
    initial_persistence: float = 1.0
    # spec 001 §5 row 6: IDLE -> RECOVERING when effort or persistence < this.
    recovering_threshold: float = 0.3
    # spec 001 §5 row 7: RECOVERING -> IDLE once effort and persistence are both >= this.
    # (The spec names `recovery_cap` here; see governor.py for why we use a threshold.)
    stabilized_threshold: float = 0.3
    # Recovery (DESIGN §4.2): +recovery_rate per second of rest, only when the rest between
    # two steps is at least recovery_delay, never above recovery_cap nor above the last
    # stable (IDLE) budget.
    recovery_rate: float = 0.25
    recovery_delay: float = 0.5
    recovery_cap: float = 1.0
    # Halts (spec 001 §5 rows 1-5).
    max_exploration: float = 1.0
    max_risk: float = 1.0
    exhaustion_threshold: float = 0.05
    stagnation_window: int = 20
    stagnation_effort_floor: float = 0.1
    stagnation_effort_scale: float = 0.7
    stagnation_persistence_scale: float = 0.6
    max_steps: int = 100

    def __post_init__(self) -> None:
        problems = config_problems(self)
        if problems:
            raise ValueError("invalid governor config: " + "; ".join(problems))

    @property
    def scales(self) -> tuple[float, float, float, float]:
        """Profile scales in BUDGET_AXES order."""
        return (self.effort_scale, self.risk_scale, self.exploration_scale,
                self.persistence_scale)


def _matrix_problems(name: str, m: Matrix) -> list[str]:
    if len(m) != len(PRESSURE_AXES) or any(len(row) != len(BUDGET_AXES) for row in m):
        return [f"{name} must be {len(PRESSURE_AXES)}x{len(BUDGET_AXES)}"]
    if not all(math.isfinite(x) and x >= 0.0 for row in m for x in row):
        return [f"{name} entries must be finite and >= 0"]
    return []


def config_problems(cfg: GovernorConfig) -> list[str]:
    """Every reason this parameter set is unusable (empty when it is fine)."""
    problems: list[str] = []
    for f in fields(cfg):
        value = getattr(cfg, f.name)
        if isinstance(value, float) and not math.isfinite(value):
            problems.append(f"{f.name} must be finite")
    for f in fields(cfg.appraisal):
        value = getattr(cfg.appraisal, f.name)
        if not math.isfinite(value) or value < 0.0:
            problems.append(f"appraisal.{f.name} must be finite and >= 0")
    problems += _matrix_problems("w", cfg.w)
    problems += _matrix_problems("v", cfg.v)
    if problems:
        return problems
    if not 0.0 < cfg.inertia < 1.0:
        problems.append("inertia must be in (0, 1) (spec 001 §4.3)")
    for name in ("effort_scale", "risk_scale", "exploration_scale", "persistence_scale",
                 "exploration_step_decay", "persistence_step_decay",
                 "exploration_time_decay", "persistence_time_decay",
                 "recovery_rate", "recovery_delay"):
        if getattr(cfg, name) < 0.0:
            problems.append(f"{name} must be >= 0")
    for name in ("initial_effort", "initial_risk", "initial_exploration",
                 "initial_persistence", "recovering_threshold", "stabilized_threshold",
                 "recovery_cap", "exhaustion_threshold", "stagnation_effort_floor",
                 "stagnation_effort_scale", "stagnation_persistence_scale",
                 "appraisal_default_difficulty"):
        value = (cfg.appraisal.default_difficulty if name == "appraisal_default_difficulty"
                 else getattr(cfg, name))
        if not 0.0 <= value <= 1.0:
            problems.append(f"{name} must be in [0, 1]")
    # Budgets are clipped to [0, 1], so a limit above 1 would silently disable its halt.
    for name in ("max_exploration", "max_risk"):
        if not 0.0 < getattr(cfg, name) <= 1.0:
            problems.append(f"{name} must be in (0, 1]")
    if cfg.stabilized_threshold < cfg.recovering_threshold:
        problems.append("stabilized_threshold must be >= recovering_threshold")
    if cfg.stagnation_window < 1:
        problems.append("stagnation_window must be >= 1")
    if cfg.max_steps < 1:
        problems.append("max_steps must be >= 1")
    return problems
