"""Checks on the personality engine's inbound values (DESIGN §5: bad input is refused
with a reason and counted, never a crash)."""

from __future__ import annotations

import math

STRING_MAX = 256


class InputRejected(ValueError):
    """An inbound value the engine refuses; `cause` is a short key for counting."""

    def __init__(self, cause: str, message: str) -> None:
        super().__init__(message)
        self.cause = cause


def bump(counter: dict[str, int], key: str) -> None:
    counter[key] = counter.get(key, 0) + 1


def check_now(now: float) -> float:
    now = float(now)
    if not math.isfinite(now):
        raise InputRejected("not_finite", f"time is not finite: {now!r}")
    return now


def finite(name: str, value: float, lo: float, hi: float) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError) as exc:
        raise InputRejected("not_a_number", f"{name} is not a number: {value!r}") from exc
    if not math.isfinite(value):
        raise InputRejected("not_finite", f"{name} is not finite: {value!r}")
    if not lo <= value <= hi:
        raise InputRejected("out_of_range", f"{name}={value} outside [{lo}, {hi}]")
    return value


def text(name: str, value: str) -> str:
    if not isinstance(value, str):
        raise InputRejected("not_a_string", f"{name} is not a string")
    return value[:STRING_MAX]
