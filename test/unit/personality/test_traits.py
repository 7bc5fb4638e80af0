"""spec 002 §3.2 parameter table, §6.1-§6.2 half-lives."""

from __future__ import annotations

import math

import pytest

from buddy_personality.personality.affect import decay_lambdas, half_life_s
from buddy_personality.personality.traits import canonical_traits, derive_traits

# (attribute, value as printed in the §3.2 table). The table rounds to its last digit, so
# each derived value must be within half a unit of that digit.
TABLE_3_2 = [
    ("baseline_valence", 0.10, 0.005),  # P1
    ("baseline_arousal", -0.05, 0.005),  # P2
    ("decay_rate_phasic", 0.055, 0.0005),  # P3
    ("decay_multiplier_positive", 0.85, 0.005),  # P4 (override, DESIGN §6.5)
    ("decay_multiplier_negative", 1.30, 0.005),  # P5
    ("decay_rate_tonic", 0.0006, 0.00005),  # P6
    ("impulse_scale_positive", 1.00, 0.005),  # P7
    ("impulse_scale_negative", 0.55, 0.0051),  # P8 (0.545)
    ("valence_min", -0.68, 0.0051),  # P9 (-0.675 printed as -0.68)
    ("valence_max", 0.95, 0.005),  # P10
    ("arousal_min", -0.90, 0.005),  # P11
    ("arousal_max", 0.66, 0.005),  # P12
    ("noise_amplitude", 0.0125, 0.00005),  # P13
    ("emotional_range", 0.70, 0.005),  # P14
    ("negative_impulse_attenuation", 0.55, 0.0051),  # P15 (0.545)
    ("empathy_gain", 0.41, 0.005),  # P16
    ("timing_jitter_s", 15.0, 0.05),  # P17
    ("variant_probability", 0.25, 0.005),  # P18
    ("initiative_cooldown_s", 4500.0, 0.5),  # P19
    ("idle_impulse_magnitude", 0.19, 0.005),  # P20
]


@pytest.mark.parametrize(("name", "value", "tolerance"), TABLE_3_2)
def test_spec_3_2_value_at_canonical_axes(name: str, value: float, tolerance: float) -> None:
    assert getattr(canonical_traits(), name) == pytest.approx(value, abs=tolerance)


def test_traits_are_a_frozen_record_with_exactly_the_spec_names() -> None:
    traits = canonical_traits()
    assert [n for n, _, _ in TABLE_3_2] == list(traits.__dataclass_fields__)
    with pytest.raises(AttributeError):
        traits.baseline_valence = 0.0  # type: ignore[misc]


@pytest.mark.parametrize("reactivity", [0.0, 0.2, 0.9, 1.0])
def test_decay_multipliers_are_constants_whatever_the_axes(reactivity: float) -> None:
    """DESIGN §6.5 / §3.2 note: 0.85 and 1.30, not the Reactivity formula."""
    traits = derive_traits(0.4, reactivity, 0.3, 0.35, 0.75)
    assert (traits.decay_multiplier_positive, traits.decay_multiplier_negative) == (0.85, 1.30)


def test_axes_move_the_parameters_they_route_to() -> None:
    """spec 002 §1.2 routing: energy raises baseline arousal and arousal_max, etc."""
    low = derive_traits(0.2, 0.5, 0.3, 0.35, 0.75)
    high = derive_traits(0.8, 0.5, 0.3, 0.35, 0.75)
    assert high.baseline_arousal > low.baseline_arousal
    assert high.arousal_max > low.arousal_max
    assert derive_traits(0.4, 0.5, 0.3, 0.9, 0.75).valence_min < canonical_traits().valence_min
    assert derive_traits(0.4, 0.5, 0.3, 0.35, 1.0).noise_amplitude == 0.0


@pytest.mark.parametrize("bad", [-0.01, 1.01, math.nan, math.inf])
def test_axes_outside_unit_interval_are_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="energy"):
        derive_traits(bad, 0.5, 0.3, 0.35, 0.75)


def test_spec_6_1_phasic_half_lives() -> None:
    """§6.1: effective λ 0.047 / 0.072, half-lives 14.8 s / 9.7 s."""
    lam_pos, lam_neg = decay_lambdas(canonical_traits())
    assert lam_pos == pytest.approx(0.047, abs=0.0005)
    assert lam_neg == pytest.approx(0.072, abs=0.0005)
    assert half_life_s(lam_pos) == pytest.approx(14.8, abs=0.05)
    assert half_life_s(lam_neg) == pytest.approx(9.7, abs=0.05)


def test_spec_6_2_tonic_half_life() -> None:
    """§6.2: tonic λ 0.0006 /s, half-life 19.3 min."""
    assert half_life_s(canonical_traits().decay_rate_tonic) / 60.0 == pytest.approx(19.3, abs=0.05)
