"""One step of governor input (spec 001 §3) and its validation.

A signal with NaN, an infinity or a value outside its range is rejected with a reason
and never integrated (DESIGN §5 "Bad input"): an accumulator that swallowed one NaN
would be NaN for the rest of the episode.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# spec 001 §3 ranges; difficulty has the same range as novelty and urgency (DESIGN §4.2).
SIGNAL_RANGES: dict[str, tuple[float, float]] = {
    "reward": (-1.0, 1.0),
    "novelty": (0.0, 1.0),
    "urgency": (0.0, 1.0),
    "difficulty": (0.0, 1.0),
}


@dataclass(slots=True, frozen=True)
class Signal:
    """Input of one governor step: reward (= progress p), novelty, urgency, difficulty."""

    reward: float = 0.0
    novelty: float = 0.0
    urgency: float = 0.0
    difficulty: float = 0.1  # DESIGN §4.2 default


class InvalidSignal(ValueError):
    """A signal the governor refuses to integrate; `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def signal_problem(signal: Signal) -> str | None:
    """Why this signal must be rejected, or None when it is acceptable."""
    for name, (low, high) in SIGNAL_RANGES.items():
        value = getattr(signal, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"{name} is not a number"
        if math.isnan(value):
            return f"{name} is NaN"
        if math.isinf(value):
            return f"{name} is infinite"
        if not low <= value <= high:
            return f"{name}={value!r} outside [{low}, {high}]"
    return None
