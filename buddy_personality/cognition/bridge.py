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

This module is the session's life (start, phases, end, timers, the inputs that are not a
child's turn) and the public face: the names other code imports from here. The rest of
the core lives beside it, split by concern:
- bridge_steps.py: the `Step` record of effects and the message constants;
- bridge_session.py: configuration, the session and the turn in flight, counters;
- bridge_turns.py: a child's turn (gate, LLM call and result, the turn deadline);
- bridge_answers.py: the answer of a turn, HC-9, and the output screen;
- bridge_vetting.py: the guard model's sentence-by-sentence release.
"""

from __future__ import annotations

import random

from buddy_personality.cognition.bridge_answers import Answers
from buddy_personality.cognition.bridge_session import (
    VOICE_HOLD_S,
    BridgeConfig,
    BridgeStats,
    PendingTurn,
    Session,
)
from buddy_personality.cognition.bridge_steps import (
    BTN_CLICK,
    BTN_PRESS,
    BTN_RELEASE,
    BTN_TOGGLE,
    BUTTON_PTT,
    CONV_ENDED,
    CONV_STARTED,
    END_DAILY_LIMIT,
    END_GOODBYE,
    END_GOVERNOR_HALTED,
    END_HC9,
    END_REQUESTED,
    END_SERVER,
    END_SESSION_LIMIT,
    END_SILENCE,
    PHASE_ATTENTION,
    PHASE_DONE,
    PHASE_ERROR,
    PHASE_IDLE,
    PHASE_LISTENING,
    PHASE_PTT,
    PHASE_SPEAKING,
    PHASE_THINKING,
    TRIGGER_PTT,
    TRIGGER_WAKE,
    CallRequest,
    ConversationOut,
    IntentOut,
    MemoryOut,
    PhaseOut,
    SayOut,
    SignalOut,
    Step,
    merge,
)
from buddy_personality.cognition.bridge_turns import Turns
from buddy_personality.cognition.bridge_vetting import GuardVetting
from buddy_personality.cognition.conversation import is_goodbye, split_wake
from buddy_personality.cognition.gate import (
    EVENT_SYSTEM,
    CognitionGate,
    GateConfig,
    GateDecision,
    GateInputs,
)
from buddy_personality.cognition.health import HealthConfig, ServerHealth
from buddy_personality.cognition.layer0 import Layer0
from buddy_personality.cognition.lines import CLOSING_LINES, LOCKOUT_LINE
from buddy_personality.cognition.reply_gate import GuardStats
from buddy_personality.cognition.session_ids import SessionIds, seeded_session_ids
from buddy_personality.cognition.speaker import SpeakerTracker
from buddy_personality.cognition.turn_deadline import layer_note
from buddy_personality.cognition.views import (
    GOV_HALTED,
    GOV_RECOVERING,
    GovernorView,
    IdentityView,
    ProfileView,
)
from buddy_personality.cognition.vocabulary import MOOD_SET
from buddy_personality.governor.policy import CallPolicy, call_policy
from buddy_personality.safety.speech_safety import SpeechSafety
from buddy_personality.speech.notices import SPOKEN_FAULTS

# The names other modules import from here (the records moved to bridge_steps.py and
# bridge_session.py; importers need not know the split).
__all__ = [
    "BTN_CLICK", "BTN_PRESS", "BTN_RELEASE", "BTN_TOGGLE", "BUTTON_PTT", "CONV_ENDED",
    "CONV_STARTED", "END_DAILY_LIMIT", "END_GOODBYE", "END_GOVERNOR_HALTED", "END_HC9",
    "END_REQUESTED", "END_SERVER", "END_SESSION_LIMIT", "END_SILENCE", "LOCKOUT_LIFT_ACTIONS",
    "PHASE_ATTENTION", "PHASE_DONE", "PHASE_ERROR", "PHASE_IDLE", "PHASE_LISTENING",
    "PHASE_PTT", "PHASE_SPEAKING", "PHASE_THINKING", "TRIGGER_PTT", "TRIGGER_WAKE",
    "VOICE_HOLD_S", "BridgeConfig", "BridgeCore", "BridgeStats", "CallRequest",
    "ConversationOut", "IntentOut", "MemoryOut", "PendingTurn", "PhaseOut", "SayOut",
    "Session", "SignalOut", "Step",
]

# GuardrailEvent actions that lift an RS-2 lockout (the daily counter was reset).
LOCKOUT_LIFT_ACTIONS = frozenset({"lifted", "reset", "daily_reset", "budget_reset"})


class BridgeCore(Turns, Answers, GuardVetting):
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
        self.safety = SpeechSafety(self.config.max_utterance_chars,
                                   learned_lexicon=self.config.learned_lexicon)
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
                merge(step, self._hc9(now, distress) if distress is not None
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
            merge(step, self._guard_overdue(now, s))
        if s is not None and s.pending is not None:
            merge(step, self._turn_deadline(now, s, s.pending))
        if s is not None:
            if s.phase == PHASE_SPEAKING and now >= s.speaking_until:
                s.last_activity = now
                self._set_phase(step, PHASE_LISTENING)
            elif (
                s.phase in (PHASE_LISTENING, PHASE_PTT)
                and s.pending is None
                and now - s.last_activity >= self.config.silence_timeout_s
            ):
                merge(step, self._end(now, END_SILENCE))
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


    # --- session life ---------------------------------------------------------------------
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

