"""The personality engine: the one call surface of the personality core.

spec 002 §2-§10 and §13, the spec 000 intent gate, DESIGN §4.1 and §6. A node calls
`tick(now)` at 1 Hz and one `on_*` method per inbound event (§10.3); each returns an
`EngineOutput` (snapshot, mood-changed and guardrail events, LLM profile when due).
Time is always an argument (wall-clock or sim seconds); randomness comes from the seed,
so the same seed and inputs give the same outputs bit for bit.

The engine routes events between the parts, each in its own module:
- `dynamics.AffectDynamics`: affect and tonic layer over time (§2, §5.3, §6);
- `sleep.SleepCycle`: awake / drowsy / asleep and the idle rules (§7, erratum 11);
- `session_limits.SessionLimits`: the running session, RS-1 / RS-2 (§9.3);
- `display.MoodDisplay`: projection through the guardrails and the budget (§4, §9);
- `memory_access.MemoryAccess`: the RS-5 consent gate, the §8.3 bias, profile tags.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter

from buddy_personality.msg_constants import Button, ButtonAction, SystemKind
from buddy_personality.personality import intent_gate as gate_mod
from buddy_personality.personality.affect import Impulse
from buddy_personality.personality.display import MoodDisplay
from buddy_personality.personality.dynamics import AffectDynamics
from buddy_personality.personality.guardrails import (
    GuardrailConfig,
    LimitsOutcome,
    UsageCounter,
    local_day,
    local_hour,
)
from buddy_personality.personality.idle import IDLE_IMPULSES, MORNING_HOURS
from buddy_personality.personality.impulses import (
    CRITICAL_BATTERY_PCT,
    L0_CATALOG,
    LOW_BATTERY_PCT,
    CooldownTracker,
)
from buddy_personality.personality.inputs import InputRejected, bump, check_now, finite, text
from buddy_personality.personality.intent_gate import IntentGate
from buddy_personality.personality.memory import ForgetUserResult, MemoryStore
from buddy_personality.personality.memory_access import MemoryAccess
from buddy_personality.personality.modulation import emotion_impulse, validate_mood_reason
from buddy_personality.personality.moods import (
    EMOTION_ALIASES,
    MOOD_ANCHORS,
    NEGATIVE_MOODS,
    NERVOUS_INTENSITY_CAP,
)
from buddy_personality.personality.projection import intensity_for
from buddy_personality.personality.records import (
    IDLE_AWAKE,
    LAYER_LLM,
    LAYER_RULES,
    NO_EVENTS,
    EngineOutput,
    Event,
    GuardrailTriggered,
    LlmProfile,
    MemoryView,
    MoodChange,
    Snapshot,
)
from buddy_personality.personality.resume import END_RESTARTED, SESSION_RESUME_MAX_S, ResumeState
from buddy_personality.personality.session_limits import (
    BRIDGE_LOST_GRACE_S,
    END_BRIDGE_LOST,
    SessionLimits,
)
from buddy_personality.personality.sleep import SPEAKING_STALE_S, SleepCycle
from buddy_personality.personality.state_keeper import Writes
from buddy_personality.personality.traits import TraitParameters, canonical_traits

__all__ = ["BRIDGE_LOST_GRACE_S", "END_BRIDGE_LOST", "SPEAKING_STALE_S", "EngineOutput",
           "EngineStats", "InputRejected", "PersonalityEngine"]

RESUME_SAVE_IDLE_S = 30.0  # outside a session, affect and idle state are saved this often

# SystemEvent.kind and ButtonEvent values (msg_constants.py, checked against buddy_msgs)
SYS_BOOT = SystemKind.BOOT
SYS_LOW_BATTERY = SystemKind.LOW_BATTERY
SYS_CRITICAL_BATTERY = SystemKind.CRITICAL_BATTERY
SYS_FAULT_RAISED = SystemKind.FAULT_RAISED
SYS_FAULT_CLEARED = SystemKind.FAULT_CLEARED
SYS_SERVER_ONLINE = SystemKind.SERVER_ONLINE
SYS_SERVER_OFFLINE = SystemKind.SERVER_OFFLINE
SYS_BIRTHDAY_GREETING = SystemKind.BIRTHDAY_GREETING
SYSTEM_EVENT_KINDS = frozenset(SystemKind)
BUTTON_IDS = frozenset(Button)
BUTTON_PRESS = ButtonAction.PRESS
BUTTON_RELEASE = ButtonAction.RELEASE
BUTTON_TOGGLE = ButtonAction.TOGGLE
BUTTON_CLICK = ButtonAction.CLICK
BUTTON_EVENTS = frozenset(ButtonAction)

BUDGET_PULL = 0.5  # share of the displacement from baseline removed when the budget is spent
ARC_WINDOW = 10  # ticks of valence history used for the conversation arc
ARC_DELTA = 0.05
ARC_PEAK_INTENSITY = 0.75


@dataclass(slots=True)
class EngineStats:
    """Counters for diagnostics."""

    impulses_by_source: dict[str, int] = field(default_factory=dict)
    gate_rejections: dict[str, int] = field(default_factory=dict)
    guardrail_triggers: dict[str, int] = field(default_factory=dict)
    rejected_inputs: dict[str, int] = field(default_factory=dict)
    memory_refusals: dict[str, int] = field(default_factory=dict)
    l0_fired: dict[str, int] = field(default_factory=dict)
    write_errors: dict[str, int] = field(default_factory=dict)
    idle_rules_fired: dict[str, int] = field(default_factory=dict)
    resumed: dict[str, int] = field(default_factory=dict)  # what a restart picked up
    sessions_taken_over: int = 0  # a new session id over a running one (issue 31 item 2)


class PersonalityEngine:
    """All of spec 002 §2-§10, §13 and the spec 000 gate behind one call surface."""

    def __init__(
        self,
        now: float,
        traits: TraitParameters | None = None,
        *,
        seed: int = 0,
        guardrails: GuardrailConfig | None = None,
        usage: UsageCounter | None = None,
        memory: MemoryStore | None = None,
        memory_consent: bool = False,
        utc_offset_s: float = 0.0,
        resume: ResumeState | None = None,
        keeps_state: bool = False,
        warnings: Sequence[str] = (),
    ) -> None:
        """`usage`, `memory` and `resume` come from the state keeper's files (none: a
        fresh counter, an empty store, no resume); `keeps_state` says the keeper has a
        resume file, so the state is due for it now and then outside a session too;
        `warnings` are the keeper's, from loading the files."""
        now = check_now(now)
        self.traits = t = traits if traits is not None else canonical_traits()
        self.guardrails = guardrails if guardrails is not None else GuardrailConfig()
        self.stats = EngineStats()
        self._memory_save_due = False  # what is due for the state keeper (take_writes)
        self.rng = random.Random(seed)
        # The draw order is part of the seed's meaning: noise first, then the idle jitter.
        self.affect = AffectDynamics(t, self.rng.getrandbits(64))
        self.mood = "neutral"
        self.intensity = intensity_for(self.affect.valence, self.affect.arousal, "neutral")
        self._last_t = now  # last time affect was advanced
        self._last_tick_t = now  # last time noise was added
        self._booted = False
        self._cooldowns = CooldownTracker()
        self.gate = IntentGate()
        self.sleep = SleepCycle(t, self.rng, now)
        # DESIGN §6.12: set while an accepted LLM intent's impulse is being projected, so
        # only those mood changes count against the spec 000 transition budget.
        self._llm_impulse = False
        self.display = MoodDisplay(self.guardrails, self.gate, self._emit_guardrail)
        self._override_until = -math.inf
        self.usage = usage if usage is not None else UsageCounter(None, utc_offset_s, now)
        self.session = SessionLimits(self.usage, self.guardrails, now, self._emit_guardrail)
        self.memory = memory if memory is not None else MemoryStore(None, now)
        self.memory_access = MemoryAccess(self.memory, bool(memory_consent), self.guardrails,
                                          now)
        self._arc: deque[float] = deque(maxlen=ARC_WINDOW)
        self._session_had_negative = False
        self._events: list[Event] = []
        self._profile_due = False
        self.warnings: list[str] = list(warnings)
        # issue 19: a restart resumes affect, the idle period and a running session
        self.resumed = ""
        self._keeps_state = keeps_state
        self._resume_save_due = False
        self._resume_saved_at = now
        self._restore(resume, now)

    # ------------------------------------------------------------------ the parts' state
    # Read-only views for the node and the tests; the engine itself reads the parts.
    valence = property(attrgetter("affect.valence"))
    arousal = property(attrgetter("affect.arousal"))
    tonic_valence = property(attrgetter("affect.tonic_valence"))
    tonic_arousal = property(attrgetter("affect.tonic_arousal"))
    attractor_valence = property(attrgetter("sleep.attractor_valence"))
    attractor_arousal = property(attrgetter("sleep.attractor_arousal"))
    idle_state = property(attrgetter("sleep.idle_state"))
    speaking = property(attrgetter("sleep.speaking"))
    conversation_active = property(attrgetter("session.active"))
    session_id = property(attrgetter("session.session_id"))
    turn_id = property(attrgetter("session.turn_id"))
    last_end_reason = property(attrgetter("session.last_end_reason"))
    session_limit_s = property(attrgetter("session.session_limit_s"))
    daily_limit_s = property(attrgetter("session.daily_limit_s"))
    memory_consent = property(attrgetter("memory_access.consent"))

    @property
    def layer(self) -> int:
        return LAYER_LLM if self.sleep.server_online else LAYER_RULES

    @property
    def error_active(self) -> bool:
        return bool(self.sleep.faults)

    @property
    def memory_writable(self) -> bool:
        return self.memory_access.refusal() is None

    def memory_refusal(self, user_id: str = "") -> str | None:
        """Why memory may not be written now (RS-5, DESIGN §4.1), or None."""
        return self.memory_access.refusal(user_id)

    def set_utc_offset(self, utc_offset_s: float, now: float) -> None:
        """The node updates the local offset (DST) without the core reading a clock."""
        self.session.set_utc_offset(utc_offset_s, now)

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _check_now(now: float) -> float:
        return check_now(now)

    def _reject(self, exc: InputRejected) -> InputRejected:
        bump(self.stats.rejected_inputs, exc.cause)
        return exc

    def _emit_guardrail(self, now: float, rule_id: str, action: str, details: str) -> None:
        bump(self.stats.guardrail_triggers, rule_id)
        self._events.append(GuardrailTriggered(now, rule_id, action, details))

    def _impulse(self, imp: Impulse) -> None:
        self.affect.impulse(imp)
        bump(self.stats.impulses_by_source, imp.source)

    def _fire_l0(self, rule_id: str, now: float) -> bool:
        rule = L0_CATALOG[rule_id]
        if not self._cooldowns.try_fire(rule, now):
            return False
        bump(self.stats.l0_fired, rule_id)
        self._impulse(rule.impulse())
        return True

    def _wake(self, now: float) -> None:
        """DESIGN §6.11: a wake event makes Buddy awake at once (and starts a new idle
        period); the caller applies the event's own impulse."""
        self.sleep.restart(now, self.session.active)

    # ------------------------------------------------------------------ what to write
    @property
    def writes_pending(self) -> bool:
        return self._memory_save_due or self.usage.save_due or self._resume_save_due

    def take_writes(self) -> Writes:
        """What the state keeper should write now (and no longer due here): the usage
        counter, the resume state that goes with it, the memory store."""
        usage_until = None
        if self.usage.save_due:
            self._resume_save_due = True  # the session state goes with the RS-2 counter
            usage_until = self._last_t
        state = None
        if self._resume_save_due:
            self._resume_save_due = False
            self._resume_saved_at = self._last_t
            state = self._resume_state()
        memory = self._memory_save_due
        self._memory_save_due = False
        return Writes(usage_until, state, memory)

    def all_due(self) -> None:
        """Everything is due (shutdown): the RS-2 counter, the state, the memory store."""
        self.usage.save_due = True
        if self.memory_writable:
            self._memory_save_due = True

    def write_failed(self, what: str, exc: OSError) -> None:
        """The keeper could not write a file: counted and warned, the state stays here."""
        bump(self.stats.write_errors, what)
        self.warnings.append(f"could not write the {what} file: {exc}")
        del self.warnings[:-20]  # keep the newest few

    def _resume_state(self) -> ResumeState:
        a = self.affect
        s = self.session
        return ResumeState(
            saved_at=self._last_t, valence=a.valence, arousal=a.arousal,
            tonic_valence=a.tonic_valence, tonic_arousal=a.tonic_arousal,
            idle_since=self.sleep.rules.state.idle_since,
            conversation_active=s.active, session_id=s.session_id[:128],
            session_s=self.usage.session_s, rs1_sent=s.rs1_sent,
            last_end_reason=s.last_end_reason[:64])

    def _restore(self, state: ResumeState | None, now: float) -> None:
        """Pick up where the previous process stopped (personality/resume.py)."""
        if state is None:
            return
        a = self.affect
        s = self.session
        a.place(state.valence, state.arousal)
        a.tonic_valence, a.tonic_arousal = state.tonic_valence, state.tonic_arousal
        self._last_t = self._last_tick_t = min(state.saved_at, now)
        self.sleep.rules.state.idle_since = min(state.idle_since, now)
        s.last_end_reason = state.last_end_reason
        self._advance(now)  # decay over the downtime, which is never talk
        if state.conversation_active and now - state.saved_at <= SESSION_RESUME_MAX_S:
            s.active = True
            s.session_id = state.session_id
            self.usage.session_s = state.session_s
            s.rs1_sent = state.rs1_sent
            # The session went on while this process was down (the bridge runs it): the
            # gap counts as talk, so RS-1 / RS-2 err on the child's side, never lose time.
            # Counted from where the RS-2 counter on disk stops (its own time), so a kill
            # between the usage and state writes neither loses nor doubles talk.
            counted_until = self.usage.counted_until
            since = state.saved_at if counted_until is None else counted_until
            gap = max(0.0, now - min(since, now))
            self.usage.add_conversation_time(gap)
            self.usage.save_due = True
            self.resumed = (f"session {state.session_id} resumed at "
                            f"{self.usage.session_s:.0f} s of talk ({gap:.0f} s down)")
        else:
            if state.conversation_active:
                s.last_end_reason = END_RESTARTED
                s.ended_at = state.saved_at
            self.resumed = "affect and idle state resumed"
        self.sleep.state_until = now
        self._update_idle_state(now)
        bump(self.stats.resumed, "session" if s.active else "affect")

    # ------------------------------------------------------------------ dynamics
    def _advance(self, now: float) -> None:
        """Move affect, tonic layer and counters from the last update to `now` (no noise)."""
        until = self._override_until
        if until > self._last_t:  # a dev hold is active at the start of this step
            if now <= until:
                self._step(now, True)
                return
            self._step(until, True)  # the hold ends inside this step: split it
            self._override_until = -math.inf
        self._step(now, False)

    def _step(self, now: float, held: bool) -> None:
        dt = now - self._last_t
        if dt <= 0.0:
            return
        self._last_t = now
        self.session.advance(now, dt)  # RS-2 day roll, RS-1 / RS-2 talk
        m = self.memory_access
        if not held:
            m.refresh_bias_if_due(now)
        self.affect.step(dt, held, self.sleep.attractor_valence, self.sleep.attractor_arousal,
                         self.display.recovery_lambda, m.bias_v, m.bias_a)

    def _noise_and_bounds(self, now: float) -> None:
        dt = now - self._last_tick_t
        self._last_tick_t = now
        self.affect.noise_and_bounds(dt, now >= self._override_until)

    def _run_idle(self, now: float) -> None:
        """spec 002 §7: idle rules unless §7.3 suppresses them."""
        for rule_id, imp in self.sleep.due_impulses(
                now, local_hour(now, self.usage.utc_offset_s), self.session.active,
                self.session.ended_at):
            bump(self.stats.idle_rules_fired, rule_id)
            self._impulse(imp)

    def _update_idle_state(self, now: float) -> None:
        """DESIGN §6.11: awake / drowsy / asleep, and the decay attractor with it."""
        self.sleep.update(now, self.session.active)

    # ------------------------------------------------------------------ projection + guardrails
    def _finish(self, now: float, cause: str) -> EngineOutput:
        """Project (§4), apply the guardrails (§9) and the budget hold, build the output."""
        prev = self.mood
        llm = self._llm_impulse
        self._llm_impulse = False
        if self.sleep.idle_state != IDLE_AWAKE:
            # DESIGN §6.11: drowsy or asleep shows SLEEPY, its intensity against the
            # SLEEPY anchor (erratum 2); no guardrail acts on it.
            mood = "sleepy"
            intensity = intensity_for(self.affect.valence, self.affect.arousal, mood)
            self.display.sleepy()
        else:
            mood, intensity = self.display.show(now, self.affect.valence, self.affect.arousal,
                                                prev, llm, self.session.active)
        if mood != prev:
            self._events.append(MoodChange(now, prev, mood, cause, intensity))
            self._profile_due = True
            if mood in NEGATIVE_MOODS:
                self._session_had_negative = True
        self.mood = mood
        self.intensity = intensity
        return self._output(now)

    def _output(self, now: float) -> EngineOutput:
        a = self.affect
        snap = Snapshot(now, self.mood, self.intensity, a.valence, a.arousal,
                        a.tonic_valence, a.tonic_arousal, self.layer,
                        self.session.active, self.sleep.idle_state)
        profile = None
        if self._profile_due:
            self._profile_due = False
            profile = self.llm_profile(now)
        if self._events:
            events = tuple(self._events)
            self._events.clear()
        else:
            events = NO_EVENTS
        return EngineOutput(snap, events, profile)

    # ------------------------------------------------------------------ the 1 Hz tick
    def tick(self, now: float) -> EngineOutput:
        """§10.1: decay → idle rules → noise → clamp → project → guardrails → snapshot."""
        if not math.isfinite(now):
            raise self._reject(InputRejected("not_finite", f"time is not finite: {now!r}"))
        if self._override_until > self._last_t:
            self._advance(now)
        else:
            self._step(now, False)  # the common case, one call fewer on the 1 Hz path
        if now >= self.sleep.due_at:
            self._run_idle(now)
        self._noise_and_bounds(now)
        if self.session.active:
            self._arc.append(self.affect.valence)
            self._profile_due = True  # §10.4: profile at 1 Hz during a conversation
        elif now >= self.sleep.state_until:
            self._update_idle_state(now)
        if self._keeps_state and now - self._resume_saved_at >= RESUME_SAVE_IDLE_S:
            self._resume_save_due = True
            self._resume_saved_at = now
        return self._finish(now, "tick")

    def snapshot(self, now: float) -> EngineOutput:
        """Advance to `now` without an event (e.g. for a late query)."""
        self._advance(self._check_now(now))
        return self._finish(now, "tick")

    # ------------------------------------------------------------------ inbound events §10.3
    def on_ai_emotion(self, now: float, emotion: str, intensity: float, confidence: float,
                      source: int, mood_reason: str = "", session_id: str = "",
                      turn_id: int = 0) -> EngineOutput:
        """An LLM emotion intent: spec 000 gate, then the §13 pipeline, then an impulse."""
        try:
            now = check_now(now)
            name = text("emotion", emotion).strip().lower()
            name = EMOTION_ALIASES.get(name, name)
            if name not in MOOD_ANCHORS:
                raise InputRejected("unknown_emotion", f"unknown emotion {emotion!r}")
            intensity = finite("intensity", intensity, 0.0, 1.0)
            confidence = finite("confidence", confidence, 0.0, 1.0)
            if source not in gate_mod.SOURCE_NAMES:
                raise InputRejected("unknown_enum", f"unknown intent source {source!r}")
            mood_reason = text("mood_reason", mood_reason)
            session_id = text("session_id", session_id)
            if isinstance(turn_id, bool) or not isinstance(turn_id, int) or turn_id < 0:
                raise InputRejected("out_of_range", f"turn_id {turn_id!r} is not a count")
        except InputRejected as exc:
            raise self._reject(exc) from None
        if emotion.strip().lower() == "nervous":
            intensity = min(intensity, NERVOUS_INTENSITY_CAP)
        self._advance(now)
        if self.sleep.offline_since is None and source != gate_mod.SOURCE_RULES:
            # An LLM intent arrived: layer 1 is evidently up. Not after the bridge reported
            # SERVER_OFFLINE: its own lines' intents (the HC-9 calm face, the output guard's
            # THINKING) come from no server; only SERVER_ONLINE ends an offline stretch.
            # Nor from layer 0's own answers (SOURCE_RULES, issue 15), which need none.
            self.sleep.server_online = True
        self.session.note_turn(session_id, turn_id)
        decision = self.gate.evaluate(now, name, confidence, source, self.mood)
        verdict = decision.verdict
        if verdict in (gate_mod.DROP_CONFIDENCE, gate_mod.DROP_COOLDOWN):
            bump(self.stats.gate_rejections, verdict)
            return self._finish(now, "ai_emotion")
        if verdict == gate_mod.BUDGET_EXHAUSTED:
            bump(self.stats.gate_rejections, verdict)
            self.affect.pull_to_baseline(BUDGET_PULL)
            self.display.budget_hold_until = self.gate.budget_free_at(now)
            self._emit_guardrail(now, "BUDGET", "budget_reset",
                                 f"{gate_mod.MAX_TRANSITIONS} mood transitions in "
                                 f"{gate_mod.TRANSITION_WINDOW_S:.0f} s; {name} intent dropped")
            return self._finish(now, "budget")
        if verdict == gate_mod.ANGRY_GUARD:
            bump(self.stats.gate_rejections, verdict)
            self._emit_guardrail(now, "ANGRY-GUARD", "substitute_thinking",
                                 f"angry needs an INLINE intent with confidence >= 0.8 from "
                                 f"neutral/sad/scared/confused (was {self.mood})")
            name = "thinking"
        # spec 002 §13.3 mood_reason validation
        verdict_reason = validate_mood_reason(mood_reason, name, self.session.active)
        factor = verdict_reason.factor
        if verdict_reason.substitute is not None:
            action = "substitute_" + verdict_reason.substitute
            self._emit_guardrail(now, verdict_reason.rule_id or "", action,
                                 f"{name} refused ({mood_reason[:60]!r})")
            name = verdict_reason.substitute
            factor = 1.0
        imp = emotion_impulse(name, intensity, factor, self.traits)
        if source == gate_mod.SOURCE_POST:
            # P16: a POST intent mirrors the child's affect; empathy gain sets how much.
            imp = Impulse(imp.target_valence, imp.target_arousal,
                          imp.magnitude * self.traits.empathy_gain, imp.source)
        self._impulse(imp)
        self._llm_impulse = True
        return self._finish(now, "ai_emotion")

    def on_conversation_started(self, now: float, session_id: str,
                                trigger: str = "") -> EngineOutput:
        try:
            now = check_now(now)
            session_id = text("session_id", session_id).strip()
            text("trigger", trigger)
            if not session_id:
                raise InputRejected("missing_session", "conversation started without session_id")
        except InputRejected as exc:
            raise self._reject(exc) from None
        refusal = self.session.start_refusal(session_id)
        if refusal is not None:
            raise self._reject(refusal)
        self._advance(now)
        if self.session.active:
            # issue 31 item 2: another session over a running one is counted (RS-1's clock
            # goes on), never refused into uncounted talk (session_limits.take_over).
            self.stats.sessions_taken_over += 1
            self.warnings.append(self.session.take_over(now, session_id))
            del self.warnings[:-20]
            self._wake(now)
            self._profile_due = True
            return self._finish(now, "conversation")
        self.session.start(now, session_id)
        self._arc.clear()
        self._session_had_negative = False
        self.memory.session_count += 1
        self._wake(now)
        self._fire_l0("L0-06", now)
        self._profile_due = True
        return self._finish(now, "conversation")

    def stale_end_reason(self, session_id: str) -> str | None:
        """Why a conversation ENDED for `session_id` ends nothing (a duplicate, or the end
        of a session that is not the running one), or None. The engine ignores such an
        event; the node counts it (DESIGN §5 bad input)."""
        return self.session.stale_end_reason(session_id)

    def on_conversation_ended(self, now: float, session_id: str = "",
                              turns: int = 0, reason: str = "") -> EngineOutput:
        try:
            now = check_now(now)
            session_id = text("session_id", session_id)
        except InputRejected as exc:
            raise self._reject(exc) from None
        self._advance(now)
        if not self.session.end(now, session_id, text("reason", reason)):
            return self._finish(now, "conversation")  # L0-07/08 need a conversation to end
        # L0-07 / L0-08 (IDLE-05 / IDLE-06)
        self._fire_l0("L0-07" if self.affect.valence > 0.0 else "L0-08", now)
        self.memory.total_conversation_s += self.usage.session_s
        if self.memory_writable:
            self._memory_save_due = True
        self.sleep.restart(now, self.session.active)
        self._arc.clear()
        self._profile_due = True
        return self._finish(now, "conversation")

    def on_bridge_presence(self, now: float, present: bool) -> EngineOutput | None:
        """The node says whether an LLM bridge is on the graph; a session without one
        ends after BRIDGE_LOST_GRACE_S with end reason bridge_lost (issue 19)."""
        if present or not self.session.active:
            self.session.bridge_lost(now, present)
            return None
        now = check_now(now)
        if not self.session.bridge_lost(now, present):
            return None
        return self.on_conversation_ended(now, self.session.session_id, reason=END_BRIDGE_LOST)

    def on_system_event(self, now: float, kind: int, battery_pct: float = -1.0,
                        detail: str = "") -> EngineOutput:
        """L0-01..L0-05 (§5.1), IDLE-07, server on/offline (layer, IDLE-09)."""
        try:
            now = check_now(now)
            if isinstance(kind, bool) or kind not in SYSTEM_EVENT_KINDS:
                raise InputRejected("unknown_enum", f"unknown system event kind {kind!r}")
            battery_pct = finite("battery_pct", battery_pct, -1.0, 100.0)
            detail = text("detail", detail)
        except InputRejected as exc:
            raise self._reject(exc) from None
        self._advance(now)
        pct_known = battery_pct >= 0.0
        if kind in (SYS_BOOT, SYS_FAULT_RAISED):
            self._wake(now)  # DESIGN §6.11 wake events: a boot, a fault
        if kind == SYS_BOOT:
            if not self._booted:  # L0-01 / IDLE-01: once per boot
                self._booted = True
                self._fire_l0("L0-01", now)
                self._first_boot_of_the_morning(now)
        elif kind == SYS_LOW_BATTERY:
            if not pct_known or battery_pct < LOW_BATTERY_PCT:
                self._fire_l0("L0-02", now)
        elif kind == SYS_CRITICAL_BATTERY:
            if not pct_known or battery_pct < CRITICAL_BATTERY_PCT:
                self._fire_l0("L0-03", now)
        elif kind == SYS_FAULT_RAISED:
            self.sleep.fault_raised(detail)
            self._fire_l0("L0-04", now)
        elif kind == SYS_FAULT_CLEARED:
            if self.sleep.fault_cleared(detail):  # L0-05: only when a fault was active
                self._fire_l0("L0-05", now)
        elif kind in (SYS_SERVER_ONLINE, SYS_SERVER_OFFLINE):
            self.sleep.server(now, kind == SYS_SERVER_ONLINE)
        self.sleep.due_at = now
        self.sleep.state_until = now
        if not self.session.active:
            self._update_idle_state(now)
        return self._finish(now, "system_event")

    def _first_boot_of_the_morning(self, now: float) -> None:
        """IDLE-07: the first boot of a day, in the morning hours."""
        today = local_day(now, self.usage.utc_offset_s)
        hour = local_hour(now, self.usage.utc_offset_s)
        if self.usage.last_boot_day != today and MORNING_HOURS[0] <= hour < MORNING_HOURS[1]:
            bump(self.stats.idle_rules_fired, "IDLE-07")
            self._impulse(IDLE_IMPULSES["IDLE-07"])
        self.usage.last_boot_day = today
        self.usage.save_due = True

    def on_speech_activity(self, now: float, speaking: bool) -> EngineOutput:
        """L0-09 while TTS speaks; speaking also suppresses idle rules (§7.3)."""
        now = check_now(now)
        self._advance(now)
        self.sleep.on_speaking(now, bool(speaking))
        if speaking:
            self._wake(now)
            self._fire_l0("L0-09", now)
        self.sleep.due_at = now
        return self._finish(now, "speech")

    def on_button(self, now: float, button_id: int, event_type: int) -> EngineOutput:
        """L0-10 on a press, click or toggle of a face button."""
        try:
            now = check_now(now)
            if isinstance(button_id, bool) or button_id not in BUTTON_IDS:
                raise InputRejected("unknown_enum", f"unknown button id {button_id!r}")
            if isinstance(event_type, bool) or event_type not in BUTTON_EVENTS:
                raise InputRejected("unknown_enum", f"unknown button event {event_type!r}")
        except InputRejected as exc:
            raise self._reject(exc) from None
        self._advance(now)
        if event_type != BUTTON_RELEASE:
            self._wake(now)
            self._fire_l0("L0-10", now)
        return self._finish(now, "button")

    def on_child_approach(self, now: float) -> EngineOutput:
        """L0-13: wake word heard (conversation phase ATTENTION) or proximity."""
        now = check_now(now)
        self._advance(now)
        self._wake(now)
        self._fire_l0("L0-13", now)
        return self._finish(now, "child_approach")

    # ------------------------------------------------------------------ identity, consent, memory
    def on_identity(self, now: float, user_id: str) -> EngineOutput:
        """The identity node's current user (empty when unknown)."""
        self.memory_access.current_user = text("user_id", user_id).strip()
        return self.snapshot(now)

    def on_consent(self, now: float, records: Iterable[tuple[str, str, int]]) -> EngineOutput:
        """All consent records (user_id, scope, state); replaces the previous set."""
        self.memory_access.set_consent(records)
        return self.snapshot(now)

    def on_memory_extract(self, now: float, tags: Sequence[tuple[str, str, float, float]],
                          user_id: str = "") -> EngineOutput:
        """Store the (tag, category, valence_bias, arousal_bias) of one turn under consent."""
        now = check_now(now)
        self._advance(now)
        user_id = text("user_id", user_id).strip()
        report = self.memory_access.remember(now, tags, user_id, self.stats.memory_refusals)
        if report.stored or report.reinforced:
            self._memory_save_due = True
        out = self._finish(now, "memory")
        return EngineOutput(out.snapshot, out.events, out.profile, report)

    def reset_memory(self, now: float) -> EngineOutput:
        """'Forget everything' (spec 002 §8.5, parent command via identity)."""
        now = check_now(now)
        self._advance(now)
        self.memory.reset()
        self._profile_due = True
        return self._finish(now, "memory")

    def list_memories(self, now: float) -> list[MemoryView]:
        """Every stored memory, strongest first (RS-4 parent viewer)."""
        return self.memory_access.views(now)

    def forget_user(self, now: float, user_id: str) -> tuple[EngineOutput, ForgetUserResult]:
        """'Forget this child' (issue 16; spec 002 §8.5 parent deletion, for one household
        user; the identity node calls it after an executed, confirmed forget_child). The
        memory file is written at once; an OSError reaches the caller."""
        try:
            now = check_now(now)
            user_id = text("user_id", user_id).strip()
            if not user_id:
                raise InputRejected("missing_user", "forget_user without a user id")
        except InputRejected as exc:
            raise self._reject(exc) from None
        self._advance(now)
        result = self.memory.forget_user(user_id)
        self._profile_due = True
        return self._finish(now, "memory"), result

    # ------------------------------------------------------------------ parent commands
    def lower_limits(self, now: float, session_limit_s: float | None,
                     daily_limit_s: float | None) -> tuple[EngineOutput, LimitsOutcome]:
        """A parent lowers today's RS-1 / RS-2 limits (issue 16; the identity node calls
        this after an executed, PIN-authorised lower_limits command). Never raises a limit:
        a value above the limit in force refuses the whole request with the reason. The
        lowered limits hold until the RS-2 daily reset and are written with the usage
        file at once. A session already past a new limit ends by RS-1's (RS-2's) path."""
        now = check_now(now)
        self._advance(now)
        s = self.session
        refusal = s.lower(now, session_limit_s, daily_limit_s)
        if refusal is None:
            bump(self.stats.guardrail_triggers, "limits_lowered")
            message = (f"today's limits: {s.session_limit_s / 60.0:g} min a talk, "
                       f"{s.daily_limit_s / 60.0:g} min a day")
        else:
            bump(self.stats.guardrail_triggers, "limits_refused")
            message = refusal
        outcome = LimitsOutcome(refusal is None, message, s.session_limit_s, s.daily_limit_s)
        return self._finish(now, "limits"), outcome

    # ------------------------------------------------------------------ dev commands
    def set_guardrail(self, key: str, value: str) -> None:
        """spec 002 §9.5 toggle (dev only; the node gates it). Raises ValueError."""
        self.guardrails.set_value(key, value)

    def override_affect(self, now: float, valence: float, arousal: float,
                        duration_s: float = 0.0) -> EngineOutput:
        """Place affect at a point (dev only); guardrails still apply to what is shown."""
        try:
            now = check_now(now)
            valence = finite("valence", valence, -1.0, 1.0)
            arousal = finite("arousal", arousal, -1.0, 1.0)
            duration_s = finite("duration_s", duration_s, 0.0, 3600.0)
        except InputRejected as exc:
            raise self._reject(exc) from None
        self._advance(now)
        self.affect.place(valence, arousal)
        self._override_until = now + duration_s if duration_s > 0.0 else -math.inf
        return self._finish(now, "override")

    # ------------------------------------------------------------------ LLM profile §12.5
    def conversation_arc(self) -> str:
        if not self.session.active or len(self._arc) < 2:
            return "stable"
        delta = self._arc[-1] - self._arc[0]
        if self.mood not in NEGATIVE_MOODS and self.mood != "neutral" and (
                self.intensity >= ARC_PEAK_INTENSITY):
            return "peak"
        if delta > ARC_DELTA:
            return "recovery" if self._session_had_negative else "rising"
        if delta < -ARC_DELTA:
            return "falling"
        return "stable"

    def top_memory_tags(self, now: float) -> tuple[str, ...]:
        """The strongest tags, re-ranked when memory changes or once a minute."""
        return self.memory_access.top_tags(now)

    def llm_profile(self, now: float) -> LlmProfile:
        a = self.affect
        s = self.session
        return LlmProfile(now, self.mood, self.intensity, a.valence, a.arousal,
                          a.tonic_valence, a.tonic_arousal, s.session_id, s.turn_id,
                          self.memory_access.profile_tags(now), self.conversation_arc(),
                          self.layer, s.active)
