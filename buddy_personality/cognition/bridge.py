"""The LLM bridge core: conversation manager + event-driven cognition (DESIGN §4.5).

`BridgeCore` is the whole behaviour of the `llm_bridge` node without ROS: every input is a
method taking `now` (seconds); every method returns a `Step` listing what to publish and,
when cognition is due, a `CallRequest` for the LLM client. The node runs that request in
a worker thread and feeds the streamed emotion (`on_inline_emotion`) and the result
(`on_call_result`) back. The core never blocks and never reads a clock.

Session lifecycle: IDLE -> (wake utterance: LISTENING | PTT press: PTT) -> THINKING ->
SPEAKING -> LISTENING ... -> DONE -> IDLE. Buddy never starts a session or speaks without
a child addressing it first (PE-5). Sessions end on goodbye, silence timeout, RS-1 /
RS-2 guardrail events, a HALTED governor, or the end_conversation service.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from buddy_personality.cognition.client import CallResult
from buddy_personality.cognition.context import HistoryTurn, build_messages
from buddy_personality.cognition.conversation import (
    DEFAULT_WAKE_PHRASE,
    is_goodbye,
    split_wake,
)
from buddy_personality.cognition.gate import (
    EVENT_SYSTEM,
    EVENT_UTTERANCE,
    CognitionGate,
    GateConfig,
    GateDecision,
    GateInputs,
)
from buddy_personality.cognition.guard import GuardVerdict, unavailable
from buddy_personality.cognition.guard_rules import GUARD_UNAVAILABLE, HC9, safe_line_for
from buddy_personality.cognition.health import HealthConfig, ServerHealth
from buddy_personality.cognition.intentions import IntentionStore
from buddy_personality.cognition.layer0 import Layer0
from buddy_personality.cognition.lines import CLOSING_LINES, LOCKOUT_LINE
from buddy_personality.cognition.mapping import (
    CONFIDENCE,
    SOURCE_HYBRID,
    GovernorSignalRecord,
    Intent,
    MemoryTagRecord,
    TurnOutcome,
    governor_signal,
    hybrid_intent,
    inline_intent,
    memory_record,
    post_intent,
    rules_intent,
)
from buddy_personality.cognition.reply_gate import (
    BACKSTOP_S,
    CHILD,
    GuardCheck,
    GuardStats,
    Vetting,
    split_sentences,
)
from buddy_personality.cognition.session_ids import SessionIds, seeded_session_ids
from buddy_personality.cognition.speaker import (
    PARENT_ACTION,
    PARENT_RULE,
    SpeakerEvent,
    SpeakerTracker,
)
from buddy_personality.cognition.turn_deadline import (
    FILLER,
    GIVE_UP,
    TurnDeadline,
    filler_line,
    layer_note,
)
from buddy_personality.cognition.views import (
    GOV_HALTED,
    GOV_RECOVERING,
    GovernorView,
    IdentityView,
    ProfileView,
)
from buddy_personality.cognition.vocabulary import GESTURES, MOOD_SET
from buddy_personality.governor.policy import CallPolicy, call_policy
from buddy_personality.safety.distress import DistressMatch
from buddy_personality.safety.speech_safety import (
    ACTION_SUBSTITUTE,
    CALM_EMOTION,
    CALM_INTENSITY,
    CALM_REASON,
    HC9_LINE,
    REFUSED_EMOTION,
    REFUSED_INTENSITY,
    REFUSED_REASON,
    AlertOut,
    GuardrailOut,
    SpeechSafety,
)
from buddy_personality.speech.notices import SPOKEN_FAULTS

# buddy_msgs/ConversationPhase
PHASE_IDLE, PHASE_ATTENTION, PHASE_LISTENING, PHASE_PTT = 0, 1, 2, 3
PHASE_THINKING, PHASE_SPEAKING, PHASE_ERROR, PHASE_DONE = 4, 5, 6, 7
# buddy_msgs/ConversationEvent
CONV_STARTED, CONV_ENDED = 0, 1
TRIGGER_WAKE, TRIGGER_PTT = "wake_word", "ptt"
END_GOODBYE, END_SILENCE, END_SESSION_LIMIT = "goodbye", "silence_timeout", "session_limit"
END_DAILY_LIMIT, END_GOVERNOR_HALTED, END_REQUESTED = (
    "daily_limit", "governor_halted", "requested",
)
END_HC9, END_SERVER = "hc9_distress", "server_unavailable"
# buddy_msgs/ButtonEvent
BUTTON_PTT = 0
BTN_PRESS, BTN_RELEASE, BTN_TOGGLE, BTN_CLICK = 0, 1, 2, 3
# GuardrailEvent actions that lift an RS-2 lockout (the daily counter was reset).
LOCKOUT_LIFT_ACTIONS = frozenset({"lifted", "reset", "daily_reset", "budget_reset"})
# While tts/speaking says a line plays, SPEAKING holds at most this long without news.
VOICE_HOLD_S = 60.0


@dataclass(slots=True, frozen=True)
class BridgeConfig:
    wake_phrase: str = DEFAULT_WAKE_PHRASE
    silence_timeout_s: float = 30.0
    session_limit_s: float = 900.0      # RS-1 (spec 002 §9.3): urgency of the governor signal
    speech_rate_wps: float = 2.5        # words per second, to estimate when speaking ends
    speech_pad_s: float = 0.5
    done_hold_s: float = 1.5            # DONE shown this long before IDLE
    lockout_s: float = 6 * 3600.0       # RS-2 lockout, renewed by every RS-2 event
    lockout_line_repeat_s: float = 20.0 # at most one lockout line per this interval
    energy_axis: float = 0.40           # personality energy axis, rendered in words
    max_utterance_chars: int = 500
    turn: TurnDeadline = field(default_factory=TurnDeadline)  # filler, then layer 0
    # The guard model on the server (issue 27, DESIGN erratum 23): LLM replies are spoken
    # sentence by sentence as its verdicts come in; the child's line is a second HC-9 check.
    guard_enabled: bool = False
    guard_deadline_s: float = 1.5


@dataclass(slots=True, frozen=True)
class PhaseOut:
    phase: int
    session_id: str


@dataclass(slots=True, frozen=True)
class ConversationOut:
    kind: int
    session_id: str
    trigger: str        # STARTED: TRIGGER_*; ENDED: the END_* reason (also in end_reason)
    turns: int

    @property
    def end_reason(self) -> str:
        """ConversationEvent.end_reason: every ENDED event has one; STARTED has none."""
        return self.trigger if self.kind == CONV_ENDED else ""


@dataclass(slots=True, frozen=True)
class IntentOut:
    intent: Intent
    session_id: str
    turn_id: int


@dataclass(slots=True, frozen=True)
class SayOut:
    text: str
    emotion: str        # the personality's current mood (spec 002 §11.5)
    session_id: str
    turn_id: int
    # One sentence of an LLM reply spoken sentence by sentence (reply_gate.py): the whole
    # reply, which the output guard judges (RS-3's "ask a grown-up" may be in another one).
    part_of: str = ""
    # The safety rules chose this line's emotion (a refused reply's THINKING, erratum 16;
    # the HC-9 line's calm, erratum 15): say_mood keeps it if the personality's answer
    # does not come in time, instead of a snapshot mood from before the turn.
    rule_emotion: bool = False


@dataclass(slots=True, frozen=True)
class MemoryOut:
    session_id: str
    turn_id: int
    tags: tuple[MemoryTagRecord, ...]


@dataclass(slots=True, frozen=True)
class SignalOut:
    signal: GovernorSignalRecord
    session_id: str


@dataclass(slots=True, frozen=True)
class CallRequest:
    ticket: int
    session_id: str
    turn_id: int
    messages: list[dict[str, str]]
    policy: CallPolicy
    deadline_s: float | None = None     # the whole request, retries included


@dataclass(slots=True)
class Step:
    phases: list[PhaseOut] = field(default_factory=list)
    conversation: list[ConversationOut] = field(default_factory=list)
    intents: list[IntentOut] = field(default_factory=list)
    says: list[SayOut] = field(default_factory=list)
    gestures: list[int] = field(default_factory=list)
    memories: list[MemoryOut] = field(default_factory=list)
    signals: list[SignalOut] = field(default_factory=list)
    system_events: list[int] = field(default_factory=list)
    identity_events: list[SpeakerEvent] = field(default_factory=list)  # erratum 17
    guardrails: list[GuardrailOut] = field(default_factory=list)   # HC-9, output guard,
                                                                   # PARENT-PIN (erratum 18)
    alerts: list[AlertOut] = field(default_factory=list)           # HC-9 alert log
    guard_checks: list[GuardCheck] = field(default_factory=list)   # for the guard model
    call: CallRequest | None = None
    cancel_ticket: int | None = None
    probe: bool = False
    governor_reset: str | None = None   # session id of the new governor episode
    notes: list[str] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.phases or self.conversation or self.intents or self.says
                    or self.gestures or self.memories or self.signals or self.system_events
                    or self.identity_events or self.guardrails or self.alerts
                    or self.guard_checks or self.call or self.probe or self.governor_reset
                    or self.cancel_ticket is not None)


@dataclass(slots=True)
class _Pending:
    ticket: int
    turn_id: int
    text: str
    inline_sent: bool = False
    started_at: float = 0.0
    filler_said: bool = False
    child_check: int | None = None       # the guard's HC-9 check of the child's line
    child_asked_at: float = 0.0
    child_verdict: GuardVerdict | None = None
    vetting: Vetting | None = None       # the reply, waiting for its first verdict
    result: CallResult | None = None     # ... and the call it came in


@dataclass(slots=True)
class Session:
    session_id: str
    trigger: str
    started_at: float
    phase: int
    last_activity: float
    turns: int = 0
    speaking_until: float = 0.0
    answer_voiced: bool = False         # tts/speaking rose since the answer was handed over
    history: list[HistoryTurn] = field(default_factory=list)
    topics_seen: set[str] = field(default_factory=set)
    intentions: IntentionStore = field(default_factory=IntentionStore)
    pending: _Pending | None = None
    stale_episode: int | None = None    # governor episode before our reset; ignored
    reply: Vetting | None = None        # a reply still being spoken sentence by sentence


@dataclass(slots=True)
class BridgeStats:
    calls: int = 0
    call_failures: int = 0
    failed_attempts: int = 0
    last_latency_s: float = 0.0
    max_latency_s: float = 0.0
    gate: dict[str, int] = field(default_factory=dict)
    layer0_replies: int = 0
    sessions: int = 0
    dropped_parts: int = 0
    ignored_outside_session: int = 0
    ignored_partial: int = 0
    busy_dropped: int = 0
    lockout_refusals: int = 0
    stale_results: int = 0
    last_error: str = ""
    turn_timeouts: int = 0
    last_timeout_at: float | None = None
    last_failure_at: float | None = None   # a call that failed (its deadline included)
    throttled_turns: int = 0               # answered by layer 0: Retry-After not passed


class BridgeCore:
    def __init__(
        self,
        rng: random.Random,
        server_configured: bool,
        config: BridgeConfig | None = None,
        gate: GateConfig | None = None,
        health: HealthConfig | None = None,
        session_ids: SessionIds | None = None,
    ) -> None:
        self.config = config or BridgeConfig()
        self.rng = rng
        # Issue 31 item 2: the node passes unique ids (session_ids.py); the default, drawn
        # from `rng`, keeps tests, replays and the simulated day deterministic.
        self._session_ids = session_ids or seeded_session_ids(rng)
        self.gate = CognitionGate(gate)
        self.health = ServerHealth(server_configured, health)
        self.layer0 = Layer0()
        self.stats = BridgeStats()
        self.safety = SpeechSafety(self.config.max_utterance_chars)
        self.session: Session | None = None
        self.profile = ProfileView()
        self.identity = IdentityView()
        self.governor = GovernorView()
        self._governor_seen = False
        # Exploration when RECOVERING began: the temperature may not rise above it while
        # recovering (DESIGN §4.2: RECOVERING locks risk and exploration).
        self._locked_exploration: float | None = None
        self.mood = "neutral"            # personality/snapshot mood, the TTS tag (§11.5)
        self.phase = PHASE_IDLE
        self._idle_at: float | None = None
        self._lockout_until: float | None = None
        self._last_lockout_line: float | None = None
        self._ticket = 0
        self._probe_pending = False
        self._abandoned: set[int] = set()   # tickets given up at the turn deadline
        self._voice = False                  # tts/speaking: a line of Buddy's is playing
        self.speaker = SpeakerTracker()   # who is speaking, from their words (erratum 17)
        # The guard model's checks in flight: check id -> (session, ticket, index, turn).
        self.guard_stats = GuardStats()
        self._checks: dict[int, tuple[str, int, int, int]] = {}
        self._check_seq = 0

    # --- state inputs -------------------------------------------------------------------
    @property
    def layer(self) -> int:
        return self.health.layer

    def on_profile(self, now: float, profile: ProfileView) -> Step:
        del now
        self.profile = profile
        return Step()

    def on_snapshot_mood(self, now: float, mood: str) -> Step:
        del now
        if mood in MOOD_SET:
            self.mood = mood
        return Step()

    def on_identity(self, now: float, identity: IdentityView) -> Step:
        del now
        self.identity = identity
        return Step()

    def on_household(self, names: frozenset[str]) -> None:
        """Household names that identify one member (see speaker.household_names)."""
        self.speaker.household = names

    def on_governor(self, now: float, view: GovernorView) -> Step:
        if view.state == GOV_RECOVERING:
            if self._locked_exploration is None or self.governor.state != GOV_RECOVERING:
                self._locked_exploration = view.exploration
        else:
            self._locked_exploration = None
        self.governor = view
        self._governor_seen = True
        s = self.session
        if s is None:
            return Step()
        if s.stale_episode is not None and view.episode_id == s.stale_episode:
            return Step(notes=["governor state of the previous episode ignored"])
        s.stale_episode = None
        if view.state == GOV_HALTED:
            # DESIGN §4.2: HALTED = no more calls this session; close kindly.
            return self._end(now, END_GOVERNOR_HALTED)
        return Step()

    def _governor_now(self) -> GovernorView:
        s = self.session
        if s is not None and s.stale_episode is not None:
            return GovernorView()   # the reset episode starts fresh
        return self.governor

    def policy(self) -> CallPolicy:
        g = self._governor_now()
        locked = self._locked_exploration if g is self.governor else None
        return call_policy(g.state, g.effort, g.persistence, g.risk, g.exploration, locked)

    # --- conversation inputs ------------------------------------------------------------
    def on_utterance(self, now: float, text: str, is_final: bool = True) -> Step:
        if not is_final:
            self.stats.ignored_partial += 1
            return Step()
        # Input hardening (issue 13): cut, control characters dropped, instructions counted.
        text = self.safety.harden(text).text
        s = self.session
        woke, rest = split_wake(text, self.config.wake_phrase)
        if s is None:
            if not woke:
                # PE-5: Buddy does not react to talk that is not addressed to it.
                self.stats.ignored_outside_session += 1
                return Step()
            step = self._start(now, TRIGGER_WAKE)
            if self.session is None:          # refused (RS-2 lockout)
                return step
            if rest:
                distress = self.safety.distress_in(rest)
                self._merge(step, self._hc9(now, distress) if distress is not None
                            else self._turn(now, rest))
            return step
        if woke:
            text = rest
            if not text:
                s.last_activity = now
                return Step()
        # HC-9 (DESIGN §6.15): the distress check comes before anything else in a session,
        # a pending LLM call included (it is cancelled).
        distress = self.safety.distress_in(text)
        if distress is not None:
            return self._hc9(now, distress)
        if is_goodbye(text):
            return self._end(now, END_GOODBYE)
        if s.pending is not None:
            self.stats.busy_dropped += 1
            return Step(notes=["utterance while thinking dropped"])
        return self._turn(now, text)

    def on_button(self, now: float, button_id: int, event_type: int) -> Step:
        if button_id != BUTTON_PTT:
            return Step()
        s = self.session
        if event_type in (BTN_PRESS, BTN_CLICK, BTN_TOGGLE):
            if s is None:
                return self._start(now, TRIGGER_PTT)
            s.last_activity = now
            if s.pending is None and s.phase != PHASE_PTT:
                return self._set_phase(Step(), PHASE_PTT)
            return Step()
        if event_type == BTN_RELEASE and s is not None and s.phase == PHASE_PTT:
            s.last_activity = now
            return self._set_phase(Step(), PHASE_LISTENING)
        return Step()

    def on_guardrail(self, now: float, rule_id: str, action: str = "") -> Step:
        if rule_id == "RS-1" and self.session is not None:
            return self._end(now, END_SESSION_LIMIT)
        if rule_id == "RS-2":
            if action in LOCKOUT_LIFT_ACTIONS:
                self._lockout_until = None
                return Step(notes=["RS-2 lockout lifted"])
            self._lockout_until = now + self.config.lockout_s
            if self.session is not None:
                return self._end(now, END_DAILY_LIMIT)
        return Step()

    def on_system_event(self, now: float, kind: int) -> Step:
        """System events pass the gate for accounting; by default they never call (PE-5)."""
        d = self.gate.decide(now, GateInputs(EVENT_SYSTEM, self.session is not None,
                                             energy=self._governor_now().effort))
        self._count_gate(d)
        del kind
        return Step()

    def on_fault_raised(self, now: float, detail: str) -> Step:
        """A speech fault a child should hear about (the ears, DESIGN §4.7) is said once
        per raise, through the usual say path (and so the output guard)."""
        del now
        line = SPOKEN_FAULTS.get(detail)
        if line is None:
            return Step()
        s = self.session
        return Step(says=[SayOut(line, self.mood, s.session_id if s else "",
                                 s.turns if s else 0)], notes=[f"fault said: {detail}"])

    def on_speech_activity(self, now: float, active: bool) -> Step:
        """The child is speaking (asr `speech/activity`, DESIGN §4.7): in a session the
        face shows LISTENING (also over Buddy's own speech: barge-in), and the silence
        timeout counts from the end of the child's speech."""
        s = self.session
        if s is None:
            return Step()
        s.last_activity = now
        if active:
            s.reply = None   # the child talks over Buddy: the reply's rest is not spoken
        if active and s.pending is None and s.phase in (PHASE_SPEAKING, PHASE_LISTENING):
            s.speaking_until = now
            if s.phase != PHASE_LISTENING:
                return self._set_phase(Step(), PHASE_LISTENING)
        return Step()

    def on_tts_speaking(self, now: float, speaking: bool) -> Step:
        """The real voice (`tts/speaking`, from the audio) replaces the text-length
        estimate of when Buddy stops speaking."""
        self._voice = bool(speaking)
        s = self.session
        if s is not None and s.phase == PHASE_SPEAKING:
            if speaking:
                # a line never lasts a minute: a voice that dies mid-line cannot hold SPEAKING
                s.answer_voiced = True
                s.speaking_until = now + VOICE_HOLD_S
            elif s.answer_voiced:
                s.speaking_until = now
            # else: a line handed over before the answer (the turn deadline's filler)
            # ended; the tts node plays the answer next (lines of one turn queue, §4.7),
            # so Buddy is not done speaking
        return Step()

    def end_conversation(self, now: float) -> tuple[bool, Step]:
        if self.session is None:
            return False, Step()
        return True, self._end(now, END_REQUESTED)

    def tick(self, now: float) -> Step:
        step = Step()
        s = self.session
        if s is not None:
            self._merge(step, self._guard_overdue(now, s))
        if s is not None and s.pending is not None:
            self._merge(step, self._turn_deadline(now, s, s.pending))
        if s is not None:
            if s.phase == PHASE_SPEAKING and now >= s.speaking_until:
                s.last_activity = now
                self._set_phase(step, PHASE_LISTENING)
            elif (
                s.phase in (PHASE_LISTENING, PHASE_PTT)
                and s.pending is None
                and now - s.last_activity >= self.config.silence_timeout_s
            ):
                self._merge(step, self._end(now, END_SILENCE))
        elif self.phase == PHASE_DONE and self._idle_at is not None and now >= self._idle_at:
            self._idle_at = None
            self._set_phase(step, PHASE_IDLE)
        if not self._probe_pending and self.health.probe_due(now):
            self.health.probe_started(now)
            self._probe_pending = True
            step.probe = True
        return step

    def next_deadline(self, now: float) -> float | None:
        """The earliest time at which `tick` has something to do (issue 14: the node
        sleeps until then instead of ticking at 10 Hz). Mirrors `tick` rule by rule."""
        del now   # every deadline is absolute; `now` keeps the tick's signature
        times: list[float] = []
        s = self.session
        if s is not None and s.pending is not None:
            p = s.pending
            times.append(p.started_at + self.config.turn.next_due_s(p.filler_said))
        if s is not None:
            times += self._guard_due(s)
            if s.phase == PHASE_SPEAKING:
                times.append(s.speaking_until)
            elif s.phase in (PHASE_LISTENING, PHASE_PTT) and s.pending is None:
                times.append(s.last_activity + self.config.silence_timeout_s)
        elif self.phase == PHASE_DONE and self._idle_at is not None:
            times.append(self._idle_at)
        probe_at = None if self._probe_pending else self.health.next_probe_at()
        if probe_at is not None:
            times.append(probe_at)
        return min(times) if times else None

    def on_probe_result(self, now: float, ok: bool) -> Step:
        self._probe_pending = False
        step = Step()
        ev = self.health.record_success(now) if ok else self.health.record_failure(
            now, probe=True)
        if ev is not None:
            step.system_events.append(ev)
            step.notes.append(layer_note(ev, "probe answered" if ok else "probe failed"))
        return step

    # --- LLM results --------------------------------------------------------------------
    def on_inline_emotion(self, now: float, ticket: int, emotion: str) -> Step:
        del now
        s = self.session
        if s is None or s.pending is None or s.pending.ticket != ticket:
            return Step()
        if emotion not in MOOD_SET or s.pending.inline_sent:
            return Step()
        s.pending.inline_sent = True
        return Step(intents=[IntentOut(inline_intent(emotion), s.session_id,
                                       s.pending.turn_id)])

    def on_call_result(self, now: float, ticket: int, result: CallResult) -> Step:
        step = Step()
        st = self.stats
        st.failed_attempts += result.failed_attempts
        st.last_latency_s = result.latency_s
        st.max_latency_s = max(st.max_latency_s, result.latency_s)
        abandoned = ticket in self._abandoned   # already counted at its turn deadline
        self._abandoned.discard(ticket)
        if result.throttled:
            # The server's Retry-After of an earlier turn has not passed (issue 31): no
            # request went out, layer 0 answers, and the server is not counted as failing.
            st.throttled_turns += 1
        elif not result.cancelled and not abandoned:
            if result.ok:
                ev = self.health.record_success(now)
            else:
                st.call_failures += 1
                st.last_failure_at = now
                st.last_error = "; ".join(result.errors[-2:])
                ev = self.health.record_failure(now)
            if ev is not None:
                step.system_events.append(ev)
                step.notes.append(layer_note(ev, "a call succeeded" if result.ok else (
                    f"{self.health.consecutive_failures} failed calls; {st.last_error}")))
        if not result.cancelled and not abandoned:
            # DESIGN §1.5: what went wrong with the server is said in one log line per
            # turn (the counters are failed_attempts and call_failures).
            errors = "; ".join(result.errors[-2:])
            if not result.ok:
                step.notes.append(f"LLM call failed ({errors}); layer 0 answers this turn")
            elif result.failed_attempts:
                step.notes.append(f"LLM answered after {result.failed_attempts} failed "
                                  f"attempt(s) ({errors})")
        s = self.session
        if s is None or s.pending is None or s.pending.ticket != ticket:
            st.stale_results += 1
            return step
        pending = s.pending
        if result.ok and result.response is not None and self._vets(result):
            self._merge(step, self._vet(now, s, pending, result))
            return step
        s.pending = None
        if result.ok and result.response is not None:
            self._merge(step, self._answer_llm(now, s, pending, result))
        else:
            self._merge(step, self._answer_rules(now, s, pending.turn_id, pending.text,
                                                 "failed", result.failed_attempts))
        return step

    # --- safety (DESIGN §6.15, §6.16; logic in buddy_personality/safety/) ------------------
    def screen(self, step: Step) -> Step:
        """The one chokepoint before `tts/say` (§6.16): the node passes every Step through
        here before publishing, so every line (LLM, layer 0, closing, lockout, identity
        checks, speech errors) is checked. A refused line is replaced by its rule's safe
        line, the reply's emotion falls back to THINKING, its gestures are dropped, the
        session history keeps the safe line, and a GuardrailEvent names the rule."""
        if not step.says:
            return step
        says: list[SayOut] = []
        for say in step.says:
            verdict, event = self.safety.screen(say.part_of or say.text)
            if event is None:
                says.append(say)
                continue
            if say.part_of and self.session is not None:
                self.session.reply = None   # nothing of this reply after its safe line
            says.append(SayOut(verdict.text, REFUSED_EMOTION, say.session_id, say.turn_id,
                               rule_emotion=True))
            step.guardrails.append(event)
            step.gestures = []
            turn = (say.session_id, say.turn_id)
            thinking = Intent(REFUSED_EMOTION, REFUSED_INTENSITY, CONFIDENCE[SOURCE_HYBRID],
                              SOURCE_HYBRID,
                              REFUSED_REASON)
            step.intents = [i for i in step.intents if (i.session_id, i.turn_id) != turn]
            step.intents.append(IntentOut(thinking, say.session_id, say.turn_id))
            s = self.session
            if s is not None and s.history and s.history[-1].buddy_text == say.text:
                h = s.history[-1]
                s.history[-1] = HistoryTurn(h.user_text, verdict.text, REFUSED_EMOTION,
                                            h.topics)
        step.says = says
        return step

    # --- the guard model on the server (issue 27, DESIGN erratum 23; reply_gate.py) -------
    def _vets(self, result: CallResult) -> bool:
        """A reply the guard model must pass sentence by sentence: the guard is on, and
        neither HC-9 (child_affect) nor the local rules (whole reply) already decide it."""
        resp = result.response
        if not self.config.guard_enabled or resp is None:
            return False
        if self.safety.distress_in_reply(resp.child_affect, resp.mood_reason,
                                         resp.inner_thought) is not None:
            return False
        return self.safety.guard.check(resp.text).ok

    def _vet(self, now: float, s: Session, p: _Pending, result: CallResult) -> Step:
        """Ask the guard about every sentence at once; nothing is spoken before sentence
        1's verdict (and the child line's) is in. The turn stays THINKING meanwhile, under
        its deadline."""
        resp = result.response
        assert resp is not None
        v = Vetting(p.ticket, p.turn_id, resp.text, split_sentences(resp.text), now)
        p.vetting, p.result = v, result
        step = Step()
        for k in range(len(v.sentences)):
            self._ask_guard(step, s, p.ticket, k, p.turn_id, p.text, v.prefix(k))
        self._merge(step, self._release(now, s))
        return step

    def _ask_guard(self, step: Step, s: Session, ticket: int, index: int, turn_id: int,
                   child: str, reply: str | None) -> int:
        self._check_seq += 1
        self._checks[self._check_seq] = (s.session_id, ticket, index, turn_id)
        step.guard_checks.append(GuardCheck(self._check_seq, child, reply,
                                            self.config.guard_deadline_s))
        return self._check_seq

    def on_guard_verdict(self, now: float, check_id: int, verdict: GuardVerdict) -> Step:
        """A verdict from the guard worker (the node) or the core's own backstop."""
        key = self._checks.pop(check_id, None)
        s = self.session
        if key is None or s is None or s.session_id != key[0]:
            self.guard_stats.stale += 1
            return Step()
        self.guard_stats.count(verdict)
        _sid, ticket, index, turn_id = key
        p = s.pending
        if index == CHILD:
            if not verdict.safe and HC9 in verdict.rules:
                # A second opinion to the phrase list: it can add a stop, at any point of
                # this session (even after layer 0 answered), never remove one.
                self.guard_stats.hc9_stops += 1
                match = DistressMatch("guard_model", f"guard {','.join(verdict.codes)}",
                                      "guard model: " + ",".join(verdict.codes), "guard")
                return self._hc9(now, match, turn_id)
            if p is not None and p.ticket == ticket and p.child_verdict is None:
                p.child_verdict = verdict
                return self._release(now, s)
            return Step()
        v = p.vetting if p is not None and p.vetting is not None else s.reply
        if v is None or v.ticket != ticket or index in v.verdicts:
            self.guard_stats.stale += 1
            return Step()
        v.verdicts[index] = verdict
        return self._release(now, s)

    def _release(self, now: float, s: Session) -> Step:
        """Hand out every sentence whose verdict allows it, in order (reply_gate.py)."""
        step = Step()
        p = s.pending
        if p is not None and p.vetting is not None:
            v = p.vetting
            first = v.next_verdict()
            if first is None or (p.child_check is not None and p.child_verdict is None):
                return step
            s.pending = None
            if not first.safe:
                # Not spoken: layer 0 answers the turn (issue 27 item 2).
                self.guard_stats.replies_refused += 1
                step.guardrails.append(self._guard_event(first, 0, "layer 0 answered"))
                step.notes.append(f"guard model: reply of turn {v.turn_id} not spoken "
                                  f"({first.reason or ','.join(first.rules)}); layer 0 "
                                  "answers")
                self._merge(step, self._answer_rules(now, s, p.turn_id, p.text, "failed"))
                return step
            assert p.result is not None
            answer = self._answer_llm(now, s, p, p.result)
            for i, say in enumerate(answer.says):
                if say.text == v.whole and say.turn_id == v.turn_id:
                    answer.says[i] = replace(say, text=v.sentences[0], part_of=v.whole)
            v.released = 1
            self._merge(step, answer)
            s.reply = v
        v2 = s.reply
        while v2 is not None and not v2.finished:
            verdict = v2.next_verdict()
            if verdict is None:
                return step
            k = v2.released
            if verdict.safe:
                step.says.append(SayOut(v2.sentences[k], self.mood, s.session_id, v2.turn_id,
                                        part_of=v2.whole))
                v2.released += 1
                continue
            # What has been said stays said; what follows is the safe line, or nothing.
            self.guard_stats.replies_cut += 1
            tail = "" if verdict.unavailable else safe_line_for(verdict.rules[0])
            step.guardrails.append(self._guard_event(
                verdict, k, "safe line" if tail else "rest not spoken"))
            if tail:
                step.says.append(SayOut(tail, REFUSED_EMOTION, s.session_id, v2.turn_id,
                                            rule_emotion=True))
            said = " ".join([*v2.sentences[:k], tail]).strip()
            if s.history and s.history[-1].buddy_text == v2.whole:
                s.history[-1] = replace(s.history[-1], buddy_text=said)
            v2.released = len(v2.sentences)
        if v2 is not None and v2.finished:
            s.reply = None
        return step

    @staticmethod
    def _guard_event(verdict: GuardVerdict, index: int, outcome: str) -> GuardrailOut:
        rule = GUARD_UNAVAILABLE if verdict.unavailable else verdict.rules[0]
        what = (f"reason={verdict.reason}" if verdict.unavailable
                else f"guard={','.join(verdict.codes) or 'unsafe'}; "
                     f"rules={','.join(verdict.rules)}")
        return GuardrailOut(rule, ACTION_SUBSTITUTE, (
            f"{what}; sentence={index + 1}; {outcome}; "
            f"latency_ms={verdict.latency_s * 1000:.0f}")[:240])

    def _guard_due(self, s: Session) -> list[float]:
        """When the core stops waiting for verdicts (the backstop behind the client's
        own deadline)."""
        limit = self.config.guard_deadline_s + BACKSTOP_S
        p = s.pending
        times: list[float] = []
        if p is not None and p.child_check is not None and p.child_verdict is None:
            times.append(p.child_asked_at + limit)
        for v in (p.vetting if p is not None else None, s.reply):
            if v is not None and not v.finished:
                times.append(v.asked_at + limit)
        return times

    def _guard_overdue(self, now: float, s: Session) -> Step:
        """Verdicts not in by the backstop count as GUARD UNAVAILABLE."""
        due = self._guard_due(s)
        if not due or now < min(due):
            return Step()
        limit = self.config.guard_deadline_s + BACKSTOP_S
        late = unavailable(f"no verdict within {self.config.guard_deadline_s:.1f} s", limit)
        ids = [cid for cid, key in self._checks.items() if key[0] == s.session_id]
        step = Step()
        p = s.pending
        for cid in ids:
            _sid, ticket, index, _turn = self._checks[cid]
            v = p.vetting if p is not None and p.vetting is not None else s.reply
            asked = p.child_asked_at if index == CHILD and p is not None else (
                v.asked_at if v is not None and v.ticket == ticket else None)
            if asked is not None and now >= asked + limit:
                self._merge(step, self.on_guard_verdict(now, cid, late))
            if self.session is not s:
                break
        return step

    def _hc9(self, now: float, match: DistressMatch, turn_id: int | None = None) -> Step:
        """HC-9 stop: the fixed gentle line, a calm intent, the event and the alert, and
        the session ends with END_HC9. No LLM call for this turn (§6.15)."""
        s = self.session
        assert s is not None
        turn = s.turns + 1 if turn_id is None else turn_id
        event, alert = self.safety.hc9(match, self.layer, s.session_id, turn)
        calm = Intent(CALM_EMOTION, CALM_INTENSITY, CONFIDENCE[SOURCE_HYBRID], SOURCE_HYBRID,
                      CALM_REASON)
        step = Step(intents=[IntentOut(calm, s.session_id, turn)],
                    says=[SayOut(HC9_LINE, CALM_EMOTION, s.session_id, turn,
                                        rule_emotion=True)],
                    guardrails=[event], alerts=[alert])
        self._merge(step, self._end(now, END_HC9))
        if self._idle_at is not None:
            self._idle_at += self._speech_duration(HC9_LINE)
        return step

    # --- internals ----------------------------------------------------------------------
    def _turn_deadline(self, now: float, s: Session, p: _Pending) -> Step:
        """Never silence for more than a few seconds (cognition/turn_deadline.py)."""
        due = self.config.turn.due(now - p.started_at, p.filler_said)
        if due == FILLER:
            p.filler_said = True
            return Step(says=[SayOut(filler_line(p.turn_id), self.mood, s.session_id,
                                     p.turn_id)])
        if due != GIVE_UP:
            return Step()
        st = self.stats
        st.turn_timeouts += 1
        st.last_timeout_at = now
        st.last_error = f"no answer within {self.config.turn.answer_by_s:.1f} s"
        s.pending = None
        if p.vetting is None:   # else its call already answered; the verdicts go stale
            self._abandoned.add(p.ticket)
        step = Step(cancel_ticket=p.ticket,
                    notes=[f"turn {p.turn_id}: {st.last_error}; layer 0 answers"])
        ev = self.health.record_failure(now)
        if ev is not None:
            step.system_events.append(ev)
            step.notes.append(layer_note(ev, f"turn deadline passed ({st.last_error})"))
        self._merge(step, self._answer_rules(now, s, p.turn_id, p.text, "failed", 1))
        return step

    def _count_gate(self, d: GateDecision) -> None:
        self.stats.gate[d.reason] = self.stats.gate.get(d.reason, 0) + 1

    def _new_session_id(self) -> str:
        return self._session_ids()

    def _set_phase(self, step: Step, phase: int) -> Step:
        sid = self.session.session_id if self.session is not None else ""
        if self.session is not None:
            self.session.phase = phase
        self.phase = phase
        step.phases.append(PhaseOut(phase, sid if phase != PHASE_IDLE else ""))
        return step

    @staticmethod
    def _merge(into: Step, other: Step) -> None:
        into.phases += other.phases
        into.conversation += other.conversation
        into.intents += other.intents
        into.says += other.says
        into.gestures += other.gestures
        into.memories += other.memories
        into.signals += other.signals
        into.system_events += other.system_events
        into.identity_events += other.identity_events
        into.guardrails += other.guardrails
        into.alerts += other.alerts
        into.guard_checks += other.guard_checks
        into.notes += other.notes
        into.call = other.call or into.call
        into.probe = into.probe or other.probe
        into.governor_reset = other.governor_reset or into.governor_reset
        if other.cancel_ticket is not None:
            into.cancel_ticket = other.cancel_ticket

    def _speech_duration(self, text: str) -> float:
        words = max(1, len(text.split()))
        return words / max(0.5, self.config.speech_rate_wps) + self.config.speech_pad_s

    def _start(self, now: float, trigger: str) -> Step:
        if self._lockout_until is not None and now < self._lockout_until:
            # RS-2: one short friendly line, nothing more (no session, no phase change).
            self.stats.lockout_refusals += 1
            last = self._last_lockout_line
            if last is not None and now - last < self.config.lockout_line_repeat_s:
                return Step(notes=["RS-2 lockout: repeated attempt, no line"])
            self._last_lockout_line = now
            return Step(says=[SayOut(LOCKOUT_LINE, self.mood, "", 0)],
                        notes=["RS-2 lockout: session refused"])
        sid = self._new_session_id()
        if self.mood == "sleepy":
            # DESIGN §6.11: a conversation start wakes Buddy at once. The engine's snapshot
            # says so a moment later; a reply handed to TTS before it must not sound asleep.
            self.mood = "neutral"
        self.session = Session(
            session_id=sid, trigger=trigger, started_at=now,
            phase=PHASE_IDLE, last_activity=now,
            stale_episode=self.governor.episode_id if self._governor_seen else None,
        )
        self._idle_at = None
        self.stats.sessions += 1
        self.speaker.reset()
        step = Step(conversation=[ConversationOut(CONV_STARTED, sid, trigger, 0)],
                    governor_reset=sid)
        return self._set_phase(step, PHASE_PTT if trigger == TRIGGER_PTT else PHASE_LISTENING)

    def _end(self, now: float, reason: str) -> Step:
        s = self.session
        if s is None:
            return Step()
        step = Step()
        if s.pending is not None:
            step.cancel_ticket = s.pending.ticket
        line = CLOSING_LINES.get(reason)
        speak_s = 0.0
        if line:
            step.says.append(SayOut(line, self.mood, s.session_id, s.turns))
            speak_s = self._speech_duration(line)
        step.conversation.append(ConversationOut(CONV_ENDED, s.session_id, reason, s.turns))
        self._set_phase(step, PHASE_DONE)
        self.session = None
        self._idle_at = now + speak_s + self.config.done_hold_s
        step.notes.append(f"session ended: {reason}")
        return step

    def _turn(self, now: float, text: str) -> Step:
        """A child's line: first who is speaking (erratum 17) and whether it asks for a
        parent's power (erratum 18), then the usual reply unless that answered it."""
        s = self.session
        assert s is not None
        s.reply = None   # the child spoke again: the last reply's unspoken rest is dropped
        heard = self.speaker.hear(text)
        if heard.line is None:
            step = self._reply(now, text, heard.rules_line)
        else:
            s.last_activity = now
            step = self._answer(now, s, s.turns + 1, text, heard.line, "rules")
        step.identity_events[:0] = heard.events
        if heard.parent_request is not None:
            step.guardrails.append(GuardrailOut(PARENT_RULE, PARENT_ACTION,
                                                heard.parent_request.kind))
        return step

    def _identity_for_prompt(self) -> IdentityView:
        """identity/state, plus the name the child gave this session (erratum 17)."""
        return replace(self.identity, session_name=self.speaker.session_name)

    def _reply(self, now: float, text: str, rules_line: str | None = None) -> Step:
        s = self.session
        assert s is not None
        s.last_activity = now
        gov = self._governor_now()
        d = self.gate.decide(now, GateInputs(
            kind=EVENT_UTTERANCE, in_session=True, text=text,
            pressure_max=gov.pressure_max(), arc=self.profile.conversation_arc,
            rel_stakes=self.identity.relationship_stakes(), energy=gov.effort,
        ))
        self._count_gate(d)
        if not d.call:
            return Step(notes=[f"gate: no call ({d.reason})"])
        if gov.state == GOV_HALTED:
            return self._end(now, END_GOVERNOR_HALTED)
        turn_id = s.turns + 1
        s.intentions.expire(turn_id)
        policy = self.policy()
        if not (self.health.may_call() and policy.may_call):
            if rules_line:  # the speaker's own line (an introduction, erratum 17)
                return self._answer(now, s, turn_id, text, rules_line, "rules")
            return self._answer_rules(now, s, turn_id, text, "rules")
        self._ticket += 1
        messages = build_messages(
            text, turn_id, s.history, self.profile, self._identity_for_prompt(), gov,
            s.intentions.top(), self.config.energy_axis,
        )
        s.pending = _Pending(self._ticket, turn_id, text, started_at=now)
        self.stats.calls += 1
        step = Step(call=CallRequest(self._ticket, s.session_id, turn_id, messages, policy,
                                     self.config.turn.request_budget_s))
        if self.config.guard_enabled:
            # HC-9's second opinion (erratum 23), beside the LLM call: no time added.
            p = s.pending
            p.child_check = self._ask_guard(step, s, p.ticket, CHILD, p.turn_id, text, None)
            p.child_asked_at = now
            self.guard_stats.child_checks += 1
        return self._set_phase(step, PHASE_THINKING)

    def _answer_llm(self, now: float, s: Session, p: _Pending, result: CallResult) -> Step:
        resp = result.response
        assert resp is not None
        # HC-9 in layer 1 (DESIGN §6.15): the model saw distress the phrase list missed.
        distress = self.safety.distress_in_reply(resp.child_affect, resp.mood_reason,
                                                 resp.inner_thought)
        if distress is not None:
            return self._hc9(now, distress, p.turn_id)
        self.stats.dropped_parts += len(result.dropped)
        step = Step(notes=[f"dropped {d}" for d in result.dropped])
        hybrid = hybrid_intent(resp)
        if hybrid is not None:
            step.intents.append(IntentOut(hybrid, s.session_id, p.turn_id))
        post = post_intent(resp)
        if post is not None:
            step.intents.append(IntentOut(post, s.session_id, p.turn_id))
        step.gestures += [GESTURES[g] for g in resp.gestures]
        tags = self.safety.memory_tags(resp.memory_tags)   # issue 13 input hardening
        if tags:
            step.memories.append(MemoryOut(s.session_id, p.turn_id,
                                           tuple(memory_record(t) for t in tags)))
        for u in resp.intention_updates:
            outcome = s.intentions.apply(p.turn_id, u)
            step.notes.append(f"intention {u.operation} {u.type}: {outcome}")
        self._merge(step, self._answer(
            now, s, p.turn_id, p.text, resp.text, "llm",
            emotion=resp.emotion or self.mood, child_affect=resp.child_affect,
            topics=tags, failed_attempts=result.failed_attempts,
            dropped=len(result.dropped),
        ))
        return step

    def _answer_rules(self, now: float, s: Session, turn_id: int, text: str, source: str,
                      failed_attempts: int = 0) -> Step:
        """Layer 0 answers (no server, or it failed this turn; spec 002 §10 RS-9): the line,
        its emotion through the LLM's intent path, and memory tags where allowed (RS-5)."""
        a = self.layer0.answer(text, self.rng, s.session_id, self.identity.name_for_prompt(),
                               self.identity.memories_allowed())
        step = Step(intents=[IntentOut(rules_intent(a.emotion, a.intensity, a.mood_reason,
                                                    a.generic), s.session_id, turn_id)],
                    notes=[f"rules answered: {a.intent}"])
        if a.memory_tags:
            step.memories.append(MemoryOut(s.session_id, turn_id,
                                           tuple(memory_record(t) for t in a.memory_tags)))
        self._merge(step, self._answer(now, s, turn_id, text, a.text, source,
                                       emotion=a.emotion, child_affect=a.child_affect,
                                       topics=a.topics, failed_attempts=failed_attempts,
                                       gist="" if a.generic else a.intent))
        return step

    def _answer(
        self,
        now: float,
        s: Session,
        turn_id: int,
        user_text: str,
        reply: str,
        source: str,
        emotion: str | None = None,
        child_affect: str = "unclear",
        topics: tuple[str, ...] = (),
        failed_attempts: int = 0,
        dropped: int = 0,
        gist: str | None = None,
    ) -> Step:
        if source != "llm":
            self.stats.layer0_replies += 1
        new_topics = [t for t in topics if t not in s.topics_seen]
        s.topics_seen.update(topics)
        s.turns = turn_id
        # The summary's label for a turn without topics (context.HistoryTurn.gist): layer 0
        # already understood its own turns; the table is read again only for the others.
        if gist is None:
            gist = "" if topics else self.layer0.gist(user_text)
        s.history.append(HistoryTurn(user_text, reply, emotion or self.mood, tuple(topics),
                                     gist=gist))
        # A line still playing (a filler) delays the answer, which queues behind it: the
        # answer's own voice then says when Buddy stops (on_tts_speaking).
        s.answer_voiced = False
        s.speaking_until = now + (VOICE_HOLD_S if self._voice else self._speech_duration(reply))
        signal = governor_signal(TurnOutcome(
            source=source, child_affect=child_affect, new_topics=len(new_topics),
            session_elapsed_s=now - s.started_at, session_limit_s=self.config.session_limit_s,
            failed_attempts=failed_attempts, dropped_parts=dropped,
        ))
        step = Step(says=[SayOut(reply, self.mood, s.session_id, turn_id)],
                    signals=[SignalOut(signal, s.session_id)])
        return self._set_phase(step, PHASE_SPEAKING)
