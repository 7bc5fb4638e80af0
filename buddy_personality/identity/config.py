"""Parameters of the identity core (the `identity` section of config/robot.yaml)."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from .age_context import ADULT_FROM_YEARS, TEEN_FROM_YEARS
from .enums import SCOPE_MEMORY


@dataclass(slots=True, frozen=True)
class IdentityConfig:
    # spec 004 §1: what signal_low / signal_medium mean for a paired-device confidence.
    # Below signal_low a signal is noise and ignored; from signal_medium it makes PROBABLE.
    signal_low: float = 0.3
    signal_medium: float = 0.6
    # spec 004 §1.1: inferred_signal(high)
    addressing_inferred_high: float = 0.8
    # spec 004 §1 timeouts
    probable_timeout_s: float = 30.0
    ambiguous_timeout_s: float = 30.0
    rejected_timeout_s: float = 10.0
    silence_timeout_s: float = 60.0
    # confirmation windows of the command, profile, delegation and consent FSMs
    command_confirmation_timeout_s: float = 30.0
    profile_confirmation_timeout_s: float = 60.0
    delegation_confirmation_timeout_s: float = 60.0
    max_delegation_s: float = 3600.0
    consent_timeout_s: float = 60.0
    # spec 004 §1.2 age groups
    teen_from_years: int = TEEN_FROM_YEARS
    adult_from_years: int = ADULT_FROM_YEARS
    consent_scopes: tuple[str, ...] = (SCOPE_MEMORY,)

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, float) and not math.isfinite(v):
                raise ValueError(f"{f.name} must be finite")
            if f.name.endswith("_s") and v <= 0.0:
                raise ValueError(f"{f.name} must be > 0")
        for name in ("signal_low", "signal_medium", "addressing_inferred_high"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1]")
        if self.signal_low > self.signal_medium:
            raise ValueError("signal_low must not exceed signal_medium")
        if not 0 < self.teen_from_years < self.adult_from_years:
            raise ValueError("need 0 < teen_from_years < adult_from_years")
        if not self.consent_scopes:
            raise ValueError("consent_scopes must not be empty")
