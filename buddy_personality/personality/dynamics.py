"""Affect dynamics: the phasic affect point and the tonic layer over time (spec 002 §2,
§5.3, §6, DESIGN errata 3, 4, 10).

`AffectDynamics` owns valence, arousal and the tonic layer; `step` decays them toward an
attractor (§2.4 step 1, asymmetric rates §6.1), applies the §9.1 recovery and the §8.3
memory bias; `noise_and_bounds` adds the seeded §7.2 noise and applies the range cap
(erratum 3) and the bounds (§2.4 step 5). No clock: the engine passes the elapsed time.
"""

from __future__ import annotations

import math

import numpy as np

from buddy_personality.personality.affect import (
    TONIC_COUPLING,
    Impulse,
    apply_impulse,
    cap_and_clamp,
)
from buddy_personality.personality.traits import TraitParameters

NOISE_BLOCK = 8192  # seeded normal draws made at once (far cheaper than one per tick)


class AffectDynamics:
    """Phasic affect and tonic layer, both starting at the baseline (§3.3)."""

    __slots__ = ("_k1_neg", "_k1_pos", "_k1_tonic", "_lam_neg", "_lam_pos", "_noise",
                 "_noise_i", "_np_rng", "_range2", "arousal", "ba", "bv", "tonic_arousal",
                 "tonic_valence", "traits", "valence")

    def __init__(self, traits: TraitParameters, noise_seed: int) -> None:
        t = self.traits = traits
        self._np_rng = np.random.default_rng(noise_seed)
        self._noise: list[float] = []
        self._noise_i = 0
        self.bv = t.baseline_valence
        self.ba = t.baseline_arousal
        self.valence = self.bv
        self.arousal = self.ba
        self.tonic_valence = self.bv
        self.tonic_arousal = self.ba
        self._lam_pos = t.decay_rate_phasic * t.decay_multiplier_positive
        self._lam_neg = t.decay_rate_phasic * t.decay_multiplier_negative
        # Exp factors for the common dt = 1 s tick, computed once (hot path).
        self._k1_pos = 1.0 - math.exp(-self._lam_pos)
        self._k1_neg = 1.0 - math.exp(-self._lam_neg)
        self._k1_tonic = 1.0 - math.exp(-t.decay_rate_tonic)
        self._range2 = t.emotional_range * t.emotional_range

    def impulse(self, imp: Impulse) -> None:
        """§5.3 with erratum 10 (never past the target), then range cap and bounds."""
        v, a = apply_impulse(self.valence, self.arousal, imp, self.traits)
        self.valence, self.arousal = cap_and_clamp(v, a, self.traits)

    def place(self, valence: float, arousal: float) -> None:
        """Put affect at a point (a dev override, a resumed state), capped and clamped."""
        self.valence, self.arousal = cap_and_clamp(valence, arousal, self.traits)

    def pull_to_baseline(self, share_kept: float) -> None:
        """Keep `share_kept` of the displacement from baseline (the spent budget, §4.1)."""
        self.valence = self.bv + (self.valence - self.bv) * share_kept
        self.arousal = self.ba + (self.arousal - self.ba) * share_kept

    def step(self, dt: float, held: bool, tv: float, ta: float, recovery_lambda: float,
             bias_v: float, bias_a: float) -> None:
        """`dt` seconds of decay toward (tv, ta); a held affect (dev override) stays still
        and only the tonic layer follows it."""
        bv = self.bv
        ba = self.ba
        v = self.valence
        a = self.arousal
        k_tonic = (self._k1_tonic if dt == 1.0
                   else 1.0 - math.exp(-self.traits.decay_rate_tonic * dt))
        if not held:
            # spec 002 §2.4 step 1: asymmetric decay (§6.1) toward the attractor: the
            # baseline, or while drowsy / asleep the sleep rule's target (DESIGN §6.11)
            if dt == 1.0:
                v += (tv - v) * (self._k1_pos if v >= tv else self._k1_neg)
                a += (ta - a) * (self._k1_pos if a >= ta else self._k1_neg)
            else:
                v += (tv - v) * (1.0 - math.exp(-(self._lam_pos if v >= tv
                                                   else self._lam_neg) * dt))
                a += (ta - a) * (1.0 - math.exp(-(self._lam_pos if a >= ta
                                                   else self._lam_neg) * dt))
            # spec 002 §9.1: recovery toward baseline while a duration cap is enforced
            if recovery_lambda > 0.0:
                k = math.exp(-recovery_lambda * dt)
                v = bv + (v - bv) * k
                a = ba + (a - ba) * k
            # spec 002 §8.3: memory bias, from cached strength sums
            if bias_v != 0.0 or bias_a != 0.0:
                v += bias_v * dt
                a += bias_a * dt
            self.valence = v
            self.arousal = a
        # DESIGN §6.4 tonic layer
        self.tonic_valence += (bv + TONIC_COUPLING * (v - bv) - self.tonic_valence) * k_tonic
        self.tonic_arousal += (ba + TONIC_COUPLING * (a - ba) - self.tonic_arousal) * k_tonic

    def noise_and_bounds(self, dt: float, noisy: bool) -> None:
        """spec 002 §2.4 steps 4-5 with DESIGN §6.3: noise, radial range cap, bounds."""
        t = self.traits
        v = self.valence
        a = self.arousal
        if dt > 0.0 and t.noise_amplitude > 0.0 and noisy:
            s = t.noise_amplitude if dt == 1.0 else t.noise_amplitude * math.sqrt(dt)
            i = self._noise_i
            if i + 2 > len(self._noise):
                self._noise = self._np_rng.standard_normal(NOISE_BLOCK).tolist()
                i = 0
            v += self._noise[i] * s
            a += self._noise[i + 1] * s
            self._noise_i = i + 2
        dv = v - self.bv
        da = a - self.ba
        d2 = dv * dv + da * da
        if d2 > self._range2:
            k = t.emotional_range / math.sqrt(d2)
            v = self.bv + dv * k
            a = self.ba + da * k
        if v > t.valence_max:
            v = t.valence_max
        elif v < t.valence_min:
            v = t.valence_min
        if a > t.arousal_max:
            a = t.arousal_max
        elif a < t.arousal_min:
            a = t.arousal_min
        self.valence = v
        self.arousal = a
