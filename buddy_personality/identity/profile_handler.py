"""identity/request_profile_update: the Pending Profile Update FSM (spec 004; DESIGN §4.3).

One machine per target user (so at most one pending update per user). A request is
validated in PENDING_VALIDATION (authority, spec 004 §1.2 age mutation guards, the value),
may wait for the owner's confirmation, and is written to the household file only in
APPROVED. The parent's proof (erratum 18) is an argument of each step that decides on
authority; what a written change means for the speaker (age, addressing) is the identity
core's, told through `on_applied`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from .config import IdentityConfig
from .enums import ROLE_PARENT, AgeGroup, ProfileAction, ProfileUpdateState
from .fsm import Machine
from .ledger import Ledger
from .parent_pin import ParentProof
from .profile_update import PROFILE_UPDATE_FSM, ProfileContext
from .profiles import AGE_FIELDS, ProfileStore, validate_field
from .records import Reply
from .speaker import Speaker

P = ProfileUpdateState


@dataclass(slots=True)
class PendingUpdate:
    requester: str
    target: str
    field: str
    value: object
    by_pin: bool = False


class ProfileHandler:
    def __init__(self, ledger: Ledger, store: ProfileStore, config: IdentityConfig,
                 speaker: Speaker) -> None:
        self._ledger = ledger
        self._store = store
        self._config = config
        self._speaker = speaker
        self.machines: dict[str, Machine[ProfileUpdateState]] = {}
        self.pending: dict[str, PendingUpdate] = {}
        self.today: Callable[[], dt.date | None] = lambda: None  # the trusted local date, if any
        self.on_applied: Callable[[PendingUpdate, float], None] = lambda _p, _now: None

    def state(self, target_user_id: str) -> ProfileUpdateState:
        m = self.machines.get(target_user_id)
        return m.state if m else P.NONE

    def machine(self, target: str, now: float) -> Machine[ProfileUpdateState]:
        m = self.machines.get(target)
        if m is None or m.state == P.NONE:
            m = Machine(PROFILE_UPDATE_FSM,
                        {P.PENDING_CONFIRMATION: self._config.profile_confirmation_timeout_s},
                        key=target, now=now)
            self.machines[target] = m
        return m

    # -- the service ------------------------------------------------------------------

    def request(self, action: int, requester_id: str, target_user_id: str, field: str,
                value: str, now: float, parent: ParentProof) -> bool:
        """False when refused before any machine moved (the cross-FSM rules need not run)."""
        led, out = self._ledger, self._ledger.out
        current = self.state(target_user_id)
        if led.needs_parent(parent, f"profile update of {target_user_id!r}", current):
            return False
        act = led.checked_action(ProfileAction, action, "profile", current)
        if act is None or not led.known_users(self._store, (requester_id, target_user_id),
                                              current, parent):
            return False
        if act == ProfileAction.REQUEST:
            self.propose(requester_id, target_user_id, field, value, now, parent)
            return True
        m = self.machines.get(target_user_id)
        if m is None:
            out.reply = Reply(False, int(current), "no pending update")
            return False
        pending = self.pending.get(target_user_id)
        if act == ProfileAction.CANCEL:
            r = led.fire(m, "context_changed", now)
        else:
            event = ("owner_confirmation_received" if act == ProfileAction.CONFIRM
                     else "owner_confirmation_denied")
            ctx = ProfileContext(actor_is_owner=pending is not None
                                 and self._may_confirm(requester_id, pending, parent))
            r = led.fire(m, event, now, ctx)
        if not r.accepted:
            out.reply = Reply(False, int(m.state), r.reason)
            return False
        reached = m.state
        message = self.finish(target_user_id, now)
        out.reply = Reply(True, int(reached), message or reached.name.lower())
        return True

    def propose(self, requester: str, target: str, field: str, value: str, now: float,
                parent: ParentProof) -> None:
        """profile_update_requested, validated at once (also how a spoken addressing
        answer is stored: "ask once and store the answer", spec 004 §1.1)."""
        led, out = self._ledger, self._ledger.out
        m = self.machine(target, now)
        r = led.fire(m, "profile_update_requested", now)
        if not r.accepted:
            # spec 004 invariant: only one pending profile update per user.
            out.reply = Reply(False, int(m.state), f"an update of {target!r} is already pending")
            return
        parsed, why, needs_confirmation = self._validate(requester, target, field, value,
                                                         parent)
        if parsed is None:
            led.fire(m, "authority_denied", now)
            out.reply = Reply(True, int(P.REJECTED), why)
            self.finish(target, now)
            return
        self.pending[target] = PendingUpdate(requester, target, field, parsed, parent.valid)
        led.fire(m, "authority_verified", now,
                 ProfileContext(confirmation_required=needs_confirmation))
        reached = m.state
        message = self.finish(target, now)
        if reached == P.PENDING_CONFIRMATION:
            message = f"please confirm: set {field} of {target} to {value.strip()}"
        out.reply = Reply(True, int(reached), message or reached.name.lower())

    def _validate(self, requester: str, target: str, field: str, value: str,
                  parent: ParentProof) -> tuple[object, str, bool]:
        """PENDING_VALIDATION: authority, age mutation guards and the value itself."""
        parsed, why = validate_field(field, value, self.today())
        if parsed is None:
            return None, why, False
        if parent.valid:
            # Erratum 18: a parent proven by PIN may change any profile; a second step
            # (CONFIRM) still applies for role, birthdate and other members' profiles.
            return parsed, "", field in ("role", "birthdate") or requester != target
        if self._speaker.confirmed_user() != requester:
            return None, f"identity of {requester!r} is not confirmed", False
        profile = self._store.get(requester)
        assert profile is not None
        age = self._speaker.age_group
        parent_adult = profile.role == ROLE_PARENT and age == AgeGroup.ADULT
        if field in AGE_FIELDS and requester == target and age in (
                AgeGroup.CHILD, AgeGroup.TEEN, AgeGroup.UNKNOWN):
            # spec 004 §1.2 Age Mutation Guards (unknown age behaves as CHILD).
            return None, f"a {age.name} cannot change their own {field}", False
        if field == "role" and not parent_adult:
            return None, "only a parent can change a role", False
        if requester != target and not parent_adult:
            return None, "only a parent can change another member's profile", False
        return parsed, "", field in ("role", "birthdate") or requester != target

    def _may_confirm(self, actor: str, pending: PendingUpdate, parent: ParentProof) -> bool:
        """The owner confirms: the target for a parent's profile, a parent for a child's."""
        if parent.valid:
            return True  # erratum 18: the PIN is the parent's authority
        if self._speaker.confirmed_user() != actor:
            return False
        target = self._store.get(pending.target)
        actor_profile = self._store.get(actor)
        if target is None or actor_profile is None:
            return False
        if target.role == ROLE_PARENT:
            return actor == pending.target
        return actor_profile.role == ROLE_PARENT and self._speaker.age_group == AgeGroup.ADULT

    def finish(self, target: str, now: float) -> str:
        """Leave APPROVED (after writing), REJECTED or CANCELLED; return a message."""
        led = self._ledger
        m = self.machines[target]
        message = ""
        if m.state == P.APPROVED:
            pending = self.pending.pop(target)
            try:
                # spec 004 invariant: profile data is modified only in APPROVED.
                self._store.apply(pending.target, pending.field, pending.value)
                message = f"{pending.field} of {pending.target} updated"
                led.counters["profile_updates_applied"] += 1
            except OSError as exc:
                message = f"could not write the household file; nothing changed: {exc}"
                led.counters["profile_write_errors"] += 1
            led.fire(m, "applied", now)
            self.on_applied(pending, now)
        elif m.state in (P.REJECTED, P.CANCELLED):
            self.pending.pop(target, None)
            led.fire(m, "done", now)
        return message

    def run_approved(self, target: str, write: Callable[[], None],
                     now: float) -> tuple[bool, str]:
        """A change a parent typed with the PIN and the household handler already checked
        (issue 30; a bad value is refused before any FSM, as bad input): the FSM at once,
        PENDING_VALIDATION -> APPROVED without a second confirmation, since the form the
        parent submitted is that confirmation; `write` runs only in APPROVED (spec 004
        invariant) and leaves the file whole or untouched."""
        led = self._ledger
        m = self.machine(target, now)
        if not led.fire(m, "profile_update_requested", now).accepted:
            return False, f"an update of {target!r} is already pending"
        led.fire(m, "authority_verified", now, ProfileContext(confirmation_required=False))
        try:
            write()
            ok, message = True, ""
            led.counters["profile_updates_applied"] += 1
        except OSError as exc:
            ok, message = False, f"could not write the household file; nothing changed: {exc}"
            led.counters["profile_write_errors"] += 1
        led.fire(m, "applied", now)
        return ok, message

    def cancel(self, confirmed: str, now: float) -> None:
        """context_changed for updates whose requester is no longer the confirmed speaker
        (spec 004 Cross-FSM Rules); one asked with the parent PIN keeps its own timeout."""
        for target, m in list(self.machines.items()):
            pending = self.pending.get(target)
            if pending is not None and pending.by_pin:
                continue
            if m.state == P.PENDING_CONFIRMATION and (
                    pending is None or pending.requester != confirmed):
                self._ledger.fire(m, "context_changed", now)
                self.finish(target, now)

    def tick(self, now: float) -> None:
        for target, m in list(self.machines.items()):
            if self._ledger.tick(m, now) is not None:
                self.finish(target, now)
