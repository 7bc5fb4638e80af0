"""The record of one request to the identity core (spec 004; DESIGN §4.3).

Every input the core takes (an event, a service request, a tick) starts a fresh `Outcome`
with `begin()`; each handler fires its machines through the ledger, so every transition
taken or refused, every rejected input and the service reply land in that one outcome, and
the counters the node shows in diagnostics move with them. The ledger holds no authority:
the parent's proof (erratum 18) travels as an argument to each handler method.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container
from enum import IntEnum

from .fsm import Machine, TransitionResult
from .parent_pin import ParentProof
from .records import Outcome, Rejection, Reply

# Machines whose change must be republished on identity/state.
_IDENTITY_MACHINES = ("identity", "addressing", "age", "conversation_mode")


class Ledger:
    def __init__(self) -> None:
        self.counters: Counter[str] = Counter()
        self.out = Outcome()

    def begin(self) -> Outcome:
        self.out = Outcome()
        return self.out

    def fire(self, machine: Machine, event: str, now: float,
             ctx: object = None) -> TransitionResult:
        result = machine.fire(event, now, ctx)
        self.record(result)
        return result

    def tick(self, machine: Machine, now: float, ctx: object = None) -> TransitionResult | None:
        result = machine.tick(now, ctx)
        if result is not None:
            self.record(result)
        return result

    def record(self, result: TransitionResult) -> None:
        self.out.results.append(result)
        if not result.accepted:
            self.counters["refused_transitions"] += 1
        elif result.machine == "consent":
            self.out.consent_changed = True
        elif result.machine in _IDENTITY_MACHINES:
            self.out.identity_changed = True

    def reject(self, counter: str, reason: str) -> Outcome:
        """Bad input: refused before any FSM, with a reason, and counted."""
        self.counters[counter] += 1
        self.counters["rejected_inputs"] += 1
        self.out.rejected.append(Rejection(counter, reason))
        return self.out

    def refuse(self, cause: str, reason: str, state: int, reply: str = "") -> Outcome:
        """Refuse a service request: counted as bad input, answered with the reason."""
        self.reject(cause, reason)
        self.out.reply = Reply(False, int(state), reply or reason)
        return self.out

    def reply(self, accepted: bool, state: int, message: str = "", user_id: str = "") -> None:
        self.out.reply = Reply(accepted, int(state), message, user_id)

    def needs_parent(self, parent: ParentProof, what: str, state: int) -> bool:
        """Erratum 18: refuse (with the reason, counted) a request without parent
        authority; True when refused."""
        if parent.valid:
            self.counters["parent_requests"] += 1
            return False
        self.refuse("parent_authority_refused", f"{what} refused: {parent.reason}", state,
                    parent.reason)
        return True

    def checked_action(self, action_type: type[IntEnum], action: int, what: str,
                       state: int) -> IntEnum | None:
        """The request's action as `action_type`, or None once refused (spec 004: no
        implicit transitions)."""
        try:
            return action_type(action)
        except ValueError:
            self.refuse("unknown_kind", f"unknown {what} action {action}", state,
                        f"unknown action {action}")
            return None

    def known_users(self, household: Container[str], users: tuple[str, ...], state: int,
                    parent: ParentProof) -> bool:
        """Each named user is in the household (else refused as bad input). The first,
        the requester, may be left empty by a parent proven by PIN (CLI, page)."""
        for i, who in enumerate(users):
            if i == 0 and not who and parent.valid:
                continue
            if who not in household:
                self.refuse("unknown_user", f"unknown user {who!r}", state)
                return False
        return True
