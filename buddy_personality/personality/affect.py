"""Affect-vector dynamics (spec 002 §2.4, §5.3, §6, §8.3; DESIGN §6.3, §6.4, §6.10).

Pure functions on plain floats so the engine's hot path stays allocation-light and the
rules are testable one by one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from buddy_personality.personality.traits import TraitParameters

MEMORY_WEIGHT: float = 0.02  # spec 002 §2.4 / §8.3: very weak per-second pull
MEMORY_ACTIVE_THRESHOLD: float = 0.05  # spec 002 §8.3: below = effectively forgotten
TONIC_COUPLING: float = 0.10  # spec 002 §6.3 / DESIGN §6.4
IMPULSE_EPSILON: float = 0.001  # spec 002 §5.3: "already at target"


@dataclass(slots=True, frozen=True)
class Impulse:
    """A discrete perturbation toward a VA target (spec 002 §2.3)."""

    target_valence: float
    target_arousal: float
    magnitude: float
    source: str


def decay_lambdas(trait: TraitParameters) -> tuple[float, float]:
    """(λ above baseline, λ below baseline) of the phasic layer (spec 002 §6.1)."""
    return (
        trait.decay_rate_phasic * trait.decay_multiplier_positive,
        trait.decay_rate_phasic * trait.decay_multiplier_negative,
    )


def half_life_s(decay_rate: float) -> float:
    return math.log(2.0) / decay_rate


def decay_toward(x: float, baseline: float, lam_above: float, lam_below: float,
                 dt: float) -> float:
    """spec 002 §2.4 step 1: tick-rate invariant exponential decay, asymmetric by side."""
    lam = lam_above if x >= baseline else lam_below
    return x + (baseline - x) * (1.0 - math.exp(-lam * dt))


def apply_impulse(valence: float, arousal: float, impulse: Impulse,
                  trait: TraitParameters) -> tuple[float, float]:
    """spec 002 §5.3, with DESIGN §6.10: the step is min(magnitude × scale, distance)."""
    dv = impulse.target_valence - valence
    da = impulse.target_arousal - arousal
    norm = math.sqrt(dv * dv + da * da)
    if norm < IMPULSE_EPSILON:
        return valence, arousal
    if impulse.target_valence < valence:
        scale = trait.impulse_scale_negative  # P8: negative direction attenuated
    else:
        scale = trait.impulse_scale_positive  # P7
    step = impulse.magnitude * scale
    if step >= norm:
        return impulse.target_valence, impulse.target_arousal
    k = step / norm
    return valence + dv * k, arousal + da * k


def cap_and_clamp(valence: float, arousal: float,
                  trait: TraitParameters) -> tuple[float, float]:
    """DESIGN §6.3: radial cap of the displacement at P14, then the bounds (§2.4 step 5)."""
    bv = trait.baseline_valence
    ba = trait.baseline_arousal
    dv = valence - bv
    da = arousal - ba
    d2 = dv * dv + da * da
    rng = trait.emotional_range
    if d2 > rng * rng:
        k = rng / math.sqrt(d2)
        valence = bv + dv * k
        arousal = ba + da * k
    valence = min(trait.valence_max, max(trait.valence_min, valence))
    arousal = min(trait.arousal_max, max(trait.arousal_min, arousal))
    return valence, arousal


def tonic_step(tonic: float, phasic: float, baseline: float, decay_rate_tonic: float,
               dt: float) -> float:
    """DESIGN §6.4: tonic += (target - tonic)(1 - e^(-P6 dt)), target = b + 0.10 (phasic - b)."""
    target = baseline + TONIC_COUPLING * (phasic - baseline)
    return tonic + (target - tonic) * (1.0 - math.exp(-decay_rate_tonic * dt))
