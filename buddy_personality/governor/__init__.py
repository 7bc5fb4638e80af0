"""Runtime governor core (spec 001, DESIGN §4.2). ROS-free: no rclpy anywhere here.

Names load on first use (PEP 562, lazy_exports.py), so a node that needs one module
(e.g. `governor.policy`) does not load the whole core (erratum 22).
"""

from typing import TYPE_CHECKING

from buddy_personality.lazy_exports import lazy_exports

if TYPE_CHECKING:
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

_G = "buddy_personality.governor."
_EXPORTS = {
    **dict.fromkeys(("AppraisalConfig", "GovernorConfig"), _G + "config"),
    **dict.fromkeys(("Governor", "ResetOutcome"), _G + "governor"),
    **dict.fromkeys(("CallPolicy", "call_policy"), _G + "policy"),
    **dict.fromkeys(("PROFILES", "profile_config"), _G + "profiles"),
    **dict.fromkeys(("HALT_EXHAUSTION", "HALT_EXTERNAL", "HALT_OVERRISK", "HALT_SAFETY",
                     "HALT_STAGNATION", "HALTED", "IDLE", "RECOVERING", "Budgets",
                     "GovernorSnapshot", "Pressures"), _G + "records"),
    **dict.fromkeys(("InvalidSignal", "Signal", "SignalProblem", "classify_signal",
                     "signal_problem"), _G + "signals"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

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
