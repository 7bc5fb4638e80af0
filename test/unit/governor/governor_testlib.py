"""Helpers for the governor tests: run a signal script at given times."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from buddy_personality.governor import Governor, GovernorConfig, GovernorSnapshot, Signal


def run_script(
    signals: Sequence[Signal] | Callable[[int], Signal],
    period: float,
    steps: int | None = None,
    config: GovernorConfig | None = None,
    governor: Governor | None = None,
    start: float = 0.0,
    stop_when_halted: bool = True,
) -> list[GovernorSnapshot]:
    """Step a governor once every `period` seconds; snapshot k-1 is the state after step k.

    `signals` is a list (one per step) or a function of the 1-based step number.
    """
    gov = governor if governor is not None else Governor(config, now=start)
    count = steps if steps is not None else len(signals)  # type: ignore[arg-type]
    out: list[GovernorSnapshot] = []
    for k in range(1, count + 1):
        signal = signals(k) if callable(signals) else signals[k - 1]
        out.append(gov.step(signal, start + k * period))
        if stop_when_halted and out[-1].halt_reason:
            break
    return out


def first_step(snaps: Sequence[GovernorSnapshot], state: int) -> int | None:
    """1-based step at which `state` is first seen, or None."""
    for k, s in enumerate(snaps, start=1):
        if s.state == state:
            return k
    return None
