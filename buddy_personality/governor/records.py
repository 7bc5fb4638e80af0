"""Value records of the governor: pressures (spec 001 §2), budgets, and the state record."""

from __future__ import annotations

from dataclasses import dataclass

# GovernorState.state values (buddy_msgs/GovernorState); repeated so the core imports no ROS.
IDLE = 0
RECOVERING = 1
HALTED = 2
STATE_NAMES: dict[int, str] = {IDLE: "IDLE", RECOVERING: "RECOVERING", HALTED: "HALTED"}

# GovernorState.HALT_* values (spec 001 §5 rows 1-5).
HALT_SAFETY = "SAFETY"
HALT_OVERRISK = "OVERRISK"
HALT_EXHAUSTION = "EXHAUSTION"
HALT_STAGNATION = "STAGNATION"
HALT_EXTERNAL = "EXTERNAL"


@dataclass(slots=True, frozen=True)
class Pressures:
    """Unbounded pressure accumulators (spec 001 §2), in the row order of W and V."""

    confidence: float = 0.0
    frustration: float = 0.0
    curiosity: float = 0.0
    arousal: float = 0.0
    risk: float = 0.0

    def as_tuple(self) -> tuple[float, float, float, float, float]:
        return (self.confidence, self.frustration, self.curiosity, self.arousal, self.risk)

    def plus(self, delta: Pressures) -> Pressures:
        """Integrate one appraisal delta (spec 001 §4.1: P_{t+1} = P_t + ΔP, no clipping)."""
        return Pressures(
            self.confidence + delta.confidence,
            self.frustration + delta.frustration,
            self.curiosity + delta.curiosity,
            self.arousal + delta.arousal,
            self.risk + delta.risk,
        )


@dataclass(slots=True, frozen=True)
class Budgets:
    """Behaviour budgets, each in [0, 1] (spec 001 §2), in the column order of W and V."""

    effort: float
    risk: float
    exploration: float
    persistence: float

    def as_tuple(self) -> tuple[float, float, float, float]:
        return (self.effort, self.risk, self.exploration, self.persistence)


ZERO_BUDGETS = Budgets(0.0, 0.0, 0.0, 0.0)


@dataclass(slots=True, frozen=True)
class GovernorSnapshot:
    """Everything buddy_msgs/GovernorState carries, plus what the LLM bridge's policy needs.

    Field names match the message so a node copies them one to one.
    """

    state: int
    halt_reason: str
    effort: float
    persistence: float
    risk: float
    exploration: float
    confidence: float
    frustration: float
    curiosity: float
    arousal: float
    risk_pressure: float
    step: int
    episode_id: int
    session_id: str
    # Not in the message: consecutive non-progress steps and whether they count as
    # stagnation (spec 001 §5 row 4), and the exploration budget when RECOVERING began
    # (the `locked_exploration` of policy.call_policy), None outside RECOVERING.
    non_progress_steps: int = 0
    stagnating: bool = False
    locked_exploration: float | None = None

    @property
    def state_name(self) -> str:
        return STATE_NAMES.get(self.state, str(self.state))

    @property
    def budgets(self) -> Budgets:
        return Budgets(self.effort, self.risk, self.exploration, self.persistence)

    @property
    def pressures(self) -> Pressures:
        return Pressures(self.confidence, self.frustration, self.curiosity, self.arousal,
                         self.risk_pressure)
