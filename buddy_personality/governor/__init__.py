"""Runtime governor core (spec 001, DESIGN §4.2). ROS-free: no rclpy anywhere here."""

from buddy_personality.governor.config import AppraisalConfig, GovernorConfig
from buddy_personality.governor.governor import Governor, ResetOutcome
from buddy_personality.governor.policy import CallPolicy, call_policy
from buddy_personality.governor.profiles import PROFILES, profile_config
from buddy_personality.governor.records import (
    HALT_EXHAUSTION,
    HALT_EXTERNAL,
    HALT_OVERRISK,
    HALT_SAFETY,
    HALT_STAGNATION,
    HALTED,
    IDLE,
    RECOVERING,
    Budgets,
    GovernorSnapshot,
    Pressures,
)
from buddy_personality.governor.signals import (
    InvalidSignal,
    Signal,
    SignalProblem,
    classify_signal,
    signal_problem,
)

__all__ = [
    "HALTED",
    "HALT_EXHAUSTION",
    "HALT_EXTERNAL",
    "HALT_OVERRISK",
    "HALT_SAFETY",
    "HALT_STAGNATION",
    "IDLE",
    "PROFILES",
    "RECOVERING",
    "AppraisalConfig",
    "Budgets",
    "CallPolicy",
    "Governor",
    "GovernorConfig",
    "GovernorSnapshot",
    "InvalidSignal",
    "Pressures",
    "ResetOutcome",
    "Signal",
    "SignalProblem",
    "call_policy",
    "classify_signal",
    "profile_config",
    "signal_problem",
]
