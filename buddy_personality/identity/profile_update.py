"""Pending Profile Update FSM (spec 004, "Pending Profile Update FSM").

One machine per target user, so at most one update per user is pending (Invariants).
The core validates the request (authority, age mutation guards, value) while in
PENDING_VALIDATION and fires `authority_verified` or `authority_denied`; the store is
written only while the machine is in APPROVED, then `applied` returns it to NONE.
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import ProfileUpdateState as P
from .fsm import MachineSpec, Transition

T = Transition


@dataclass(slots=True)
class ProfileContext:
    confirmation_required: bool = False
    actor_is_owner: bool = True  # the confirming user may confirm for this profile


def confirmation_required(ctx: ProfileContext) -> bool:
    return ctx.confirmation_required


def no_confirmation(ctx: ProfileContext) -> bool:
    return not ctx.confirmation_required


def confirmer_is_owner(ctx: ProfileContext) -> bool:
    """owner_confirmation_*: only the profile's owner (or a child's parent) answers."""
    return ctx.actor_is_owner


PROFILE_UPDATE_FSM: MachineSpec[P] = MachineSpec(
    name="profile_update",
    states=P,
    initial=P.NONE,
    events=frozenset(
        {
            "profile_update_requested",
            "authority_verified",
            "authority_denied",
            "owner_confirmation_received",
            "owner_confirmation_denied",
            "timeout",
            "context_changed",
            "applied",
            "done",
        }
    ),
    transitions=(
        T(P.NONE, "profile_update_requested", P.PENDING_VALIDATION),
        T(
            P.PENDING_VALIDATION,
            "authority_verified",
            P.PENDING_CONFIRMATION,
            confirmation_required,
        ),
        T(P.PENDING_VALIDATION, "authority_verified", P.APPROVED, no_confirmation),
        T(P.PENDING_VALIDATION, "authority_denied", P.REJECTED),
        T(P.PENDING_CONFIRMATION, "owner_confirmation_received", P.APPROVED, confirmer_is_owner),
        T(P.PENDING_CONFIRMATION, "owner_confirmation_denied", P.REJECTED, confirmer_is_owner),
        T(P.PENDING_CONFIRMATION, "timeout", P.CANCELLED),
        T(
            P.PENDING_CONFIRMATION,
            "context_changed",
            P.CANCELLED,
            note="spec 004 declares context_changed for this FSM without a line; "
            "RequestProfileUpdate.CANCEL maps to it, by analogy with the Command FSM",
        ),
        T(P.APPROVED, "applied", P.NONE),
        T(P.REJECTED, "done", P.NONE),
        T(P.CANCELLED, "done", P.NONE),
    ),
    timeouts={P.PENDING_CONFIRMATION: "timeout"},
)
