"""identity/request_consent and consent/events: the Consent FSM (spec 004 §5; DESIGN §4.3).

One machine per (user, scope). Granting and revoking need the parent's proof (erratum
18), an argument of each step that decides on authority; asking and declining are the
safe side and need none. consent/events cannot carry a token, so a grant or a revocation
that arrives there is refused.
"""

from __future__ import annotations

from .config import IdentityConfig
from .consent import CONSENT_FSM, ConsentContext
from .enums import ROLE_PARENT, AgeGroup, ConsentAction, ConsentEventKind, ConsentStateId
from .fsm import Machine
from .ledger import Ledger
from .parent_pin import NO_TOKEN, ParentProof
from .profiles import ProfileStore
from .records import ConsentInput, ConsentSnapshot, Reply
from .speaker import Speaker

S = ConsentStateId

# Erratum 18: consent changes over consent/events (a topic anyone on the graph can publish
# and read, so it cannot carry a token) are refused; they come through
# identity/request_consent with a parent token.
_TOPIC_CONSENT_REFUSED = (
    "consent grants and revocations need the parent PIN: use identity/request_consent "
    "with a parent token (consent/events cannot carry one)"
)

_ACTION_EVENTS = {
    ConsentAction.REQUEST: "consent_request",
    ConsentAction.GRANT: "explicit_grant",
    ConsentAction.DENY: "explicit_denial",
    ConsentAction.REVOKE: "revoke",
}
_TOPIC_EVENTS = {
    ConsentEventKind.CONSENT_REQUEST: "consent_request",
    ConsentEventKind.EXPLICIT_GRANT: "explicit_grant",
    ConsentEventKind.EXPLICIT_DENIAL: "explicit_denial",
    ConsentEventKind.TIMEOUT: "timeout",
    ConsentEventKind.CONVERSATION_END: "conversation_end",
    ConsentEventKind.REVOKE: "revoke",
}


class ConsentHandler:
    def __init__(self, ledger: Ledger, store: ProfileStore, config: IdentityConfig,
                 speaker: Speaker) -> None:
        self._ledger = ledger
        self._store = store
        self._config = config
        self._speaker = speaker
        self.machines: dict[tuple[str, str], Machine[ConsentStateId]] = {}

    def state(self, user_id: str, scope: str) -> ConsentStateId:
        m = self.machines.get((user_id, scope))
        return m.state if m else S.NONE

    def granted(self, user_id: str) -> frozenset[str]:
        return frozenset(scope for (user, scope), m in self.machines.items()
                         if user == user_id and m.state == S.GRANTED)

    def snapshot(self) -> list[ConsentSnapshot]:
        return [ConsentSnapshot(user, scope, int(m.state))
                for (user, scope), m in sorted(self.machines.items())]

    def request(self, action: int, user_id: str, scope: str, granted_by: str, now: float,
                parent: ParentProof) -> None:
        led = self._ledger
        state = self.state(user_id, scope)
        act = led.checked_action(ConsentAction, action, "consent", state)
        if act is None:
            return
        if act in (ConsentAction.GRANT, ConsentAction.REVOKE) and led.needs_parent(
                parent, f"consent {act.name.lower()} for {user_id!r}/{scope!r}", state):
            return
        self._consent(_ACTION_EVENTS[act], user_id, scope, granted_by, now, parent)

    def handle_event(self, ev: ConsentInput, now: float) -> None:
        led = self._ledger
        try:
            kind = ConsentEventKind(ev.kind)
        except ValueError:
            led.reject("unknown_kind", f"unknown consent event kind {ev.kind}")
            return
        if kind in (ConsentEventKind.EXPLICIT_GRANT, ConsentEventKind.REVOKE):
            led.reject("parent_authority_refused", _TOPIC_CONSENT_REFUSED)
            return
        self._consent(_TOPIC_EVENTS[kind], ev.user_id, ev.scope, ev.granted_by, now, NO_TOKEN)

    def _consent(self, event: str, user_id: str, scope: str, actor: str, now: float,
                 parent: ParentProof) -> None:
        led = self._ledger
        current = self.state(user_id, scope)
        if user_id not in self._store:
            led.refuse("unknown_user", f"unknown user {user_id!r}", current)
            return
        if scope not in self._config.consent_scopes:
            led.refuse("unknown_scope", f"unknown consent scope {scope!r}", current,
                       f"unknown scope {scope!r}")
            return
        key = (user_id, scope)
        m = self.machines.get(key)
        if m is None:
            m = Machine(CONSENT_FSM, {S.PENDING: self._config.consent_timeout_s},
                        key=f"{user_id}/{scope}", now=now)
            self.machines[key] = m
        if event == "consent_request" and m.state in (S.EXPIRED, S.REVOKED):
            led.fire(m, "done", now)
        ctx = ConsentContext(actor_has_authority=self._authority(actor, user_id, parent))
        r = led.fire(m, event, now, ctx)
        led.out.reply = Reply(r.accepted, int(m.state), r.reason or m.state.name.lower())

    def _authority(self, actor: str, user_id: str, parent: ParentProof) -> bool:
        """Erratum 18: the parent PIN decides (GRANT and REVOKE never run without it)."""
        if parent.valid:
            return True
        speaker = self._speaker
        if not actor or speaker.confirmed_user() != actor or speaker.age_group != AgeGroup.ADULT:
            return False
        profile = self._store.get(actor)
        return profile is not None and (actor == user_id or profile.role == ROLE_PARENT)

    def conversation_end(self, now: float) -> None:
        for m in self.machines.values():
            if m.state == S.GRANTED:
                self._ledger.fire(m, "conversation_end", now)

    def forget_user(self, user_id: str) -> bool:
        """A child removed from the household (issue 30): their consent records go."""
        keys = [k for k in self.machines if k[0] == user_id]
        for key in keys:
            del self.machines[key]
        return bool(keys)

    def tick(self, now: float) -> None:
        for m in self.machines.values():
            self._ledger.tick(m, now)
