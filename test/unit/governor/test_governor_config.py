"""Parameter set and profiles: every coefficient is a parameter with DESIGN §4.2's default."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from buddy_personality.governor import PROFILES, GovernorConfig, profile_config
from buddy_personality.governor.config import config_problems


def test_defaults_are_design_4_2_numbers() -> None:
    cfg = GovernorConfig()
    a = cfg.appraisal
    # Appraisal: confidence 0.3p - 0.1d; frustration (p > 0 ? 0 : 0.4d) + 0.2u;
    # curiosity 0.5n - 0.2(1 - n); arousal 0.6u; risk -0.3|p|; difficulty default 0.1.
    assert (a.progress_to_confidence, a.difficulty_to_confidence) == (0.3, 0.1)
    assert (a.difficulty_to_frustration, a.urgency_to_frustration) == (0.4, 0.2)
    assert (a.novelty_to_curiosity, a.staleness_to_curiosity) == (0.5, 0.2)
    assert (a.urgency_to_arousal, a.progress_to_risk, a.default_difficulty) == (0.6, 0.3, 0.1)
    assert cfg.w == (
        (0.6, 0.3, 0.2, 0.5),
        (0.0, 0.0, 0.0, 0.0),
        (0.2, 0.1, 0.7, 0.1),
        (0.3, 0.2, 0.1, 0.2),
        (0.1, 0.5, 0.3, 0.1),
    )
    assert cfg.v[1] == (0.7, 0.9, 0.9, 0.8)
    assert all(x == 0.0 for i, row in enumerate(cfg.v) if i != 1 for x in row)
    assert cfg.scales == (1.0, 1.0, 1.0, 1.0)
    assert (cfg.exploration_step_decay, cfg.persistence_step_decay) == (0.05, 0.05)
    assert (cfg.exploration_time_decay, cfg.persistence_time_decay) == (0.002, 0.002)
    assert cfg.inertia == 0.8
    assert (cfg.initial_effort, cfg.initial_persistence) == (1.0, 1.0)
    assert (cfg.initial_risk, cfg.initial_exploration) == (0.0, 0.0)
    assert cfg.recovering_threshold == 0.3
    assert (cfg.recovery_rate, cfg.recovery_delay, cfg.recovery_cap) == (0.25, 0.5, 1.0)
    assert (cfg.max_exploration, cfg.max_risk, cfg.exhaustion_threshold) == (1.0, 1.0, 0.05)
    assert (cfg.stagnation_window, cfg.stagnation_effort_floor) == (20, 0.1)
    assert (cfg.stagnation_effort_scale, cfg.stagnation_persistence_scale) == (0.7, 0.6)
    assert cfg.max_steps == 100


def test_balanced_profile_is_the_default() -> None:
    assert PROFILES["balanced"] == GovernorConfig()
    assert profile_config("balanced") == GovernorConfig()


def test_profiles_are_ordered_conservative_to_aggressive() -> None:
    c, b, a = PROFILES["conservative"], PROFILES["balanced"], PROFILES["aggressive"]
    for name in ("effort_scale", "risk_scale", "exploration_scale", "max_steps",
                 "stagnation_window", "recovery_rate"):
        assert getattr(c, name) < getattr(b, name) < getattr(a, name), name
    for name in ("exploration_step_decay", "persistence_step_decay", "exhaustion_threshold",
                 "recovery_delay"):
        assert getattr(c, name) > getattr(b, name) > getattr(a, name), name
    # No profile may set a limit the clipped budgets cannot reach (it would disable a halt).
    for cfg in PROFILES.values():
        assert 0.0 < cfg.max_risk <= 1.0 and 0.0 < cfg.max_exploration <= 1.0


def test_profile_config_overrides_fields_and_rejects_unknown_names() -> None:
    cfg = profile_config("conservative", max_steps=7)
    assert cfg.max_steps == 7 and cfg.profile == "conservative"
    with pytest.raises(ValueError, match="unknown governor profile"):
        profile_config("reckless")


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("inertia", 1.0, "inertia"),
        ("inertia", 0.0, "inertia"),
        ("max_risk", 1.5, "max_risk"),
        ("max_exploration", 0.0, "max_exploration"),
        ("effort_scale", -1.0, "effort_scale"),
        ("recovery_rate", math.nan, "recovery_rate"),
        ("exhaustion_threshold", -0.1, "exhaustion_threshold"),
        ("stagnation_window", 0, "stagnation_window"),
        ("max_steps", 0, "max_steps"),
        ("stabilized_threshold", 0.1, "stabilized_threshold"),
        ("w", ((0.0,) * 4,) * 4, "w must be 5x4"),
        ("v", ((-1.0, 0.0, 0.0, 0.0),) + ((0.0,) * 4,) * 4, "v entries"),
    ],
)
def test_unusable_parameters_are_refused_with_a_reason(field: str, value: object,
                                                       why: str) -> None:
    with pytest.raises(ValueError, match=why):
        replace(GovernorConfig(), **{field: value})


def test_every_profile_is_valid() -> None:
    for cfg in PROFILES.values():
        assert config_problems(cfg) == []
