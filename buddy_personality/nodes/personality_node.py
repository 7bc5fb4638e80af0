"""personality node (DESIGN §3, §4.1): the personality engine over ROS.

A thin translation layer around `buddy_personality.personality.PersonalityEngine`, which
holds every rule (spec 002 §2-§10, §13 and the spec 000 intent gate):

- a tick at `tick_hz` (1 Hz) plus the event fast path: every inbound message is handed to
  the engine at once and the snapshot it returns is published straight away;
- `personality/snapshot` and `personality/llm_profile` are latched; `mood_changed` and
  `guardrail` carry the engine's events; `affect_markers` draws the VA plane for rviz
  (`nodes/personality/markers.py`);
- `list_memories` for the parent page; `reset_memory`, `forget_user` and `lower_limits`
  are the identity node's internal calls after an executed, PIN-authorised command
  (DESIGN erratum 18, issue 16; under SROS2 only the identity enclave may call them);
  `set_guardrail` / `override_affect` exist only when the read-only parameter `dev_mode`
  is true (erratum 19: less surface) (`nodes/personality/services.py`); the RS-1 / RS-2
  limits in force (today's lowered ones included) are in the diagnostics values
  `session_limit_s` / `daily_limit_s` (`nodes/personality/health.py`);
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
from typing import Any

from rclpy.event_handler import QoSLivelinessChangedInfo, SubscriptionEventCallbacks
from rclpy.node import Node
from rclpy.parameter import Parameter
from std_msgs.msg import Bool

from buddy_msgs.msg import (
    AiEmotion,
    ButtonEvent,
    ConsentState,
    ConversationEvent,
    ConversationPhase,
    GuardrailEvent,
    IdentityState,
    LlmProfile,
    MemoryExtract,
    MoodChanged,
    PersonalitySnapshot,
    SystemEvent,
    UsageState,
)
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.diagnostics import DiagnosticsPublisher, Health
from buddy_personality.nodes.common.inbound import InboundChecks
from buddy_personality.nodes.common.parameters import ParameterError, declare_parameters
from buddy_personality.nodes.common.rejections import RejectionLog
from buddy_personality.nodes.common.runtime import ClosesOwnResources, now_s, run_node
from buddy_personality.nodes.personality.health import personality_health
from buddy_personality.nodes.personality.markers import AffectMarkers
from buddy_personality.nodes.personality.parameters import (
    AXIS_DEFAULTS,
    PARAMETERS,
    guardrail_config,
    state_paths,
)
from buddy_personality.nodes.personality.services import PersonalityServices
from buddy_personality.personality.daily_limit_words import daily_limit_line
from buddy_personality.personality.engine import InputRejected, PersonalityEngine
from buddy_personality.personality.records import EngineOutput, GuardrailTriggered, MoodChange
from buddy_personality.personality.state_keeper import StateKeeper
from buddy_personality.personality.traits import derive_traits

UTC_OFFSET_REFRESH_S = 60.0
# IdentityState.state values under which memory may name the user (spec 004 §1)
IDENTIFIED_STATES = (IdentityState.CONFIRMED, IdentityState.CONFIRMED_ACTIVE)
PHASES = range(ConversationPhase.IDLE, ConversationPhase.DONE + 1)


def local_utc_offset_s() -> float:
    """The machine's local UTC offset now (DST aware); the core never reads a clock."""
    return float(time.localtime().tm_gmtoff)


class PersonalityNode(InboundChecks, ClosesOwnResources, Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("personality", **node_kwargs)
        self.params = declare_parameters(self, PARAMETERS)
        p = self.params
        try:
            traits = derive_traits(*(p[f"axes.{axis}"] for axis in AXIS_DEFAULTS))
        except ValueError as exc:
            raise ParameterError(f"parameter of node '{self.get_name()}': {exc}") from exc
        guardrails = guardrail_config(p)
        memory_path, usage_path, state_path = state_paths(p)
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
        self._markers = AffectMarkers(self, self.engine.traits)

        # The order these two are taken in does not matter: an intent that comes before
        # its session's STARTED is held by the engine and applied right after STARTED's
        # L0-06 pull (personality/early_intents.py, issue 30 item 2).
        self.create_subscription(ConversationEvent, "conversation/events",
                                 self._on_conversation, qos.of("conversation/events"))
        self.create_subscription(AiEmotion, "personality/ai_emotion", self._on_ai_emotion,
                                 qos.of("personality/ai_emotion"))
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

        # not `_services`: rclpy's Node keeps its own list under that name
        self._engine_services = PersonalityServices(
            self, self.engine, self._rejections, self._publish, self._apply, self._flush,
            p["dev_mode"])

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
        self._publish(out)
        self._markers.tick(out.snapshot, self.engine.attractor_valence,
                           self.engine.attractor_arousal)
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
        self._publish_applied(out.intents_applied)
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

    def _publish_applied(self, intents: tuple[tuple[str, int], ...]) -> None:
        """One emotion_applied per intent integrated: its session and turn, the mood the
        snapshot just sent shows (the bridge speaks the turn's line with it)."""
        for session_id, turn_id in intents:
            applied = LlmProfile(mood=self.engine.mood,
                                 intensity=float(self.engine.intensity),
                                 session_id=session_id, turn_id=turn_id)
            applied.header.stamp = self.get_clock().now().to_msg()
            self._applied_pub.publish(applied)

    # -- inputs ------------------------------------------------------------------------

    def _on_ai_emotion(self, msg: AiEmotion) -> None:
        out = self._apply(self.engine.on_ai_emotion, msg.emotion, msg.intensity,
                          msg.confidence, msg.source, msg.mood_reason, msg.session_id,
                          msg.turn_id)
        if out is None:  # a refused intent is answered too (mood unchanged)
            self._publish_applied(((msg.session_id, msg.turn_id),))
        # an applied one is answered in _publish, by the call that applied it (a held
        # intent by its session's STARTED or by the tick that ends its hold)

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

    # -- outputs -----------------------------------------------------------------------

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

    # -- diagnostics -------------------------------------------------------------------

    def _daily_limit_line(self) -> str | None:
        e = self.engine
        return daily_limit_line(e.usage.daily_s, e.daily_limit_s,
                                now_s(self), e.usage.utc_offset_s)

    def _health(self) -> Health:
        return personality_health(self.engine, {
            "ticks": self._ticks,
            "events_in": self._events_in,
            "fast_path_ms.last": f"{self._fast_path_last_ms:.3f}",
            "fast_path_ms.max": f"{self._fast_path_max_ms:.3f}",
            "last_guardrail": self._last_guardrail,
        }, self._rejections, self._daily_limit_line())

    def _close_own(self) -> None:
        """Write the state files now (ClosesOwnResources): RS-2, Ctrl-C, SIGTERM or a
        launch shutdown never loses counted talk, even if the DDS teardown after it is
        cut short (runtime.destroy_nodes)."""
        self.keeper.write_all(self.engine)


def main(args: list[str] | None = None) -> int:
    return run_node(PersonalityNode, args)
