"""Named governor profiles: balanced (DESIGN §4.2 defaults), conservative, aggressive.

Conservative and aggressive follow the EmoCore reference implementation's profile set,
except that no limit is set above 1.0: budgets are clipped to [0, 1] (spec 001 §4.3),
so a max_risk or max_exploration above 1 would silently switch a safety halt off.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from buddy_personality.governor.config import GovernorConfig

BALANCED = GovernorConfig()

# Acts less, stops earlier: smaller grants, faster decay, slower recovery, tighter limits.
CONSERVATIVE = GovernorConfig(
    profile="conservative",
    effort_scale=0.9,
    risk_scale=0.6,
    exploration_scale=0.5,
    persistence_scale=0.9,
    exploration_step_decay=0.10,
    persistence_step_decay=0.08,
    exploration_time_decay=0.004,
    persistence_time_decay=0.004,
    recovery_rate=0.15,
    recovery_delay=1.0,
    max_exploration=0.6,
    max_risk=0.8,
    exhaustion_threshold=0.1,
    stagnation_window=10,
    stagnation_effort_floor=0.2,
    stagnation_effort_scale=0.5,
    stagnation_persistence_scale=0.4,
    max_steps=60,
)

# Grants more, decays slower, recovers faster but to a lower cap, runs longer.
AGGRESSIVE = GovernorConfig(
    profile="aggressive",
    effort_scale=1.2,
    risk_scale=1.3,
    exploration_scale=1.4,
    persistence_scale=1.1,
    exploration_step_decay=0.02,
    persistence_step_decay=0.02,
    exploration_time_decay=0.001,
    persistence_time_decay=0.001,
    recovery_rate=0.5,
    recovery_delay=0.2,
    recovery_cap=0.75,
    exhaustion_threshold=0.0,
    stagnation_window=30,
    stagnation_effort_floor=0.05,
    stagnation_effort_scale=0.9,
    stagnation_persistence_scale=0.8,
    max_steps=200,
)

PROFILES: dict[str, GovernorConfig] = {
    "balanced": BALANCED,
    "conservative": CONSERVATIVE,
    "aggressive": AGGRESSIVE,
}


def profile_config(name: str, **overrides: Any) -> GovernorConfig:
    """The named profile with some fields replaced (raises ValueError if unknown/invalid)."""
    try:
        base = PROFILES[name]
    except KeyError:
        raise ValueError(
            f"unknown governor profile {name!r}; known: {', '.join(sorted(PROFILES))}"
        ) from None
    return replace(base, **overrides) if overrides else base
