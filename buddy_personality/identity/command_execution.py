"""Command Execution FSM (spec 004 §3).

`command_detected` starts a command; the core then decides authorization (role, age
group, identity state, delegation, consent: see commands.py) and fires
`authorization_granted` or `authorization_denied`. EXECUTED, DENIED and CANCELLED are
reported and then left with `done`. The spec declares `confirmation_required`,
`execution_success` and `execution_failure` as events without transition lines: the
first is the `requires_confirmation` guard below, the other two are the outcome of the
side effect (reported by the node after EXECUTED) and move no state.
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import CommandState as C
from .fsm import MachineSpec, Transition

T = Transition


@dataclass(slots=True)
class CommandContext:
    requires_confirmation: bool = False
    actor_is_requester: bool = True  # the confirming user is the one who asked


def is_immediate(ctx: CommandContext) -> bool:
    return not ctx.requires_confirmation


def requires_confirmation(ctx: CommandContext) -> bool:
    return ctx.requires_confirmation


def confirmer_is_requester(ctx: CommandContext) -> bool:
    """Only the user who asked may confirm their command (nobody confirms for them)."""
    return ctx.actor_is_requester


COMMAND_FSM: MachineSpec[C] = MachineSpec(
    name="command",
    states=C,
    initial=C.IDLE,
    events=frozenset(
        {
            "command_detected",
            "authorization_granted",
            "authorization_denied",
            "confirmation_required",
            "confirmation_received",
            "confirmation_timeout",
            "execution_success",
            "execution_failure",
            "context_changed",
            "done",
        }
    ),
    transitions=(
        T(C.IDLE, "command_detected", C.PENDING_AUTHORIZATION),
        T(C.PENDING_AUTHORIZATION, "authorization_denied", C.DENIED),
        T(C.PENDING_AUTHORIZATION, "authorization_granted", C.EXECUTED, is_immediate),
        T(
            C.PENDING_AUTHORIZATION,
            "authorization_granted",
            C.PENDING_CONFIRMATION,
            requires_confirmation,
        ),
        T(C.PENDING_CONFIRMATION, "confirmation_received", C.EXECUTED, confirmer_is_requester),
        T(C.PENDING_CONFIRMATION, "confirmation_timeout", C.CANCELLED),
        T(C.PENDING_CONFIRMATION, "context_changed", C.CANCELLED),
        T(C.EXECUTED, "done", C.IDLE),
        T(C.DENIED, "done", C.IDLE),
        T(C.CANCELLED, "done", C.IDLE),
    ),
    timeouts={C.PENDING_CONFIRMATION: "confirmation_timeout"},
)
