"""Conversation Mode FSM (spec 004 §2).

The core keeps the set of participants present and turns detector events and explicit
statements into this table's events; the table itself is the spec's.
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import ConversationMode as M
from .fsm import MachineSpec, Transition

T = Transition


@dataclass(slots=True)
class ModeContext:
    remaining: int  # participants still present after the event


def last_participant_left(ctx: ModeContext) -> bool:
    """participant_left(last): nobody else is present any more.

    Spec 004 §2 writes "(last)" on the SHARED_VERIFIED row only; it is applied to
    SHARED_UNVERIFIED too, because going PRIVATE while someone is still present would
    offer private information to them (Summary: ambiguity always resolves to safety).
    """
    return ctx.remaining == 0


MODE_FSM: MachineSpec[M] = MachineSpec(
    name="conversation_mode",
    states=M,
    initial=M.PRIVATE,
    events=frozenset(
        {
            "participant_detected_known",
            "participant_detected_unknown",
            "participant_left",
            "statement_someone_arrived",
            "statement_alone",
            "identity_confirmed",
            "identity_unknown",
        }
    ),
    transitions=(
        T(M.PRIVATE, "participant_detected_known", M.SHARED_VERIFIED),
        T(M.PRIVATE, "participant_detected_unknown", M.SHARED_UNVERIFIED),
        T(
            M.PRIVATE,
            "statement_someone_arrived",
            M.SHARED_UNVERIFIED,
            note="spec 004 §2 event explicit_statement('someone arrived'): an unidentified arrival",
        ),
        T(M.SHARED_UNVERIFIED, "identity_confirmed", M.SHARED_VERIFIED),
        T(M.SHARED_UNVERIFIED, "participant_left", M.PRIVATE, last_participant_left),
        T(
            M.SHARED_UNVERIFIED,
            "statement_alone",
            M.PRIVATE,
            note="spec 004 §2 event explicit_statement('we are alone'): everyone left",
        ),
        T(M.SHARED_VERIFIED, "participant_left", M.PRIVATE, last_participant_left),
        T(M.SHARED_VERIFIED, "identity_unknown", M.SHARED_UNVERIFIED),
        T(
            M.SHARED_VERIFIED,
            "statement_alone",
            M.PRIVATE,
            note="spec 004 §2 event explicit_statement('we are alone'): everyone left",
        ),
    ),
)
