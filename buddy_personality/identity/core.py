"""IdentityCore: owns every FSM of spec 004 and applies the cross-FSM rules.

Each public method is one input (an event message, a service request, a conversation
event, a tick) and returns an `Outcome`: the transitions taken or refused, the effects
(birthday greeting, memory reset), a service reply, and whether identity/state or
consent/state must be republished. The node translates messages to these calls and
publishes what comes back; it holds no rule of the spec.

The core itself resolves who is talking (identity, addressing, age context, conversation
mode: spec 004 §1-§2) and applies the cross-FSM rules; the parent's requests are handled
by one handler per concern, each taking the parent's proof as an argument (erratum 18):
commands (command_handler.py, §3), profile updates (profile_handler.py), delegation
(delegation_handler.py, §4), consent (consent_handler.py, §5) and the household set-up
(household.py, issue 30). Every handler records into the one `Ledger` of the request.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace

from .addressing import ADDRESSING_FSM
from .age_context import AgeContext, age_group_of
from .command_handler import CommandHandler
from .commands import DEFAULT_COMMANDS, CommandPolicy, Requester
from .config import IdentityConfig
from .consent_handler import ConsentHandler
from .conversation_mode import ModeContext
from .delegation_handler import DelegationHandler
from .enums import (
    CONFIRMED_STATES,
    ROLE_PARENT,
    AddressingState,
    AgeGroup,
    CommandState,
    ConsentStateId,
    ConversationMode,
    DelegationState,
    IdentityStateId,
    ProfileUpdateState,
)
from .fsm import Machine
from .household import REMOVE_EFFECT, HouseholdHandler
from .ledger import Ledger
from .parent_pin import NO_TOKEN, ParentProof
from .profile_handler import PendingUpdate, ProfileHandler
from .profiles import ProfileStore
from .records import (
    BirthdayGreeting,
    ConsentInput,
    ConsentSnapshot,
    ForgetUser,
    IdentityInput,
    IdentitySnapshot,
    Outcome,
)
from .speaking import Speaking

_I = IdentityStateId


def is_birthday(birthdate: dt.date, today: dt.date) -> bool:
    """Month/day match; a 29 February birthday is greeted on 28 February in common years."""
    if (birthdate.month, birthdate.day) == (today.month, today.day):
        return True
    leap = today.year % 4 == 0 and (today.year % 100 != 0 or today.year % 400 == 0)
    return (
        (birthdate.month, birthdate.day) == (2, 29)
        and not leap
        and (today.month, today.day) == (2, 28)
    )


class IdentityCore:
    """Spec 004 as one deterministic object. Never reads a clock: every call takes `now`."""

    def __init__(
        self,
        store: ProfileStore,
        config: IdentityConfig | None = None,
        commands: Mapping[str, CommandPolicy] | None = None,
        now: float = 0.0,
        greeted: Iterable[tuple[str, dt.date]] = (),
    ) -> None:
        """`greeted`: (user, date) greetings already emitted (kept across restarts)."""
        self.store = store
        self.config = cfg = config or IdentityConfig()
        self._ledger = Ledger()
        self._who = Speaking(self._ledger, store, cfg, now)
        self._who.store_preference = self._store_preference
        self._today: dt.date | None = None
        self._date_trusted = False
        self._greeted: set[tuple[str, dt.date]] = set(greeted)
        policies = commands or DEFAULT_COMMANDS
        self._commands = CommandHandler(self._ledger, store, cfg, policies, self, now)
        self._profiles = ProfileHandler(self._ledger, store, cfg, self)
        self._profiles.today = self.trusted_today
        self._profiles.on_applied = self._after_profile_write
        self._delegations = DelegationHandler(self._ledger, store, cfg, policies, self)
        self._consents = ConsentHandler(self._ledger, store, cfg, self)
        self._household = HouseholdHandler(self._ledger, store, self._profiles)

    # ================================================================ read side

    @property
    def counters(self) -> Counter[str]:
        return self._ledger.counters

    @property
    def commands(self) -> dict[str, CommandPolicy]:
        return self._commands.commands

    @property
    def last_execution(self) -> tuple[str, bool, str] | None:
        return self._commands.last_execution

    @property
    def identity_state(self) -> IdentityStateId:
        return self._who.identity.state

    @property
    def identified_user(self) -> str:
        return self._who.user

    @property
    def conversation_mode(self) -> ConversationMode:
        return self._who.mode.state

    @property
    def age_group(self) -> AgeGroup:
        return self._who.age.state

    @property
    def greeted(self) -> frozenset[tuple[str, dt.date]]:
        """Birthday greetings emitted on the current date (to persist across restarts)."""
        return frozenset(self._greeted)

    @property
    def command_state(self) -> CommandState:
        return self._commands.state

    def trusted_today(self) -> dt.date | None:
        """The local date when it is trusted (ages and birthdays need it), else None."""
        return self._today if self._date_trusted else None

    def confirmed_user(self) -> str:
        return self._who.confirmed_user()

    def profile_update_state(self, target_user_id: str) -> ProfileUpdateState:
        return self._profiles.state(target_user_id)

    def delegation_state(self, delegate_id: str, scope: str) -> DelegationState:
        return self._delegations.state(delegate_id, scope)

    def consent_state(self, user_id: str, scope: str) -> ConsentStateId:
        return self._consents.state(user_id, scope)

    def identity_snapshot(self) -> IdentitySnapshot:
        return self._who.identity_snapshot()

    def consent_snapshot(self) -> list[ConsentSnapshot]:
        return self._consents.snapshot()

    # ================================================================ identity events

    def handle_identity_event(self, ev: IdentityInput, now: float) -> Outcome:
        """One IdentityEvent: identity resolution, addressing or conversation mode."""
        out = self._ledger.begin()
        before = self._context_key()
        if self._who.handle_event(ev, now):
            self._after(before, now)
        return out

    # ================================================================ cross-FSM rules

    def _context_key(self) -> tuple[str, ConversationMode]:
        return self.confirmed_user(), self._who.mode.state

    def _after(self, before: tuple[str, ConversationMode], now: float) -> None:
        """Cross-FSM rules, applied after every input (spec 004 Cross-FSM Rules)."""
        confirmed, mode = self._context_key()
        if confirmed != before[0]:
            self._on_identity_context_change(confirmed, now)
        if confirmed != before[0] or mode != before[1]:
            # A pending confirmation was asked in another context: cancel it (§3).
            self._commands.cancel(now, keep_pin_requests=True)
            self._profiles.cancel(confirmed, now)
        self._maybe_birthday()

    def _on_identity_context_change(self, confirmed: str, now: float) -> None:
        # The anonymous addressing belongs to nobody in particular; never carry it over.
        self._who.forget_anonymous()
        # Age context follows the confirmed identity (§1.2); unknown behaves as CHILD.
        profile = self.store.get(confirmed) if confirmed else None
        derived = self._derived_age(confirmed)
        if profile is not None and derived != AgeGroup.UNKNOWN:
            self._ledger.fire(self._who.age, "birthdate_known", now, AgeContext(derived))
        elif self._who.age.state != AgeGroup.UNKNOWN:
            self._ledger.fire(self._who.age, "confidence_drop", now)
        # A stored addressing preference is the user's explicit answer (§1.1).
        if profile is not None and profile.addressing:
            m = self._who.addressing.setdefault(
                confirmed, Machine(ADDRESSING_FSM, key=confirmed, now=now)
            )
            if m.state != AddressingState.CONFIRMED:
                if self._ledger.fire(m, "explicit_preference", now).accepted:
                    self._who.addressing_value[confirmed] = profile.addressing
            elif confirmed not in self._who.addressing_value:
                self._who.addressing_value[confirmed] = profile.addressing
        self._ledger.out.identity_changed = True

    def _derived_age(self, user_id: str) -> AgeGroup:
        profile = self.store.get(user_id) if user_id else None
        today = self.trusted_today()
        if profile is None or today is None:
            return AgeGroup.UNKNOWN
        return age_group_of(
            profile.birthdate,
            today,
            self.config.teen_from_years,
            self.config.adult_from_years,
        )

    def _maybe_birthday(self) -> None:
        """spec 004 §6: every condition is re-evaluated here, just before emitting."""
        user = self.confirmed_user()
        today = self._today
        if not user or today is None or not self._date_trusted:
            return
        if self._who.identity.state not in CONFIRMED_STATES:  # never while ambiguous (§6 guards)
            return
        profile = self.store.get(user)
        if (
            profile is None
            or profile.birthdate is None
            or not is_birthday(profile.birthdate, today)
        ):
            return
        if (user, today) in self._greeted:
            return
        if self._who.mode.state != ConversationMode.PRIVATE and self._who.age.state in (
            AgeGroup.CHILD,
            AgeGroup.TEEN,
            AgeGroup.UNKNOWN,
        ):
            self.counters["birthday_withheld_shared"] += 1
            return
        self._greeted.add((user, today))
        self._ledger.out.effects.append(BirthdayGreeting(user, today))

    def _after_profile_write(self, pending: PendingUpdate, now: float) -> None:
        """A written profile change of the person talking with Buddy moves their age
        context (spec 004 §1.2 birthdate_updated) and addressing (§1.1)."""
        if pending.target != self.confirmed_user():
            return
        if pending.field == "birthdate":
            derived = self._derived_age(pending.target)
            if derived != AgeGroup.UNKNOWN:
                self._ledger.fire(self._who.age, "birthdate_updated", now, AgeContext(derived))
        elif pending.field == "addressing" and pending.value:
            key = pending.target
            m = self._who.addressing.setdefault(key, Machine(ADDRESSING_FSM, key=key, now=now))
            if (
                m.state != AddressingState.CONFIRMED
                or self._who.addressing_value.get(key) != pending.value
            ):
                self._ledger.fire(m, "explicit_preference", now)
            self._who.addressing_value[key] = str(pending.value)
        self._ledger.out.identity_changed = True

    def _forget_member(self, user_id: str) -> None:
        """A child removed from the household (issue 30): nothing of them stays in the
        machines (consent, delegation, addressing, a pending update)."""
        if self._consents.forget_user(user_id):
            self._ledger.out.consent_changed = True
        self._delegations.forget_user(user_id)
        self._profiles.machines.pop(user_id, None)
        self._profiles.pending.pop(user_id, None)
        self._who.addressing.pop(user_id, None)
        self._who.addressing_value.pop(user_id, None)
        self._who.addressing_asked.discard(user_id)
        self._ledger.out.identity_changed = True

    # ================================================================ conversation

    def conversation_started(self, now: float) -> Outcome:
        """conversation/events STARTED: nothing in spec 004 moves; republish for late joiners."""
        out = self._ledger.begin()
        self._maybe_birthday()
        return out

    def conversation_ended(self, now: float) -> Outcome:
        """conversation/events ENDED: end_conversation / conversation_end everywhere."""
        led = self._ledger
        out = led.begin()
        before = self._context_key()
        if self._who.identity.state == _I.CONFIRMED_ACTIVE:
            led.fire(self._who.identity, "end_conversation", now)
            self._who.user = ""
        self._delegations.conversation_end(now)
        self._consents.conversation_end(now)
        if self._who.participants or self._who.mode.state != ConversationMode.PRIVATE:
            self._who.participants.clear()
            out.identity_changed = True
            if self._who.mode.state != ConversationMode.PRIVATE:
                led.fire(self._who.mode, "participant_left", now, ModeContext(remaining=0))
        self._who.forget_anonymous()
        self._after(before, now)
        self._commands.cancel(now, keep_pin_requests=False)
        return out

    # ================================================================ time

    def tick(self, now: float, today: dt.date | None = None, date_trusted: bool = True) -> Outcome:
        """Fire due timeouts and follow the local date.

        `today=None` leaves the date as it was; a date with `date_trusted=False` (clock not
        synchronised) makes ages and birthdays unknown until a trusted date arrives.
        """
        led = self._ledger
        out = led.begin()
        before = self._context_key()
        if today is not None and (today != self._today or date_trusted != self._date_trusted):
            self._today = today
            self._date_trusted = date_trusted
            self._greeted = {(u, d) for (u, d) in self._greeted if d == today}
            derived = self._derived_age(self.confirmed_user())
            if derived != AgeGroup.UNKNOWN:
                led.fire(self._who.age, "date_tick", now, AgeContext(derived))
            elif self._who.age.state != AgeGroup.UNKNOWN:
                led.fire(self._who.age, "confidence_drop", now)
        if led.tick(self._who.identity, now) is not None and self._who.identity.state in (
            _I.UNKNOWN,
            _I.AMBIGUOUS,
            _I.REJECTED,
        ):
            self._who.user = ""
        self._commands.tick(now)
        self._profiles.tick(now)
        self._delegations.tick(now)
        self._consents.tick(now)
        self._after(before, now)
        return out

    # ================================================================ parent requests

    def _store_preference(self, user_id: str, value: str, now: float) -> None:
        """A spoken addressing answer goes through the Pending Profile Update FSM
        ("ask once and store the answer", spec 004 §1.1); the speaker has no PIN."""
        self._profiles.propose(user_id, user_id, "addressing", value, now, NO_TOKEN)

    def requester(self, user_id: str, parent: ParentProof = NO_TOKEN) -> Requester:
        """What authorization sees of `user_id` (spec 004 §3, Cross-FSM Rules)."""
        profile = self.store.get(user_id)
        who = Requester(
            user_id=user_id,
            identity_state=self._who.identity.state,
            identified_user=self._who.user,
            role=profile.role if profile else "",
            age_group=self._who.age.state if user_id == self.confirmed_user() else AgeGroup.UNKNOWN,
            delegated_scopes=self._delegations.active_scopes(user_id),
            granted_consents=self._consents.granted(user_id),
        )
        if parent.valid:
            # Erratum 18: the PIN is the parent's authority, whoever is talking to Buddy.
            who = replace(who, identity_state=_I.CONFIRMED, identified_user=user_id,
                          role=ROLE_PARENT, age_group=AgeGroup.ADULT)
        return who

    def execute_command(self, action: int, command: str, user_id: str, args: str, now: float,
                        parent: ParentProof = NO_TOKEN) -> Outcome:
        """identity/execute_command: the Command Execution FSM (spec 004 §3). Every
        action needs a parent token (erratum 18)."""
        out = self._ledger.begin()
        self._commands.execute(action, command, user_id, args, now, parent)
        return out

    def command_execution_result(self, command: str, success: bool, detail: str = "") -> None:
        """execution_success / execution_failure of an EXECUTED command's side effect."""
        self._commands.execution_result(command, success, detail)

    def request_profile_update(self, action: int, requester_id: str, target_user_id: str,
                               field: str, value: str, now: float,
                               parent: ParentProof = NO_TOKEN) -> Outcome:
        """identity/request_profile_update: the Pending Profile Update FSM. Every action
        needs a parent token (erratum 18: profile changes such as a birthdate)."""
        out = self._ledger.begin()
        before = self._context_key()
        if self._profiles.request(action, requester_id, target_user_id, field, value, now,
                                  parent):
            self._after(before, now)
        return out

    def delegate(self, action: int, owner_id: str, delegate_id: str, scope: str,
                 duration_s: float, now: float, parent: ParentProof = NO_TOKEN) -> Outcome:
        """identity/delegate: the Permission Delegation FSM (spec 004 §4). Every action
        needs a parent token (erratum 18)."""
        out = self._ledger.begin()
        self._delegations.delegate(action, owner_id, delegate_id, scope, duration_s, now,
                                   parent)
        return out

    def request_consent(self, action: int, user_id: str, scope: str, granted_by: str,
                        now: float, parent: ParentProof = NO_TOKEN) -> Outcome:
        """identity/request_consent: the Consent FSM (spec 004 §5). GRANT and REVOKE need a
        parent token (erratum 18); asking and declining are the safe side and need none."""
        out = self._ledger.begin()
        self._consents.request(action, user_id, scope, granted_by, now, parent)
        return out

    def handle_consent_event(self, ev: ConsentInput, now: float) -> Outcome:
        """One ConsentEvent from consent/events."""
        out = self._ledger.begin()
        self._consents.handle_event(ev, now)
        return out

    # ================================================================ household (issue 30)

    def add_child(self, name: str, birthdate: str, addressing: str, now: float,
                  parent: ParentProof = NO_TOKEN) -> Outcome:
        """identity/manage_household ADD_CHILD: a parent adds a child (erratum 18)."""
        out = self._ledger.begin()
        self._household.add(name, birthdate, addressing, now, parent, self.trusted_today())
        return out

    def edit_child(self, user_id: str, name: str, birthdate: str, addressing: str,
                   now: float, parent: ParentProof = NO_TOKEN) -> Outcome:
        """identity/manage_household EDIT_CHILD: empty fields keep their value."""
        out = self._ledger.begin()
        before = self._context_key()
        for change in self._household.edit(user_id, name, birthdate, addressing, now, parent,
                                           self.trusted_today()):
            self._after_profile_write(change, now)
        self._after(before, now)
        return out

    def remove_child(self, user_id: str, now: float,
                     parent: ParentProof = NO_TOKEN) -> Outcome:
        """identity/manage_household REMOVE_CHILD, first step: checked, then the effect
        that forgets the child's memories; nothing changes here. The node reports the
        answer with `child_forgotten`."""
        out = self._ledger.begin()
        if self._household.may_remove(user_id, parent) is not None:
            out.effects.append(ForgetUser(REMOVE_EFFECT, "", user_id))
        return out

    def child_forgotten(self, user_id: str, forgotten: bool, detail: str, now: float,
                        parent: ParentProof = NO_TOKEN) -> Outcome:
        """The answer to a removal's forget_user: only once the memories are gone does the
        profile go, with everything the machines held about the child."""
        led = self._ledger
        out = led.begin()
        before = self._context_key()
        if self._household.may_remove(user_id, parent) is None:
            return out
        if not forgotten:
            led.reply(False, ProfileUpdateState.REJECTED,
                      f"nothing changed: Buddy could not forget what it remembers ({detail})",
                      user_id)
            return out
        if self._household.remove(user_id, now):
            self._forget_member(user_id)
            if self._who.user == user_id:
                self._who.user = ""
            self._after(before, now)
        return out
