"""Who is talking with Buddy: identity resolution (spec 004 §1, under HC-2), addressing
(§1.1), age context (§1.2) and conversation mode (§2), as table-driven machines.

The identity core feeds it identity events and reads who is confirmed, their age group
and the snapshot identity/state publishes; the cross-FSM rules stay in the core.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .addressing import ADDRESSING_FSM, AddressingContext
from .age_context import AGE_FSM
from .config import IdentityConfig
from .conversation_mode import MODE_FSM, ModeContext
from .enums import (
    CONFIRMED_STATES,
    AddressingState,
    AgeGroup,
    ConversationMode,
    IdentityEventKind,
    IdentityStateId,
)
from .fsm import Machine, refused
from .identity_resolution import IDENTITY_FSM, IdentityContext
from .ledger import Ledger
from .profiles import ProfileStore
from .records import IdentityInput, IdentitySnapshot

_I = IdentityStateId
_HC2 = "HC-2: no biometric identification; voice and face signals are refused (DESIGN §4.3)"
ANON = ""  # addressing key while nobody is identified
_ANON = ANON


class Speaking:
    def __init__(self, ledger: Ledger, store: ProfileStore, config: IdentityConfig,
                 now: float) -> None:
        self._ledger = ledger
        self.store = store
        self.config = cfg = config
        self.identity = Machine(
            IDENTITY_FSM,
            {
                _I.PROBABLE: cfg.probable_timeout_s,
                _I.AMBIGUOUS: cfg.ambiguous_timeout_s,
                _I.REJECTED: cfg.rejected_timeout_s,
                _I.CONFIRMED_ACTIVE: cfg.silence_timeout_s,
            },
            now=now,
        )
        self.user = ""  # the user the identity FSM is about (PROBABLE and later)
        self.addressing: dict[str, Machine[AddressingState]] = {}
        self.addressing_value: dict[str, str] = {}
        self.addressing_asked: set[str] = set()
        self.age = Machine(AGE_FSM, now=now)
        self.mode = Machine(MODE_FSM, now=now)
        self.participants: dict[str, bool] = {}  # participant id -> identity known
        # "ask once and store the answer" (spec 004 §1.1): the core passes a spoken
        # preference to the Pending Profile Update FSM
        self.store_preference: Callable[[str, str, float], None] = lambda _k, _v, _n: None

    def confirmed_user(self) -> str:
        return self.user if self.identity.state in CONFIRMED_STATES else ""

    def addressing_key(self) -> str:
        return self.confirmed_user() or ANON

    def forget_anonymous(self) -> None:
        """The anonymous addressing belongs to nobody in particular; never carried over."""
        self.addressing.pop(ANON, None)
        self.addressing_value.pop(ANON, None)
        self.addressing_asked.discard(ANON)

    def handle_event(self, ev: IdentityInput, now: float) -> bool:
        """One IdentityEvent, checked, then identity, addressing or conversation mode;
        False when it was refused before any machine saw it."""
        led = self._ledger
        try:
            kind = IdentityEventKind(ev.kind)
        except ValueError:
            led.reject("unknown_kind", f"unknown identity event kind {ev.kind}")
            return False
        if not math.isfinite(ev.confidence) or not 0.0 <= ev.confidence <= 1.0:
            led.reject("bad_confidence", f"confidence {ev.confidence} outside [0, 1]")
            return False
        if kind in (IdentityEventKind.VOICE_SIGNAL, IdentityEventKind.FACE_SIGNAL):
            led.reject("hc2_refused", _HC2)
            led.record(refused("identity", "", kind.name.lower(), self.identity.state.name,
                               _HC2))
            return False
        if ev.user_id and ev.user_id not in self.store:
            led.reject("unknown_user", f"unknown user {ev.user_id!r}")
            return False
        if kind <= IdentityEventKind.CLARIFICATION_SUCCESS:
            self._identity_event(kind, ev, now)
        elif kind <= IdentityEventKind.ADDRESSING_ASKED:
            self._addressing_event(kind, ev, now)
        else:
            self._mode_event(kind, ev, now)
        return True

    def identity_snapshot(self) -> IdentitySnapshot:
        state = self.identity.state
        shown_user = self.user if state in (_I.PROBABLE, *CONFIRMED_STATES) else ""
        confirmed = self.confirmed_user()
        profile = self.store.get(confirmed) if confirmed else None
        key = self.addressing_key()
        machine = self.addressing.get(key)
        addressing = machine.state if machine else AddressingState.UNKNOWN
        private = self.mode.state == ConversationMode.PRIVATE
        # spec 004 §1.1: preferences are never exposed to other users, so only in PRIVATE;
        # otherwise the neutral form (empty).
        name = ""
        if private and addressing != AddressingState.UNKNOWN:
            name = self.addressing_value.get(key, "")
        age = self.age.state
        return IdentitySnapshot(
            state=int(state),
            user_id=shown_user,
            role=profile.role if profile else "",
            addressing_state=int(addressing),
            preferred_name=name,
            age_group=int(age),
            conversation_mode=int(self.mode.state),
            child_safe=not (confirmed and age == AgeGroup.ADULT),
            participants=tuple(sorted(self.participants)),
            private_info_allowed=private and bool(confirmed),
            may_ask_addressing=addressing == AddressingState.UNKNOWN
            and key not in self.addressing_asked,
        )


    def _identity_event(self, kind: IdentityEventKind, ev: IdentityInput, now: float) -> None:
        m = self.identity
        K = IdentityEventKind
        if kind == K.SATELLITE_IDENTITY:
            if not ev.user_id:
                self._ledger.reject("unknown_user", "satellite_identity without user_id")
                return
            cfg = self.config
            if ev.confidence < cfg.signal_low:
                self._ledger.record(
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
            r = self._ledger.fire(m, event, now, IdentityContext(candidate_known=True))
            if r.accepted and event == "signal_medium":
                self.user = ev.user_id
        elif kind == K.EXPLICIT_IDENTITY_CLAIM:
            profile = (
                self.store.get(ev.user_id) if ev.user_id else self.store.find_by_name(ev.value)
            )
            ctx = IdentityContext(candidate_known=profile is not None)
            r = self._ledger.fire(m, "explicit_claim", now, ctx)
            if r.accepted and profile is not None:
                self.user = profile.user_id
            elif profile is None:
                self._ledger.counters["unknown_user"] += 1
        elif kind in (K.VALIDATION_SUCCESS, K.VALIDATION_FAILURE):
            if ev.user_id and ev.user_id != self.user:
                self._ledger.reject("wrong_user",
                                    f"validation for {ev.user_id!r}, not the candidate")
                return
            event = "validation_success" if kind == K.VALIDATION_SUCCESS else "validation_failure"
            self._ledger.fire(m, event, now)
        elif kind == K.CLARIFICATION_SUCCESS:
            user = ev.user_id or self.user
            r = self._ledger.fire(m, "clarification_success", now, IdentityContext(bool(user)))
            if r.accepted:
                self.user = user
        elif kind == K.SPEAKING_TURN:
            if ev.user_id and self.user and ev.user_id != self.user:
                self._ledger.reject(
                    "wrong_user", f"speaking turn by {ev.user_id!r}, not the identified user"
                )
                return
            if m.state == _I.CONFIRMED_ACTIVE:
                # Silence means no speaking turn for silence_timeout_s: a turn restarts it.
                m.restart_timer(now)
            self._ledger.fire(m, "speaking_turn", now)
        else:
            event = {
                K.TIMEOUT: "timeout",
                K.STRONG_CONFLICT: "strong_conflict",
                K.SILENCE_TIMEOUT: "silence_timeout",
                K.END_CONVERSATION: "end_conversation",
            }[kind]
            self._ledger.fire(m, event, now)
        if m.state in (_I.UNKNOWN, _I.AMBIGUOUS, _I.REJECTED):
            self.user = ""

    def _addressing_event(self, kind: IdentityEventKind, ev: IdentityInput, now: float) -> None:
        key = self.addressing_key()
        if ev.user_id and ev.user_id != key:
            # spec 004 §1.1: a preference belongs to its user; it never lands on another.
            self._ledger.reject("wrong_user",
                                f"addressing event for {ev.user_id!r}, not the speaker")
            return
        m = self.addressing.setdefault(key, Machine(ADDRESSING_FSM, key=key, now=now))
        K = IdentityEventKind
        if kind == K.ADDRESSING_ASKED:
            if key in self.addressing_asked:
                # spec 004 §1.1 guard: never ask again once asked.
                self._ledger.record(
                    refused(
                        "addressing",
                        key,
                        "addressing_asked",
                        m.state.name,
                        "spec 004 §1.1: the addressing question was already asked",
                    )
                )
            else:
                self.addressing_asked.add(key)
                self._ledger.out.identity_changed = True
            return
        if kind == K.EXPLICIT_PREFERENCE:
            value = ev.value.strip()
            if not value:
                self._ledger.reject("bad_value", "explicit_preference without a value")
                return
            r = self._ledger.fire(m, "explicit_preference", now)
            if r.accepted:
                self.addressing_value[key] = value
                if key != _ANON:
                    # "ask once and store the answer": through the Pending Profile Update FSM.
                    self.store_preference(key, value, now)
        elif kind == K.INFERRED_SIGNAL:
            ctx = AddressingContext(ev.confidence, self.config.addressing_inferred_high)
            r = self._ledger.fire(m, "inferred_signal", now, ctx)
            if r.accepted and ev.value.strip():
                self.addressing_value[key] = ev.value.strip()
        else:
            r = self._ledger.fire(m, "conflicting_signal", now)
            if r.accepted:
                self.addressing_value.pop(key, None)

    def _mode_event(self, kind: IdentityEventKind, ev: IdentityInput, now: float) -> None:
        K = IdentityEventKind
        m = self.mode
        people = self.participants
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
            self._ledger.reject("bad_value", f"{kind.name} without participant_id")
            return
        if kind == K.PARTICIPANT_DETECTED:
            people[pid] = ev.identity_known
            self._ledger.out.identity_changed = True
            if m.state == ConversationMode.PRIVATE:
                event = (
                    "participant_detected_known"
                    if ev.identity_known
                    else "participant_detected_unknown"
                )
                self._ledger.fire(m, event, now)
            elif m.state == ConversationMode.SHARED_VERIFIED and not ev.identity_known:
                self._ledger.fire(m, "identity_unknown", now)
        elif kind == K.STATEMENT_SOMEONE_ARRIVED:
            if m.state == ConversationMode.SHARED_VERIFIED:
                self._ledger.fire(m, "identity_unknown", now)
            else:
                self._ledger.fire(m, "statement_someone_arrived", now)
        elif kind == K.STATEMENT_ALONE:
            r = self._ledger.fire(m, "statement_alone", now)
            if r.accepted:
                people.clear()
        elif kind == K.PARTICIPANT_LEFT:
            if people.pop(pid, None) is None and m.state == ConversationMode.PRIVATE:
                self._ledger.reject("unknown_participant", f"participant {pid!r} was not present")
                return
            self._ledger.out.identity_changed = True
            if not people:
                self._ledger.fire(m, "participant_left", now, ModeContext(remaining=0))
        elif kind == K.PARTICIPANT_IDENTIFIED:
            if pid not in people:
                self._ledger.reject("unknown_participant", f"participant {pid!r} is not present")
                return
            people[pid] = True
            if m.state == ConversationMode.SHARED_UNVERIFIED and all(people.values()):
                self._ledger.fire(m, "identity_confirmed", now)
        else:  # PARTICIPANT_UNIDENTIFIED
            if pid not in people:
                self._ledger.reject("unknown_participant", f"participant {pid!r} is not present")
                return
            people[pid] = False
            if m.state == ConversationMode.SHARED_VERIFIED:
                self._ledger.fire(m, "identity_unknown", now)

