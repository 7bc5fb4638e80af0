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

LLM requests and health probes are blocking HTTP: they run in a worker pool, never on the
executor thread. Workers hand the streamed INLINE emotion and the final result back
through a queue and a guard condition, so every core call happens on the executor thread.
"""

from __future__ import annotations

import math
import queue
import random
import threading
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
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
    MemoryTag,
    PersonalitySnapshot,
    Say,
    SystemEvent,
    Utterance,
)
from buddy_msgs.srv import ResetGovernor
from buddy_personality.cognition.bridge import (
    BridgeConfig,
    BridgeCore,
    CallRequest,
    SayOut,
    Step,
)
from buddy_personality.cognition.client import CallResult, ClientConfig, LlmClient
from buddy_personality.cognition.gate import GateConfig
from buddy_personality.cognition.guard import (
    BACKEND_LLAMA_GUARD,
    BACKENDS,
    GuardClient,
    GuardConfig,
    GuardVerdict,
    unavailable,
)
from buddy_personality.cognition.health import SERVER_OFFLINE, SERVER_ONLINE, HealthConfig
from buddy_personality.cognition.reply_gate import GuardCheck
from buddy_personality.cognition.say_mood import SayMoodSync
from buddy_personality.cognition.server_words import offline_line, online_line, server_reason
from buddy_personality.cognition.session_ids import (
    seeded_session_ids,
    session_id_rng,
    unique_session_ids,
)
from buddy_personality.cognition.signal_order import SignalOrder
from buddy_personality.cognition.speaker import HouseholdFile
from buddy_personality.cognition.turn_deadline import TurnDeadline
from buddy_personality.cognition.views import GovernorView, IdentityView, ProfileView
from buddy_personality.cognition.vocabulary import ARCS, MOOD_SET
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.diagnostics import (
    ERROR,
    OK,
    WARN,
    DiagnosticsPublisher,
    Health,
)
from buddy_personality.nodes.common.inbound import InboundChecks
from buddy_personality.nodes.common.parameters import ParamSpec, declare_parameters
from buddy_personality.nodes.common.rejections import RejectionLog
from buddy_personality.nodes.common.runtime import ClosesOwnResources, now_s, run_node
from buddy_personality.safety.alerts import DEFAULT_ALERT_LOG, AlertRecord, append_alert

PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("server_url", "", "OpenAI-compatible server base URL (…/v1); empty = layer 0",
              read_only=True),
    ParamSpec("model", "Qwen/Qwen3-8B-Instruct-AWQ", "model name (spec 002 §12.1)",
              read_only=True),
    ParamSpec("request_timeout_s", 8.0, "timeout of one LLM request attempt", min=0.1,
              max=120.0, read_only=True),
    ParamSpec("connect_timeout_s", 2.0, "TCP connect timeout", min=0.05, max=60.0,
              read_only=True),
    ParamSpec("stream", True, "stream answers (INLINE emotion as soon as it is complete)",
              read_only=True),
    ParamSpec("guided", True, "send the JSON schema as response_format (guided decoding)",
              read_only=True),
    ParamSpec("disable_thinking", True, "ask a Qwen3 server not to think aloud "
              "(vLLM chat_template_kwargs)", read_only=True),
    ParamSpec("retry_backoff_s", 0.25, "pause before a retry", min=0.0, max=10.0,
              read_only=True),
    ParamSpec("offline_after_failures", 2, "failed calls in a row that switch to layer 0",
              min=1, max=100, read_only=True),
    ParamSpec("probe_interval_s", 15.0, "server probe period while offline", min=0.5,
              max=3600.0, read_only=True),
    ParamSpec("wake_phrase", "hey buddy", "utterance prefix that starts a session",
              read_only=True),
    ParamSpec("silence_timeout_s", 30.0, "end the session after this much silence",
              min=1.0, max=3600.0, read_only=True),
    ParamSpec("session_limit_s", 900.0, "RS-1 limit, for the governor's urgency signal",
              min=1.0, max=86400.0, read_only=True),
    ParamSpec("speech_rate_wps", 2.5, "words per second, to estimate when speech ends",
              min=0.5, max=10.0, read_only=True),
    ParamSpec("lockout_s", 21600.0, "RS-2 lockout length, renewed by every RS-2 event",
              min=1.0, max=172800.0, read_only=True),
    ParamSpec("energy_axis", 0.40, "personality energy axis, rendered in words",
              min=0.0, max=1.0, read_only=True),
    ParamSpec("gate.w_salience", 0.5, "spec 003 §3.3 w1", min=0.0, max=10.0, read_only=True),
    ParamSpec("gate.w_pressure", 0.1, "spec 003 §3.3 w2", min=0.0, max=10.0, read_only=True),
    ParamSpec("gate.w_arc", 0.1, "spec 003 §3.3 w3", min=0.0, max=10.0, read_only=True),
    ParamSpec("gate.w_stakes", 0.2, "spec 003 §3.3 w4", min=0.0, max=10.0, read_only=True),
    ParamSpec("gate.w_energy", 0.2, "spec 003 §3.3 w5", min=0.0, max=10.0, read_only=True),
    ParamSpec("gate.threshold", 0.25, "spec 003 §3.4 cognition threshold", min=-10.0,
              max=10.0, read_only=True),
    ParamSpec("gate.cooldown_s", 1.0, "spec 003 §3.4 cognition cooldown", min=0.0,
              max=600.0, read_only=True),
    ParamSpec("filler_after_s", 2.5, "say a short filler when the server has not answered "
              "after this long (issue 19)", min=0.1, max=60.0, read_only=True),
    ParamSpec("turn_deadline_s", 7.0, "give up on the server and answer from layer 0 after "
              "this long; also the whole request's deadline", min=0.2, max=120.0,
              read_only=True),
    ParamSpec("tick_hz", 1.0, "slowest tick: the bridge wakes at its next deadline "
              "(filler, turn deadline, end of speech, silence, probe, held signals) and at "
              "least this often", min=0.1, max=100.0, read_only=True),
    ParamSpec("seed", 0, "seed of the session-id RNG", min=0, max=2**31 - 1, read_only=True),
    ParamSpec("alert_log_path", DEFAULT_ALERT_LOG, "HC-9 alert log for the parent dashboard "
              "(JSON lines, docs/SAFETY.md); empty = no log", read_only=True),
    ParamSpec("household_path", "~/.local/share/buddy/household.json", "household file, "
              "read only for the names a child may introduce themself with (erratum 17); "
              "the identity node owns it; empty = no known names", read_only=True),
    ParamSpec("guard_model", "", "guard model that checks every LLM reply sentence by "
              "sentence and the child's line for HC-9 (issue 27; e.g. "
              "meta-llama/Llama-Guard-3-1B); empty = none (a problem line while layer 1 "
              "is on)", read_only=True),
    ParamSpec("guard_url", "", "OpenAI-compatible base URL (…/v1) of the guard model; "
              "empty = server_url", read_only=True),
    ParamSpec("guard_backend", BACKEND_LLAMA_GUARD, "how the guard is asked: llama_guard "
              "(chat completions, Buddy's rules as its categories) or moderations "
              "(/v1/moderations)", choices=BACKENDS, read_only=True),
    ParamSpec("guard_deadline_s", 1.5, "a verdict later than this counts as GUARD "
              "UNAVAILABLE: the line is not spoken, layer 0 answers", min=0.05, max=30.0,
              read_only=True),
)
HOUSEHOLD_CHECK_S = 2.0  # how often the household file's mtime is looked at
PHASE_MIN_S = 0.05       # a diagnostics phase closer than this is taken one period later

TEXT_MAX = 2000   # DESIGN §5: oversize strings are truncated
NO_GUARD_LINE = ("no guard model configured (guard_model): LLM replies are checked by "
                 "the local rules only (issue 27; README: Using a real LLM server)")
WORKERS = 4       # LLM calls and probes; each ends by its deadline (issue 19)
GUARD_WORKERS = 8  # guard checks: a reply's sentences all at once (reply_gate.py)
GUARD_PROBLEM_AFTER = 2  # verdicts in a row unavailable: a problem line (diagnostics WARN)
TIMEOUT_WARN_S = 120.0  # diagnostics WARN this long after a turn ran out of time
TAG_MAX = 64
# The tick wakes this long after a deadline: the core's comparisons are `now >= deadline`
# or strict, so the deadline has passed when the tick runs.
DEADLINE_MARGIN_S = 0.001


def _finite(x: float, default: float = 0.0) -> float:
    return float(x) if math.isfinite(x) else default


class LlmBridgeNode(InboundChecks, ClosesOwnResources, Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("llm_bridge", **node_kwargs)
        self.params = p = declare_parameters(self, PARAMETERS)
        url = p["server_url"].strip()
        rng = random.Random(p["seed"])
        # Issue 31 item 2: session ids unique across processes and boots, never from the
        # seeded RNG; under sim time (a replay or a simulated run) seeded ones from an RNG
        # of their own, so a golden bag replays the ids it recorded and the reply variants
        # (drawn from `rng`) depend only on the seed and the inputs, live or replayed
        # (issue 30 item 4: a live recording replays with the same variants).
        sim_time = bool(self.get_parameter("use_sim_time").value)
        self._core = BridgeCore(
            rng,
            server_configured=bool(url),
            config=BridgeConfig(
                wake_phrase=p["wake_phrase"], silence_timeout_s=p["silence_timeout_s"],
                session_limit_s=p["session_limit_s"], speech_rate_wps=p["speech_rate_wps"],
                lockout_s=p["lockout_s"], energy_axis=p["energy_axis"],
                turn=TurnDeadline(filler_after_s=p["filler_after_s"],
                                  answer_by_s=p["turn_deadline_s"]),
                guard_enabled=bool(url and p["guard_model"].strip()),
                guard_deadline_s=p["guard_deadline_s"],
            ),
            gate=GateConfig(
                w_salience=p["gate.w_salience"], w_pressure=p["gate.w_pressure"],
                w_arc=p["gate.w_arc"], w_stakes=p["gate.w_stakes"],
                w_energy=p["gate.w_energy"], threshold=p["gate.threshold"],
                cooldown_s=p["gate.cooldown_s"],
            ),
            health=HealthConfig(offline_after_failures=p["offline_after_failures"],
                                probe_interval_s=p["probe_interval_s"]),
            session_ids=(seeded_session_ids(session_id_rng(p["seed"])) if sim_time
                         else unique_session_ids()),
        )
        self._client: LlmClient | None = None
        if url:
            self._client = LlmClient(ClientConfig(
                base_url=url, model=p["model"], connect_timeout_s=p["connect_timeout_s"],
                read_timeout_s=p["request_timeout_s"],
                request_timeout_s=p["request_timeout_s"], stream=p["stream"],
                guided=p["guided"], retry_backoff_s=p["retry_backoff_s"],
                disable_thinking=p["disable_thinking"],
            ))
        # The guard model (issue 27): on the chat server unless guard_url names another.
        self._guard: GuardClient | None = None
        guard_model = p["guard_model"].strip()
        if url and guard_model:
            self._guard = GuardClient(GuardConfig(
                base_url=p["guard_url"].strip() or url, model=guard_model,
                backend=p["guard_backend"], deadline_s=p["guard_deadline_s"],
                connect_timeout_s=min(p["connect_timeout_s"], p["guard_deadline_s"])))
            self.get_logger().info(f"guard model {guard_model} ({p['guard_backend']}) at "
                                   f"{self._guard.config.base_url} checks every LLM reply")
        elif url:
            self.get_logger().warning(NO_GUARD_LINE)
        self._guard_pool = ThreadPoolExecutor(max_workers=GUARD_WORKERS,
                                              thread_name_prefix="llm_guard")
        self._rejections = RejectionLog(self.get_logger().warning)
        self._resets_unavailable = 0
        self._signal_order: SignalOrder[GovernorSignal] = SignalOrder()
        # Worker threads -> executor: results queue + guard condition (docs/NODES.md).
        self._pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="llm_bridge")
        self._results: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
        self._cancels: dict[int, threading.Event] = {}
        self._jobs: list[Future[None]] = []  # submitted worker jobs (read by jobs_in_flight)
        self._closing = threading.Event()
        self._wake = self.create_guard_condition(self._drain)

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
        # Time the output guard adds before a Step's lines are published (benchmarks/
        # safety_guard.py reads the percentiles from /diagnostics).
        self._screen_us: deque[float] = deque(maxlen=4096)       # wall time
        self._screen_cpu_us: deque[float] = deque(maxlen=4096)   # this thread's CPU time
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
        arc = msg.conversation_arc if msg.conversation_arc in ARCS else "stable"
        tags = tuple(t[:TAG_MAX] for t in msg.memory_tags[:10])
        self._core.on_profile(now_s(self), ProfileView(
            mood=mood, intensity=_finite(msg.intensity), tonic_valence=_finite(msg.tonic_valence),
            memory_tags=tags, conversation_arc=arc,
        ))

    def _on_emotion_applied(self, msg: LlmProfile) -> None:
        mood = msg.mood if msg.mood in MOOD_SET else self._core.mood
        self._publish_says(self._say_sync.on_applied(msg.session_id, msg.turn_id, mood),
                           self.get_clock().now().to_msg())

    def _publish_says(self, says: list[SayOut], stamp: Any) -> None:
        for s in says:
            m = Say(text=s.text, emotion=s.emotion, session_id=s.session_id, turn_id=s.turn_id)
            m.header.stamp = stamp
            self._pub_say.publish(m)
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
        view = GovernorView(
            state=msg.state, effort=_finite(msg.effort, 1.0),
            persistence=_finite(msg.persistence, 1.0), risk=_finite(msg.risk),
            exploration=_finite(msg.exploration),
            pressures=tuple(_finite(x) for x in (msg.confidence, msg.frustration,
                                                 msg.curiosity, msg.arousal,
                                                 msg.risk_pressure)),
            episode_id=msg.episode_id,
        )
        self._apply(self._core.on_governor(now_s(self), view))

    def _on_identity(self, msg: IdentityState) -> None:
        self._core.on_identity(now_s(self), IdentityView(
            state=msg.state, addressing_state=msg.addressing_state,
            preferred_name=msg.preferred_name[:TAG_MAX], age_group=msg.age_group,
            conversation_mode=msg.conversation_mode, child_safe=msg.child_safe,
        ))

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

    # -- worker threads ----------------------------------------------------------------

    def _run_call(self, req: CallRequest, cancel: threading.Event) -> None:
        assert self._client is not None

        posted: list[bool] = []

        def inline(emotion: str) -> None:
            self._post(("inline", req.ticket, emotion))

        def answer(result: CallResult) -> None:
            # Handed over as soon as it is known; the client then tidies the connection.
            posted.append(True)
            self._post(("result", req.ticket, result))

        try:
            self._client.complete(req.messages, req.policy, on_emotion=inline, cancel=cancel,
                                  on_result=answer, deadline_s=req.deadline_s)
        except Exception as exc:  # the client catches HTTP errors; anything else is a bug
            if not posted:
                answer(CallResult(ok=False, errors=[f"client error: {exc!r}"],
                                  failed_attempts=1))

    def _run_guard(self, check: GuardCheck) -> None:
        assert self._guard is not None
        try:
            verdict = self._guard.check(check.child, check.reply, check.deadline_s)
        except Exception as exc:  # the client catches HTTP errors; anything else is a bug
            verdict = unavailable(f"guard client error: {exc!r}")
        self._post(("guard", check.check_id, verdict))

    def _run_probe(self) -> None:
        assert self._client is not None
        self._post(("probe", 0, self._client.probe()))

    def _post(self, item: tuple[Any, ...]) -> None:
        """Hand a worker's output to the executor thread."""
        if self._closing.is_set():
            return
        self._results.put(item)
        try:
            self._wake.trigger()
        except Exception:  # the node is being destroyed under us
            if not self._closing.is_set():
                raise

    def _drain(self) -> None:
        while True:
            try:
                kind, ticket, payload = self._results.get_nowait()
            except queue.Empty:
                return
            now = now_s(self)
            if kind == "inline":
                self._apply(self._core.on_inline_emotion(now, ticket, payload))
            elif kind == "reset":
                self._publish_signals(self._signal_order.reset_answered(ticket))
            elif kind == "result":
                self._cancels.pop(ticket, None)
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
            m = IdentityEvent(kind=e.kind, value=e.value[:TAG_MAX], confidence=1.0)
            m.header.stamp = stamp
            self._pub_identity.publish(m)
        for ph in step.phases:
            m = ConversationPhase(phase=ph.phase, session_id=ph.session_id)
            m.header.stamp = stamp
            self._pub_phase.publish(m)
        for i in step.intents:
            m = AiEmotion(emotion=i.intent.emotion, intensity=i.intent.intensity,
                          confidence=i.intent.confidence, source=i.intent.source,
                          mood_reason=i.intent.mood_reason, session_id=i.session_id,
                          turn_id=i.turn_id)
            m.header.stamp = stamp
            self._pub_emotion.publish(m)
        # a step that ends the session sends its lines now, before ENDED (HC-9 first). The
        # personality answers each intent on emotion_applied; with none on the graph (a
        # crashed node, a test of the bridge alone) nothing would answer, and holding
        # would only delay every line by the wait.
        answered = self._sub_applied.get_publisher_count() > 0
        self._publish_says(self._say_sync.offer(
            now_s(self), step.intents if answered else (), step.says,
            hold=answered and not ended), stamp)
        for gr in step.guardrails:
            m = GuardrailEvent(rule_id=gr.rule_id, action=gr.action, details=gr.details)
            m.header.stamp = stamp
            self._pub_guardrail.publish(m)
        for alert in step.alerts:
            self._write_alert(alert)
        for g in step.gestures:
            m = Gesture(gesture_id=g, duration_ms=0)
            m.header.stamp = stamp
            self._pub_gesture.publish(m)
        for mem in step.memories:
            m = MemoryExtract(session_id=mem.session_id, turn_id=mem.turn_id, user_id="",
                              tags=[MemoryTag(tag=t.tag, category=t.category,
                                              valence_bias=t.valence_bias,
                                              arousal_bias=t.arousal_bias) for t in mem.tags])
            m.header.stamp = stamp
            self._pub_memory.publish(m)
        if step.governor_reset:  # before this step's signals: they belong to it
            self._request_governor_reset(step.governor_reset)
        for sig in step.signals:
            r = sig.signal
            m = GovernorSignal(reward=r.reward, novelty=r.novelty, urgency=r.urgency,
                               difficulty=r.difficulty, session_id=sig.session_id)
            m.header.stamp = stamp
            self._publish_signals(self._signal_order.offer(sig.session_id, m))
        self._publish_conversation(ended, stamp)
        if step.cancel_ticket is not None:
            ev = self._cancels.pop(step.cancel_ticket, None)
            if ev is not None:
                ev.set()
        if step.call is not None and self._client is not None and not self._closing.is_set():
            cancel = threading.Event()
            self._cancels[step.call.ticket] = cancel
            self._track(self._pool.submit(self._run_call, step.call, cancel))
        if step.probe and self._client is not None and not self._closing.is_set():
            self._track(self._pool.submit(self._run_probe))
        for check in step.guard_checks:
            if self._guard is None or self._closing.is_set():
                # cannot happen (the core asks only when a guard is configured); never
                # leave the turn waiting on it
                self._post(("guard", check.check_id, GuardVerdict(
                    "unavailable", reason="no guard client")))
                continue
            self._guard_pool.submit(self._run_guard, check)
        for note in step.notes:
            self.get_logger().info(note)

    def _track(self, job: Future[None]) -> None:
        self._jobs = [j for j in self._jobs if not j.done()]
        self._jobs.append(job)

    @property
    def jobs_in_flight(self) -> int:
        """Worker jobs (LLM calls, server probes) that have not finished yet. Read-only:
        sim-time replay (tools/sim/sim_graph.py) waits for them, so that a result reaches the
        executor at the same point of the event sequence on every run."""
        return sum(1 for j in self._jobs if not j.done())

    def _publish_conversation(self, events: list[Any], stamp: Any) -> None:
        for c in events:
            m = ConversationEvent(kind=c.kind, session_id=c.session_id, trigger=c.trigger,
                                  turns=c.turns, end_reason=c.end_reason)
            m.header.stamp = stamp
            self._pub_conv.publish(m)

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
        future.add_done_callback(lambda _f: self._post(("reset", session_id, None)))

    def _publish_signals(self, signals: list[GovernorSignal]) -> None:
        for m in signals:
            self._pub_signal.publish(m)

    def _publish_phase_now(self) -> None:
        m = ConversationPhase(phase=self._core.phase, session_id="")
        m.header.stamp = self.get_clock().now().to_msg()
        self._pub_phase.publish(m)

    def _health(self) -> Health:
        st = self._core.stats
        values: dict[str, object] = {
            "layer": self._core.layer,
            "server_url": self.params["server_url"] or "(none: layer 0)",
            "phase": self._core.phase,
            "sessions": st.sessions,
            "calls": st.calls,
            "call_failures": st.call_failures,
            "failed_attempts": st.failed_attempts,
            "last_latency_s": f"{st.last_latency_s:.3f}",
            "max_latency_s": f"{st.max_latency_s:.3f}",
            "layer0_replies": st.layer0_replies,
            "dropped_parts": st.dropped_parts,
            "ignored_outside_session": st.ignored_outside_session,
            "ignored_partial": st.ignored_partial,
            "busy_dropped": st.busy_dropped,
            "lockout_refusals": st.lockout_refusals,
            "stale_results": st.stale_results,
            "governor_resets_unavailable": self._resets_unavailable,
            "turn_timeouts": st.turn_timeouts,
            "jobs_in_flight": self.jobs_in_flight,
            "governor_signals_released_late": self._signal_order.released_late,
            "say_mood.released": self._say_sync.released,
            "say_mood.timeouts": self._say_sync.timeouts,
        }
        values.update({f"gate.{k}": v for k, v in sorted(st.gate.items())})
        values.update(self._core.safety.stats.values())
        values["safety.alerts_written"] = self._alerts_written
        values["safety.alert_write_failures"] = self._alert_failures
        values["safety.screened_steps"] = self._screened_steps
        for key, samples in (("screen_us", self._screen_us),
                             ("screen_cpu_us", self._screen_cpu_us)):
            if samples:
                us = sorted(samples)
                values[f"safety.{key}_p50"] = f"{us[len(us) // 2]:.1f}"
                values[f"safety.{key}_p99"] = f"{us[min(len(us) - 1, int(len(us) * 0.99))]:.1f}"
                values[f"safety.{key}_max"] = f"{us[-1]:.1f}"
        if self._client is not None:
            values["guided_decoding"] = self._client.guided_supported
        if st.last_error:
            values["last_llm_error"] = st.last_error
        values.update({f"speaker.{k}": v for k, v in sorted(self._core.speaker.counters.items())})
        values["guard_model"] = self.params["guard_model"] or "(none)"
        values.update(self._core.guard_stats.values())
        values["throttled_turns"] = st.throttled_turns
        values["speaker.household_names"] = len(self._household.names)
        values.update(self._rejections.as_values())
        configured = bool(self.params["server_url"])
        if configured and self._core.layer == 0:
            return Health(WARN, self._offline_line(), values)
        if self.jobs_in_flight >= WORKERS:  # every worker busy: new turns would queue
            return Health(ERROR, f"all {WORKERS} LLM workers busy", values)
        last = st.last_timeout_at
        if last is not None and now_s(self) - last < TIMEOUT_WARN_S:
            return Health(WARN, f"LLM turns timing out ({st.turn_timeouts}; "
                                f"{st.last_error})", values)
        # issue 19: requests that hung until their deadline (or failed otherwise) while
        # the layer stays 1 are not OK either: two hung turns once left diagnostics OK
        last = st.last_failure_at
        if last is not None and now_s(self) - last < TIMEOUT_WARN_S:
            return Health(WARN, f"LLM calls failing ({st.call_failures}; "
                                f"{st.last_error})", values)
        problem = self._guard_problem()
        if problem:
            return Health(WARN, problem, values)
        return Health(OK, f"layer {self._core.layer}", values)

    def _guard_problem(self) -> str:
        """The guard's problem line (issue 27): a guard that keeps failing, or none while
        layer 1 is on. Neither is silence: layer 0 answers, or the local rules alone judge."""
        if self._core.layer != 1:
            return ""
        if self._guard is None:
            return NO_GUARD_LINE
        g = self._core.guard_stats
        if g.unavailable_in_row >= GUARD_PROBLEM_AFTER:
            return (f"guard model {self.params['guard_model']} at "
                    f"{self._guard.config.base_url} not answering ({g.last_reason}; "
                    f"{g.unavailable_in_row} checks in a row): LLM replies are not spoken, "
                    "Buddy answers from its rules (layer 0)")
        return ""

    def _offline_line(self) -> str:
        probe = self._client.probe_error if self._client is not None else ""
        reason = server_reason(probe, self._core.stats.last_error)
        return offline_line(self.params["server_url"], reason, self.params["probe_interval_s"])

    def _close_own(self) -> None:
        """The worker pool, the requests in flight and the HTTP client (ClosesOwnResources)."""
        self._closing.set()
        for ev in self._cancels.values():
            ev.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._guard_pool.shutdown(wait=False, cancel_futures=True)
        if self._client is not None:
            self._client.close()
        if self._guard is not None:
            self._guard.close()


def main(args: list[str] | None = None) -> int:
    return run_node(LlmBridgeNode, args)

