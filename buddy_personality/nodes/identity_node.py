"""identity node (DESIGN §4.3): spec 004's FSMs over ROS.

A thin translation layer around `buddy_personality.identity.IdentityCore`:

- in: `identity/events` (IdentityEvent), `conversation/events` (ConversationEvent),
  `consent/events` (ConsentEvent). Bad events (unknown kind, out-of-range confidence,
  unknown user, HC-2 voice/face signals) are refused by the core with a reason, logged
  once per cause and counted in diagnostics.
- out: `identity/state` and `consent/state` (latched) whenever the core says they changed;
  `identity/system_events` (SystemEvent BIRTHDAY_GREETING).
- services: `identity/execute_command`, `identity/request_profile_update`,
  `identity/request_consent`, `identity/delegate`: each authority-bearing request carries a
  `parent_token` from `identity/parent_login` (PIN in, token out; DESIGN erratum 18) and is
  refused with the reason without one. Token expiry and login lockouts run on the steady
  clock, so neither /clock (sim time) nor a wrong wall clock can stretch them.
- an executed "forget everything", "forget this child" or "lower today's limits"
  is carried out by the personality node: `nodes/identity/personality_calls.py` calls
  it (asynchronously; the parent's reply waits for the answer to the last two, at most
  `effect_answer_timeout_s`, without blocking the executor).
- a tick at `tick_hz` fires the FSM timeouts and passes the local date (from the node
  clock; trusted when `trust_system_date` is set and the clock is plausibly set).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from rclpy.clock import Clock, ClockType
from rclpy.node import Node

from buddy_msgs.msg import (
    ConsentEvent,
    ConsentRecord,
    ConsentState,
    ConversationEvent,
    IdentityEvent,
    IdentityState,
    SystemEvent,
)
from buddy_msgs.srv import (
    Delegate,
    ExecuteCommand,
    ManageHousehold,
    ParentLogin,
    RequestConsent,
    RequestProfileUpdate,
)
from buddy_personality.identity import (
    BirthdayGreeting,
    ConsentInput,
    IdentityCore,
    IdentityInput,
    Outcome,
    ProfileStore,
    ResetMemory,
)
from buddy_personality.identity import (
    ForgetUser as ForgetUserEffect,
)
from buddy_personality.identity import (
    LowerLimits as LowerLimitsEffect,
)
from buddy_personality.identity.greetings import GreetingLog
from buddy_personality.identity.parent_pin import ParentAuth, ParentProof
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.diagnostics import OK, WARN, DiagnosticsPublisher, Health
from buddy_personality.nodes.common.inbound import InboundChecks
from buddy_personality.nodes.common.parameters import declare_parameters
from buddy_personality.nodes.common.rejections import RejectionLog
from buddy_personality.nodes.common.runtime import now_s, run_node
from buddy_personality.nodes.identity.parameters import (
    PARAMETERS,
    auth_config,
    identity_config,
)
from buddy_personality.nodes.identity.personality_calls import PersonalityCalls

# issue 30: a household without children is a first run, said as a hint (not a warning)
ADD_CHILD_HINT = ("no children in the household yet: add one on the parent page or with "
                  "`buddy parent add-child NAME --birthdate YYYY-MM-DD`")
MIN_TRUSTED_YEAR = 2025  # an unsynchronised Pi clock starts near 1970
MAX_TEXT = 64  # DESIGN §5: oversize strings are truncated (ids, names, scopes)
SERVICE_TIMEOUT_S = 5.0


def _cut(text: str) -> str:
    return text[:MAX_TEXT]


class IdentityNode(InboundChecks, Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("identity", **node_kwargs)
        self.params = p = declare_parameters(self, PARAMETERS)
        self._rejections = RejectionLog(self.get_logger().warning)
        config = identity_config(p)  # checked before any file is read
        self._store = ProfileStore(Path(p["profiles_path"]).expanduser())
        for warning in self._store.warnings:
            self.get_logger().warning(warning)
        if not self._children():
            # issue 30: a first run is not a problem, it is a step to take
            self.get_logger().info(ADD_CHILD_HINT)
        profiles_path = Path(p["profiles_path"]).expanduser()
        greetings_path = (
            Path(p["greetings_path"]).expanduser() if p["greetings_path"]
            else profiles_path.with_name("birthday_greetings.json")
        )
        self._greeting_log = GreetingLog(greetings_path)
        greeted = self._greeting_log.load()
        for warning in self._greeting_log.warnings:
            self.get_logger().warning(warning)
        self._core = IdentityCore(self._store, config, now=now_s(self), greeted=greeted)
        self._auth = ParentAuth(self._store.parent_pin, auth_config(p))
        self._steady = Clock(clock_type=ClockType.STEADY_TIME)
        self._calls = PersonalityCalls(self, self._core, lambda: now_s(self),
                                       p["reset_memory_wait_s"], p["effect_answer_timeout_s"])
        self._greetings = 0
        self._greeting_log_errors = 0

        self._state_pub = self.create_publisher(IdentityState, "identity/state",
                                                qos.of("identity/state"))
        self._consent_pub = self.create_publisher(ConsentState, "consent/state",
                                                  qos.of("consent/state"))
        self._system_pub = self.create_publisher(
            SystemEvent, "identity/system_events", qos.of("identity/system_events")
        )
        self.create_subscription(IdentityEvent, "identity/events", self._on_identity_event,
                                 qos.of("identity/events"))
        self.create_subscription(ConversationEvent, "conversation/events",
                                 self._on_conversation_event, qos.of("conversation/events"))
        self.create_subscription(ConsentEvent, "consent/events", self._on_consent_event,
                                 qos.of("consent/events"))
        self.create_service(ExecuteCommand, "identity/execute_command", self._on_execute,
                            callback_group=self._calls.group)
        self.create_service(RequestProfileUpdate, "identity/request_profile_update",
                            self._on_profile_update)
        self.create_service(RequestConsent, "identity/request_consent", self._on_consent)
        self.create_service(Delegate, "identity/delegate", self._on_delegate)
        self.create_service(ParentLogin, "identity/parent_login", self._on_parent_login)
        self.create_service(ManageHousehold, "identity/manage_household", self._on_household,
                            callback_group=self._calls.group)
        self.create_timer(1.0 / p["tick_hz"], self._on_tick)
        self._diagnostics = DiagnosticsPublisher(self, self._health)
        self._apply(self._core.tick(now_s(self), *self._date()))
        self._publish_identity()
        self._publish_consent()

    # -- date ---------------------------------------------------------------------------

    def _date(self) -> tuple[dt.date, bool]:
        """The local date on the node clock, and whether to trust it."""
        today = dt.datetime.fromtimestamp(now_s(self)).date()
        return today, bool(self.params["trust_system_date"]) and today.year >= MIN_TRUSTED_YEAR

    # -- inputs ---------------------------------------------------------------------------

    def _on_identity_event(self, msg: IdentityEvent) -> None:
        ev = IdentityInput(
            kind=msg.kind,
            user_id=_cut(msg.user_id),
            confidence=msg.confidence,
            value=_cut(msg.value),
            participant_id=_cut(msg.participant_id),
            identity_known=msg.identity_known,
        )
        self._apply(self._core.handle_identity_event(ev, now_s(self)))

    def _on_conversation_event(self, msg: ConversationEvent) -> None:
        if msg.kind == ConversationEvent.STARTED:
            self._apply(self._core.conversation_started(now_s(self)))
        elif msg.kind == ConversationEvent.ENDED:
            self._apply(self._core.conversation_ended(now_s(self)))
        else:
            self._rejections.reject("unknown_kind", f"conversation event kind {msg.kind}")

    def _on_consent_event(self, msg: ConsentEvent) -> None:
        ev = ConsentInput(msg.kind, _cut(msg.user_id), _cut(msg.scope), _cut(msg.granted_by))
        self._apply(self._core.handle_consent_event(ev, now_s(self)))

    def _on_tick(self) -> None:
        self._apply(self._core.tick(now_s(self), *self._date()))
        self._calls.flush_resets()

    # -- services ---------------------------------------------------------------------------

    def _steady_s(self) -> float:
        return self._steady.now().nanoseconds * 1e-9

    def _parent(self, token: str) -> ParentProof:
        return self._auth.check(token[:256], self._steady_s())

    def _on_parent_login(
        self, req: ParentLogin.Request, res: ParentLogin.Response
    ) -> ParentLogin.Response:
        if req.action == ParentLogin.Request.LOGOUT:
            res.success = self._auth.logout(req.token[:256])
            res.message = "logged out" if res.success else "unknown token"
            return res
        if req.action != ParentLogin.Request.LOGIN:
            self._rejections.reject("unknown_kind", f"parent_login action {req.action}")
            res.message = f"unknown action {req.action}"
            return res
        result = self._auth.login(req.pin, self._steady_s())  # the PIN is never logged
        if not result.success:
            self.get_logger().warning(f"parent login refused: {result.message}")
        res.success = result.success
        res.token = result.token
        res.expires_in_s = result.expires_in_s
        res.retry_after_s = result.retry_after_s
        res.message = result.message
        return res

    async def _on_execute(
        self, req: ExecuteCommand.Request, res: ExecuteCommand.Response
    ) -> ExecuteCommand.Response:
        out = self._core.execute_command(
            req.action, _cut(req.command), _cut(req.user_id), req.args[:256], now_s(self),
            self._parent(req.parent_token),
        )
        self._apply(out)
        self._reply(out, res)
        for effect in out.effects:
            if isinstance(effect, (ForgetUserEffect, LowerLimitsEffect)):
                ok, res.message = await self._calls.run_effect(effect)
                res.execution = (ExecuteCommand.Response.EXECUTION_SUCCESS if ok
                                 else ExecuteCommand.Response.EXECUTION_FAILURE)
        return res

    def _on_profile_update(
        self, req: RequestProfileUpdate.Request, res: RequestProfileUpdate.Response
    ) -> RequestProfileUpdate.Response:
        out = self._core.request_profile_update(
            req.action, _cut(req.requester_id), _cut(req.target_user_id), _cut(req.field),
            _cut(req.value), now_s(self), self._parent(req.parent_token),
        )
        self._apply(out)
        return self._reply(out, res)

    def _on_consent(
        self, req: RequestConsent.Request, res: RequestConsent.Response
    ) -> RequestConsent.Response:
        out = self._core.request_consent(
            req.action, _cut(req.user_id), _cut(req.scope), _cut(req.granted_by), now_s(self),
            self._parent(req.parent_token),
        )
        self._apply(out)
        return self._reply(out, res)

    def _on_delegate(self, req: Delegate.Request, res: Delegate.Response) -> Delegate.Response:
        out = self._core.delegate(
            req.action, _cut(req.owner_id), _cut(req.delegate_id), _cut(req.scope),
            req.duration_s, now_s(self), self._parent(req.parent_token),
        )
        self._apply(out)
        return self._reply(out, res)

    async def _on_household(self, req: ManageHousehold.Request,
                            res: ManageHousehold.Response) -> ManageHousehold.Response:
        """identity/manage_household (issue 30): add, edit or remove a child with the
        parent's token. A removal first asks the personality node to forget the child's
        memories and removes the profile only once it said so."""
        parent = self._parent(req.parent_token)
        name, born, call = _cut(req.name), _cut(req.birthdate), _cut(req.addressing)
        user_id = _cut(req.user_id)
        R = ManageHousehold.Request
        if req.action == R.ADD_CHILD:
            out = self._core.add_child(name, born, call, now_s(self), parent)
        elif req.action == R.EDIT_CHILD:
            out = self._core.edit_child(user_id, name, born, call, now_s(self), parent)
        elif req.action == R.REMOVE_CHILD:
            out = self._core.remove_child(user_id, now_s(self), parent)
            self._apply(out)
            forget = next((e for e in out.effects if isinstance(e, ForgetUserEffect)), None)
            if forget is not None:
                ok, detail = await self._calls.run_effect(forget)
                out = self._core.child_forgotten(user_id, ok, detail, now_s(self), parent)
        else:
            self._rejections.reject("unknown_kind", f"manage_household action {req.action}")
            res.message = f"unknown action {req.action}"
            return res
        self._apply(out)
        if out.reply is not None:
            res.accepted = out.reply.accepted
            res.user_id = out.reply.user_id
            res.message = out.reply.message
            if res.accepted:
                self.get_logger().info(f"household: {res.message}")
            else:
                self.get_logger().warning(f"household change refused: {res.message}")
        return res

    def _children(self) -> list[str]:
        return [u for u in self._store.user_ids()
                if (p := self._store.get(u)) is not None and p.role == "child"]

    @staticmethod
    def _reply(out: Outcome, res: Any) -> Any:
        if out.reply is not None:
            res.accepted = out.reply.accepted
            res.state = out.reply.state
            res.message = out.reply.message
        return res

    # -- outputs ------------------------------------------------------------------------------

    def _apply(self, out: Outcome) -> None:
        """Log and count refusals, publish what changed, start the effects."""
        for rejection in out.rejected:
            self._rejections.reject(rejection.cause, rejection.reason)
        for refusal in out.refused:
            self.get_logger().debug(f"refused {refusal.machine}.{refusal.event}: {refusal.reason}")
        for effect in out.effects:
            if isinstance(effect, BirthdayGreeting):
                self._greet(effect)
            elif isinstance(effect, ResetMemory):
                self._calls.queue_reset(effect)
        if out.identity_changed:
            self._publish_identity()
        if out.consent_changed:
            self._publish_consent()
        self._calls.flush_resets()

    def _greet(self, effect: BirthdayGreeting) -> None:
        msg = SystemEvent(kind=SystemEvent.BIRTHDAY_GREETING, battery_pct=-1.0,
                          detail="birthday_greeting", user_id=effect.user_id)
        msg.header.stamp = self.get_clock().now().to_msg()
        self._system_pub.publish(msg)
        self._greetings += 1
        try:
            self._greeting_log.save(set(self._core.greeted))
        except OSError as exc:
            self._greeting_log_errors += 1
            self.get_logger().error(f"could not write the greeting log: {exc}")

    def _publish_identity(self) -> None:
        snap = self._core.identity_snapshot()
        msg = IdentityState(
            state=snap.state,
            user_id=snap.user_id,
            role=snap.role,
            addressing_state=snap.addressing_state,
            preferred_name=snap.preferred_name,
            age_group=snap.age_group,
            conversation_mode=snap.conversation_mode,
            child_safe=snap.child_safe,
            participants=list(snap.participants),
        )
        msg.header.stamp = self.get_clock().now().to_msg()
        self._state_pub.publish(msg)

    def _publish_consent(self) -> None:
        msg = ConsentState(
            records=[
                ConsentRecord(user_id=r.user_id, scope=r.scope, state=r.state)
                for r in self._core.consent_snapshot()
            ]
        )
        msg.header.stamp = self.get_clock().now().to_msg()
        self._consent_pub.publish(msg)

    def _health(self) -> Health:
        core, calls = self._core, self._calls
        snap = core.identity_snapshot()
        values: dict[str, object] = {
            "identity_state": snap.state,
            "user_id": snap.user_id,
            "conversation_mode": snap.conversation_mode,
            "age_group": snap.age_group,
            "command_state": int(core.command_state),
            "household_size": len(self._store.user_ids()),
            "household_children": len(self._children()),
            # DESIGN §5: a corrupt household file is moved aside; counted (issue 14)
            "state_files.set_aside.household": self._store.set_aside,
            "birthday_greetings": self._greetings,
            "greeting_log_errors": self._greeting_log_errors,
            "reset_memory_called": calls.resets_called,
            "reset_memory_failed": calls.resets_failed,
            "reset_memory_waiting": calls.resets_waiting,
            "effects_called": calls.effects_called,
            "effects_failed": calls.effects_failed,
        }
        values.update({f"core.{k}": v for k, v in sorted(core.counters.items())})
        steady = self._steady_s()
        values.update({f"parent.{k}": v for k, v in sorted(self._auth.counters.items())})
        values["parent.consecutive_failures"] = self._auth.consecutive_failures
        values["parent.lockout_remaining_s"] = round(self._auth.lockout_remaining(steady), 1)
        values["parent.live_tokens"] = self._auth.live_tokens(steady)
        values.update(self._rejections.as_values())
        warnings = [*self._store.warnings, *self._greeting_log.warnings]
        locked = self._auth.lockout_remaining(steady)
        if locked > 0.0:
            warnings.append(f"parent login locked for {locked:.0f} s after wrong PINs")
        if calls.resets_failed:
            warnings.append(f"{calls.resets_failed} memory reset(s) failed")
        if self._greeting_log_errors:
            warnings.append("greeting log not written")
        if warnings:
            return Health(WARN, "; ".join(warnings), values)
        return Health(OK, "ok" if self._children() else f"hint: {ADD_CHILD_HINT}", values)


def main(args: list[str] | None = None) -> int:
    return run_node(IdentityNode, args)
