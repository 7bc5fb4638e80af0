"""parent_dashboard node (DESIGN §4.6; spec 002 §8.5, RS-4, RS-5): the parents' web page.

A thin ROS adapter around `buddy_personality.dashboard`:

- in: `personality/snapshot`, `face/state`, `conversation/events`, `personality/guardrail`,
  `consent/state`, and the personality node's `/diagnostics` (today's talk time and the
  RS-1/RS-2 limits in force, today's lowered ones included).
- out: `/diagnostics` (logins, refusals, actions, open pages).
- clients: `identity/parent_login` (the PIN check and token, erratum 18),
  `identity/execute_command` (forget everything / one child, lower today's limits: the
  identity node runs them and the personality node applies its own rules; issue 16),
  `identity/request_consent`
  (grant, revoke), `personality/list_memories`. Every call is asynchronous: the web server
  runs on its own thread and awaits the answer; the executor is never blocked.
- the web server (uvicorn) on `host`:`port`, 127.0.0.1 by default; `host:=0.0.0.0` opens
  it to the home network.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from pathlib import Path
from typing import Any

from diagnostic_msgs.msg import DiagnosticArray
from rclpy.client import Client
from rclpy.node import Node

from buddy_msgs.msg import (
    ConsentState,
    ConversationEvent,
    FaceState,
    GuardrailEvent,
    IdentityState,
    PersonalitySnapshot,
    UsageState,
)
from buddy_msgs.srv import (
    ExecuteCommand,
    ListMemories,
    ManageHousehold,
    ParentLogin,
    RequestConsent,
)
from buddy_personality.dashboard.app import DashboardApp
from buddy_personality.dashboard.graph_view import GraphView
from buddy_personality.dashboard.household import HouseholdGlance
from buddy_personality.dashboard.port import ChangeFeed
from buddy_personality.dashboard.records import (
    CONV_STATE_NAMES,
    ActionResult,
    AlertView,
    ChildView,
    ConsentView,
    FaceView,
    LoginResult,
    MemoryView,
    NowView,
    SessionView,
    UsageView,
)
from buddy_personality.dashboard.server import DashboardServer
from buddy_personality.dashboard.sessions import SessionLog
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.diagnostics import ERROR, OK, DiagnosticsPublisher, Health
from buddy_personality.nodes.common.inbound import InboundChecks
from buddy_personality.nodes.common.parameters import ParamSpec, declare_parameters
from buddy_personality.nodes.common.runtime import ClosesOwnResources, run_node

PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("host", "127.0.0.1", "address the page listens on; 0.0.0.0 opens it to the "
              "home network (DESIGN §4.6)", read_only=True),
    ParamSpec("port", 8080, "TCP port of the page (0 = any free port)", min=0, max=65535,
              read_only=True),
    ParamSpec("sessions_path", "~/.local/share/buddy/dashboard_sessions.json",
              "the dashboard's own session log (no transcripts, HC-3)", read_only=True),
    ParamSpec("retention_days", 14.0, "days of sessions kept", min=1.0, max=365.0,
              read_only=True),
    ParamSpec("alerts_path", "~/.local/share/buddy/safety_alerts.jsonl",
              "HC-9 alert log the LLM bridge appends to (docs/SAFETY.md)", read_only=True),
    ParamSpec("acks_path", "~/.local/share/buddy/dashboard_acks.json",
              "alerts a parent acknowledged", read_only=True),
    ParamSpec("profiles_path", "~/.local/share/buddy/household.json",
              "the identity node's household file, read only (PIN set? which children?)",
              read_only=True),
    ParamSpec("service_timeout_s", 3.0, "how long a page waits for the graph to answer",
              min=0.1, max=60.0, read_only=True),
)

MEMORY_PANEL_LIMIT = 500


def _expand(path: str) -> Path | None:
    return Path(path).expanduser() if path else None


class ServiceUnavailable(RuntimeError):
    pass


class ParentDashboardNode(InboundChecks, ClosesOwnResources, Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("parent_dashboard", **node_kwargs)
        p = declare_parameters(self, PARAMETERS)
        self.timeout_s: float = p["service_timeout_s"]
        feed = ChangeFeed()
        self.view = GraphView(
            sessions=SessionLog(_expand(p["sessions_path"]), now=time.time(),
                                retention_days=p["retention_days"]),
            alerts_path=_expand(p["alerts_path"]), acks_path=_expand(p["acks_path"]),
            feed=feed)
        self.household = HouseholdGlance(_expand(p["profiles_path"]))

        self.create_subscription(PersonalitySnapshot, "personality/snapshot",
                                 self._on_snapshot, qos.of("personality/snapshot"))
        self.create_subscription(FaceState, "face/state", self._on_face, qos.of("face/state"))
        self.create_subscription(ConversationEvent, "conversation/events",
                                 self._on_conversation, qos.of("conversation/events"))
        self.create_subscription(GuardrailEvent, "personality/guardrail", self._on_guardrail,
                                 qos.of("personality/guardrail"))
        self.create_subscription(ConsentState, "consent/state", self._on_consent,
                                 qos.of("consent/state"))
        self.create_subscription(UsageState, "personality/usage", self._on_usage,
                                 qos.of("personality/usage"))
        # issue 30: who talks (an alert names the child) and where answers come from (the
        # LLM bridge's own health, not a snapshot's layer)
        self.create_subscription(IdentityState, "identity/state", self._on_identity,
                                 qos.of("identity/state"))
        self.create_subscription(DiagnosticArray, "/diagnostics", self._on_diagnostics,
                                 qos.of("/diagnostics"))

        self.login_client = self.create_client(ParentLogin, "identity/parent_login")
        self.command_client = self.create_client(ExecuteCommand, "identity/execute_command")
        self.consent_client = self.create_client(RequestConsent, "identity/request_consent")
        self.household_client = self.create_client(ManageHousehold,
                                                   "identity/manage_household")
        self.memories_client = self.create_client(ListMemories, "personality/list_memories")

        self.port = RosDashboardPort(self)
        self.web = DashboardApp(self.port)
        self.server = DashboardServer(self.web.app, p["host"], p["port"], feed)
        self.url = ""
        self.server_error = ""
        try:
            host, port = self.server.start()
            shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
            self.url = f"http://{shown}:{port}/"
            self.get_logger().info(f"parent page on {self.url}"
                                   + (" (open to the network)" if host != "127.0.0.1" else ""))
        except RuntimeError as exc:
            self.server_error = str(exc)
            self.get_logger().error(f"parent page not served: {exc}")
        self.diagnostics = DiagnosticsPublisher(self, self._health)

    # -- topics -------------------------------------------------------------------------
    def _on_snapshot(self, msg: PersonalitySnapshot) -> None:
        self.view.on_snapshot(msg.mood, msg.intensity, msg.idle_state,
                              msg.conversation_active, msg.layer, time.time())

    def _on_face(self, msg: FaceState) -> None:
        conv = CONV_STATE_NAMES[msg.conv_state] if msg.conv_state < len(CONV_STATE_NAMES) \
            else "idle"
        self.view.on_face(FaceView(
            mood=msg.mood, mood_meant=getattr(msg, "mood_meant", "") or "",
            # steps of 0.05: the drawn face cannot show less, and an unchanged face is not
            # pushed to the page (face/state is republished every second)
            # (issue 31: 1e308 passed isfinite and round(inf) raised, ending `buddy run`;
            # the inbound check clamps it to [0, 1] first, and so does this line)
            intensity=round(min(max(msg.intensity, 0.0), 1.0) * 20) / 20
            if math.isfinite(msg.intensity) else 0.0,
            talking=msg.talking, conv_state=conv, connected=msg.connected,
            backstop=msg.backstop_active), time.time())

    def _on_conversation(self, msg: ConversationEvent) -> None:
        reason = getattr(msg, "end_reason", "") or msg.trigger
        self.view.on_conversation(msg.kind == ConversationEvent.STARTED, msg.session_id,
                                  reason, msg.turns, time.time())

    def _on_guardrail(self, msg: GuardrailEvent) -> None:
        self.view.on_guardrail(msg.rule_id, msg.details, time.time())

    def _on_consent(self, msg: ConsentState) -> None:
        self.view.on_consent([(r.user_id, r.scope, r.state) for r in msg.records])

    def _on_identity(self, msg: IdentityState) -> None:
        confirmed = msg.state in (IdentityState.CONFIRMED, IdentityState.CONFIRMED_ACTIVE)
        names = dict(self.household.children())
        self.view.on_identity(names.get(msg.user_id, "") if confirmed else "")

    def _on_diagnostics(self, msg: DiagnosticArray) -> None:
        for status in msg.status:
            if str(status.name).rsplit("/", 1)[-1] != "llm_bridge":
                continue
            values = {kv.key: kv.value for kv in status.values}
            layer = values.get("layer", "")
            self.view.on_bridge_health(int(layer) if layer in ("0", "1") else None,
                                       values.get("server_url", ""))

    def _on_usage(self, msg: UsageState) -> None:
        # RS-1/RS-2 in force (issue 16: a parent may have lowered them for today); a
        # personality node that reports them also takes lower_limits
        if msg.session_limit_s > 0 and msg.daily_limit_s > 0:
            self.view.on_limits(msg.session_limit_s, msg.daily_limit_s, can_lower=True)
        self.view.on_usage(_finite(msg.session_s), _finite(msg.daily_s))

    # -- services, awaited from the web server's loop --------------------------------
    async def call(self, client: Client, request: Any) -> Any:
        if not client.service_is_ready():
            raise ServiceUnavailable(f"{client.srv_name} is not available")
        loop = asyncio.get_running_loop()
        result: asyncio.Future[Any] = loop.create_future()

        def transfer(f: Any) -> None:
            def settle() -> None:
                if result.done():
                    return
                exc = f.exception()
                if exc is not None:
                    result.set_exception(exc)
                else:
                    result.set_result(f.result())
            loop.call_soon_threadsafe(settle)

        future = client.call_async(request)
        future.add_done_callback(transfer)
        try:
            return await asyncio.wait_for(result, self.timeout_s)
        except TimeoutError:
            client.remove_pending_request(future)
            raise

    def _health(self) -> Health:
        values: dict[str, object] = {"url": self.url or "-",
                                     "open_pages": self.view.feed.listeners,
                                     "web_sessions": len(self.web.sessions),
                                     "sessions_logged": len(self.view.sessions.sessions),
                                     "session_log_errors": self.view.sessions.load_errors,
                                     "alert_lines_not_understood": self.view.bad_alert_lines}
        values.update(self.inbound_rejections().as_values())   # DESIGN §5 bad input
        values.update(self.web.stats.as_values())
        if self.server_error:
            return Health(ERROR, f"page not served: {self.server_error}", values)
        return Health(OK, f"serving {self.url}", values)

    def _close_own(self) -> None:
        """The open event streams and the web server (ClosesOwnResources)."""
        self.web.close()
        self.server.stop()


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) and value >= 0.0 else None


class RosDashboardPort:
    """`DashboardPort` over the node: views from `GraphView`, actions through the identity
    node's services with the parent's token (erratum 18)."""

    def __init__(self, node: ParentDashboardNode) -> None:
        self.node = node

    # -- views --------------------------------------------------------------------------
    def pin_is_set(self) -> bool:
        return self.node.household.pin_is_set()

    def household_problem(self) -> str:
        return self.node.household.problem()

    def now(self) -> NowView:
        return self.node.view.now_view

    def usage(self) -> UsageView:
        return self.node.view.usage_view

    def sessions(self, days: float) -> list[SessionView]:
        return self.node.view.sessions.views(time.time(), days)

    def alerts(self) -> list[AlertView]:
        return self.node.view.alerts(time.time())

    def consent(self) -> list[ConsentView]:
        names = dict(self.node.household.children())
        return [ConsentView(child=names.get(c.child, c.child), scope=c.scope, state=c.state)
                for c in self.node.view.consent_views]

    def children(self) -> list[str]:
        return [name for _, name in self.node.household.children()]

    def household(self) -> list[ChildView]:
        return self.node.household.child_views()

    def changes(self) -> ChangeFeed:
        return self.node.view.feed

    def _user_id(self, child: str) -> str:
        """The page shows names; the graph speaks user ids."""
        for user_id, name in self.node.household.children():
            if child in (name, user_id):
                return user_id
        return child

    async def memories(self) -> list[MemoryView]:
        """Every memory once per child it came from (the page groups by child); one that
        records no child (stored before issue 16) once, under "Everyone" (child "")."""
        response = await self._guarded(self.node.memories_client, ListMemories.Request())
        if isinstance(response, ActionResult):
            raise TimeoutError(response.message)
        names = dict(self.node.household.children())
        views: list[MemoryView] = []
        for e in response.entries[:MEMORY_PANEL_LIMIT]:
            for user in list(getattr(e, "users", []))[:16] or [""]:
                views.append(MemoryView(tag=e.tag, category=e.category, strength=e.strength,
                                        created=e.created, last_reinforced=e.last_reinforced,
                                        reinforcement_count=e.reinforcement_count,
                                        child=names.get(user, user)))
        return views

    # -- actions ------------------------------------------------------------------------
    async def _guarded(self, client: Client, request: Any) -> Any:
        try:
            return await self.node.call(client, request)
        except ServiceUnavailable as exc:
            return ActionResult(False, f"Buddy is not answering ({exc}).")
        except TimeoutError:
            return ActionResult(False, "Buddy did not answer in time.")

    async def login(self, pin: str) -> LoginResult:
        response = await self._guarded(self.node.login_client,
                                       ParentLogin.Request(action=ParentLogin.Request.LOGIN,
                                                           pin=pin))
        if isinstance(response, ActionResult):
            return LoginResult(ok=False, message=response.message)
        return LoginResult(ok=response.success, token=response.token,
                           expires_in_s=response.expires_in_s,
                           retry_after_s=response.retry_after_s, message=response.message)

    async def logout(self, token: str) -> None:
        await self._guarded(self.node.login_client,
                            ParentLogin.Request(action=ParentLogin.Request.LOGOUT, token=token))

    async def _command(self, token: str, command: str, step: str, args: str = "") -> ActionResult:
        action = {"request": ExecuteCommand.Request.REQUEST,
                  "confirm": ExecuteCommand.Request.CONFIRM,
                  "cancel": ExecuteCommand.Request.CANCEL}[step]
        response = await self._guarded(self.node.command_client, ExecuteCommand.Request(
            action=action, command=command, args=args, parent_token=token))
        if isinstance(response, ActionResult):
            return response
        # What each step must reach in the Command Execution FSM (spec 004 §3).
        expected = {"request": ExecuteCommand.Response.PENDING_CONFIRMATION,
                    "confirm": ExecuteCommand.Response.EXECUTED,
                    "cancel": ExecuteCommand.Response.CANCELLED}[step]
        ok = response.accepted and response.state == expected
        execution = getattr(response, "execution", ExecuteCommand.Response.EXECUTION_NONE)
        if ok and execution != ExecuteCommand.Response.EXECUTION_NONE:
            # issue 16: the personality node answered the executed command's effect
            return ActionResult(execution == ExecuteCommand.Response.EXECUTION_SUCCESS,
                                f"Done: {response.message}."
                                if execution == ExecuteCommand.Response.EXECUTION_SUCCESS
                                else f"Not done: {response.message}.")
        done = {"request": "", "confirm": "Done: Buddy is forgetting.",
                "cancel": "Cancelled: nothing was forgotten."}[step]
        return ActionResult(ok, response.message if (not ok or step == "request")
                            else done)

    async def forget_everything(self, token: str, step: str) -> ActionResult:
        return await self._command(token, ExecuteCommand.Request.CMD_FORGET_EVERYTHING, step)

    async def forget_child(self, token: str, child: str, step: str) -> ActionResult:
        return await self._command(token, ExecuteCommand.Request.CMD_FORGET_CHILD, step,
                                   self._user_id(child) if step == "request" else "")

    async def set_consent(self, token: str, child: str, scope: str, grant: bool) -> ActionResult:
        # spec 004 §5 Consent FSM: a grant is a consent_request then an explicit_grant;
        # a revocation is one revoke. The identity node checks the token on each.
        r = RequestConsent.Request
        steps = [r.REQUEST, r.GRANT] if grant else [r.REVOKE]
        response = None
        for action in steps:
            response = await self._guarded(self.node.consent_client, r(
                action=action, user_id=self._user_id(child), scope=scope, parent_token=token))
            if isinstance(response, ActionResult):
                return response
            if not response.accepted:
                return ActionResult(False, response.message or "Refused.")
        return ActionResult(True, f"Memory consent for {child}: "
                                  f"{'granted' if grant else 'revoked'}.")

    async def lower_limits(self, token: str, session_limit_s: float | None,
                           daily_limit_s: float | None) -> ActionResult:
        """One immediate command (spec 004 §3); the personality node, which owns RS-1 /
        RS-2, lowers the limits or says why not (issue 16)."""
        limits = {key: value for key, value in (("session_limit_s", session_limit_s),
                                                ("daily_limit_s", daily_limit_s))
                  if value is not None}
        command = ExecuteCommand.Request.CMD_LOWER_LIMITS
        response = await self._guarded(self.node.command_client, ExecuteCommand.Request(
            action=ExecuteCommand.Request.REQUEST, command=command, args=json.dumps(limits),
            parent_token=token))
        if isinstance(response, ActionResult):
            return response
        executed = response.accepted and response.state == ExecuteCommand.Response.EXECUTED
        if executed and response.execution == ExecuteCommand.Response.EXECUTION_SUCCESS:
            return ActionResult(True, f"Lowered: {response.message}.")
        return ActionResult(False, f"Not changed: {response.message or 'refused'}.")

    async def manage_child(self, token: str, action: str, child: str, name: str,
                           birthdate: str, addressing: str) -> ActionResult:
        """identity/manage_household (issue 30): the identity node validates, writes the
        household file and, for a removal, has the child's memories forgotten first."""
        r = ManageHousehold.Request
        kind = {"add": r.ADD_CHILD, "edit": r.EDIT_CHILD, "remove": r.REMOVE_CHILD}[action]
        response = await self._guarded(self.node.household_client, r(
            action=kind, user_id=self._user_id(child) if child else "", name=name,
            birthdate=birthdate, addressing=addressing, parent_token=token))
        if isinstance(response, ActionResult):
            return response
        self.node.view.feed.notify()
        return ActionResult(response.accepted, f"{response.message}." if response.accepted
                            else f"Nothing changed: {response.message}.")

    async def clear_alerts(self, token: str, up_to: float) -> ActionResult:
        # Like acknowledging: the web session proved the parent's login; the alert log is
        # the page's own record for parents (docs/SAFETY.md), not a rule of the graph.
        try:
            removed = self.node.view.clear_alerts(up_to)
        except OSError as exc:
            self.node.get_logger().error(f"could not clear the safety alerts: {exc}")
            return ActionResult(False, "The safety alerts could not be cleared.")
        self.node.get_logger().info(f"a parent cleared {removed} safety alert(s)")
        return ActionResult(True, f"Cleared {removed} safety alert"
                                  f"{'' if removed == 1 else 's'}.")

    async def acknowledge_alert(self, token: str, alert_id: str) -> ActionResult:
        # The token proves a parent logged in (the web app checked the session); an
        # acknowledgement changes nothing in the graph, only what this page shows.
        ok = self.node.view.acknowledge(alert_id)
        return ActionResult(ok, "Acknowledged." if ok else "No such alert.")


def main(args: list[str] | None = None) -> int:
    return run_node(ParentDashboardNode, args)

