"""personality node (DESIGN §3, §4.1): the personality engine over ROS.

A thin translation layer around `buddy_personality.personality.PersonalityEngine`, which
holds every rule (spec 002 §2-§10, §13 and the spec 000 intent gate):

- a tick at `tick_hz` (1 Hz) plus the event fast path: every inbound message is handed to
  the engine at once and the snapshot it returns is published straight away;
- `personality/snapshot` and `personality/llm_profile` are latched; `mood_changed` and
  `guardrail` carry the engine's events; `affect_markers` draws the VA plane for rviz;
- `list_memories` for the parent page; `reset_memory`, `forget_user` and `lower_limits`
  are the identity node's internal calls after an executed, PIN-authorised command
  (DESIGN erratum 18, issue 16; under SROS2 only the identity enclave may call them); the
  RS-1 / RS-2 limits in force (today's lowered ones included) are in the diagnostics
  values `session_limit_s` / `daily_limit_s`; `set_guardrail` / `override_affect` exist
  only when the read-only parameter `dev_mode` is true (erratum 19: less surface);
- bad input (NaN, infinities, out-of-range numbers, unknown emotion names or enum
  values) is refused by the engine, logged once per cause and counted in diagnostics.

Parameters: the five axes (read-only, range-checked: the personality is fixed, PE-4),
the §9.5 guardrail config (read-only; dev toggles go through `set_guardrail`),
`memory_path`, `usage_path` (RS-2 daily counter; "" = next to the memory file), `seed`,
`tick_hz`, `dev_mode`. No parameter turns memory on: consent comes only from the Consent
FSM on `consent/state` (erratum 18, RS-5).
"""

from __future__ import annotations

import time
from collections import deque
from pathlib import Path
from typing import Any

from geometry_msgs.msg import Point
from rclpy.event_handler import QoSLivelinessChangedInfo, SubscriptionEventCallbacks
from rclpy.node import Node
from rclpy.parameter import Parameter
from std_msgs.msg import Bool, ColorRGBA
from std_srvs.srv import Trigger
from visualization_msgs.msg import Marker, MarkerArray

from buddy_msgs.msg import (
    AiEmotion,
    ButtonEvent,
    ConsentState,
    ConversationEvent,
    ConversationPhase,
    GuardrailEvent,
    IdentityState,
    LlmProfile,
    MemoryEntry,
    MemoryExtract,
    MoodChanged,
    PersonalitySnapshot,
    SystemEvent,
    UsageState,
)
from buddy_msgs.srv import ForgetUser, ListMemories, LowerLimits, OverrideAffect, SetGuardrail
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.diagnostics import OK, WARN, DiagnosticsPublisher, Health
from buddy_personality.nodes.common.inbound import InboundChecks
from buddy_personality.nodes.common.parameters import (
    ParameterError,
    ParamSpec,
    declare_parameters,
)
from buddy_personality.nodes.common.rejections import RejectionLog
from buddy_personality.nodes.common.runtime import ClosesOwnResources, now_s, run_node
from buddy_personality.personality.daily_limit_words import daily_limit_line
from buddy_personality.personality.engine import InputRejected, PersonalityEngine
from buddy_personality.personality.guardrails import GuardrailConfig
from buddy_personality.personality.moods import MOOD_ANCHORS, NEGATIVE_MOODS
from buddy_personality.personality.records import (
    IDLE_STATE_NAMES,
    EngineOutput,
    GuardrailTriggered,
    MoodChange,
)
from buddy_personality.personality.state_keeper import StateKeeper
from buddy_personality.personality.traits import derive_traits

AXIS_DEFAULTS = {  # spec 002 §1.1 canonical axis positions (PE-4: fixed)
    "energy": 0.40,
    "reactivity": 0.50,
    "initiative": 0.30,
    "vulnerability": 0.35,
    "predictability": 0.75,
}

PARAMETERS: tuple[ParamSpec, ...] = (
    *(
        ParamSpec(f"axes.{axis}", value, f"{axis} axis position (spec 002 §1.1); fixed at "
                  "runtime (PE-4)", min=0.0, max=1.0, read_only=True)
        for axis, value in AXIS_DEFAULTS.items()
    ),
    ParamSpec("guardrails.negative_duration_caps", True, "spec 002 §9.1 duration caps",
              read_only=True),
    ParamSpec("guardrails.negative_intensity_caps", True, "spec 002 §9.1 intensity caps",
              read_only=True),
    ParamSpec("guardrails.context_gate", True, "spec 002 §9.2 context gate (HC-10)",
              read_only=True),
    ParamSpec("guardrails.session_time_limit_s", 900.0, "RS-1 session limit, seconds",
              min=1.0, max=86400.0, read_only=True),
    ParamSpec("guardrails.daily_time_limit_s", 2700.0, "RS-2 daily limit, seconds",
              min=1.0, max=86400.0, read_only=True),
    ParamSpec("memory_path", "~/.local/share/buddy/personality_memory.json",
              "JSON memory store (spec 002 §8.4)", read_only=True),
    ParamSpec("usage_path", "", "JSON daily conversation counter (RS-2); empty = "
              "personality_usage.json next to memory_path", read_only=True),
    ParamSpec("state_path", "", "JSON personality state (affect, idle state, session) that a "
              "restart resumes; empty = personality_state.json next to memory_path",
              read_only=True),
    ParamSpec("seed", 0, "seed of the engine's RNG (noise, jitter)", min=0, max=2**31 - 1,
              read_only=True),
    ParamSpec("tick_hz", 1.0, "engine tick rate (spec 002 §10, PE-10)", min=0.1, max=50.0,
              read_only=True),
    ParamSpec("dev_mode", False, "enables set_guardrail and override_affect", read_only=True),
)

MARKER_FRAME = "buddy_affect"  # the VA plane: x = valence, y = arousal
TRAIL_LENGTH = 30  # ticks of affect history drawn as a trail
UTC_OFFSET_REFRESH_S = 60.0
# IdentityState.state values under which memory may name the user (spec 004 §1)
IDENTIFIED_STATES = (IdentityState.CONFIRMED, IdentityState.CONFIRMED_ACTIVE)
PHASES = range(ConversationPhase.IDLE, ConversationPhase.DONE + 1)


def local_utc_offset_s() -> float:
    """The machine's local UTC offset now (DST aware); the core never reads a clock."""
    return float(time.localtime().tm_gmtoff)


def _color(mood: str, alpha: float = 1.0) -> ColorRGBA:
    if mood in NEGATIVE_MOODS:
        return ColorRGBA(r=0.9, g=0.3, b=0.3, a=alpha)
    if mood == "neutral":
        return ColorRGBA(r=0.8, g=0.8, b=0.8, a=alpha)
    return ColorRGBA(r=0.3, g=0.8, b=0.4, a=alpha)


def _marker(ns: str, mid: int, kind: int, x: float, y: float, scale: float,
            color: ColorRGBA) -> Marker:
    m = Marker()
    m.header.frame_id = MARKER_FRAME
    m.ns = ns
    m.id = mid
    m.type = kind
    m.action = Marker.ADD
    m.pose.position.x = float(x)
    m.pose.position.y = float(y)
    m.pose.orientation.w = 1.0
    m.scale.x = m.scale.y = m.scale.z = scale
    m.color = color
    return m


class PersonalityNode(InboundChecks, ClosesOwnResources, Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("personality", **node_kwargs)
        self.params = declare_parameters(self, PARAMETERS)
        p = self.params
        try:
            traits = derive_traits(*(p[f"axes.{axis}"] for axis in AXIS_DEFAULTS))
        except ValueError as exc:
            raise ParameterError(f"parameter of node '{self.get_name()}': {exc}") from exc
        guardrails = GuardrailConfig(
            negative_duration_caps=p["guardrails.negative_duration_caps"],
            negative_intensity_caps=p["guardrails.negative_intensity_caps"],
            context_gate=p["guardrails.context_gate"],
            session_time_limit_s=p["guardrails.session_time_limit_s"],
            daily_time_limit_s=p["guardrails.daily_time_limit_s"],
        )
        memory_path = Path(p["memory_path"]).expanduser() if p["memory_path"] else None
        usage_path: Path | None
        if p["usage_path"]:
            usage_path = Path(p["usage_path"]).expanduser()
        elif memory_path is not None:
            usage_path = memory_path.with_name("personality_usage.json")
        else:
            usage_path = None
        state_path = (Path(p["state_path"]).expanduser() if p["state_path"] else
                      memory_path.with_name("personality_state.json") if memory_path else None)
        self._utc_offset = local_utc_offset_s()
        self._utc_offset_checked = time.monotonic()
        now = now_s(self)
        # The node owns the state files; the engine says what is due (state_keeper.py).
        self.keeper = StateKeeper(now, self._utc_offset, usage_path=usage_path,
                                  memory_path=memory_path, state_path=state_path)
        k = self.keeper
        self.engine = PersonalityEngine(
            now, traits, seed=p["seed"], guardrails=guardrails,
            usage=k.usage, memory=k.memory, resume=k.resume,
            keeps_state=k.state_path is not None, warnings=k.warnings,
            # Erratum 18: no parameter gates memory; the engine's RS-5 gate is the
            # Consent FSM's GRANTED record for the current user (consent/state).
            memory_consent=True, utc_offset_s=self._utc_offset,
        )
        for warning in self.engine.warnings:
            self.get_logger().warning(warning)
        lockout = self._daily_limit_line()
        if lockout:
            self.get_logger().warning(lockout)
        if self.engine.resumed:
            self.get_logger().info(f"restart: {self.engine.resumed}")
        self._rejections = RejectionLog(self.get_logger().warning)
        self._trail: deque[tuple[float, float]] = deque(maxlen=TRAIL_LENGTH)
        self._static_markers = self._build_static_markers()
        self._events_in = 0
        self._fast_path_last_ms = 0.0
        self._fast_path_max_ms = 0.0
        self._ticks = 0
        self._last_guardrail = ""

        self._snapshot_pub = self.create_publisher(PersonalitySnapshot, "personality/snapshot",
                                                   qos.of("personality/snapshot"))
        self._profile_pub = self.create_publisher(LlmProfile, "personality/llm_profile",
                                                  qos.of("personality/llm_profile"))
        # issue 16: RS-1/RS-2 talk and limits in force, latched, sent only when a whole
        # second or a limit changed (the parent page no longer reads /diagnostics)
        self._usage_pub = self.create_publisher(UsageState, "personality/usage",
                                                qos.of("personality/usage"))
        self._usage_sent: tuple[float, ...] | None = None
        self._mood_pub = self.create_publisher(MoodChanged, "personality/mood_changed",
                                               qos.of("personality/mood_changed"))
        self._guardrail_pub = self.create_publisher(GuardrailEvent, "personality/guardrail",
                                                    qos.of("personality/guardrail"))
        # Issue 30 item 2: one reply per AiEmotion, naming its session and turn, with the
        # mood the face shows once the intent was integrated: the bridge speaks the turn's
        # line with it (the snapshot carries no turn, and a 1 Hz one may come in between).
        self._applied_pub = self.create_publisher(LlmProfile, "personality/emotion_applied",
                                                  qos.of("personality/emotion_applied"))
        self._marker_pub = self.create_publisher(MarkerArray, "personality/affect_markers",
                                                 qos.of("personality/affect_markers"))

        self.create_subscription(AiEmotion, "personality/ai_emotion", self._on_ai_emotion,
                                 qos.of("personality/ai_emotion"))
        self.create_subscription(ConversationEvent, "conversation/events",
                                 self._on_conversation, qos.of("conversation/events"))
        # Watch only (its messages are the ones above): is a bridge's writer alive? It
        # matches writers that offer the bridge's lease (qos.BRIDGE_EVENTS), and DDS says
        # when one stops asserting liveliness: a killed bridge within the lease (issue 19).
        self._bridges_alive = 0
        self._bridges_seen = False
        self.create_subscription(
            ConversationEvent, "conversation/events", lambda _m: None, qos.BRIDGE_WATCH,
            event_callbacks=SubscriptionEventCallbacks(
                liveliness=self._on_bridge_liveliness,
                incompatible_qos=lambda _e: None))   # writers without a lease: not bridges
        self.create_subscription(ConversationPhase, "conversation/phase", self._on_phase,
                                 qos.of("conversation/phase"))
        self.create_subscription(SystemEvent, "system/events", self._on_system,
                                 qos.of("system/events"))
        self.create_subscription(Bool, "tts/speaking", self._on_speaking, qos.of("tts/speaking"))
        self.create_subscription(ButtonEvent, "face/button", self._on_button, qos.of("face/button"))
        self.create_subscription(MemoryExtract, "memory/extract", self._on_memory,
                                 qos.of("memory/extract"))
        self.create_subscription(IdentityState, "identity/state", self._on_identity,
                                 qos.of("identity/state"))
        self.create_subscription(ConsentState, "consent/state", self._on_consent,
                                 qos.of("consent/state"))

        self.create_service(ListMemories, "personality/list_memories", self._on_list_memories)
        self.create_service(Trigger, "personality/reset_memory", self._on_reset_memory)
        self.create_service(ForgetUser, "personality/forget_user", self._on_forget_user)
        self.create_service(LowerLimits, "personality/lower_limits", self._on_lower_limits)
        if p["dev_mode"]:  # erratum 19: dev-only services are not advertised otherwise
            self.create_service(SetGuardrail, "personality/set_guardrail",
                                self._on_set_guardrail)
            self.create_service(OverrideAffect, "personality/override_affect",
                                self._on_override)

        self.add_post_set_parameters_callback(self._on_parameters_set)
        self.create_timer(1.0 / p["tick_hz"], self._tick)
        self._diagnostics = DiagnosticsPublisher(self, self._health)
        out = self.engine.snapshot(now_s(self))
        out.profile = self.engine.llm_profile(out.snapshot.stamp)
        self._publish(out)

    # -- parameters --------------------------------------------------------------------

    def _on_parameters_set(self, params: list[Parameter]) -> None:
        for param in params:
            if param.name in self.params:
                self.params[param.name] = param.value

    # -- the tick and the fast path ----------------------------------------------------

    def _tick(self) -> None:
        now = now_s(self)
        wall = time.monotonic()
        if wall - self._utc_offset_checked >= UTC_OFFSET_REFRESH_S:
            self._utc_offset_checked = wall
            offset = local_utc_offset_s()
            if offset != self._utc_offset:  # DST change: local midnight moves
                self._utc_offset = offset
                self.engine.set_utc_offset(offset, now)
        if self.engine.conversation_active:
            # issue 19: a session nobody runs (the bridge died) ends within seconds
            ended = self.engine.on_bridge_presence(now, self._bridge_present())
            if ended is not None:
                self._publish(ended)
                self.get_logger().warning(
                    f"session ended: {self.engine.last_end_reason} (no live llm_bridge "
                    "publishes conversation/events any more)")
        out = self.engine.tick(now)
        self._ticks += 1
        self._trail.append((out.snapshot.valence, out.snapshot.arousal))
        self._publish(out)
        self._publish_markers(out)
        self._flush()

    def _flush(self) -> None:
        """Persist what the engine has due, after the snapshot went out."""
        if self.engine.writes_pending:
            warnings = len(self.engine.warnings)
            self.keeper.write(self.engine)  # publish first, then fsync
            for warning in self.engine.warnings[warnings:]:
                self.get_logger().warning(warning)

    def _apply(self, call: Any, *args: Any) -> EngineOutput | None:
        """Run one engine event at the node clock; refuse and count bad input."""
        self._events_in += 1
        started = time.perf_counter()
        try:
            out = call(now_s(self), *args)
        except InputRejected as exc:
            self._rejections.reject(exc.cause, str(exc))
            return None
        self._publish(out)
        # DESIGN §4.1 fast path: inbound event to published snapshot, measured here
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        self._fast_path_last_ms = elapsed_ms
        self._fast_path_max_ms = max(self._fast_path_max_ms, elapsed_ms)
        self._flush()
        return out

    def _publish(self, out: EngineOutput) -> None:
        stamp = self.get_clock().now().to_msg()
        s = out.snapshot
        snap = PersonalitySnapshot(
            mood=s.mood, intensity=float(s.intensity), valence=float(s.valence),
            arousal=float(s.arousal), tonic_valence=float(s.tonic_valence),
            tonic_arousal=float(s.tonic_arousal), layer=s.layer,
            conversation_active=s.conversation_active, idle_state=s.idle_state,
        )
        snap.header.stamp = stamp
        self._snapshot_pub.publish(snap)
        self._publish_usage(stamp)
        for event in out.events:
            if isinstance(event, MoodChange):
                msg = MoodChanged(prev=event.prev, next=event.next, cause=event.cause,
                                  intensity=float(event.intensity))
                msg.header.stamp = stamp
                self._mood_pub.publish(msg)
            elif isinstance(event, GuardrailTriggered):
                g = GuardrailEvent(rule_id=event.rule_id, action=event.action,
                                   details=event.details)
                g.header.stamp = stamp
                self._guardrail_pub.publish(g)
                self._last_guardrail = f"{event.rule_id} {event.action}"
                self.get_logger().info(f"guardrail {event.rule_id}: {event.action} "
                                       f"({event.details})")
        if out.profile is not None:
            pr = out.profile
            prof = LlmProfile(
                mood=pr.mood, intensity=float(pr.intensity), valence=float(pr.valence),
                arousal=float(pr.arousal), tonic_valence=float(pr.tonic_valence),
                tonic_arousal=float(pr.tonic_arousal), session_id=pr.session_id,
                turn_id=pr.turn_id, memory_tags=list(pr.memory_tags),
                conversation_arc=pr.conversation_arc, layer=pr.layer,
                conversation_active=pr.conversation_active,
            )
            prof.header.stamp = stamp
            self._profile_pub.publish(prof)

    # -- inputs ------------------------------------------------------------------------

    def _on_ai_emotion(self, msg: AiEmotion) -> None:
        self._apply(self.engine.on_ai_emotion, msg.emotion, msg.intensity, msg.confidence,
                    msg.source, msg.mood_reason, msg.session_id, msg.turn_id)
        # after the snapshot went out; a refused intent is answered too (mood unchanged)
        applied = LlmProfile(mood=self.engine.mood, intensity=float(self.engine.intensity),
                             session_id=msg.session_id, turn_id=msg.turn_id)
        applied.header.stamp = self.get_clock().now().to_msg()
        self._applied_pub.publish(applied)

    def _on_bridge_liveliness(self, info: QoSLivelinessChangedInfo) -> None:
        self._bridges_alive = info.alive_count
        self._bridges_seen = self._bridges_seen or info.alive_count > 0

    def _bridge_present(self) -> bool:
        """A bridge runs the session: once one was seen alive, a live one (liveliness
        lease); before that, any writer of conversation/events (the graph API only drops
        a killed process when its participant lease ends)."""
        if self._bridges_seen:
            return self._bridges_alive > 0
        return self.count_publishers("conversation/events") > 0

    def _on_conversation(self, msg: ConversationEvent) -> None:
        if msg.kind == ConversationEvent.STARTED:
            self._apply(self.engine.on_conversation_started, msg.session_id, msg.trigger)
        elif msg.kind == ConversationEvent.ENDED:
            stale = self.engine.stale_end_reason(msg.session_id)
            if stale is not None:
                self._rejections.reject("stale_end", stale)
            self._apply(self.engine.on_conversation_ended, msg.session_id, msg.turns,
                        msg.end_reason or msg.trigger)
        else:
            self._rejections.reject("unknown_enum", f"conversation event kind {msg.kind}")

    def _on_phase(self, msg: ConversationPhase) -> None:
        if msg.phase not in PHASES:
            self._rejections.reject("unknown_enum", f"conversation phase {msg.phase}")
        elif msg.phase == ConversationPhase.ATTENTION:
            # the wake word was heard: L0-13 child approach
            self._apply(self.engine.on_child_approach)

    def _on_system(self, msg: SystemEvent) -> None:
        self._apply(self.engine.on_system_event, msg.kind, msg.battery_pct, msg.detail)

    def _on_speaking(self, msg: Bool) -> None:
        self._apply(self.engine.on_speech_activity, bool(msg.data))

    def _on_button(self, msg: ButtonEvent) -> None:
        self._apply(self.engine.on_button, msg.button_id, msg.event_type)

    def _on_memory(self, msg: MemoryExtract) -> None:
        tags = [(t.tag, t.category, t.valence_bias, t.arousal_bias) for t in msg.tags]
        out = self._apply(self.engine.on_memory_extract, tags, msg.user_id)
        if out is None or out.memory_report is None:
            return
        report = out.memory_report
        if report.refused_reason:
            self.get_logger().info(f"memory not written: {report.refused_reason}",
                                   throttle_duration_sec=60.0)
        for tag, reason in report.rejected:
            self._rejections.reject("memory_tag", f"{tag[:48]!r}: {reason}")

    def _on_identity(self, msg: IdentityState) -> None:
        user = msg.user_id if msg.state in IDENTIFIED_STATES else ""
        self._apply(self.engine.on_identity, user)

    def _on_consent(self, msg: ConsentState) -> None:
        records = [(r.user_id, r.scope, r.state) for r in msg.records]
        self._apply(self.engine.on_consent, records)

    # -- services ----------------------------------------------------------------------

    def _on_list_memories(self, request: ListMemories.Request,
                          response: ListMemories.Response) -> ListMemories.Response:
        response.entries = [
            MemoryEntry(tag=m.tag, category=m.category, strength=float(m.strength),
                        valence_bias=float(m.valence_bias), arousal_bias=float(m.arousal_bias),
                        created=float(m.created), last_reinforced=float(m.last_reinforced),
                        reinforcement_count=m.reinforcement_count, source=m.source,
                        users=list(m.users))
            for m in self.engine.list_memories(now_s(self))
        ]
        response.consent_active = self.engine.memory_writable
        return response

    def _on_reset_memory(self, request: Trigger.Request,
                         response: Trigger.Response) -> Trigger.Response:
        count = len(self.engine.memory)
        try:
            out = self.engine.reset_memory(now_s(self))
        except OSError as exc:
            response.success = False
            response.message = f"could not write the memory file: {exc}"
            self.get_logger().error(response.message)
            return response
        self._publish(out)
        response.success = True
        response.message = f"forgot {count} memories"
        self.get_logger().info(f"reset_memory: {response.message}")
        return response

    def _on_forget_user(self, request: ForgetUser.Request,
                        response: ForgetUser.Response) -> ForgetUser.Response:
        """Forget one household user (issue 16): written to disk before the answer."""
        user = request.user_id[:64]
        try:
            out, result = self.engine.forget_user(now_s(self), user)
        except InputRejected as exc:
            self._rejections.reject(exc.cause, str(exc))
            response.success, response.message = False, str(exc)
            return response
        except OSError as exc:
            response.success = False
            response.message = f"could not write the memory file: {exc}"
            self.get_logger().error(response.message)
            return response
        self._publish(out)
        response.success = True
        response.removed = len(result.removed)
        response.kept_shared = len(result.kept_shared)
        n, shared = len(result.removed), len(result.kept_shared)
        response.message = (f"forgot {n} {'memory' if n == 1 else 'memories'} of {user}"
                            + (f"; kept {shared} shared with another child" if shared else ""))
        self.get_logger().info(f"forget_user: {response.message}")
        return response

    def _on_lower_limits(self, request: LowerLimits.Request,
                         response: LowerLimits.Response) -> LowerLimits.Response:
        """Lower today's RS-1 / RS-2 limits (issue 16); the engine refuses any raise."""
        out, outcome = self.engine.lower_limits(
            now_s(self),
            request.session_limit_s if request.session_limit_s != 0.0 else None,
            request.daily_limit_s if request.daily_limit_s != 0.0 else None)
        self._publish(out)
        self._flush()  # the lowered limits are in the usage file before the answer
        response.success = outcome.success
        response.message = outcome.message
        response.session_limit_s = float(outcome.session_limit_s)
        response.daily_limit_s = float(outcome.daily_limit_s)
        self.get_logger().info(f"lower_limits: {outcome.message}")
        return response

    def _dev_refusal(self, service: str) -> str | None:
        if self.params["dev_mode"]:
            return None
        self._rejections.reject("dev_only", service)
        return f"{service} is available only with dev_mode:=true"

    def _on_set_guardrail(self, request: SetGuardrail.Request,
                          response: SetGuardrail.Response) -> SetGuardrail.Response:
        refusal = self._dev_refusal("set_guardrail")
        if not refusal and request.key == "memory_consent_required":
            refusal = "memory consent comes only from the Consent FSM (erratum 18)"
        if refusal:
            response.success, response.message = False, refusal
            return response
        try:
            self.engine.set_guardrail(request.key, request.value)
        except ValueError as exc:
            response.success, response.message = False, str(exc)
            return response
        response.success = True
        response.message = f"{request.key} = {request.value}"
        self.get_logger().warning(f"dev: guardrail {response.message}")
        return response

    def _on_override(self, request: OverrideAffect.Request,
                     response: OverrideAffect.Response) -> OverrideAffect.Response:
        refusal = self._dev_refusal("override_affect")
        if refusal:
            response.success, response.message = False, refusal
            return response
        out = self._apply(self.engine.override_affect, request.valence, request.arousal,
                          request.duration_s)
        if out is None:
            response.success = False
            response.message = self._rejections.last_error
            return response
        response.success = True
        response.message = (f"affect at ({out.snapshot.valence:.2f}, "
                            f"{out.snapshot.arousal:.2f}), mood {out.snapshot.mood}")
        return response

    # -- rviz markers ------------------------------------------------------------------

    def _build_static_markers(self) -> list[Marker]:
        """The 13 anchors with labels and the baseline never move: built once."""
        markers: list[Marker] = []
        for k, (mood, (v, a)) in enumerate(MOOD_ANCHORS.items()):
            markers.append(_marker("anchors", k, Marker.SPHERE, v, a, 0.05, _color(mood, 0.8)))
            label = _marker("labels", k, Marker.TEXT_VIEW_FACING, v, a + 0.06, 0.06,
                            ColorRGBA(r=1.0, g=1.0, b=1.0, a=1.0))
            label.text = mood
            markers.append(label)
        t = self.engine.traits
        markers.append(_marker("baseline", 0, Marker.CYLINDER, t.baseline_valence,
                               t.baseline_arousal, 0.04, ColorRGBA(r=0.3, g=0.5, b=1.0, a=1.0)))
        return markers

    def _publish_usage(self, stamp: Any) -> None:
        e = self.engine
        lowered = e.usage.lowered_session_s is not None or e.usage.lowered_daily_s is not None
        values = (float(int(e.usage.session_s)), float(int(e.usage.daily_s)),
                  float(e.session_limit_s), float(e.daily_limit_s), float(lowered))
        if values == self._usage_sent:
            return
        self._usage_sent = values
        msg = UsageState(session_s=values[0], daily_s=values[1], session_limit_s=values[2],
                         daily_limit_s=values[3], limits_lowered_today=lowered)
        msg.header.stamp = stamp
        self._usage_pub.publish(msg)

    def _publish_markers(self, out: EngineOutput) -> None:
        # Markers are for rviz and Foxglove only: nobody watching, nothing built. Building
        # and publishing them each second was a tenth of the idle robot's executor time
        # (issue 14); a viewer that connects gets them at the next tick (the trail is kept).
        if self._marker_pub.get_subscription_count() == 0:
            return
        s = out.snapshot
        current = _marker("affect", 0, Marker.SPHERE, s.valence, s.arousal, 0.08,
                          _color(s.mood))
        trail = _marker("trail", 0, Marker.LINE_STRIP, 0.0, 0.0, 0.01,
                        ColorRGBA(r=1.0, g=0.8, b=0.2, a=0.8))
        trail.points = [Point(x=float(v), y=float(a), z=0.0) for v, a in self._trail]
        # DESIGN §6.11: where the decay pulls now (the baseline, or the sleep rule's target
        # while drowsy / asleep), so a sleeping Buddy's attractor is seen moving in rviz.
        e = self.engine
        attractor = _marker("attractor", 0, Marker.CUBE, e.attractor_valence,
                            e.attractor_arousal, 0.05, ColorRGBA(r=0.6, g=0.4, b=1.0, a=0.9))
        stamp = self.get_clock().now().to_msg()
        markers = [*self._static_markers, attractor, current, trail]
        for m in markers:
            m.header.stamp = stamp
        self._marker_pub.publish(MarkerArray(markers=markers))

    # -- diagnostics -------------------------------------------------------------------

    def _daily_limit_line(self) -> str | None:
        e = self.engine
        return daily_limit_line(e.usage.daily_s, e.daily_limit_s,
                                now_s(self), e.usage.utc_offset_s)

    def _health(self) -> Health:
        e = self.engine
        stats = e.stats
        values: dict[str, object] = {
            "mood": e.mood,
            "intensity": f"{e.intensity:.2f}",
            "valence": f"{e.valence:.3f}",
            "arousal": f"{e.arousal:.3f}",
            "tonic_valence": f"{e.tonic_valence:.3f}",
            "tonic_arousal": f"{e.tonic_arousal:.3f}",
            "layer": e.layer,
            "conversation_active": e.conversation_active,
            "idle_state": IDLE_STATE_NAMES.get(e.idle_state, "?"),
            "session_s": f"{e.usage.session_s:.0f}",
            "last_end_reason": e.last_end_reason,
            # issue 31 item 2: a new session over a running one (a restarted bridge)
            "sessions_taken_over": stats.sessions_taken_over,
            "daily_conversation_s": f"{e.usage.daily_s:.0f}",
            # RS-1 / RS-2 in force: the configured limits, or today's lowered ones
            "session_limit_s": f"{e.session_limit_s:.0f}",
            "daily_limit_s": f"{e.daily_limit_s:.0f}",
            "limits_lowered_today": (e.usage.lowered_session_s is not None
                                     or e.usage.lowered_daily_s is not None),
            "memory.size": len(e.memory),
            # DESIGN §5: a corrupt state file is moved aside; counted here (issue 14)
            "state_files.set_aside.memory": e.memory.set_aside,
            "state_files.set_aside.usage": e.usage.set_aside,
            "memory.consent_active": e.memory_writable,
            "ticks": self._ticks,
            "events_in": self._events_in,
            "fast_path_ms.last": f"{self._fast_path_last_ms:.3f}",
            "fast_path_ms.max": f"{self._fast_path_max_ms:.3f}",
            "last_guardrail": self._last_guardrail,
        }
        for prefix, counter in (("impulses", stats.impulses_by_source),
                                ("gate", stats.gate_rejections),
                                ("guardrails", stats.guardrail_triggers),
                                ("memory.refused", stats.memory_refusals),
                                ("resumed", stats.resumed)):
            values.update({f"{prefix}.{k}": n for k, n in sorted(counter.items())})
        values.update({f"write_errors.{k}": n for k, n in sorted(stats.write_errors.items())})
        values.update(self._rejections.as_values())
        level, message = OK, f"{e.mood} ({'talking' if e.conversation_active else 'idle'})"
        if e.warnings:
            level, message = WARN, f"{message}; {e.warnings[-1]}"
        lockout = self._daily_limit_line()
        if lockout:
            level, message = WARN, lockout
        return Health(level=level, message=message, values=values)


    def _close_own(self) -> None:
        """Write the state files now (ClosesOwnResources): RS-2, Ctrl-C, SIGTERM or a
        launch shutdown never loses counted talk, even if the DDS teardown after it is
        cut short (runtime.destroy_nodes)."""
        self.keeper.write_all(self.engine)


def main(args: list[str] | None = None) -> int:
    return run_node(PersonalityNode, args)
