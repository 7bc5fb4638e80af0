"""llm_bridge node (DESIGN §4.5): Buddy's voice over ROS.

A thin translation layer around `buddy_personality.cognition.bridge.BridgeCore`:

- inputs: `speech/utterance`, `face/button`, `personality/guardrail` (RS-1, RS-2),
  and the latched `personality/llm_profile`, `personality/snapshot`, `governor/state`,
  `identity/state`; each becomes one core call at the node clock.
- outputs: whatever the core's `Step` lists: `conversation/events`, `conversation/phase`
  (latched), `personality/ai_emotion`, `tts/say`, `face/gesture`, `memory/extract`,
  `governor/signal`, and `system/events` (SERVER_ONLINE / SERVER_OFFLINE, which the
  personality engine turns into its layer); `/diagnostics` at 1 Hz.
- identity from speech (DESIGN erratum 17): the core's `SpeakerTracker` turns a child's
  self-introduction and yes/no into `identity/events`; the household names it matches
  come from the household file (`household_path`, read only, re-read when it changes).
  A spoken parent request is answered with a pointer to the parent page and a
  `personality/guardrail` event (erratum 18).
- `llm_bridge/end_conversation` (std_srvs/Trigger) ends the session.
- the guard model (issue 27, DESIGN erratum 23): with `guard_model` set, every LLM reply
  is checked by it sentence by sentence and the child's line goes to it for HC-9
  (`cognition/guard.py`, `cognition/reply_gate.py`), in a worker pool of its own. With
  a server but no guard model the node says so at start-up and in its diagnostics.
- At every session start the node asks `governor/reset` for a new episode (asynchronously;
  the core ignores the old episode's state until the new one arrives).

LLM requests and health probes are blocking HTTP: they run in worker pools, never on the
executor thread (nodes/llm_bridge/workers.py). Workers hand the streamed INLINE emotion
and the final result back through the node's `Inbox`, so every core call happens on the
executor thread. Parameters: nodes/llm_bridge/parameters.py; message translation:
nodes/llm_bridge/messages.py; diagnostics: nodes/llm_bridge/health.py.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from rclpy.node import Node
from std_msgs.msg import Bool
from std_srvs.srv import Trigger

from buddy_msgs.msg import (
    AiEmotion,
    ButtonEvent,
    ConversationEvent,
    ConversationPhase,
    Gesture,
    GovernorSignal,
    GovernorState,
    GuardrailEvent,
    IdentityEvent,
    IdentityState,
    LlmProfile,
    MemoryExtract,
    PersonalitySnapshot,
    Say,
    SystemEvent,
    Utterance,
)
from buddy_msgs.srv import ResetGovernor
from buddy_personality.cognition.bridge import ConversationOut, SayOut, Step
from buddy_personality.cognition.health import SERVER_OFFLINE, SERVER_ONLINE
from buddy_personality.cognition.say_mood import SayMoodSync
from buddy_personality.cognition.server_words import online_line
from buddy_personality.cognition.signal_order import SignalOrder
from buddy_personality.cognition.speaker import HouseholdFile
from buddy_personality.cognition.vocabulary import MOOD_SET
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.diagnostics import DiagnosticsPublisher
from buddy_personality.nodes.common.inbound import InboundChecks
from buddy_personality.nodes.common.parameters import declare_parameters
from buddy_personality.nodes.common.rejections import RejectionLog
from buddy_personality.nodes.common.runtime import ClosesOwnResources, now_s, run_node
from buddy_personality.nodes.llm_bridge import messages as msgs
from buddy_personality.nodes.llm_bridge.health import NO_GUARD_LINE, BridgeDiagnostics
from buddy_personality.nodes.llm_bridge.messages import TAG_MAX, TEXT_MAX
from buddy_personality.nodes.llm_bridge.parameters import (
    PARAMETERS,
    build_client,
    build_core,
    build_guard,
)
from buddy_personality.nodes.llm_bridge.workers import BridgeWorkers, WorkerItem
from buddy_personality.safety.alerts import AlertRecord, append_alert
from buddy_personality.safety.lazy_regex import compile_pending

# Imported from here by tests and tools (config/robot.yaml's check, the guard graph test).
__all__ = ["NO_GUARD_LINE", "PARAMETERS", "LlmBridgeNode", "main"]

HOUSEHOLD_CHECK_S = 2.0  # how often the household file's mtime is looked at
PHASE_MIN_S = 0.05       # a diagnostics phase closer than this is taken one period later
# The tick wakes this long after a deadline: the core's comparisons are `now >= deadline`
# or strict, so the deadline has passed when the tick runs.
DEADLINE_MARGIN_S = 0.001


class LlmBridgeNode(BridgeDiagnostics, InboundChecks, ClosesOwnResources, Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("llm_bridge", **node_kwargs)
        self.params = p = declare_parameters(self, PARAMETERS)
        url = p["server_url"].strip()
        self._core = build_core(p, sim_time=bool(self.get_parameter("use_sim_time").value))
        self._client = build_client(p)
        self._guard = build_guard(p)
        if self._guard is not None:
            self.get_logger().info(f"guard model {p['guard_model'].strip()} "
                                   f"({p['guard_backend']}) at "
                                   f"{self._guard.config.base_url} checks every LLM reply")
        elif url:
            self.get_logger().warning(NO_GUARD_LINE)
        self._rejections = RejectionLog(self.get_logger().warning)
        self._resets_unavailable = 0
        self._signal_order: SignalOrder[GovernorSignal] = SignalOrder()
        # Worker threads -> executor: one Inbox (nodes/common/inbox.py, docs/NODES.md).
        self._workers = BridgeWorkers(self, self._client, self._guard, self._on_worker_item)

        self._pub_emotion = self.create_publisher(AiEmotion, "personality/ai_emotion",
                                                  qos.of("personality/ai_emotion"))
        # with a liveliness lease: the personality node notices a killed bridge (issue 19)
        self._pub_conv = self.create_publisher(ConversationEvent, "conversation/events",
                                               qos.BRIDGE_EVENTS)
        # its lease is asserted by hand (why: qos.BRIDGE_EVENTS); a 1 s timer joins the
        # graph's aligned 1 Hz wake (align_periodic_timers), so it costs no wake of its own
        self.create_timer(qos.BRIDGE_LIVELINESS_ASSERT_S, self._pub_conv.assert_liveliness)
        self._pub_phase = self.create_publisher(ConversationPhase, "conversation/phase",
                                                qos.of("conversation/phase"))
        self._pub_memory = self.create_publisher(MemoryExtract, "memory/extract",
                                                 qos.of("memory/extract"))
        self._pub_signal = self.create_publisher(GovernorSignal, "governor/signal",
                                                 qos.of("governor/signal"))
        self._pub_say = self.create_publisher(Say, "tts/say", qos.of("tts/say"))
        self._pub_gesture = self.create_publisher(Gesture, "face/gesture", qos.of("face/gesture"))
        self._pub_system = self.create_publisher(SystemEvent, "system/events",
                                                 qos.of("system/events"))
        self._pub_identity = self.create_publisher(IdentityEvent, "identity/events",
                                                   qos.of("identity/events"))
        household = p["household_path"].strip()
        self._household = HouseholdFile(Path(household).expanduser() if household else None)
        self._refresh_household()
        self.create_timer(HOUSEHOLD_CHECK_S, self._refresh_household)
        self._pub_guardrail = self.create_publisher(GuardrailEvent, "personality/guardrail",
                                                    qos.of("personality/guardrail"))
        log = p["alert_log_path"].strip()
        self._alert_log = Path(log).expanduser() if log else None
        self._alerts_written = 0
        self._alert_failures = 0
        self._screen_us: deque[float] = deque(maxlen=4096)
        self._screen_cpu_us: deque[float] = deque(maxlen=4096)
        self._screened_steps = 0

        self.create_subscription(Utterance, "speech/utterance", self._on_utterance,
                                 qos.of("speech/utterance"))
        self.create_subscription(ButtonEvent, "face/button", self._on_button, qos.of("face/button"))
        self.create_subscription(GuardrailEvent, "personality/guardrail", self._on_guardrail,
                                 qos.of("personality/guardrail"))
        self.create_subscription(LlmProfile, "personality/llm_profile", self._on_profile,
                                 qos.of("personality/llm_profile"))
        self.create_subscription(PersonalitySnapshot, "personality/snapshot",
                                 self._on_snapshot, qos.of("personality/snapshot"))
        # issue 30 item 2: a turn's line waits (bounded) for the mood its intent left
        self._say_sync = SayMoodSync()
        self._sub_applied = self.create_subscription(
            LlmProfile, "personality/emotion_applied", self._on_emotion_applied,
            qos.of("personality/emotion_applied"))
        self.create_subscription(GovernorState, "governor/state", self._on_governor,
                                 qos.of("governor/state"))
        self.create_subscription(IdentityState, "identity/state", self._on_identity,
                                 qos.of("identity/state"))
        # Speech (DESIGN §4.7): the child speaking, the real voice, the ears' fault.
        self.create_subscription(Bool, "speech/activity", self._on_activity,
                                 qos.of("speech/activity"))
        self.create_subscription(Bool, "tts/speaking", self._on_tts_speaking,
                                 qos.of("tts/speaking"))
        self.create_subscription(SystemEvent, "system/events", self._on_system,
                                 qos.of("system/events"))
        self.create_service(Trigger, "llm_bridge/end_conversation", self._on_end)
        self._reset_client = self.create_client(ResetGovernor, "governor/reset")
        # Issue 14 (idle CPU): no fixed 10 Hz tick; the timer is armed for the core's next
        # deadline (as the face driver's), re-armed after every input, and fires at least
        # every 1/tick_hz in case a rule has a deadline next_deadline does not know.
        # (the diagnostics first: the slowest tick follows their phase)
        # Issue 27 / erratum 22: the safety rules' regexes compile on first use (a start
        # costs no 6 s of CPU), and once the start-up is over the rest compile off the
        # turn's path, so a reply is never checked against a cold regex after that.
        # Under simulated time (a replay, a simulated day, the demo) no child waits for a
        # first reply, and the ~6 s of compiling would only compete with the run for the
        # CPU (a replay's live-clock threads on a loaded machine); there each regex is
        # compiled at its first use only, and safety.rules_warm stays false.
        self._rules_warm = threading.Event()
        self._warm_timer = (None if self.get_parameter("use_sim_time").value else
                            self.create_timer(p["warm_safety_rules_after_s"],
                                              self._start_warming_rules))
        self._diagnostics = DiagnosticsPublisher(self, self._health)
        self._wake_at = 0.0
        self._timer = self.create_timer(1.0 / p["tick_hz"], self._tick)
        self._publish_phase_now()

    # -- inputs ------------------------------------------------------------------------

    def _on_utterance(self, msg: Utterance) -> None:
        text = msg.text[:TEXT_MAX]
        if len(msg.text) > TEXT_MAX:
            self._rejections.reject("utterance_truncated", f"{len(msg.text)} chars")
        self._apply(self._core.on_utterance(now_s(self), text, msg.is_final))

    def _on_button(self, msg: ButtonEvent) -> None:
        if msg.button_id not in (ButtonEvent.BUTTON_PTT, ButtonEvent.BUTTON_ACTION) or (
            msg.event_type > ButtonEvent.CLICK
        ):
            self._rejections.reject("button_enum", f"{msg.button_id}/{msg.event_type}")
            return
        self._apply(self._core.on_button(now_s(self), msg.button_id, msg.event_type))

    def _on_guardrail(self, msg: GuardrailEvent) -> None:
        self._apply(self._core.on_guardrail(now_s(self), msg.rule_id[:TAG_MAX],
                                            msg.action[:TAG_MAX]))

    def _on_profile(self, msg: LlmProfile) -> None:
        mood = msg.mood
        if mood not in MOOD_SET:
            self._rejections.reject("profile_mood", mood[:TAG_MAX])
            mood = "neutral"
        self._core.on_profile(now_s(self), msgs.profile_view(msg, mood))

    def _on_emotion_applied(self, msg: LlmProfile) -> None:
        mood = msg.mood if msg.mood in MOOD_SET else self._core.mood
        self._publish_says(self._say_sync.on_applied(msg.session_id, msg.turn_id, mood),
                           self.get_clock().now().to_msg())

    def _publish_says(self, says: list[SayOut], stamp: Any) -> None:
        for s in says:
            self._pub_say.publish(msgs.say_msg(s, stamp))
            # issue 30 item 6: a headless run says what Buddy said and with which mood (the
            # child's words stay out of the log, HC-3; the note before names the rule)
            self.get_logger().info(f"said [{s.emotion}]: {s.text}")

    def _on_snapshot(self, msg: PersonalitySnapshot) -> None:
        if msg.mood not in MOOD_SET:
            self._rejections.reject("snapshot_mood", msg.mood[:TAG_MAX])
            return
        self._core.on_snapshot_mood(now_s(self), msg.mood)

    def _on_governor(self, msg: GovernorState) -> None:
        if msg.state > GovernorState.HALTED:
            self._rejections.reject("governor_state", str(msg.state))
            return
        self._apply(self._core.on_governor(now_s(self), msgs.governor_view(msg)))

    def _on_identity(self, msg: IdentityState) -> None:
        self._core.on_identity(now_s(self), msgs.identity_view(msg))

    def _on_activity(self, msg: Bool) -> None:
        self._apply(self._core.on_speech_activity(now_s(self), msg.data))

    def _on_tts_speaking(self, msg: Bool) -> None:
        self._apply(self._core.on_tts_speaking(now_s(self), msg.data))

    def _on_system(self, msg: SystemEvent) -> None:
        if msg.kind == SystemEvent.FAULT_RAISED:
            self._apply(self._core.on_fault_raised(now_s(self), msg.detail[:TAG_MAX]))

    def _on_end(self, _req: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        ended, step = self._core.end_conversation(now_s(self))
        self._apply(step)
        response.success = ended
        response.message = "conversation ended" if ended else "no conversation to end"
        return response

    def _tick(self) -> None:
        now = now_s(self)
        self._publish_signals(self._signal_order.tick(now))
        self._publish_says(self._say_sync.due(now, self._core.mood),
                           self.get_clock().now().to_msg())
        self._apply(self._core.tick(now))
        self._arm(now, self._next_deadline(now))

    def _next_deadline(self, now: float) -> float:
        times = [self._slowest_tick(now)]
        for deadline in (self._core.next_deadline(now), self._signal_order.next_deadline(),
                         self._say_sync.next_deadline()):
            if deadline is not None:
                times.append(deadline)
        return min(times)

    def _slowest_tick(self, now: float) -> float:
        """The tick with no deadline due: at most 1/tick_hz away, and on the phase of the
        node's 1 Hz diagnostics when that is sooner, so that it shares their executor
        wake (`buddy run` aligns every 1 Hz timer; a tick of its own phase was one more
        wake a second, issue 14)."""
        period = 1.0 / self.params["tick_hz"]
        to_phase = self._diagnostics.seconds_to_next()
        if to_phase is not None and PHASE_MIN_S < to_phase <= period:
            return now + to_phase
        return now + period

    def _arm(self, now: float, deadline: float) -> None:
        delay = max(deadline - now, 0.0) + DEADLINE_MARGIN_S
        self._wake_at = now + delay
        self._timer.timer_period_ns = round(delay * 1e9)
        self._timer.reset()

    def _rearm_if_sooner(self) -> None:
        """After an input: bring the tick forward if it made a deadline earlier."""
        now = now_s(self)
        deadline = self._next_deadline(now)
        if deadline + DEADLINE_MARGIN_S < self._wake_at:
            self._arm(now, deadline)

    def _refresh_household(self) -> None:
        if self._household.refresh():
            self._core.on_household(self._household.names)
        if self._household.error:
            self._rejections.reject("household_file", self._household.error)

    def _on_worker_item(self, item: WorkerItem) -> None:
        """A worker's output (nodes/llm_bridge/workers.py), on the executor thread."""
        kind, ticket, payload = item
        now = now_s(self)
        if kind == "inline":
            self._apply(self._core.on_inline_emotion(now, ticket, payload))
        elif kind == "reset":
            self._publish_signals(self._signal_order.reset_answered(ticket))
        elif kind == "result":
            self._workers.answered(ticket)
            self._apply(self._core.on_call_result(now, ticket, payload))
        elif kind == "guard":
            self._apply(self._core.on_guard_verdict(now, ticket, payload))
        else:
            self._apply(self._core.on_probe_result(now, payload))

    # -- outputs -----------------------------------------------------------------------

    def _apply(self, step: Step) -> None:
        try:
            self._publish_step(step)
        finally:   # an input may have started a deadline (a turn, a session, a probe)
            self._rearm_if_sooner()

    def _publish_step(self, step: Step) -> None:
        if step.says:   # every line passes the output guard (DESIGN §6.16)
            t0, c0 = time.perf_counter(), time.thread_time()
            step = self._core.screen(step)
            self._screen_us.append((time.perf_counter() - t0) * 1e6)
            self._screen_cpu_us.append((time.thread_time() - c0) * 1e6)
            self._screened_steps += 1
        if step.empty():
            for note in step.notes:
                self.get_logger().debug(note)
            return
        stamp = self.get_clock().now().to_msg()
        for kind in step.system_events:
            ev = SystemEvent(kind=kind, battery_pct=-1.0,
                             detail=self.params["server_url"][:TEXT_MAX])
            ev.header.stamp = stamp
            self._pub_system.publish(ev)
            if kind == SERVER_OFFLINE:
                self.get_logger().warning(self._offline_line())
            elif kind == SERVER_ONLINE:
                self.get_logger().info(online_line(self.params["server_url"]))
        # STARTED before anything of the session; ENDED after its closing line.
        started = [c for c in step.conversation if c.kind == ConversationEvent.STARTED]
        ended = [c for c in step.conversation if c.kind != ConversationEvent.STARTED]
        self._publish_conversation(started, stamp)
        for e in step.identity_events:  # before the line: identity/state moves first
            self._pub_identity.publish(msgs.identity_event_msg(e, stamp))
        for ph in step.phases:
            self._pub_phase.publish(msgs.phase_msg(ph, stamp))
        for i in step.intents:
            self._pub_emotion.publish(msgs.emotion_msg(i, stamp))
        # a step that ends the session sends its lines now, before ENDED (HC-9 first). The
        # personality answers each intent on emotion_applied; with none on the graph (a
        # crashed node, a test of the bridge alone) nothing would answer, and holding
        # would only delay every line by the wait.
        answered = self._sub_applied.get_publisher_count() > 0
        self._publish_says(self._say_sync.offer(
            now_s(self), step.intents if answered else (), step.says,
            hold=answered and not ended), stamp)
        for gr in step.guardrails:
            self._pub_guardrail.publish(msgs.guardrail_msg(gr, stamp))
        for alert in step.alerts:
            self._write_alert(alert)
        for g in step.gestures:
            self._pub_gesture.publish(msgs.gesture_msg(g, stamp))
        for mem in step.memories:
            self._pub_memory.publish(msgs.memory_msg(mem, stamp))
        if step.governor_reset:  # before this step's signals: they belong to it
            self._request_governor_reset(step.governor_reset)
        for sig in step.signals:
            self._publish_signals(self._signal_order.offer(sig.session_id,
                                                           msgs.signal_msg(sig, stamp)))
        self._publish_conversation(ended, stamp)
        if step.cancel_ticket is not None:
            self._workers.cancel(step.cancel_ticket)
        if step.call is not None:
            self._workers.call(step.call)
        if step.probe:
            self._workers.probe()
        for check in step.guard_checks:
            self._workers.check(check)
        for note in step.notes:
            self.get_logger().info(note)

    @property
    def jobs_in_flight(self) -> int:
        """Worker jobs (LLM calls, server probes) that have not finished yet. Read-only:
        sim-time replay (tools/sim/sim_graph.py) waits for them, so that a result reaches the
        executor at the same point of the event sequence on every run."""
        return self._workers.jobs_in_flight

    def _publish_conversation(self, events: list[ConversationOut], stamp: Any) -> None:
        for c in events:
            self._pub_conv.publish(msgs.conversation_msg(c, stamp))

    def _write_alert(self, a: Any) -> None:
        self.get_logger().warning(f"HC-9 distress stop ({a.category}): session {a.session_id}")
        if self._alert_log is None:
            return
        try:
            append_alert(self._alert_log, AlertRecord(
                wall_time=time.time(), rule_id="HC-9", category=a.category, matched=a.matched,
                pattern=a.pattern, source=a.source, layer=a.layer, session_id=a.session_id,
                turn_id=a.turn_id))
            self._alerts_written += 1
        except OSError as exc:
            self._alert_failures += 1
            self._rejections.reject("alert_log_write", repr(exc))

    def _request_governor_reset(self, session_id: str) -> None:
        # Never wait on a service inside a callback: fire and forget; the core ignores
        # the old episode's state until the new one is published.
        if not self._reset_client.service_is_ready():
            self._resets_unavailable += 1
            return
        req = ResetGovernor.Request(session_ended=True, session_id=session_id)
        # The session's signals wait for the answer (cognition/signal_order.py).
        self._publish_signals(self._signal_order.reset_requested(session_id, now_s(self)))
        future = self._reset_client.call_async(req)
        future.add_done_callback(lambda _f: self._workers.post(("reset", session_id, None)))

    def _publish_signals(self, signals: list[GovernorSignal]) -> None:
        for m in signals:
            self._pub_signal.publish(m)

    def _publish_phase_now(self) -> None:
        m = ConversationPhase(phase=self._core.phase, session_id="")
        m.header.stamp = self.get_clock().now().to_msg()
        self._pub_phase.publish(m)

    def _start_warming_rules(self) -> None:
        assert self._warm_timer is not None
        self._warm_timer.cancel()
        threading.Thread(target=self._warm_rules, name="safety-rules-warm",
                         daemon=True).start()

    def _warm_rules(self) -> None:
        """(thread) Stops between two regexes once the node closes."""
        compile_pending(stop=lambda: self._workers.closed)
        if not self._workers.closed:
            self._rules_warm.set()

    def _close_own(self) -> None:
        """The worker pools, the requests in flight and the HTTP clients (ClosesOwnResources)."""
        self._workers.close()


def main(args: list[str] | None = None) -> int:
    return run_node(LlmBridgeNode, args)
