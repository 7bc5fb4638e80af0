"""The one small port between the web app and the graph (DESIGN §4.6).

The web app holds no rule: it reads views from the port and forwards a parent's actions,
with the token the identity node issued at login (erratum 18), to the port. The ROS node
implements this over topics and services; `testing.InMemoryPort` implements it for tests
without ROS. Methods that need the graph to answer are coroutines; the rest return the
latest values the port has seen."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol

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

# Steps of a command that needs a confirmation (spec 004 Command Execution FSM:
# command_detected -> PENDING_CONFIRMATION -> confirmation_received | cancelled).
COMMAND_STEPS: tuple[str, ...] = ("request", "confirm", "cancel")
# What a parent does with a child of the household (issue 30; identity/manage_household).
HOUSEHOLD_ACTIONS: tuple[str, ...] = ("add", "edit", "remove")


class DashboardPort(Protocol):
    # -- what it shows ----------------------------------------------------------------
    def pin_is_set(self) -> bool: ...
    def household_problem(self) -> str: ...   # "" unless the household file is unreadable
    def now(self) -> NowView: ...
    def usage(self) -> UsageView: ...
    def sessions(self, days: float) -> list[SessionView]: ...
    def alerts(self) -> list[AlertView]: ...
    def consent(self) -> list[ConsentView]: ...
    def children(self) -> list[str]: ...
    def household(self) -> list[ChildView]: ...
    async def memories(self) -> list[MemoryView]: ...

    # -- what a parent does -----------------------------------------------------------
    async def login(self, pin: str) -> LoginResult: ...
    async def logout(self, token: str) -> None: ...
    async def forget_everything(self, token: str, step: str) -> ActionResult: ...
    async def forget_child(self, token: str, child: str, step: str) -> ActionResult: ...
    async def set_consent(self, token: str, child: str, scope: str,
                          grant: bool) -> ActionResult: ...
    async def lower_limits(self, token: str, session_limit_s: float | None,
                           daily_limit_s: float | None) -> ActionResult: ...
    async def acknowledge_alert(self, token: str, alert_id: str) -> ActionResult: ...
    async def clear_alerts(self, token: str, up_to: float) -> ActionResult: ...
    async def manage_child(self, token: str, action: str, child: str, name: str,
                           birthdate: str, addressing: str) -> ActionResult: ...

    # -- live updates -----------------------------------------------------------------
    def changes(self) -> ChangeFeed: ...


class ChangeFeed:
    """Wakes every listener (one per open page) when a view changed.

    `notify` may be called from any thread (the ROS executor's); listeners wait on the
    web server's event loop. A version number lets a listener skip what it already sent."""

    def __init__(self) -> None:
        self.version = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        self.listeners = 0

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._event = asyncio.Event()

    def notify(self) -> None:
        self.version += 1
        loop, event = self._loop, self._event
        if loop is None or event is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            event.set()
        else:
            loop.call_soon_threadsafe(event.set)

    async def wait(self, seen: int, timeout: float) -> int:
        """Wait until the version passes `seen` (or the timeout); returns the version."""
        if self._event is None:
            self.bind(asyncio.get_running_loop())
        assert self._event is not None
        if self.version == seen:
            self._event.clear()
            if self.version == seen:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._event.wait(), timeout)
        return self.version
