"""The personality engine's state and clock: what every call of `engine.py` builds on.

spec 002 §2-§10 and §12.5, DESIGN §4.1 and §6, issue 19. `EngineBase` owns the parts
(`dynamics.AffectDynamics`, `sleep.SleepCycle`, `session_limits.SessionLimits`,
`display.MoodDisplay`, `memory_access.MemoryAccess`), moves them to `now` (`_advance`),
runs the 1 Hz tick (§10.1), projects and builds the output (`_finish`, §4, §9), builds the
LLM profile (§12.5). What to write and when is the `state_keeper.WriteSchedule`'s (the
engine tells it what changed); the restart resume is `resume.restore`'s.
`engine.PersonalityEngine` adds the call surface: inbound events (§10.3) and commands.
Time is always an argument; randomness comes from the seed (DESIGN §1).
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter

from buddy_personality.personality.affect import Impulse
from buddy_personality.personality.display import MoodDisplay
from buddy_personality.personality.dynamics import AffectDynamics
from buddy_personality.personality.early_intents import EarlyIntents
from buddy_personality.personality.guardrails import GuardrailConfig, UsageCounter, local_hour
from buddy_personality.personality.impulses import L0_CATALOG, CooldownTracker
from buddy_personality.personality.inputs import InputRejected, bump, check_now
from buddy_personality.personality.intent_gate import IntentGate
from buddy_personality.personality.memory import MemoryStore
from buddy_personality.personality.memory_access import MemoryAccess
from buddy_personality.personality.moods import NEGATIVE_MOODS
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
    MoodChange,
    Snapshot,
)
from buddy_personality.personality.resume import ResumeState, restore
from buddy_personality.personality.session_limits import SessionLimits
from buddy_personality.personality.sleep import SleepCycle
from buddy_personality.personality.state_keeper import WriteSchedule
from buddy_personality.personality.traits import TraitParameters, canonical_traits

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
    sessions_started_by_intent: int = 0  # a lost STARTED: the session's intent started it
    # intents before their session's STARTED (early_intents.py, issue 30 item 2): held,
    # released (after STARTED, or the session's end), released_without_start (the bound)
    early_intents: dict[str, int] = field(default_factory=dict)



class EngineBase:
    """The parts, their clock and the output; no inbound event (engine.py has those)."""

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
        # what is due for the state keeper (state_keeper.py); the engine only tells it
        self.writes = WriteSchedule(keeps_state, now)
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
        # intents that came before their session's STARTED (issue 30 item 2)
        self.early_intents = EarlyIntents()
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
        self.resumed = "" if resume is None else restore(self, resume, now)

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
        """Something is due for the state keeper (its `WriteSchedule` decides)."""
        return self.writes.pending(self)

    def write_failed(self, what: str, exc: OSError) -> None:
        """The keeper could not write a file: counted and warned, the state stays here."""
        bump(self.stats.write_errors, what)
        self.warnings.append(f"could not write the {what} file: {exc}")
        del self.warnings[:-20]  # keep the newest few

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
        self._project(now, cause)
        return self._output(now)

    def _project(self, now: float, cause: str) -> None:
        """Project (§4) and apply the guardrails (§9) and the budget hold: the mood shown
        now, a MoodChange event when it changed. One call may project more than once (a
        STARTED and the intents held for it, early_intents.py); the output is built once."""
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
        self.writes.ticked(now)
        return self._finish(now, "tick")

    def snapshot(self, now: float) -> EngineOutput:
        """Advance to `now` without an event (e.g. for a late query)."""
        self._advance(self._check_now(now))
        return self._finish(now, "tick")

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
