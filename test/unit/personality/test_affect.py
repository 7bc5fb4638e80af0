"""Affect dynamics: §2.4 decay, §5.3 impulses (DESIGN §6.10), range cap (DESIGN §6.3), tonic."""

from __future__ import annotations

import math

import pytest

from buddy_personality.personality.affect import (
    Impulse,
    apply_impulse,
    cap_and_clamp,
    decay_toward,
    tonic_step,
)
from buddy_personality.personality.traits import canonical_traits, derive_traits

from .conftest import T0, make_engine

TRAITS = canonical_traits()


@pytest.mark.parametrize(("start", "half_life"), [(0.6, 14.8), (-0.4, 9.7)])
def test_engine_decay_halves_displacement_in_the_spec_6_1_half_life(
        start: float, half_life: float) -> None:
    """§6.1 through the engine: positive side 14.8 s, negative side 9.7 s (no noise)."""
    engine = make_engine()
    engine.set_guardrail("context_gate", "false")
    engine.override_affect(T0, start, TRAITS.baseline_arousal)
    displacement = engine.valence - TRAITS.baseline_valence
    engine.snapshot(T0 + half_life)
    ratio = (engine.valence - TRAITS.baseline_valence) / displacement
    assert ratio == pytest.approx(0.5, abs=0.005)


def test_decay_is_tick_rate_invariant() -> None:
    """§2.4: ten 0.1 s steps equal one 1 s step."""
    lam_pos, lam_neg = 0.04675, 0.0715
    x = 0.5
    for _ in range(10):
        x = decay_toward(x, 0.1, lam_pos, lam_neg, 0.1)
    assert x == pytest.approx(decay_toward(0.5, 0.1, lam_pos, lam_neg, 1.0), abs=1e-12)


def test_impulse_moves_by_magnitude_times_positive_scale() -> None:
    """§5.3: unit direction × magnitude × P7 toward a target of higher valence."""
    v, a = apply_impulse(0.0, 0.0, Impulse(0.6, 0.8, 0.5, "t"), TRAITS)
    assert math.hypot(v, a) == pytest.approx(0.5 * TRAITS.impulse_scale_positive)
    assert (v, a) == pytest.approx((0.3, 0.4))


def test_negative_direction_impulse_is_attenuated_by_p8() -> None:
    v, a = apply_impulse(0.0, 0.0, Impulse(-0.6, -0.8, 0.5, "t"), TRAITS)
    assert math.hypot(v, a) == pytest.approx(0.5 * TRAITS.impulse_scale_negative)


@pytest.mark.parametrize("magnitude", [0.9, 2.0, 10.0])
def test_impulse_never_overshoots_its_target(magnitude: float) -> None:
    """DESIGN §6.10: the step is min(magnitude × scale, distance)."""
    assert apply_impulse(0.3, 0.3, Impulse(0.4, 0.35, magnitude, "t"), TRAITS) == (0.4, 0.35)


def test_impulse_at_target_does_nothing() -> None:
    assert apply_impulse(0.4, 0.35, Impulse(0.4, 0.3505, 0.5, "t"), TRAITS) == (0.4, 0.35)


def test_range_cap_is_radial_and_comes_before_the_bounds() -> None:
    """DESIGN §6.3: displacement capped at P14 = 0.70 along its direction, then clamped."""
    bv, ba = TRAITS.baseline_valence, TRAITS.baseline_arousal
    v, a = cap_and_clamp(bv - 1.0, ba, TRAITS)  # straight left, 1.0 away
    assert (v, a) == pytest.approx((bv - TRAITS.emotional_range, ba))
    wide = derive_traits(0.40, 1.0, 0.30, 0.35, 0.75)  # P14 = 0.93: the bounds can bite
    v, a = cap_and_clamp(bv, ba + 1.5, wide)  # straight up: cap to 0.88, then arousal_max
    assert (v, a) == pytest.approx((bv, wide.arousal_max))


def test_points_inside_range_and_bounds_are_untouched() -> None:
    assert cap_and_clamp(0.3, 0.2, TRAITS) == (0.3, 0.2)


def test_tonic_follows_a_tenth_of_the_phasic_displacement() -> None:
    """DESIGN §6.4: target = baseline + 0.10 × (phasic - baseline)."""
    tonic = 0.1
    for _ in range(20000):
        tonic = tonic_step(tonic, 0.6, 0.1, TRAITS.decay_rate_tonic, 1.0)
    assert tonic == pytest.approx(0.1 + 0.1 * 0.5, abs=1e-4)


def test_engine_tonic_moves_slowly_under_sustained_affect() -> None:
    engine = make_engine()
    engine.set_guardrail("context_gate", "false")
    engine.override_affect(T0, 0.6, 0.3, duration_s=3600)
    engine.tick(T0 + 60)
    early = engine.tonic_valence - TRAITS.baseline_valence
    assert 0.0 < early < 0.002  # 60 s of a 19-minute half-life toward a 0.05 target
    engine.tick(T0 + 3600)
    assert engine.tonic_valence - TRAITS.baseline_valence > 0.04
