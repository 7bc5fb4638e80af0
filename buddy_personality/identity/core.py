"""IdentityCore: owns every FSM of spec 004 and applies the cross-FSM rules.

Each public method is one input (an event message, a service request, a conversation
event, a tick) and returns an `Outcome`: the transitions taken or refused, the effects
(birthday greeting, memory reset), a service reply, and whether identity/state or
consent/state must be republished. The node translates messages to these calls and
publishes what comes back; it holds no rule of the spec.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import IntEnum

from .addressing import ADDRESSING_FSM, AddressingContext
from .age_context import AGE_FSM, AgeContext, age_group_of
from .command_execution import COMMAND_FSM, CommandContext
from .commands import DEFAULT_COMMANDS, CommandPolicy, Requester, authorize, parse_args
from .config import IdentityConfig
from .consent import CONSENT_FSM, ConsentContext
from .conversation_mode import MODE_FSM, ModeContext
from .delegation import DELEGATION_FSM, DelegationContext
from .enums import (
    CONFIRMED_STATES,
    ROLE_PARENT,
    AddressingState,
    AgeGroup,
    CommandAction,
    CommandState,
    ConsentAction,
    ConsentEventKind,
    ConsentStateId,
    ConversationMode,
    DelegateAction,
    DelegationState,
    IdentityEventKind,
    IdentityStateId,
    ProfileAction,
    ProfileUpdateState,
)
from .fsm import Machine, TransitionResult, refused
from .identity_resolution import IDENTITY_FSM, IdentityContext
from .parent_pin import NO_TOKEN, ParentProof
from .profile_update import PROFILE_UPDATE_FSM, ProfileContext
from .profiles import AGE_FIELDS, ProfileStore, validate_field
from .records import (
    BirthdayGreeting,
    ConsentInput,
    ConsentSnapshot,
    ForgetUser,
    IdentityInput,
    IdentitySnapshot,
    LowerLimits,
    Outcome,
    Rejection,
    Reply,
    ResetMemory,
)

_I = IdentityStateId
_HC2 = "HC-2: no biometric identification; voice and face signals are refused (DESIGN §4.3)"
_ANON = ""  # addressing key while nobody is identified


@dataclass(slots=True)
class _PendingCommand:
    policy: CommandPolicy
    requester: str
    args: str
    by_pin: bool = False  # asked with a parent token (erratum 18), not by the speaker
    value: object = None  # the checked argument (commands.parse_args)


# Erratum 18: consent changes over consent/events (a topic anyone on the graph can publish
# and read, so it cannot carry a token) are refused; they come through
# identity/request_consent with a parent token.
_TOPIC_CONSENT_REFUSED = (
    "consent grants and revocations need the parent PIN: use identity/request_consent "
    "with a parent token (consent/events cannot carry one)"
)


@dataclass(slots=True)
class _PendingUpdate:
    requester: str
    target: str
    field: str
    value: object
    by_pin: bool = False


@dataclass(slots=True)
class _DelegationInfo:
    owner: str
    delegate: str
    scope: str


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
        self.commands: dict[str, CommandPolicy] = dict(commands or DEFAULT_COMMANDS)
        self.counters: Counter[str] = Counter()
        self.last_execution: tuple[str, bool, str] | None = None  # (command, success, detail)
        self._identity = Machine(
            IDENTITY_FSM,
            {
                _I.PROBABLE: cfg.probable_timeout_s,
                _I.AMBIGUOUS: cfg.ambiguous_timeout_s,
                _I.REJECTED: cfg.rejected_timeout_s,
                _I.CONFIRMED_ACTIVE: cfg.silence_timeout_s,
            },
            now=now,
        )
        self._user = ""  # the user the identity FSM is about (PROBABLE and later)
        self._addressing: dict[str, Machine[AddressingState]] = {}
        self._addressing_value: dict[str, str] = {}
        self._addressing_asked: set[str] = set()
        self._age = Machine(AGE_FSM, now=now)
        self._mode = Machine(MODE_FSM, now=now)
        self._participants: dict[str, bool] = {}  # participant id -> identity known
        self._command = Machine(
            COMMAND_FSM,
            {CommandState.PENDING_CONFIRMATION: cfg.command_confirmation_timeout_s},
            now=now,
        )
        self._pending_command: _PendingCommand | None = None
        self._profile_fsms: dict[str, Machine[ProfileUpdateState]] = {}
        self._pending_updates: dict[str, _PendingUpdate] = {}
        self._delegations: dict[tuple[str, str], Machine[DelegationState]] = {}
        self._delegation_info: dict[tuple[str, str], _DelegationInfo] = {}
        self._consents: dict[tuple[str, str], Machine[ConsentStateId]] = {}
        self._today: dt.date | None = None
        self._date_trusted = False
        self._greeted: set[tuple[str, dt.date]] = set(greeted)
        self._out = Outcome()

    # ================================================================ bookkeeping

    def _begin(self) -> Outcome:
        self._out = Outcome()
        return self._out

    def _fire(
        self, machine: Machine, event: str, now: float, ctx: object = None
    ) -> TransitionResult:
        result = machine.fire(event, now, ctx)
        self._record(result)
        return result

    def _record(self, result: TransitionResult) -> None:
        self._out.results.append(result)
        if not result.accepted:
            self.counters["refused_transitions"] += 1
        elif result.machine == "consent":
            self._out.consent_changed = True
        elif result.machine in ("identity", "addressing", "age", "conversation_mode"):
            self._out.identity_changed = True

    def _reject(self, counter: str, reason: str) -> Outcome:
        """Bad input: refused before any FSM, with a reason, and counted."""
        self.counters[counter] += 1
        self.counters["rejected_inputs"] += 1
        self._out.rejected.append(Rejection(counter, reason))
        return self._out

    def _refuse(self, cause: str, reason: str, state: int, reply: str = "") -> Outcome:
        """Refuse a service request: counted as bad input, answered with the reason."""
        self._reject(cause, reason)
        self._out.reply = Reply(False, int(state), reply or reason)
        return self._out

    def _needs_parent(self, parent: ParentProof, what: str, state: int) -> bool:
        """Erratum 18: refuse (with the reason, counted) a request without parent authority.
        Returns True when refused. The proof itself travels as an argument to every step
        that decides on authority; nothing of it is kept between requests."""
        if parent.valid:
            self.counters["parent_requests"] += 1
            return False
        self._refuse("parent_authority_refused", f"{what} refused: {parent.reason}", state,
                     parent.reason)
        return True

    def _checked_request(
        self, action_type: type[IntEnum], action: int, what: str, users: tuple[str, ...],
        state: int, parent: ParentProof = NO_TOKEN,
    ) -> IntEnum | None:
        """The request's action as `action_type`, or None once refused: an unknown action
        or an unknown household user is bad input (spec 004: no implicit transitions)."""
        try:
            act = action_type(action)
        except ValueError:
            self._refuse("unknown_kind", f"unknown {what} action {action}", state,
                         f"unknown action {action}")
            return None
        for i, who in enumerate(users):
            if i == 0 and not who and parent.valid:
                continue  # the requester, proven by PIN, need not name themself (CLI, page)
            if who not in self.store:
                self._refuse("unknown_user", f"unknown user {who!r}", state)
                return None
        return act

    def _tick_machine(
        self, machine: Machine, now: float, ctx: object = None
    ) -> TransitionResult | None:
        result = machine.tick(now, ctx)
        if result is not None:
            self._record(result)
        return result

    # ================================================================ read side

    @property
    def identity_state(self) -> IdentityStateId:
        return self._identity.state

    @property
    def identified_user(self) -> str:
        return self._user

    @property
    def conversation_mode(self) -> ConversationMode:
        return self._mode.state

    @property
    def age_group(self) -> AgeGroup:
        return self._age.state

    @property
    def greeted(self) -> frozenset[tuple[str, dt.date]]:
        """Birthday greetings emitted on the current date (to persist across restarts)."""
        return frozenset(self._greeted)

    @property
    def command_state(self) -> CommandState:
        return self._command.state

    def _confirmed_user(self) -> str:
        return self._user if self._identity.state in CONFIRMED_STATES else ""

    def profile_update_state(self, target_user_id: str) -> ProfileUpdateState:
        m = self._profile_fsms.get(target_user_id)
        return m.state if m else ProfileUpdateState.NONE

    def delegation_state(self, delegate_id: str, scope: str) -> DelegationState:
        m = self._delegations.get((delegate_id, scope))
        return m.state if m else DelegationState.NONE

    def consent_state(self, user_id: str, scope: str) -> ConsentStateId:
        m = self._consents.get((user_id, scope))
        return m.state if m else ConsentStateId.NONE

    def _addressing_key(self) -> str:
        return self._confirmed_user() or _ANON

    def identity_snapshot(self) -> IdentitySnapshot:
        state = self._identity.state
        shown_user = self._user if state in (_I.PROBABLE, *CONFIRMED_STATES) else ""
        confirmed = self._confirmed_user()
        profile = self.store.get(confirmed) if confirmed else None
        key = self._addressing_key()
        machine = self._addressing.get(key)
        addressing = machine.state if machine else AddressingState.UNKNOWN
        private = self._mode.state == ConversationMode.PRIVATE
        # spec 004 §1.1: preferences are never exposed to other users, so only in PRIVATE;
        # otherwise the neutral form (empty).
        name = ""
        if private and addressing != AddressingState.UNKNOWN:
            name = self._addressing_value.get(key, "")
        age = self._age.state
        return IdentitySnapshot(
            state=int(state),
            user_id=shown_user,
            role=profile.role if profile else "",
            addressing_state=int(addressing),
            preferred_name=name,
            age_group=int(age),
            conversation_mode=int(self._mode.state),
            child_safe=not (confirmed and age == AgeGroup.ADULT),
            participants=tuple(sorted(self._participants)),
            private_info_allowed=private and bool(confirmed),
            may_ask_addressing=addressing == AddressingState.UNKNOWN
            and key not in self._addressing_asked,
        )

    def consent_snapshot(self) -> list[ConsentSnapshot]:
        return [
            ConsentSnapshot(user, scope, int(m.state))
            for (user, scope), m in sorted(self._consents.items())
        ]

    # ================================================================ identity events

    def handle_identity_event(self, ev: IdentityInput, now: float) -> Outcome:
        """One IdentityEvent: identity resolution, addressing or conversation mode."""
        self._begin()
        before = self._context_key()
        try:
            kind = IdentityEventKind(ev.kind)
        except ValueError:
            return self._reject("unknown_kind", f"unknown identity event kind {ev.kind}")
        if not math.isfinite(ev.confidence) or not 0.0 <= ev.confidence <= 1.0:
            return self._reject("bad_confidence", f"confidence {ev.confidence} outside [0, 1]")
        if kind in (IdentityEventKind.VOICE_SIGNAL, IdentityEventKind.FACE_SIGNAL):
            self._reject("hc2_refused", _HC2)
            self._record(
                refused("identity", "", kind.name.lower(), self._identity.state.name, _HC2)
            )
            return self._out
        if ev.user_id and ev.user_id not in self.store:
            return self._reject("unknown_user", f"unknown user {ev.user_id!r}")
        if kind <= IdentityEventKind.CLARIFICATION_SUCCESS:
            self._identity_event(kind, ev, now)
        elif kind <= IdentityEventKind.ADDRESSING_ASKED:
            self._addressing_event(kind, ev, now)
        else:
            self._mode_event(kind, ev, now)
        self._after(before, now)
        return self._out

    def _identity_event(self, kind: IdentityEventKind, ev: IdentityInput, now: float) -> None:
        m = self._identity
        K = IdentityEventKind
        if kind == K.SATELLITE_IDENTITY:
            if not ev.user_id:
                self._reject("unknown_user", "satellite_identity without user_id")
                return
            cfg = self.config
            if ev.confidence < cfg.signal_low:
                self._record(
                    refused(
                        "identity",
                        "",
                        "signal_low",
                        m.state.name,
                        f"confidence {ev.confidence} below signal_low {cfg.signal_low}: noise",
                    )
                )
                return
            event = "signal_medium" if ev.confidence >= cfg.signal_medium else "signal_low"
            r = self._fire(m, event, now, IdentityContext(candidate_known=True))
            if r.accepted and event == "signal_medium":
                self._user = ev.user_id
        elif kind == K.EXPLICIT_IDENTITY_CLAIM:
            profile = (
                self.store.get(ev.user_id) if ev.user_id else self.store.find_by_name(ev.value)
            )
            ctx = IdentityContext(candidate_known=profile is not None)
            r = self._fire(m, "explicit_claim", now, ctx)
            if r.accepted and profile is not None:
                self._user = profile.user_id
            elif profile is None:
                self.counters["unknown_user"] += 1
        elif kind in (K.VALIDATION_SUCCESS, K.VALIDATION_FAILURE):
            if ev.user_id and ev.user_id != self._user:
                self._reject("wrong_user", f"validation for {ev.user_id!r}, not the candidate")
                return
            event = "validation_success" if kind == K.VALIDATION_SUCCESS else "validation_failure"
            self._fire(m, event, now)
        elif kind == K.CLARIFICATION_SUCCESS:
            user = ev.user_id or self._user
            r = self._fire(m, "clarification_success", now, IdentityContext(bool(user)))
            if r.accepted:
                self._user = user
        elif kind == K.SPEAKING_TURN:
            if ev.user_id and self._user and ev.user_id != self._user:
                self._reject(
                    "wrong_user", f"speaking turn by {ev.user_id!r}, not the identified user"
                )
                return
            if m.state == _I.CONFIRMED_ACTIVE:
                # Silence means no speaking turn for silence_timeout_s: a turn restarts it.
                m.restart_timer(now)
            self._fire(m, "speaking_turn", now)
        else:
            event = {
                K.TIMEOUT: "timeout",
                K.STRONG_CONFLICT: "strong_conflict",
                K.SILENCE_TIMEOUT: "silence_timeout",
                K.END_CONVERSATION: "end_conversation",
            }[kind]
            self._fire(m, event, now)
        if m.state in (_I.UNKNOWN, _I.AMBIGUOUS, _I.REJECTED):
            self._user = ""

    def _addressing_event(self, kind: IdentityEventKind, ev: IdentityInput, now: float) -> None:
        key = self._addressing_key()
        if ev.user_id and ev.user_id != key:
            # spec 004 §1.1: a preference belongs to its user; it never lands on another.
            self._reject("wrong_user", f"addressing event for {ev.user_id!r}, not the speaker")
            return
        m = self._addressing.setdefault(key, Machine(ADDRESSING_FSM, key=key, now=now))
        K = IdentityEventKind
        if kind == K.ADDRESSING_ASKED:
            if key in self._addressing_asked:
                # spec 004 §1.1 guard: never ask again once asked.
                self._record(
                    refused(
                        "addressing",
                        key,
                        "addressing_asked",
                        m.state.name,
                        "spec 004 §1.1: the addressing question was already asked",
                    )
                )
            else:
                self._addressing_asked.add(key)
                self._out.identity_changed = True
            return
        if kind == K.EXPLICIT_PREFERENCE:
            value = ev.value.strip()
            if not value:
                self._reject("bad_value", "explicit_preference without a value")
                return
            r = self._fire(m, "explicit_preference", now)
            if r.accepted:
                self._addressing_value[key] = value
                if key != _ANON:
                    # "ask once and store the answer": through the Pending Profile Update FSM.
                    self._profile_request(key, key, "addressing", value, now, NO_TOKEN)
        elif kind == K.INFERRED_SIGNAL:
            ctx = AddressingContext(ev.confidence, self.config.addressing_inferred_high)
            r = self._fire(m, "inferred_signal", now, ctx)
            if r.accepted and ev.value.strip():
                self._addressing_value[key] = ev.value.strip()
        else:
            r = self._fire(m, "conflicting_signal", now)
            if r.accepted:
                self._addressing_value.pop(key, None)

    def _mode_event(self, kind: IdentityEventKind, ev: IdentityInput, now: float) -> None:
        K = IdentityEventKind
        m = self._mode
        people = self._participants
        pid = ev.participant_id.strip()
        if (
            kind
            in (
                K.PARTICIPANT_DETECTED,
                K.PARTICIPANT_LEFT,
                K.PARTICIPANT_IDENTIFIED,
                K.PARTICIPANT_UNIDENTIFIED,
            )
            and not pid
        ):
            self._reject("bad_value", f"{kind.name} without participant_id")
            return
        if kind == K.PARTICIPANT_DETECTED:
            people[pid] = ev.identity_known
            self._out.identity_changed = True
            if m.state == ConversationMode.PRIVATE:
                event = (
                    "participant_detected_known"
                    if ev.identity_known
                    else "participant_detected_unknown"
                )
                self._fire(m, event, now)
            elif m.state == ConversationMode.SHARED_VERIFIED and not ev.identity_known:
                self._fire(m, "identity_unknown", now)
        elif kind == K.STATEMENT_SOMEONE_ARRIVED:
            if m.state == ConversationMode.SHARED_VERIFIED:
                self._fire(m, "identity_unknown", now)
            else:
                self._fire(m, "statement_someone_arrived", now)
        elif kind == K.STATEMENT_ALONE:
            r = self._fire(m, "statement_alone", now)
            if r.accepted:
                people.clear()
        elif kind == K.PARTICIPANT_LEFT:
            if people.pop(pid, None) is None and m.state == ConversationMode.PRIVATE:
                self._reject("unknown_participant", f"participant {pid!r} was not present")
                return
            self._out.identity_changed = True
            if not people:
                self._fire(m, "participant_left", now, ModeContext(remaining=0))
        elif kind == K.PARTICIPANT_IDENTIFIED:
            if pid not in people:
                self._reject("unknown_participant", f"participant {pid!r} is not present")
                return
            people[pid] = True
            if m.state == ConversationMode.SHARED_UNVERIFIED and all(people.values()):
                self._fire(m, "identity_confirmed", now)
        else:  # PARTICIPANT_UNIDENTIFIED
            if pid not in people:
                self._reject("unknown_participant", f"participant {pid!r} is not present")
                return
            people[pid] = False
            if m.state == ConversationMode.SHARED_VERIFIED:
                self._fire(m, "identity_unknown", now)

    # ================================================================ cross-FSM rules

    def _context_key(self) -> tuple[str, ConversationMode]:
        return self._confirmed_user(), self._mode.state

    def _after(self, before: tuple[str, ConversationMode], now: float) -> None:
        """Cross-FSM rules, applied after every input (spec 004 Cross-FSM Rules)."""
        confirmed, mode = self._context_key()
        if confirmed != before[0]:
            self._on_identity_context_change(confirmed, now)
        if confirmed != before[0] or mode != before[1]:
            # A pending confirmation was asked in another context: cancel it (§3).
            self._cancel_pending(now)
        self._maybe_birthday()

    def _on_identity_context_change(self, confirmed: str, now: float) -> None:
        # The anonymous addressing belongs to nobody in particular; never carry it over.
        self._addressing.pop(_ANON, None)
        self._addressing_value.pop(_ANON, None)
        self._addressing_asked.discard(_ANON)
        # Age context follows the confirmed identity (§1.2); unknown behaves as CHILD.
        profile = self.store.get(confirmed) if confirmed else None
        derived = self._derived_age(confirmed)
        if profile is not None and derived != AgeGroup.UNKNOWN:
            self._fire(self._age, "birthdate_known", now, AgeContext(derived))
        elif self._age.state != AgeGroup.UNKNOWN:
            self._fire(self._age, "confidence_drop", now)
        # A stored addressing preference is the user's explicit answer (§1.1).
        if profile is not None and profile.addressing:
            m = self._addressing.setdefault(
                confirmed, Machine(ADDRESSING_FSM, key=confirmed, now=now)
            )
            if m.state != AddressingState.CONFIRMED:
                if self._fire(m, "explicit_preference", now).accepted:
                    self._addressing_value[confirmed] = profile.addressing
            elif confirmed not in self._addressing_value:
                self._addressing_value[confirmed] = profile.addressing
        self._out.identity_changed = True

    def _derived_age(self, user_id: str) -> AgeGroup:
        profile = self.store.get(user_id) if user_id else None
        if profile is None or not self._date_trusted:
            return AgeGroup.UNKNOWN
        return age_group_of(
            profile.birthdate,
            self._today,
            self.config.teen_from_years,
            self.config.adult_from_years,
        )

    def _cancel_pending(self, now: float) -> None:
        """context_changed for a pending command, and for profile updates whose requester
        is no longer the confirmed speaker."""
        confirmed = self._confirmed_user()
        # A request made with the parent PIN was not made by the speaker: who talks with
        # Buddy is not its context (it still lapses by its own timeout).
        if self._command.state == CommandState.PENDING_CONFIRMATION and not (
            self._pending_command is not None and self._pending_command.by_pin
        ):
            self._fire(self._command, "context_changed", now)
            self._finish_command(now)
        for target, m in list(self._profile_fsms.items()):
            pending = self._pending_updates.get(target)
            if pending is not None and pending.by_pin:
                continue
            if m.state == ProfileUpdateState.PENDING_CONFIRMATION and (
                pending is None or pending.requester != confirmed
            ):
                self._fire(m, "context_changed", now)
                self._finish_profile(target, now)

    def _maybe_birthday(self) -> None:
        """spec 004 §6: every condition is re-evaluated here, just before emitting."""
        user = self._confirmed_user()
        today = self._today
        if not user or today is None or not self._date_trusted:
            return
        if self._identity.state not in CONFIRMED_STATES:  # never while ambiguous (§6 guards)
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
        if self._mode.state != ConversationMode.PRIVATE and self._age.state in (
            AgeGroup.CHILD,
            AgeGroup.TEEN,
            AgeGroup.UNKNOWN,
        ):
            self.counters["birthday_withheld_shared"] += 1
            return
        self._greeted.add((user, today))
        self._out.effects.append(BirthdayGreeting(user, today))

    # ================================================================ conversation

    def conversation_started(self, now: float) -> Outcome:
        """conversation/events STARTED: nothing in spec 004 moves; republish for late joiners."""
        self._begin()
        self._maybe_birthday()
        return self._out

    def conversation_ended(self, now: float) -> Outcome:
        """conversation/events ENDED: end_conversation / conversation_end everywhere."""
        self._begin()
        before = self._context_key()
        if self._identity.state == _I.CONFIRMED_ACTIVE:
            self._fire(self._identity, "end_conversation", now)
            self._user = ""
        for key, m in list(self._delegations.items()):
            if m.state == DelegationState.ACTIVE:
                self._fire(m, "conversation_end", now)
                self._fire(m, "done", now)
                self._delegation_info.pop(key, None)
        for m in self._consents.values():
            if m.state == ConsentStateId.GRANTED:
                self._fire(m, "conversation_end", now)
        if self._participants or self._mode.state != ConversationMode.PRIVATE:
            self._participants.clear()
            self._out.identity_changed = True
            if self._mode.state != ConversationMode.PRIVATE:
                self._fire(self._mode, "participant_left", now, ModeContext(remaining=0))
        self._addressing.pop(_ANON, None)
        self._addressing_value.pop(_ANON, None)
        self._addressing_asked.discard(_ANON)
        self._after(before, now)
        if self._command.state == CommandState.PENDING_CONFIRMATION:
            self._fire(self._command, "context_changed", now)
            self._finish_command(now)
        return self._out

    # ================================================================ time

    def tick(self, now: float, today: dt.date | None = None, date_trusted: bool = True) -> Outcome:
        """Fire due timeouts and follow the local date.

        `today=None` leaves the date as it was; a date with `date_trusted=False` (clock not
        synchronised) makes ages and birthdays unknown until a trusted date arrives.
        """
        self._begin()
        before = self._context_key()
        if today is not None and (today != self._today or date_trusted != self._date_trusted):
            self._today = today
            self._date_trusted = date_trusted
            self._greeted = {(u, d) for (u, d) in self._greeted if d == today}
            derived = self._derived_age(self._confirmed_user())
            if derived != AgeGroup.UNKNOWN:
                self._fire(self._age, "date_tick", now, AgeContext(derived))
            elif self._age.state != AgeGroup.UNKNOWN:
                self._fire(self._age, "confidence_drop", now)
        if self._tick_machine(self._identity, now) is not None and self._identity.state in (
            _I.UNKNOWN,
            _I.AMBIGUOUS,
            _I.REJECTED,
        ):
            self._user = ""
        if self._tick_machine(self._command, now) is not None:
            self._finish_command(now)
        for target, m in list(self._profile_fsms.items()):
            if self._tick_machine(m, now) is not None:
                self._finish_profile(target, now)
        for key, m in list(self._delegations.items()):
            r = self._tick_machine(m, now)
            if r is not None and m.state == DelegationState.EXPIRED:
                self._fire(m, "done", now)
            if r is not None and m.state == DelegationState.NONE:
                self._delegation_info.pop(key, None)
        for m in self._consents.values():
            self._tick_machine(m, now)
        self._after(before, now)
        return self._out

    # ================================================================ commands

    def _requester(self, user_id: str, parent: ParentProof = NO_TOKEN) -> Requester:
        profile = self.store.get(user_id)
        confirmed = self._confirmed_user()
        who = Requester(
            user_id=user_id,
            identity_state=self._identity.state,
            identified_user=self._user,
            role=profile.role if profile else "",
            age_group=self._age.state if user_id == confirmed else AgeGroup.UNKNOWN,
            delegated_scopes=frozenset(
                scope
                for (delegate, scope), m in self._delegations.items()
                if delegate == user_id and m.state == DelegationState.ACTIVE
            ),
            granted_consents=frozenset(
                scope
                for (user, scope), m in self._consents.items()
                if user == user_id and m.state == ConsentStateId.GRANTED
            ),
        )
        if parent.valid:
            # Erratum 18: the PIN is the parent's authority, whoever is talking to Buddy.
            who = replace(who, identity_state=_I.CONFIRMED, identified_user=user_id,
                          role=ROLE_PARENT, age_group=AgeGroup.ADULT)
        return who

    def execute_command(
        self, action: int, command: str, user_id: str, args: str, now: float,
        parent: ParentProof = NO_TOKEN,
    ) -> Outcome:
        """identity/execute_command: drive the Command Execution FSM (spec 004 §3). Every
        action needs a parent token (erratum 18)."""
        out = self._begin()
        state = self._command.state
        if self._needs_parent(parent, f"command {command!r}", state):
            return out
        act = self._checked_request(CommandAction, action, "command", (user_id,), state,
                                    parent)
        if act is not None:
            self._command_action(act, command, user_id, args, now, parent)
        return out

    def _command_action(
        self, act: IntEnum, command: str, user_id: str, args: str, now: float,
        parent: ParentProof,
    ) -> None:
        out = self._out
        state = self._command.state
        if act == CommandAction.REQUEST:
            self._command_request(command, user_id, args, now, parent)
        elif act == CommandAction.CONFIRM:
            pending = self._pending_command
            if pending is not None and command and command != pending.policy.name:
                out.reply = Reply(False, int(state), f"no pending {command!r} to confirm")
                return
            actor_is_requester = pending is not None and pending.requester == user_id
            if pending is not None and actor_is_requester:
                # Authority is re-checked at the moment of execution: a delegation revoked
                # or expired since the request is a changed context (spec 004 §3, §4).
                ok, why = authorize(pending.policy, self._requester(user_id, parent))
                if not ok:
                    self._fire(self._command, "context_changed", now)
                    out.reply = Reply(True, int(CommandState.CANCELLED), why)
                    self._finish_command(now)
                    return
            ctx = CommandContext(actor_is_requester=actor_is_requester)
            r = self._fire(self._command, "confirmation_received", now, ctx)
            if not r.accepted:
                out.reply = Reply(False, int(self._command.state), r.reason)
                return
            self._executed(now)
            out.reply = Reply(True, int(CommandState.EXECUTED), "executed")
            self._finish_command(now)
        else:
            r = self._fire(self._command, "context_changed", now)
            if not r.accepted:
                out.reply = Reply(False, int(self._command.state), r.reason)
                return
            out.reply = Reply(True, int(CommandState.CANCELLED), "cancelled")
            self._finish_command(now)

    def _command_request(self, command: str, user_id: str, args: str, now: float,
                         parent: ParentProof) -> None:
        out = self._out
        policy = self.commands.get(command)
        if policy is None:
            self._reject("unknown_command", f"unknown command {command!r}")
            out.reply = Reply(False, int(self._command.state), f"unknown command {command!r}")
            return
        value, bad_args = parse_args(policy, args, self.store)
        if bad_args:
            self._reject("bad_args", bad_args)
            out.reply = Reply(False, int(self._command.state), bad_args)
            return
        r = self._fire(self._command, "command_detected", now)
        if not r.accepted:
            out.reply = Reply(False, int(self._command.state), r.reason)
            return
        self._pending_command = _PendingCommand(policy, user_id, args, parent.valid, value)
        ok, why = authorize(policy, self._requester(user_id, parent))
        if not ok:
            self._fire(self._command, "authorization_denied", now)
            self.counters["commands_denied"] += 1
            out.reply = Reply(True, int(CommandState.DENIED), why)
            self._finish_command(now)
            return
        ctx = CommandContext(requires_confirmation=policy.requires_confirmation)
        self._fire(self._command, "authorization_granted", now, ctx)
        if self._command.state == CommandState.EXECUTED:
            self._executed(now)
            out.reply = Reply(True, int(CommandState.EXECUTED), why)
            self._finish_command(now)
        else:
            question = policy.question.format(user=self._name_of(value)) if policy.question \
                else why
            out.reply = Reply(True, int(CommandState.PENDING_CONFIRMATION), question)

    def _name_of(self, value: object) -> str:
        """A household user's name for a question, else the value as text."""
        profile = self.store.get(value) if isinstance(value, str) else None
        return profile.name if profile is not None else str(value)

    def _executed(self, now: float) -> None:
        """Entered EXECUTED: emit the command's effect, exactly once."""
        pending = self._pending_command
        assert pending is not None and self._command.state == CommandState.EXECUTED
        self.counters["commands_executed"] += 1
        policy = pending.policy
        if policy.effect == "reset_memory":
            self._out.effects.append(ResetMemory(policy.name, pending.requester))
        elif policy.effect == "forget_user" and isinstance(pending.value, str):
            self._out.effects.append(ForgetUser(policy.name, pending.requester, pending.value))
        elif policy.effect == "lower_limits" and isinstance(pending.value, tuple):
            session_s, daily_s = pending.value
            self._out.effects.append(LowerLimits(policy.name, pending.requester, session_s,
                                                 daily_s))

    def _finish_command(self, now: float) -> None:
        if self._command.state in (
            CommandState.EXECUTED,
            CommandState.DENIED,
            CommandState.CANCELLED,
        ):
            self._fire(self._command, "done", now)
            self._pending_command = None

    def command_execution_result(self, command: str, success: bool, detail: str = "") -> None:
        """execution_success / execution_failure of an EXECUTED command's side effect.

        Spec 004 §3 lists these events without a transition: they move no state and are
        kept for diagnostics (the FSM is already back in IDLE)."""
        self.last_execution = (command, success, detail)
        self.counters["execution_success" if success else "execution_failure"] += 1

    # ================================================================ profile updates

    def request_profile_update(
        self,
        action: int,
        requester_id: str,
        target_user_id: str,
        field: str,
        value: str,
        now: float,
        parent: ParentProof = NO_TOKEN,
    ) -> Outcome:
        """identity/request_profile_update: the Pending Profile Update FSM. Every action
        needs a parent token (erratum 18: profile changes such as a birthdate)."""
        out = self._begin()
        before = self._context_key()
        current = self.profile_update_state(target_user_id)
        if self._needs_parent(parent, f"profile update of {target_user_id!r}", current):
            return out
        act = self._checked_request(ProfileAction, action, "profile",
                                    (requester_id, target_user_id), current, parent)
        if act is None:
            return out
        if act == ProfileAction.REQUEST:
            self._profile_request(requester_id, target_user_id, field, value, now, parent)
        else:
            m = self._profile_fsms.get(target_user_id)
            if m is None:
                out.reply = Reply(False, int(current), "no pending update")
                return out
            pending = self._pending_updates.get(target_user_id)
            if act == ProfileAction.CANCEL:
                r = self._fire(m, "context_changed", now)
            else:
                event = (
                    "owner_confirmation_received"
                    if act == ProfileAction.CONFIRM
                    else "owner_confirmation_denied"
                )
                ctx = ProfileContext(
                    actor_is_owner=pending is not None
                    and self._may_confirm_profile(requester_id, pending, parent)
                )
                r = self._fire(m, event, now, ctx)
            if not r.accepted:
                out.reply = Reply(False, int(m.state), r.reason)
                return out
            reached = m.state
            message = self._finish_profile(target_user_id, now)
            out.reply = Reply(True, int(reached), message or reached.name.lower())
        self._after(before, now)
        return out

    def _profile_request(
        self, requester: str, target: str, field: str, value: str, now: float,
        parent: ParentProof,
    ) -> None:
        out = self._out
        cfg = self.config
        m = self._profile_fsms.get(target)
        if m is None or m.state == ProfileUpdateState.NONE:
            m = Machine(
                PROFILE_UPDATE_FSM,
                {ProfileUpdateState.PENDING_CONFIRMATION: cfg.profile_confirmation_timeout_s},
                key=target,
                now=now,
            )
            self._profile_fsms[target] = m
        r = self._fire(m, "profile_update_requested", now)
        if not r.accepted:
            # spec 004 invariant: only one pending profile update per user.
            out.reply = Reply(False, int(m.state), f"an update of {target!r} is already pending")
            return
        parsed, why, needs_confirmation = self._validate_update(requester, target, field, value,
                                                                parent)
        if parsed is None:
            self._fire(m, "authority_denied", now)
            out.reply = Reply(True, int(ProfileUpdateState.REJECTED), why)
            self._finish_profile(target, now)
            return
        self._pending_updates[target] = _PendingUpdate(requester, target, field, parsed,
                                                       parent.valid)
        self._fire(
            m, "authority_verified", now, ProfileContext(confirmation_required=needs_confirmation)
        )
        reached = m.state
        message = self._finish_profile(target, now)
        if reached == ProfileUpdateState.PENDING_CONFIRMATION:
            message = f"please confirm: set {field} of {target} to {value.strip()}"
        out.reply = Reply(True, int(reached), message or reached.name.lower())

    def _validate_update(
        self, requester: str, target: str, field: str, value: str, parent: ParentProof,
    ) -> tuple[object, str, bool]:
        """PENDING_VALIDATION: authority, age mutation guards and the value itself."""
        parsed, why = validate_field(field, value, self._today if self._date_trusted else None)
        if parsed is None:
            return None, why, False
        if parent.valid:
            # Erratum 18: a parent proven by PIN may change any profile; a second step
            # (CONFIRM) still applies for role, birthdate and other members' profiles.
            return parsed, "", field in ("role", "birthdate") or requester != target
        if self._confirmed_user() != requester:
            return None, f"identity of {requester!r} is not confirmed", False
        profile = self.store.get(requester)
        assert profile is not None
        age = self._age.state
        parent_adult = profile.role == ROLE_PARENT and age == AgeGroup.ADULT
        if (
            field in AGE_FIELDS
            and requester == target
            and age
            in (
                AgeGroup.CHILD,
                AgeGroup.TEEN,
                AgeGroup.UNKNOWN,
            )
        ):
            # spec 004 §1.2 Age Mutation Guards (unknown age behaves as CHILD).
            return None, f"a {age.name} cannot change their own {field}", False
        if field == "role" and not parent_adult:
            return None, "only a parent can change a role", False
        if requester != target and not parent_adult:
            return None, "only a parent can change another member's profile", False
        needs_confirmation = field in ("role", "birthdate") or requester != target
        return parsed, "", needs_confirmation

    def _may_confirm_profile(self, actor: str, pending: _PendingUpdate,
                             parent: ParentProof) -> bool:
        """The owner confirms: the target for a parent's profile, a parent for a child's."""
        if parent.valid:
            return True  # erratum 18: the PIN is the parent's authority
        if self._confirmed_user() != actor:
            return False
        target = self.store.get(pending.target)
        actor_profile = self.store.get(actor)
        if target is None or actor_profile is None:
            return False
        if target.role == ROLE_PARENT:
            return actor == pending.target
        return actor_profile.role == ROLE_PARENT and self._age.state == AgeGroup.ADULT

    def _finish_profile(self, target: str, now: float) -> str:
        """Leave APPROVED (after writing), REJECTED or CANCELLED; return a message."""
        m = self._profile_fsms[target]
        message = ""
        if m.state == ProfileUpdateState.APPROVED:
            pending = self._pending_updates.pop(target)
            try:
                # spec 004 invariant: profile data is modified only in APPROVED.
                self.store.apply(pending.target, pending.field, pending.value)
                message = f"{pending.field} of {pending.target} updated"
                self.counters["profile_updates_applied"] += 1
            except OSError as exc:
                message = f"could not write the household file; nothing changed: {exc}"
                self.counters["profile_write_errors"] += 1
            self._fire(m, "applied", now)
            self._after_profile_write(pending, now)
        elif m.state in (ProfileUpdateState.REJECTED, ProfileUpdateState.CANCELLED):
            self._pending_updates.pop(target, None)
            self._fire(m, "done", now)
        return message

    def _after_profile_write(self, pending: _PendingUpdate, now: float) -> None:
        if pending.target != self._confirmed_user():
            return
        if pending.field == "birthdate":
            derived = self._derived_age(pending.target)
            if derived != AgeGroup.UNKNOWN:
                self._fire(self._age, "birthdate_updated", now, AgeContext(derived))
        elif pending.field == "addressing":
            key = pending.target
            m = self._addressing.setdefault(key, Machine(ADDRESSING_FSM, key=key, now=now))
            if (
                m.state != AddressingState.CONFIRMED
                or self._addressing_value.get(key) != pending.value
            ):
                self._fire(m, "explicit_preference", now)
            self._addressing_value[key] = str(pending.value)
        self._out.identity_changed = True

    # ================================================================ delegation

    def delegate(
        self,
        action: int,
        owner_id: str,
        delegate_id: str,
        scope: str,
        duration_s: float,
        now: float,
        parent: ParentProof = NO_TOKEN,
    ) -> Outcome:
        """identity/delegate: the Permission Delegation FSM (spec 004 §4). Every action
        needs a parent token (erratum 18)."""
        out = self._begin()
        key = (delegate_id, scope)
        current = self.delegation_state(delegate_id, scope)
        if self._needs_parent(parent, f"delegation of {scope!r}", current):
            return out
        act = self._checked_request(DelegateAction, action, "delegate",
                                    (owner_id, delegate_id), current, parent)
        if act is None:
            return out
        if act == DelegateAction.REQUEST:
            why = self._delegation_refusal(owner_id, delegate_id, scope, duration_s, parent)
            if why:
                self._reject("delegation_refused", why)
                out.reply = Reply(False, int(current), why)
                return out
            m = self._delegations.get(key)
            if m is None or m.state == DelegationState.NONE:
                m = Machine(
                    DELEGATION_FSM,
                    {
                        DelegationState.PENDING_CONFIRMATION: (
                            self.config.delegation_confirmation_timeout_s
                        ),
                        DelegationState.ACTIVE: duration_s,
                    },
                    key=f"{delegate_id}/{scope}",
                    now=now,
                )
                self._delegations[key] = m
            r = self._fire(m, "delegation_intent_detected", now)
            if r.accepted:
                self._delegation_info[key] = _DelegationInfo(owner_id, delegate_id, scope)
            out.reply = Reply(r.accepted, int(m.state), r.reason or "please confirm the delegation")
            return out
        m = self._delegations.get(key)
        info = self._delegation_info.get(key)
        if m is None or info is None:
            out.reply = Reply(False, int(current), "no such delegation")
            return out
        owner_ok = owner_id == info.owner and (
            parent.valid or self._confirmed_user() == owner_id
        )
        event = {
            DelegateAction.CONFIRM: "owner_confirmation",
            DelegateAction.DENY: "owner_denial",
            DelegateAction.REVOKE: "revoke_command",
        }[act]
        r = self._fire(m, event, now, DelegationContext(actor_is_owner=owner_ok))
        if not r.accepted:
            out.reply = Reply(False, int(m.state), r.reason)
            return out
        reached = m.state
        if reached == DelegationState.REVOKED:
            self._fire(m, "done", now)
        if m.state == DelegationState.NONE:
            self._delegation_info.pop(key, None)
        out.reply = Reply(True, int(reached), reached.name.lower())
        return out

    def _delegation_refusal(self, owner: str, delegate: str, scope: str, duration_s: float,
                            parent: ParentProof) -> str:
        policy = self.commands.get(scope)
        if policy is None or not policy.delegable:
            return f"{scope!r} is not a delegable command"
        if owner == delegate:
            return "a user cannot delegate to themselves"
        if not math.isfinite(duration_s) or not 0.0 < duration_s <= self.config.max_delegation_s:
            return f"duration_s must be in (0, {self.config.max_delegation_s}]"
        who = self._requester(owner, parent)
        if who.delegated_scopes:
            who = Requester(
                who.user_id,
                who.identity_state,
                who.identified_user,
                who.role,
                who.age_group,
                frozenset(),
                who.granted_consents,
            )
        ok, why = authorize(policy, who)  # only authority one holds oneself can be lent
        return "" if ok else f"owner may not delegate: {why}"

    # ================================================================ consent

    def request_consent(
        self, action: int, user_id: str, scope: str, granted_by: str, now: float,
        parent: ParentProof = NO_TOKEN,
    ) -> Outcome:
        """identity/request_consent: the Consent FSM (spec 004 §5). GRANT and REVOKE need a
        parent token (erratum 18); asking and declining are the safe side and need none."""
        out = self._begin()
        state = self.consent_state(user_id, scope)
        act = self._checked_request(ConsentAction, action, "consent", (), state, parent)
        if act is None:
            return out
        if act in (ConsentAction.GRANT, ConsentAction.REVOKE) and self._needs_parent(
            parent, f"consent {act.name.lower()} for {user_id!r}/{scope!r}", state
        ):
            return out
        event = {
            ConsentAction.REQUEST: "consent_request",
            ConsentAction.GRANT: "explicit_grant",
            ConsentAction.DENY: "explicit_denial",
            ConsentAction.REVOKE: "revoke",
        }[act]
        self._consent(event, user_id, scope, granted_by, now, parent)
        return out

    def handle_consent_event(self, ev: ConsentInput, now: float) -> Outcome:
        """One ConsentEvent from consent/events."""
        out = self._begin()
        try:
            kind = ConsentEventKind(ev.kind)
        except ValueError:
            return self._reject("unknown_kind", f"unknown consent event kind {ev.kind}")
        event = {
            ConsentEventKind.CONSENT_REQUEST: "consent_request",
            ConsentEventKind.EXPLICIT_GRANT: "explicit_grant",
            ConsentEventKind.EXPLICIT_DENIAL: "explicit_denial",
            ConsentEventKind.TIMEOUT: "timeout",
            ConsentEventKind.CONVERSATION_END: "conversation_end",
            ConsentEventKind.REVOKE: "revoke",
        }[kind]
        if kind in (ConsentEventKind.EXPLICIT_GRANT, ConsentEventKind.REVOKE):
            return self._reject("parent_authority_refused", _TOPIC_CONSENT_REFUSED)
        self._consent(event, ev.user_id, ev.scope, ev.granted_by, now, NO_TOKEN)
        return out

    def _consent(self, event: str, user_id: str, scope: str, actor: str, now: float,
                 parent: ParentProof) -> None:
        out = self._out
        key = (user_id, scope)
        current = self.consent_state(user_id, scope)
        if user_id not in self.store:
            self._refuse("unknown_user", f"unknown user {user_id!r}", current)
            return
        if scope not in self.config.consent_scopes:
            self._refuse("unknown_scope", f"unknown consent scope {scope!r}", current,
                         f"unknown scope {scope!r}")
            return
        m = self._consents.get(key)
        if m is None:
            m = Machine(
                CONSENT_FSM,
                {ConsentStateId.PENDING: self.config.consent_timeout_s},
                key=f"{user_id}/{scope}",
                now=now,
            )
            self._consents[key] = m
        if event == "consent_request" and m.state in (
            ConsentStateId.EXPIRED,
            ConsentStateId.REVOKED,
        ):
            self._fire(m, "done", now)
        ctx = ConsentContext(actor_has_authority=self._consent_authority(actor, user_id,
                                                                          parent))
        r = self._fire(m, event, now, ctx)
        out.reply = Reply(r.accepted, int(m.state), r.reason or m.state.name.lower())

    def _consent_authority(self, actor: str, user_id: str, parent: ParentProof) -> bool:
        """Erratum 18: the parent PIN decides (GRANT and REVOKE never run without it)."""
        if parent.valid:
            return True
        if not actor or self._confirmed_user() != actor or self._age.state != AgeGroup.ADULT:
            return False
        profile = self.store.get(actor)
        return profile is not None and (actor == user_id or profile.role == ROLE_PARENT)
