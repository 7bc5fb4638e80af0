"""identity/delegate: the Permission Delegation FSM (spec 004 §4; DESIGN §4.3).

A delegation lends one delegable command's authority from its owner to another household
member, for a bounded time, after the owner's confirmation. Every action needs the
parent's proof (erratum 18), an argument of each step that decides on authority; only
authority the owner holds themself can be lent.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from .commands import CommandPolicy, authorize
from .config import IdentityConfig
from .delegation import DELEGATION_FSM, DelegationContext
from .enums import DelegateAction, DelegationState
from .fsm import Machine
from .ledger import Ledger
from .parent_pin import ParentProof
from .profiles import ProfileStore
from .records import Reply
from .speaker import Speaker

D = DelegationState


@dataclass(slots=True)
class _DelegationInfo:
    owner: str
    delegate: str
    scope: str


class DelegationHandler:
    def __init__(self, ledger: Ledger, store: ProfileStore, config: IdentityConfig,
                 commands: Mapping[str, CommandPolicy], speaker: Speaker) -> None:
        self._ledger = ledger
        self._store = store
        self._config = config
        self._commands = commands
        self._speaker = speaker
        self.machines: dict[tuple[str, str], Machine[DelegationState]] = {}
        self._info: dict[tuple[str, str], _DelegationInfo] = {}

    def state(self, delegate_id: str, scope: str) -> DelegationState:
        m = self.machines.get((delegate_id, scope))
        return m.state if m else D.NONE

    def active_scopes(self, user_id: str) -> frozenset[str]:
        return frozenset(scope for (delegate, scope), m in self.machines.items()
                         if delegate == user_id and m.state == D.ACTIVE)

    def delegate(self, action: int, owner_id: str, delegate_id: str, scope: str,
                 duration_s: float, now: float, parent: ParentProof) -> None:
        led, out = self._ledger, self._ledger.out
        key = (delegate_id, scope)
        current = self.state(delegate_id, scope)
        if led.needs_parent(parent, f"delegation of {scope!r}", current):
            return
        act = led.checked_action(DelegateAction, action, "delegate", current)
        if act is None or not led.known_users(self._store, (owner_id, delegate_id), current,
                                              parent):
            return
        if act == DelegateAction.REQUEST:
            why = self._refusal(owner_id, delegate_id, scope, duration_s, parent)
            if why:
                led.reject("delegation_refused", why)
                out.reply = Reply(False, int(current), why)
                return
            m = self.machines.get(key)
            if m is None or m.state == D.NONE:
                m = Machine(DELEGATION_FSM,
                            {D.PENDING_CONFIRMATION: self._config.delegation_confirmation_timeout_s,
                             D.ACTIVE: duration_s},
                            key=f"{delegate_id}/{scope}", now=now)
                self.machines[key] = m
            r = led.fire(m, "delegation_intent_detected", now)
            if r.accepted:
                self._info[key] = _DelegationInfo(owner_id, delegate_id, scope)
            out.reply = Reply(r.accepted, int(m.state),
                              r.reason or "please confirm the delegation")
            return
        m = self.machines.get(key)
        info = self._info.get(key)
        if m is None or info is None:
            out.reply = Reply(False, int(current), "no such delegation")
            return
        owner_ok = owner_id == info.owner and (
            parent.valid or self._speaker.confirmed_user() == owner_id)
        event = {DelegateAction.CONFIRM: "owner_confirmation",
                 DelegateAction.DENY: "owner_denial",
                 DelegateAction.REVOKE: "revoke_command"}[act]
        r = led.fire(m, event, now, DelegationContext(actor_is_owner=owner_ok))
        if not r.accepted:
            out.reply = Reply(False, int(m.state), r.reason)
            return
        reached = m.state
        if reached == D.REVOKED:
            led.fire(m, "done", now)
        if m.state == D.NONE:
            self._info.pop(key, None)
        out.reply = Reply(True, int(reached), reached.name.lower())

    def _refusal(self, owner: str, delegate: str, scope: str, duration_s: float,
                 parent: ParentProof) -> str:
        policy = self._commands.get(scope)
        if policy is None or not policy.delegable:
            return f"{scope!r} is not a delegable command"
        if owner == delegate:
            return "a user cannot delegate to themselves"
        limit = self._config.max_delegation_s
        if not math.isfinite(duration_s) or not 0.0 < duration_s <= limit:
            return f"duration_s must be in (0, {limit}]"
        # only authority one holds oneself can be lent
        who = replace(self._speaker.requester(owner, parent), delegated_scopes=frozenset())
        ok, why = authorize(policy, who)
        return "" if ok else f"owner may not delegate: {why}"

    def conversation_end(self, now: float) -> None:
        """An ACTIVE delegation ends with the conversation (spec 004 §4)."""
        for key, m in list(self.machines.items()):
            if m.state == D.ACTIVE:
                self._ledger.fire(m, "conversation_end", now)
                self._ledger.fire(m, "done", now)
                self._info.pop(key, None)

    def forget_user(self, user_id: str) -> None:
        """A child removed from the household (issue 30): no delegation to or from them."""
        for key in [k for k, i in self._info.items() if user_id in (i.owner, i.delegate)]:
            self.machines.pop(key, None)
            self._info.pop(key, None)

    def tick(self, now: float) -> None:
        led = self._ledger
        for key, m in list(self.machines.items()):
            r = led.tick(m, now)
            if r is not None and m.state == D.EXPIRED:
                led.fire(m, "done", now)
            if r is not None and m.state == D.NONE:
                self._info.pop(key, None)
