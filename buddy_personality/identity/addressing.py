"""Addressing Resolution sub-state (spec 004 §1.1).

How Buddy addresses the user. The guards of §1.1 that are not transitions (ask at most
once, neutral fallback, never block, never exposed to another user) are enforced by the
core around this table.
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import AddressingState as A
from .fsm import MachineSpec, Transition

T = Transition


@dataclass(slots=True)
class AddressingContext:
    confidence: float  # inferred_signal confidence
    high_threshold: float  # parameter: what "inferred_signal(high)" means


def inferred_signal_is_high(ctx: AddressingContext) -> bool:
    """Spec 004 §1.1: only inferred_signal(high) moves UNKNOWN to INFERRED."""
    return ctx.confidence >= ctx.high_threshold


ADDRESSING_FSM: MachineSpec[A] = MachineSpec(
    name="addressing",
    states=A,
    initial=A.UNKNOWN,
    events=frozenset({"explicit_preference", "inferred_signal", "conflicting_signal"}),
    transitions=(
        T(A.UNKNOWN, "inferred_signal", A.INFERRED, inferred_signal_is_high),
        T(A.UNKNOWN, "explicit_preference", A.CONFIRMED),
        T(A.INFERRED, "explicit_preference", A.CONFIRMED),
        T(A.INFERRED, "conflicting_signal", A.UNKNOWN),
        # "(sticky) remains CONFIRMED unless user changes preference": the user may restate
        # or change the preference; nothing else leaves CONFIRMED.
        T(A.CONFIRMED, "explicit_preference", A.CONFIRMED),
    ),
    refusal_notes={
        (A.CONFIRMED, "conflicting_signal"): "spec 004 §1.1: CONFIRMED is sticky",
        (A.CONFIRMED, "inferred_signal"): "spec 004 §1.1: CONFIRMED overrides inferred",
    },
)
