"""Consent FSM (spec 004 §5), one machine per (user, scope).

EXPIRED and REVOKED stay visible on consent/state until the next request for the same
user and scope, which first fires `done` (back to NONE) and then `consent_request`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import ConsentStateId as C
from .fsm import MachineSpec, Transition

T = Transition


@dataclass(slots=True)
class ConsentContext:
    actor_has_authority: bool = False


def actor_may_decide(ctx: ConsentContext) -> bool:
    """Grant and revoke come from a confirmed adult: the user, or a parent for a minor."""
    return ctx.actor_has_authority


CONSENT_FSM: MachineSpec[C] = MachineSpec(
    name="consent",
    states=C,
    initial=C.NONE,
    events=frozenset(
        {
            "consent_request",
            "explicit_grant",
            "explicit_denial",
            "timeout",
            "conversation_end",
            "revoke",
            "done",
        }
    ),
    transitions=(
        T(C.NONE, "consent_request", C.PENDING),
        T(C.PENDING, "explicit_grant", C.GRANTED, actor_may_decide),
        T(C.PENDING, "explicit_denial", C.NONE),
        T(C.PENDING, "timeout", C.NONE),
        T(C.GRANTED, "conversation_end", C.EXPIRED),
        T(C.GRANTED, "revoke", C.REVOKED, actor_may_decide),
        T(C.REVOKED, "done", C.NONE),
        T(C.EXPIRED, "done", C.NONE),
    ),
    timeouts={C.PENDING: "timeout"},
)
