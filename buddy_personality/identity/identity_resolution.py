"""Identity Resolution FSM (spec 004 §1).

Signals are classified into the spec's `signal_low` / `signal_medium` events by two
thresholds given as parameters. Under HC-2 (DESIGN §4.3, §6.8) only paired-device signals
(`satellite_identity`) count as signals; voice and face signals are refused before they
reach this table.
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import IdentityStateId as I
from .fsm import MachineSpec, Transition

T = Transition


@dataclass(slots=True)
class IdentityContext:
    """What the guards of this table look at."""

    candidate_known: bool  # the user named by the event is a household member


def candidate_is_household_user(ctx: IdentityContext) -> bool:
    """A claim, signal or clarification must name someone in the household."""
    return ctx.candidate_known


_DOWNGRADE = (
    "spec 004 §1 Identity Downgrade Guards: confirmed states never downgrade on timeouts "
    "or weak signals; only strong_conflict"
)

IDENTITY_FSM: MachineSpec[I] = MachineSpec(
    name="identity",
    states=I,
    initial=I.UNKNOWN,
    events=frozenset(
        {
            "signal_low",
            "signal_medium",
            "explicit_claim",
            "validation_success",
            "validation_failure",
            "timeout",
            "strong_conflict",
            "speaking_turn",
            "silence_timeout",
            "end_conversation",
            "clarification_success",
        }
    ),
    transitions=(
        # UNKNOWN
        T(I.UNKNOWN, "signal_low", I.UNKNOWN),
        T(I.UNKNOWN, "signal_medium", I.PROBABLE, candidate_is_household_user),
        T(I.UNKNOWN, "explicit_claim", I.PROBABLE, candidate_is_household_user),
        # PROBABLE
        T(I.PROBABLE, "validation_success", I.CONFIRMED),
        T(I.PROBABLE, "validation_failure", I.REJECTED),
        T(I.PROBABLE, "strong_conflict", I.AMBIGUOUS),
        T(I.PROBABLE, "timeout", I.UNKNOWN),
        # CONFIRMED
        T(I.CONFIRMED, "speaking_turn", I.CONFIRMED_ACTIVE),
        T(
            I.CONFIRMED,
            "strong_conflict",
            I.AMBIGUOUS,
            note="spec 004 §1 Downgrade Guards: downgrades from confirmed states "
            "require a strong_conflict event",
        ),
        # CONFIRMED_ACTIVE
        T(I.CONFIRMED_ACTIVE, "silence_timeout", I.CONFIRMED),
        T(I.CONFIRMED_ACTIVE, "strong_conflict", I.AMBIGUOUS),
        T(I.CONFIRMED_ACTIVE, "end_conversation", I.UNKNOWN),
        # AMBIGUOUS
        T(I.AMBIGUOUS, "clarification_success", I.CONFIRMED, candidate_is_household_user),
        T(I.AMBIGUOUS, "timeout", I.UNKNOWN),
        # REJECTED
        T(I.REJECTED, "timeout", I.UNKNOWN),
    ),
    timeouts={
        I.PROBABLE: "timeout",
        I.AMBIGUOUS: "timeout",
        I.REJECTED: "timeout",
        I.CONFIRMED_ACTIVE: "silence_timeout",
    },
    refusal_notes={
        (I.CONFIRMED, "timeout"): _DOWNGRADE,
        (I.CONFIRMED_ACTIVE, "timeout"): _DOWNGRADE,
        (I.CONFIRMED, "signal_low"): _DOWNGRADE,
        (I.CONFIRMED_ACTIVE, "signal_low"): _DOWNGRADE,
        (I.CONFIRMED, "validation_failure"): _DOWNGRADE,
        (I.CONFIRMED_ACTIVE, "validation_failure"): _DOWNGRADE,
    },
)
