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


@dataclass(slots=True, frozen=True)
class SignalProblem:
    """Why a signal is refused: a short cause to count by, and a readable reason."""

    cause: str  # not_a_number, nan, infinite, out_of_range, bad_time, session_mismatch
    reason: str


class InvalidSignal(ValueError):
    """A signal the governor refuses to integrate; `reason` says why, `cause` counts it."""

    def __init__(self, reason: str, cause: str = "invalid") -> None:
        super().__init__(reason)
        self.reason = reason
        self.cause = cause


def classify_signal(signal: Signal) -> SignalProblem | None:
    """The first problem of this signal, or None when it is acceptable."""
    for name, (low, high) in SIGNAL_RANGES.items():
        value = getattr(signal, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return SignalProblem("not_a_number", f"{name} is not a number")
        if math.isnan(value):
            return SignalProblem("nan", f"{name} is NaN")
        if math.isinf(value):
            return SignalProblem("infinite", f"{name} is infinite")
        if not low <= value <= high:
            return SignalProblem("out_of_range", f"{name}={value!r} outside [{low}, {high}]")
    return None


def signal_problem(signal: Signal) -> str | None:
    """Why this signal must be rejected, or None when it is acceptable."""
    problem = classify_signal(signal)
    return problem.reason if problem is not None else None
