"""An in-memory `DashboardPort` for tests and the benchmark's page-only mode: the graph's
answers are plain fields a test sets. Its PIN check mimics the identity node's contract
(erratum 18: a token with an expiry; a growing lockout after failed tries) so the web
layer can be tested without ROS; the real check is the identity node's."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

from buddy_personality.dashboard.port import ChangeFeed
from buddy_personality.dashboard.records import (
    ActionResult,
    AlertView,
    ChildView,
    ConsentView,
    LoginResult,
    MemoryView,
    NowView,
    SessionView,
    UsageView,
)


@dataclass(slots=True)
class InMemoryPort:
    pin: str | None = None
    now_view: NowView = field(default_factory=NowView)
    usage_view: UsageView = field(default_factory=lambda: UsageView(can_lower=True))
    session_views: list[SessionView] = field(default_factory=list)
    alert_views: list[AlertView] = field(default_factory=list)
    consent_views: list[ConsentView] = field(default_factory=list)
    child_ids: list[str] = field(default_factory=list)
    child_views: list[ChildView] = field(default_factory=list)
    memory_views: list[MemoryView] = field(default_factory=list)
    token_lifetime_s: float = 900.0
    free_tries: int = 3
    lockout_s: float = 30.0
    tokens: set[str] = field(default_factory=set)
    calls: list[tuple[str, ...]] = field(default_factory=list)
    failures: int = 0
    locked_until: float = 0.0
    feed: ChangeFeed = field(default_factory=ChangeFeed)
    pending_forget: str | None = None
    refuse_next: str = ""
    household_unreadable: str = ""

    def pin_is_set(self) -> bool:
        return self.pin is not None

    def household_problem(self) -> str:
        return self.household_unreadable

    def now(self) -> NowView:
        return self.now_view

    def usage(self) -> UsageView:
        return self.usage_view

    def sessions(self, days: float) -> list[SessionView]:
        return list(self.session_views)

    def alerts(self) -> list[AlertView]:
        return sorted(self.alert_views, key=lambda a: (not a.distress, -a.time))

    def consent(self) -> list[ConsentView]:
        return list(self.consent_views)

    def children(self) -> list[str]:
        return list(self.child_ids) or [c.name for c in self.child_views]

    def household(self) -> list[ChildView]:
        return list(self.child_views)

    async def memories(self) -> list[MemoryView]:
        return list(self.memory_views)

    def changes(self) -> ChangeFeed:
        return self.feed

    async def login(self, pin: str) -> LoginResult:
        now = time.monotonic()
        if now < self.locked_until:
            return LoginResult(ok=False, message="Too many wrong PINs.",
                               retry_after_s=self.locked_until - now)
        if self.pin is None or not secrets.compare_digest(pin, self.pin):
            self.failures += 1
            if self.failures >= self.free_tries:
                extra = self.failures - self.free_tries
                self.locked_until = now + self.lockout_s * (2 ** extra)
                return LoginResult(ok=False, message="Too many wrong PINs.",
                                   retry_after_s=self.locked_until - now)
            return LoginResult(ok=False, message="Wrong PIN.")
        self.failures = 0
        token = secrets.token_hex(16)
        self.tokens.add(token)
        return LoginResult(ok=True, token=token, expires_in_s=self.token_lifetime_s)

    async def logout(self, token: str) -> None:
        self.tokens.discard(token)

    def _check(self, token: str) -> ActionResult | None:
        return None if token in self.tokens else ActionResult(False, "Not logged in.")

    async def forget_everything(self, token: str, step: str) -> ActionResult:
        self.calls.append(("forget_everything", step))
        if (refused := self._check(token)) is not None:
            return refused
        if step == "request":
            self.pending_forget = "*"
            return ActionResult(True, "Forget everything Buddy remembers? This cannot be undone.")
        if step == "cancel" or self.pending_forget != "*":
            self.pending_forget = None
            return ActionResult(step == "cancel", "Cancelled." if step == "cancel"
                                else "Nothing to confirm.")
        self.pending_forget = None
        self.memory_views.clear()
        self.feed.notify()
        return ActionResult(True, "Buddy forgot everything.")

    async def forget_child(self, token: str, child: str, step: str) -> ActionResult:
        self.calls.append(("forget_child", child, step))
        if (refused := self._check(token)) is not None:
            return refused
        if step == "request":
            self.pending_forget = child
            return ActionResult(True, f"Forget what Buddy remembers about {child}?")
        if step == "cancel" or self.pending_forget != child:
            self.pending_forget = None
            return ActionResult(step == "cancel", "Cancelled.")
        self.pending_forget = None
        self.memory_views[:] = [m for m in self.memory_views if m.child != child]
        self.feed.notify()
        return ActionResult(True, f"Buddy forgot what it remembered about {child}.")

    async def set_consent(self, token: str, child: str, scope: str, grant: bool) -> ActionResult:
        self.calls.append(("consent", child, scope, str(grant)))
        if (refused := self._check(token)) is not None:
            return refused
        state = "granted" if grant else "revoked"
        self.consent_views[:] = [c for c in self.consent_views
                                 if (c.child, c.scope) != (child, scope)]
        self.consent_views.append(ConsentView(child=child, scope=scope, state=state))
        self.feed.notify()
        return ActionResult(True, f"Memory consent for {child}: {state}.")

    async def lower_limits(self, token: str, session_limit_s: float | None,
                           daily_limit_s: float | None) -> ActionResult:
        self.calls.append(("lower_limits", str(session_limit_s), str(daily_limit_s)))
        if (refused := self._check(token)) is not None:
            return refused
        if daily_limit_s is not None:
            if daily_limit_s > self.usage_view.daily_limit_s:
                return ActionResult(False, "Limits can only be lowered.")
            self.usage_view.daily_limit_s = daily_limit_s
        if session_limit_s is not None:
            if session_limit_s > self.usage_view.session_limit_s:
                return ActionResult(False, "Limits can only be lowered.")
            self.usage_view.session_limit_s = session_limit_s
        self.feed.notify()
        return ActionResult(True, "Today's limits lowered.")

    async def acknowledge_alert(self, token: str, alert_id: str) -> ActionResult:
        self.calls.append(("acknowledge_alert", alert_id))
        if (refused := self._check(token)) is not None:
            return refused
        for alert in self.alert_views:
            if alert.alert_id == alert_id:
                alert.acknowledged = True
                self.feed.notify()
                return ActionResult(True, "Acknowledged.")
        return ActionResult(False, "No such alert.")

    async def clear_alerts(self, token: str, up_to: float) -> ActionResult:
        self.calls.append(("clear_alerts", f"{up_to:.3f}"))
        if (refused := self._check(token)) is not None:
            return refused
        before = len(self.alert_views)
        self.alert_views[:] = [a for a in self.alert_views if not a.distress or a.time > up_to]
        self.feed.notify()
        return ActionResult(True, f"Cleared {before - len(self.alert_views)} safety alerts.")

    async def manage_child(self, token: str, action: str, child: str, name: str,
                           birthdate: str, addressing: str) -> ActionResult:
        """Stands in for identity/manage_household: it checks nothing but the token (the
        rules are the identity core's, tested there); `refuse_next` makes it refuse."""
        self.calls.append(("household", action, child, name, birthdate, addressing))
        if (refused := self._check(token)) is not None:
            return refused
        if self.refuse_next:
            message, self.refuse_next = self.refuse_next, ""
            return ActionResult(False, f"Nothing changed: {message}.")
        if action == "add":
            self.child_views.append(ChildView(name.lower(), name, birthdate, addressing))
        elif action == "edit":
            self.child_views[:] = [ChildView(c.user_id, name or c.name, birthdate or c.birthdate,
                                             addressing or c.addressing)
                                   if c.user_id == child else c for c in self.child_views]
        else:
            self.child_views[:] = [c for c in self.child_views if c.user_id != child]
        self.feed.notify()
        return ActionResult(True, "Done.")
