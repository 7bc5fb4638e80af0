"""Permission Delegation FSM (spec 004 §4).

One machine per (delegate, scope). A delegation lends an owner's authority for one
command (its scope) to another household member; it never changes that member's role,
never bypasses the command's confirmation, and is temporary.
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import DelegationState as D
from .fsm import MachineSpec, Transition

T = Transition


@dataclass(slots=True)
class DelegationContext:
    actor_is_owner: bool = True


def confirmer_is_owner(ctx: DelegationContext) -> bool:
    """Only the delegating owner confirms, denies or revokes."""
    return ctx.actor_is_owner


DELEGATION_FSM: MachineSpec[D] = MachineSpec(
    name="delegation",
    states=D,
    initial=D.NONE,
    events=frozenset(
        {
            "delegation_intent_detected",
            "owner_confirmation",
            "owner_denial",
            "revoke_command",
            "timeout",
            "conversation_end",
            "done",
        }
    ),
    transitions=(
        T(D.NONE, "delegation_intent_detected", D.PENDING_CONFIRMATION),
        T(D.PENDING_CONFIRMATION, "owner_confirmation", D.ACTIVE, confirmer_is_owner),
        T(D.PENDING_CONFIRMATION, "owner_denial", D.NONE, confirmer_is_owner),
        T(D.PENDING_CONFIRMATION, "timeout", D.NONE),
        T(D.ACTIVE, "revoke_command", D.REVOKED, confirmer_is_owner),
        T(D.ACTIVE, "conversation_end", D.EXPIRED),
        T(
            D.ACTIVE,
            "timeout",
            D.EXPIRED,
            note="Delegate.srv duration_s: the delegation's lifetime (spec 004 §4: temporary)",
        ),
        T(D.REVOKED, "done", D.NONE),
        T(D.EXPIRED, "done", D.NONE),
    ),
    timeouts={D.PENDING_CONFIRMATION: "timeout", D.ACTIVE: "timeout"},
)
