"""Axis positions to trait parameters P1-P20 (spec 002 §1, §3.2)."""

from __future__ import annotations

import math
from dataclasses import dataclass

# spec 002 §1.1 canonical axis positions (PE-4: fixed for every child and session)
CANONICAL_AXES: dict[str, float] = {
    "energy": 0.40,
    "reactivity": 0.50,
    "initiative": 0.30,
    "vulnerability": 0.35,
    "predictability": 0.75,
}


def sigmoid_map(x: float, k: float = 5.0, x0: float = 0.5) -> float:
    """spec 002 §3.1: squashes an axis so extreme positions do not caricature."""
    return 1.0 / (1.0 + math.exp(-k * (x - x0)))


@dataclass(slots=True, frozen=True)
class TraitParameters:
    """Static personality parameters (spec 002 §2.3, §3.2), set once at startup."""

    baseline_valence: float  # P1
    baseline_arousal: float  # P2
    decay_rate_phasic: float  # P3 /s
    decay_multiplier_positive: float  # P4
    decay_multiplier_negative: float  # P5
    decay_rate_tonic: float  # P6 /s
    impulse_scale_positive: float  # P7
    impulse_scale_negative: float  # P8
    valence_min: float  # P9
    valence_max: float  # P10
    arousal_min: float  # P11
    arousal_max: float  # P12
    noise_amplitude: float  # P13
    emotional_range: float  # P14
    negative_impulse_attenuation: float  # P15
    empathy_gain: float  # P16
    timing_jitter_s: float  # P17
    variant_probability: float  # P18
    initiative_cooldown_s: float  # P19
    idle_impulse_magnitude: float  # P20


def _check_axis(name: str, value: float) -> float:
    value = float(value)
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"axis {name} must be a finite number in [0, 1], got {value!r}")
    return value


def derive_traits(
    energy: float,
    reactivity: float,
    initiative: float,
    vulnerability: float,
    predictability: float,
) -> TraitParameters:
    """Apply the §3.2 formulas. Raises ValueError for an axis outside [0, 1]."""
    e = _check_axis("energy", energy)
    r = _check_axis("reactivity", reactivity)
    si = _check_axis("initiative", initiative)
    v = _check_axis("vulnerability", vulnerability)
    p = _check_axis("predictability", predictability)
    p7 = 0.50 + 1.00 * sigmoid_map(r, 5.0, 0.5)
    return TraitParameters(
        baseline_valence=0.10,  # P1 constant (caretaker warmth)
        baseline_arousal=0.50 * (e - 0.50),  # P2
        decay_rate_phasic=0.03 + 0.05 * sigmoid_map(r, 5.0, 0.5),  # P3
        # P4/P5: DESIGN §6.5 and the §3.2 note: constants whatever the axes.
        decay_multiplier_positive=0.85,
        decay_multiplier_negative=1.30,
        decay_rate_tonic=0.0003 + 0.0006 * sigmoid_map(r, 5.0, 0.5),  # P6
        impulse_scale_positive=p7,  # P7
        impulse_scale_negative=p7 * (0.30 + 0.70 * v),  # P8
        valence_min=-0.50 - 0.50 * v,  # P9
        valence_max=0.95,  # P10 constant
        arousal_min=-0.90,  # P11 constant
        arousal_max=0.50 + 0.40 * e,  # P12
        noise_amplitude=0.05 * (1.0 - p),  # P13
        emotional_range=0.40 + 0.60 * sigmoid_map(r, 4.0, 0.5),  # P14
        negative_impulse_attenuation=0.30 + 0.70 * v,  # P15 (folded into P8, §13.2)
        empathy_gain=0.20 + 0.60 * v,  # P16
        timing_jitter_s=60.0 * (1.0 - p),  # P17
        variant_probability=1.0 - p,  # P18
        initiative_cooldown_s=1800.0 / (0.10 + si),  # P19
        idle_impulse_magnitude=0.10 + 0.30 * si,  # P20
    )


def canonical_traits() -> TraitParameters:
    """The traits of the fixed Buddy personality (spec 002 §1.1)."""
    return derive_traits(**CANONICAL_AXES)
