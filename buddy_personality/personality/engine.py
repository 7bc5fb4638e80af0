"""The personality engine: one object owning affect, mood and every rule around them.

spec 002 §2-§10 and §13, the spec 000 intent gate, DESIGN §4.1 and §6. A node calls
`tick(now)` at 1 Hz and one `on_*` method per inbound event (§10.3); each returns an
`EngineOutput` (snapshot, mood-changed and guardrail events, LLM profile when due).
Time is always an argument (wall-clock or sim seconds); randomness comes from the seed,
so the same seed and inputs give the same outputs bit for bit.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from buddy_personality.personality import intent_gate as gate_mod
from buddy_personality.personality.affect import (
    MEMORY_ACTIVE_THRESHOLD,
    MEMORY_WEIGHT,
    TONIC_COUPLING,
    Impulse,
    apply_impulse,
    cap_and_clamp,
)
from buddy_personality.personality.guardrails import (
    MOOD_CAPS,
    GuardrailConfig,
    LimitsOutcome,
    UsageCounter,
    local_day,
    local_hour,
    lower_limits_check,
)
from buddy_personality.personality.idle import (
    IDLE_IMPULSES,
    MORNING_HOURS,
    POST_CONVERSATION_COOLDOWN_S,
    SLEEP_STATES,
    IdleRules,
    idle_impulse_allowed,
)
from buddy_personality.personality.impulses import (
    CRITICAL_BATTERY_PCT,
    L0_CATALOG,
    LOW_BATTERY_PCT,
    CooldownTracker,
)
from buddy_personality.personality.intent_gate import IntentGate
from buddy_personality.personality.memory import ForgetUserResult, MemoryStore
from buddy_personality.personality.modulation import emotion_impulse, validate_mood_reason
from buddy_personality.personality.moods import (
    EMOTION_ALIASES,
    MOOD_ANCHORS,
    NEGATIVE_MOODS,
    NERVOUS_INTENSITY_CAP,
    nearest_mood,
)
from buddy_personality.personality.projection import intensity_for, project_mood
from buddy_personality.personality.records import (
    IDLE_AWAKE,
    LAYER_LLM,
    LAYER_RULES,
    NO_EVENTS,
    EngineOutput,
    Event,
    GuardrailTriggered,
    LlmProfile,
    MemoryReport,
    MemoryView,
    MoodChange,
    Snapshot,
)
from buddy_personality.personality.resume import (
    END_RESTARTED,
    SESSION_RESUME_MAX_S,
    ResumeState,
    load_resume,
    save_resume,
)
from buddy_personality.personality.traits import TraitParameters, canonical_traits

# A session whose LLM bridge is gone from the graph ends after this long (issue 19): the
# time is not talk, and the face must not stay in conversation for a session nobody runs.
BRIDGE_LOST_GRACE_S = 3.0
END_BRIDGE_LOST = "bridge_lost"  # buddy_msgs/ConversationEvent END_BRIDGE_LOST
RESUME_SAVE_IDLE_S = 30.0  # outside a session, affect and idle state are saved this often

# SystemEvent.kind values (repeated so the core imports no ROS)
SYS_BOOT = 0
SYS_LOW_BATTERY = 1
SYS_CRITICAL_BATTERY = 2
SYS_FAULT_RAISED = 3
SYS_FAULT_CLEARED = 4
SYS_SERVER_ONLINE = 5
SYS_SERVER_OFFLINE = 6
SYS_BIRTHDAY_GREETING = 7
SYSTEM_EVENT_KINDS = range(8)
# ButtonEvent values
BUTTON_IDS = (0, 1)
BUTTON_PRESS, BUTTON_RELEASE, BUTTON_TOGGLE, BUTTON_CLICK = 0, 1, 2, 3
# ConsentRecord.state GRANTED; the scope the memory gate reads (RS-5)
CONSENT_GRANTED = 2
MEMORY_SCOPE = "memory"

BUDGET_PULL = 0.5  # share of the displacement from baseline removed when the budget is spent
MEMORY_BIAS_REFRESH_S = 60.0  # strengths change over days: refreshing each minute is exact enough
NOISE_BLOCK = 8192
PROFILE_TOP_TAGS = 5
ARC_WINDOW = 10  # ticks of valence history used for the conversation arc
ARC_DELTA = 0.05
ARC_PEAK_INTENSITY = 0.75
STRING_MAX = 256
# A lost "speaking: false" must not silence the idle rules forever (§7.3 suppression).
SPEAKING_STALE_S = 300.0
_GUARDED_MOODS = NEGATIVE_MOODS | frozenset(MOOD_CAPS)


class InputRejected(ValueError):
    """An inbound value the engine refuses; `cause` is a short key for counting."""

    def __init__(self, cause: str, message: str) -> None:
        super().__init__(message)
        self.cause = cause


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


def _bump(counter: dict[str, int], key: str) -> None:
    counter[key] = counter.get(key, 0) + 1


def _finite(name: str, value: float, lo: float, hi: float) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError) as exc:
        raise InputRejected("not_a_number", f"{name} is not a number: {value!r}") from exc
    if not math.isfinite(value):
        raise InputRejected("not_finite", f"{name} is not finite: {value!r}")
    if not lo <= value <= hi:
        raise InputRejected("out_of_range", f"{name}={value} outside [{lo}, {hi}]")
    return value


def _text(name: str, value: str) -> str:
    if not isinstance(value, str):
        raise InputRejected("not_a_string", f"{name} is not a string")
    return value[:STRING_MAX]


class PersonalityEngine:
    """All of spec 002 §2-§10, §13 and the spec 000 gate behind one call surface."""

    def __init__(
        self,
        now: float,
        traits: TraitParameters | None = None,
        *,
        seed: int = 0,
        guardrails: GuardrailConfig | None = None,
        memory_path: Path | str | None = None,
        usage_path: Path | str | None = None,
        memory_consent: bool = False,
        utc_offset_s: float = 0.0,
        defer_writes: bool = False,
        state_path: Path | str | None = None,
    ) -> None:
        now = self._check_now(now)
        self.traits = traits if traits is not None else canonical_traits()
        t = self.traits
        self.guardrails = guardrails if guardrails is not None else GuardrailConfig()
        self.memory_consent = bool(memory_consent)
        self.stats = EngineStats()
        # defer_writes: file writes wait for flush_writes(), so a node publishes the
        # snapshot before it fsyncs (the event fast path stays fast).
        self._defer_writes = defer_writes
        self._memory_save_due = False
        self.rng = random.Random(seed)
        # Noise: a seeded numpy block per 8192 draws is far cheaper than random.gauss per tick.
        self._np_rng = np.random.default_rng(self.rng.getrandbits(64))
        self._noise: list[float] = []
        self._noise_i = 0

        # affect (§2) and tonic layer (DESIGN §6.4), both start at baseline (§3.3)
        self._bv = t.baseline_valence
        self._ba = t.baseline_arousal
        self.valence = self._bv
        self.arousal = self._ba
        self.tonic_valence = self._bv
        self.tonic_arousal = self._ba
        self.mood = "neutral"
        self.intensity = intensity_for(self.valence, self.arousal, "neutral")
        self._lam_pos = t.decay_rate_phasic * t.decay_multiplier_positive
        self._lam_neg = t.decay_rate_phasic * t.decay_multiplier_negative
        # Exp factors for the common dt = 1 s tick, computed once (hot path).
        self._k1_pos = 1.0 - math.exp(-self._lam_pos)
        self._k1_neg = 1.0 - math.exp(-self._lam_neg)
        self._k1_tonic = 1.0 - math.exp(-t.decay_rate_tonic)
        self._range2 = t.emotional_range * t.emotional_range

        self._last_t = now  # last time affect was advanced
        self._last_tick_t = now  # last time noise was added
        self.conversation_active = False
        self.session_id = ""
        # Sessions that ended (issue 14): a STARTED that arrives after its own ENDED
        # (out of order) would otherwise open a session nobody runs.
        self._ended_sessions: deque[str] = deque(maxlen=32)
        self.turn_id = 0
        self.speaking = False
        self._speaking_since = -math.inf
        self._faults: set[str] = set()
        self._server_online = False
        self._offline_since: float | None = None
        self._conv_ended_at = -math.inf
        self._booted = False
        self._cooldowns = CooldownTracker()
        self.gate = IntentGate()
        self._idle = IdleRules(t, self.rng, now)
        self._idle_due = now
        self._idle_state_until = now
        self.idle_state = IDLE_AWAKE
        # DESIGN §6.11: the point the §2.4 decay pulls toward. The baseline while awake;
        # the sleep rule's target (IDLE-03/04/09) while drowsy or asleep.
        self._sleep_rule: str | None = None
        self.attractor_valence = self._bv
        self.attractor_arousal = self._ba
        # DESIGN §6.12: set while an accepted LLM intent's impulse is being projected, so
        # only those mood changes count against the spec 000 transition budget.
        self._llm_impulse = False

        # guardrail state (§9)
        self._cap_mood: str | None = None
        self._cap_since = 0.0
        self._recovery_mood: str | None = None
        self._recovery_lambda = 0.0
        self._gate_biting = False
        self._intensity_capped_mood: str | None = None
        self._budget_hold_until = -math.inf
        self._override_until = -math.inf
        self._rs1_sent = False
        self._rs2_sent = False

        # time limits and memory
        self.usage = UsageCounter(Path(usage_path) if usage_path else None, utc_offset_s, now)
        self._next_midnight = self._midnight_after(now)
        self.memory = MemoryStore(Path(memory_path) if memory_path else None, now)
        self._bias_v = 0.0
        self._bias_a = 0.0
        self._bias_version = -1
        self._bias_refresh_at = now
        self._top_tags: tuple[str, ...] = ()
        self._tags_version = -1
        self._tags_refresh_at = now
        self._current_user = ""
        self._consented_users: set[str] = set()

        self._arc: deque[float] = deque(maxlen=ARC_WINDOW)
        self._session_had_negative = False
        self._events: list[Event] = []
        self._profile_due = False
        self.warnings: list[str] = [*self.usage.warnings, *self.memory.warnings]
        # issue 19: a restart resumes affect, the idle period and a running session
        self.last_end_reason = ""
        self.resumed = ""
        self._bridge_absent_since: float | None = None
        self._state_path = Path(state_path) if state_path else None
        self._resume_save_due = False
        self._resume_saved_at = now
        if self._state_path is not None:
            self._restore(load_resume(self._state_path, now, self.warnings), now)

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _check_now(now: float) -> float:
        now = float(now)
        if not math.isfinite(now):
            raise InputRejected("not_finite", f"time is not finite: {now!r}")
        return now

    def _midnight_after(self, now: float) -> float:
        off = self.usage.utc_offset_s
        return (local_day(now, off) + 1) * 86400.0 - off

    def set_utc_offset(self, utc_offset_s: float, now: float) -> None:
        """The node updates the local offset (DST) without the core reading a clock."""
        self.usage.utc_offset_s = _finite("utc_offset_s", utc_offset_s, -14 * 3600, 14 * 3600)
        self._next_midnight = self._midnight_after(now)

    def _reject(self, exc: InputRejected) -> InputRejected:
        _bump(self.stats.rejected_inputs, exc.cause)
        return exc

    def _emit_guardrail(self, now: float, rule_id: str, action: str, details: str) -> None:
        _bump(self.stats.guardrail_triggers, rule_id)
        self._events.append(GuardrailTriggered(now, rule_id, action, details))

    def _impulse(self, imp: Impulse) -> None:
        v, a = apply_impulse(self.valence, self.arousal, imp, self.traits)
        self.valence, self.arousal = cap_and_clamp(v, a, self.traits)
        _bump(self.stats.impulses_by_source, imp.source)

    def _fire_l0(self, rule_id: str, now: float) -> bool:
        rule = L0_CATALOG[rule_id]
        if not self._cooldowns.try_fire(rule, now):
            return False
        _bump(self.stats.l0_fired, rule_id)
        self._impulse(rule.impulse())
        return True

    def _restart_idle(self, now: float) -> None:
        self._idle.restart(now)
        self._idle_due = now
        self._update_idle_state(now)

    @property
    def layer(self) -> int:
        return LAYER_LLM if self._server_online else LAYER_RULES

    @property
    def error_active(self) -> bool:
        return bool(self._faults)

    # ------------------------------------------------------------------ persistence
    def _write_if_immediate(self) -> None:
        if not self._defer_writes:
            self.flush_writes()

    @property
    def writes_pending(self) -> bool:
        return self._memory_save_due or self.usage.save_due or self._resume_save_due

    def flush_writes(self) -> None:
        """Write what is due (atomic JSON). A failed write is a warning, never a crash:
        the state stays in memory and the next change writes it again."""
        if self.usage.save_due:
            self._resume_save_due = True  # the session state goes with the RS-2 counter
            try:
                self.usage.save(counted_until=self._last_t)
            except OSError as exc:
                self._write_failed("usage", exc)
        if self._resume_save_due:
            self._resume_save_due = False
            self._resume_saved_at = self._last_t
            if self._state_path is not None:
                try:
                    save_resume(self._state_path, self._resume_state())
                except (OSError, ValueError) as exc:
                    self._write_failed("personality state", OSError(str(exc)))
        if self._memory_save_due:
            self._memory_save_due = False
            try:
                self.memory.save()
            except OSError as exc:
                self._write_failed("memory", exc)

    def flush_all(self) -> None:
        """Write everything now (shutdown): the RS-2 counter, the personality state and
        the memory store."""
        self.usage.save_due = True
        if self.memory_writable:
            self._memory_save_due = True
        self.flush_writes()

    def _resume_state(self) -> ResumeState:
        return ResumeState(
            saved_at=self._last_t, valence=self.valence, arousal=self.arousal,
            tonic_valence=self.tonic_valence, tonic_arousal=self.tonic_arousal,
            idle_since=self._idle.state.idle_since,
            conversation_active=self.conversation_active, session_id=self.session_id,
            session_s=self.usage.session_s, rs1_sent=self._rs1_sent,
            last_end_reason=self.last_end_reason[:64])

    def _restore(self, state: ResumeState | None, now: float) -> None:
        """Pick up where the previous process stopped (personality/resume.py)."""
        if state is None:
            return
        self.valence, self.arousal = cap_and_clamp(state.valence, state.arousal, self.traits)
        self.tonic_valence, self.tonic_arousal = state.tonic_valence, state.tonic_arousal
        self._last_t = self._last_tick_t = min(state.saved_at, now)
        self._idle.state.idle_since = min(state.idle_since, now)
        self.last_end_reason = state.last_end_reason
        self._advance(now)  # decay over the downtime, which is never talk
        if state.conversation_active and now - state.saved_at <= SESSION_RESUME_MAX_S:
            self.conversation_active = True
            self.session_id = state.session_id
            self.usage.session_s = state.session_s
            self._rs1_sent = state.rs1_sent
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
                self.last_end_reason = END_RESTARTED
                self._conv_ended_at = state.saved_at
            self.resumed = "affect and idle state resumed"
        self._idle_state_until = now
        self._update_idle_state(now)
        _bump(self.stats.resumed, "session" if self.conversation_active else "affect")

    def on_bridge_presence(self, now: float, present: bool) -> EngineOutput | None:
        """The node says whether an LLM bridge is on the graph; a session without one
        ends after BRIDGE_LOST_GRACE_S with end reason bridge_lost (issue 19)."""
        if present or not self.conversation_active:
            self._bridge_absent_since = None
            return None
        now = self._check_now(now)
        if self._bridge_absent_since is None:
            self._bridge_absent_since = now
            return None
        if now - self._bridge_absent_since < BRIDGE_LOST_GRACE_S:
            return None
        return self.on_conversation_ended(now, self.session_id, reason=END_BRIDGE_LOST)

    def _write_failed(self, what: str, exc: OSError) -> None:
        _bump(self.stats.write_errors, what)
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
        if now >= self._next_midnight:
            if self.usage.roll_day(now):
                if self._rs2_sent:
                    # RS-2: a new local day lifts the daily lockout; the LLM bridge waits
                    # for this event to accept sessions again.
                    self._emit_guardrail(now, "RS-2", "daily_reset",
                                         "new local day: daily conversation time reset")
                self._rs2_sent = False
            self._next_midnight = self._midnight_after(now)
        if self.conversation_active:
            self._count_conversation_time(now, dt)
        bv = self._bv
        ba = self._ba
        tv = self.attractor_valence
        ta = self.attractor_arousal
        v = self.valence
        a = self.arousal
        k_tonic = (self._k1_tonic if dt == 1.0
                   else 1.0 - math.exp(-self.traits.decay_rate_tonic * dt))
        if held:
            # dev override holds phasic affect still (§10.3 duration_s); tonic still follows
            self.tonic_valence += (bv + TONIC_COUPLING * (v - bv) - self.tonic_valence) * k_tonic
            self.tonic_arousal += (ba + TONIC_COUPLING * (a - ba) - self.tonic_arousal) * k_tonic
            return
        # spec 002 §2.4 step 1: asymmetric decay (§6.1) toward the attractor: the baseline,
        # or while drowsy / asleep the sleep rule's target (DESIGN §6.11)
        if dt == 1.0:
            v += (tv - v) * (self._k1_pos if v >= tv else self._k1_neg)
            a += (ta - a) * (self._k1_pos if a >= ta else self._k1_neg)
        else:
            v += (tv - v) * (1.0 - math.exp(-(self._lam_pos if v >= tv else self._lam_neg) * dt))
            a += (ta - a) * (1.0 - math.exp(-(self._lam_pos if a >= ta else self._lam_neg) * dt))
        # spec 002 §9.1: recovery toward baseline while a duration cap is being enforced
        if self._recovery_lambda > 0.0:
            k = math.exp(-self._recovery_lambda * dt)
            v = bv + (v - bv) * k
            a = ba + (a - ba) * k
        # spec 002 §8.3: memory bias, from cached strength sums
        if now >= self._bias_refresh_at or self.memory.version != self._bias_version:
            self._refresh_memory_bias(now)
        if self._bias_v != 0.0 or self._bias_a != 0.0:
            v += self._bias_v * dt
            a += self._bias_a * dt
        self.valence = v
        self.arousal = a
        # DESIGN §6.4 tonic layer
        self.tonic_valence += (bv + TONIC_COUPLING * (v - bv) - self.tonic_valence) * k_tonic
        self.tonic_arousal += (ba + TONIC_COUPLING * (a - ba) - self.tonic_arousal) * k_tonic

    def _refresh_memory_bias(self, now: float) -> None:
        bv, ba = self.memory.bias(now)
        self._bias_v = bv * MEMORY_WEIGHT
        self._bias_a = ba * MEMORY_WEIGHT
        self._bias_version = self.memory.version
        self._bias_refresh_at = now + MEMORY_BIAS_REFRESH_S
        assert MEMORY_ACTIVE_THRESHOLD == 0.05  # the store applies the §8.3 threshold

    @property
    def session_limit_s(self) -> float:
        """RS-1 limit in force: the configured one, or lower if a parent lowered it today."""
        lowered = self.usage.lowered_session_s
        configured = self.guardrails.session_time_limit_s
        return configured if lowered is None else min(configured, lowered)

    @property
    def daily_limit_s(self) -> float:
        """RS-2 limit in force: the configured one, or lower if a parent lowered it today."""
        lowered = self.usage.lowered_daily_s
        configured = self.guardrails.daily_time_limit_s
        return configured if lowered is None else min(configured, lowered)

    def _count_conversation_time(self, now: float, dt: float) -> None:
        self.usage.add_conversation_time(dt)
        self._check_time_limits(now)

    def _check_time_limits(self, now: float) -> None:
        """RS-1 / RS-2 (spec 002 §9.3): a session past a limit in force ends."""
        usage = self.usage
        session_limit = self.session_limit_s
        daily_limit = self.daily_limit_s
        if not self._rs1_sent and usage.session_s >= session_limit:
            self._rs1_sent = True
            self._emit_guardrail(now, "RS-1", "end_session",
                                 f"session {self.session_id} reached {usage.session_s:.0f} s "
                                 f"(limit {session_limit:.0f} s)")
        if not self._rs2_sent and usage.daily_s >= daily_limit:
            self._rs2_sent = True
            self._emit_guardrail(now, "RS-2", "end_session",
                                 f"daily conversation time {usage.daily_s:.0f} s "
                                 f"(limit {daily_limit:.0f} s)")

    def _noise_and_bounds(self, now: float) -> None:
        """spec 002 §2.4 steps 4-5 with DESIGN §6.3: noise, radial range cap, bounds."""
        dt = now - self._last_tick_t
        self._last_tick_t = now
        t = self.traits
        v = self.valence
        a = self.arousal
        if dt > 0.0 and t.noise_amplitude > 0.0 and now >= self._override_until:
            s = t.noise_amplitude if dt == 1.0 else t.noise_amplitude * math.sqrt(dt)
            i = self._noise_i
            if i + 2 > len(self._noise):
                self._noise = self._np_rng.standard_normal(NOISE_BLOCK).tolist()
                i = 0
            v += self._noise[i] * s
            a += self._noise[i + 1] * s
            self._noise_i = i + 2
        dv = v - self._bv
        da = a - self._ba
        d2 = dv * dv + da * da
        if d2 > self._range2:
            k = t.emotional_range / math.sqrt(d2)
            v = self._bv + dv * k
            a = self._ba + da * k
        if v > t.valence_max:
            v = t.valence_max
        elif v < t.valence_min:
            v = t.valence_min
        if a > t.arousal_max:
            a = t.arousal_max
        elif a < t.arousal_min:
            a = t.arousal_min
        self.valence = v
        self.arousal = a

    def _run_idle(self, now: float) -> None:
        """spec 002 §7: idle rules unless §7.3 suppresses them."""
        speaking = self.speaking and now - self._speaking_since < SPEAKING_STALE_S
        if not (self.conversation_active or speaking or self._faults
                or now - self._conv_ended_at < POST_CONVERSATION_COOLDOWN_S):
            for rule_id in self._idle.due(now, local_hour(now, self.usage.utc_offset_s),
                                          self._offline_since):
                imp = IDLE_IMPULSES[rule_id]
                if idle_impulse_allowed(imp):  # HC-5 / HC-10 (§7.4)
                    _bump(self.stats.idle_rules_fired, rule_id)
                    self._impulse(imp)
        self._idle_due = self._idle.next_due(now, self._offline_since)

    # ------------------------------------------------------------------ projection + guardrails
    def _finish(self, now: float, cause: str) -> EngineOutput:
        """Project (§4), apply the guardrails (§9) and the budget hold, build the output."""
        v = self.valence
        a = self.arousal
        prev = self.mood
        llm = self._llm_impulse
        self._llm_impulse = False
        if self.idle_state != IDLE_AWAKE:
            return self._show_sleepy(now, prev, cause)
        mood, intensity = project_mood(v, a, prev)
        if llm and mood != prev and now >= self._budget_hold_until:
            # DESIGN §6.12: the budget counts accepted LLM intents that change the mood.
            self.gate.record_transition(now)
        if (mood not in _GUARDED_MOODS and self._recovery_mood is None
                and now >= self._budget_hold_until and not self._gate_biting
                and self._intensity_capped_mood is None):
            # Fast path (most ticks): no guardrail is, or was just, acting.
            self._cap_mood = None
            if mood != prev:
                self._commit_change(now, prev, mood, cause, intensity)
            self.mood = mood
            self.intensity = intensity
            return self._output(now)
        display = mood
        g = self.guardrails
        # spec 002 §9.2 context gate (HC-10)
        if display in NEGATIVE_MOODS and g.context_gate and not self.conversation_active:
            display = "neutral"
            if not self._gate_biting:
                self._gate_biting = True
                self._emit_guardrail(now, "HC-10", "context_gate",
                                     f"{mood} outside a conversation shown as neutral")
        else:
            self._gate_biting = False
        # spec 002 §9.1 duration caps, SURPRISED startle rule included
        if self._recovery_mood is not None:
            # Recovery lasts until affect has left the capped mood's region (nearest anchor,
            # not the hysteresis state, which the neutral display has already reset).
            if g.negative_duration_caps and nearest_mood(v, a) == self._recovery_mood:
                if display == self._recovery_mood:
                    display = "neutral"
            else:
                self._recovery_mood = None
                self._recovery_lambda = 0.0
        cap = MOOD_CAPS.get(display) if g.negative_duration_caps else None
        if cap is None:
            self._cap_mood = None
        elif self._cap_mood != display:
            self._cap_mood = display
            self._cap_since = now
        elif now - self._cap_since >= cap.max_duration_s:
            self._recovery_mood = display
            self._recovery_lambda = cap.recovery_lambda
            self._cap_mood = None
            self._emit_guardrail(now, cap.rule_id, "recovery_impulse",
                                 f"{display} held {now - self._cap_since:.1f} s "
                                 f"(cap {cap.max_duration_s:.1f} s)")
            display = "neutral"
        # spec 000 / DESIGN §4.1: a spent transition budget holds neutral
        budget_hold = now < self._budget_hold_until
        if budget_hold:
            display = "neutral"
        if display != mood:
            intensity = intensity_for(v, a, display)
        if budget_hold and intensity > gate_mod.BUDGET_INTENSITY_CAP:
            intensity = gate_mod.BUDGET_INTENSITY_CAP
        # spec 002 §9.1 intensity caps (RS-8)
        cap = MOOD_CAPS.get(display)
        if cap is not None and g.negative_intensity_caps and intensity > cap.max_intensity:
            intensity = cap.max_intensity
            if self._intensity_capped_mood != display:
                self._intensity_capped_mood = display
                self._emit_guardrail(now, "INTENSITY-" + display.upper(), "intensity_cap",
                                     f"{display} intensity capped at {cap.max_intensity}")
        elif self._intensity_capped_mood is not None and self._intensity_capped_mood != display:
            self._intensity_capped_mood = None
        if display != prev:
            self._commit_change(now, prev, display, cause, intensity)
        self.mood = display
        self.intensity = intensity
        return self._output(now)

    def _show_sleepy(self, now: float, prev: str, cause: str) -> EngineOutput:
        """DESIGN §6.11: drowsy or asleep shows SLEEPY, its intensity against the SLEEPY
        anchor (erratum 2). SLEEPY is Neutral class: no guardrail acts on it, so their
        per-mood state is cleared (a new mood after waking starts its caps afresh)."""
        intensity = intensity_for(self.valence, self.arousal, "sleepy")
        self._cap_mood = None
        self._gate_biting = False
        self._intensity_capped_mood = None
        if prev != "sleepy":
            self._commit_change(now, prev, "sleepy", cause, intensity)
        self.mood = "sleepy"
        self.intensity = intensity
        return self._output(now)

    def _commit_change(self, now: float, prev: str, mood: str, cause: str,
                       intensity: float) -> None:
        self._events.append(MoodChange(now, prev, mood, cause, intensity))
        self._profile_due = True
        if mood in NEGATIVE_MOODS:
            self._session_had_negative = True

    def _output(self, now: float) -> EngineOutput:
        snap = Snapshot(now, self.mood, self.intensity, self.valence, self.arousal,
                        self.tonic_valence, self.tonic_arousal,
                        LAYER_LLM if self._server_online else LAYER_RULES,
                        self.conversation_active, self.idle_state)
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
        if now >= self._idle_due:
            self._run_idle(now)
        self._noise_and_bounds(now)
        if self.conversation_active:
            self._arc.append(self.valence)
            self._profile_due = True  # §10.4: profile at 1 Hz during a conversation
            if self.usage.save_due and not self._defer_writes:
                self.flush_writes()
        elif now >= self._idle_state_until:
            self._update_idle_state(now)
        if self._state_path is not None and now - self._resume_saved_at >= RESUME_SAVE_IDLE_S:
            self._resume_save_due = True
            self._resume_saved_at = now
            self._write_if_immediate()
        return self._finish(now, "tick")

    def _update_idle_state(self, now: float) -> None:
        """DESIGN §6.11: awake / drowsy / asleep, and the decay attractor that goes with it."""
        rule = self._idle.sleep_rule(now, self.conversation_active, self._offline_since,
                                     bool(self._faults))
        self._idle_state_until = self._idle.state_change_at(now, self._offline_since)
        if rule == self._sleep_rule:
            return
        self._sleep_rule = rule
        self.idle_state = SLEEP_STATES[rule]
        if rule is None:
            self.attractor_valence = self._bv
            self.attractor_arousal = self._ba
        else:
            target = IDLE_IMPULSES[rule]
            self.attractor_valence = target.target_valence
            self.attractor_arousal = target.target_arousal

    def _wake(self, now: float) -> None:
        """DESIGN §6.11: a wake event makes Buddy awake at once (and starts a new idle
        period); the caller applies the event's own impulse."""
        self._restart_idle(now)

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
            now = self._check_now(now)
            name = _text("emotion", emotion).strip().lower()
            name = EMOTION_ALIASES.get(name, name)
            if name not in MOOD_ANCHORS:
                raise InputRejected("unknown_emotion", f"unknown emotion {emotion!r}")
            intensity = _finite("intensity", intensity, 0.0, 1.0)
            confidence = _finite("confidence", confidence, 0.0, 1.0)
            if source not in gate_mod.SOURCE_NAMES:
                raise InputRejected("unknown_enum", f"unknown intent source {source!r}")
            mood_reason = _text("mood_reason", mood_reason)
            session_id = _text("session_id", session_id)
            if isinstance(turn_id, bool) or not isinstance(turn_id, int) or turn_id < 0:
                raise InputRejected("out_of_range", f"turn_id {turn_id!r} is not a count")
        except InputRejected as exc:
            raise self._reject(exc) from None
        if emotion.strip().lower() == "nervous":
            intensity = min(intensity, NERVOUS_INTENSITY_CAP)
        self._advance(now)
        if self._offline_since is None and source != gate_mod.SOURCE_RULES:
            # An LLM intent arrived: layer 1 is evidently up. Not after the bridge reported
            # SERVER_OFFLINE: its own lines' intents (the HC-9 calm face, the output guard's
            # THINKING) come from no server; only SERVER_ONLINE ends an offline stretch.
            # Nor from layer 0's own answers (SOURCE_RULES, issue 15), which need none.
            self._server_online = True
        if self.conversation_active and session_id == self.session_id:
            self.turn_id = max(self.turn_id, turn_id)
        decision = self.gate.evaluate(now, name, confidence, source, self.mood)
        verdict = decision.verdict
        if verdict in (gate_mod.DROP_CONFIDENCE, gate_mod.DROP_COOLDOWN):
            _bump(self.stats.gate_rejections, verdict)
            return self._finish(now, "ai_emotion")
        if verdict == gate_mod.BUDGET_EXHAUSTED:
            _bump(self.stats.gate_rejections, verdict)
            self.valence = self._bv + (self.valence - self._bv) * BUDGET_PULL
            self.arousal = self._ba + (self.arousal - self._ba) * BUDGET_PULL
            self._budget_hold_until = self.gate.budget_free_at(now)
            self._emit_guardrail(now, "BUDGET", "budget_reset",
                                 f"{gate_mod.MAX_TRANSITIONS} mood transitions in "
                                 f"{gate_mod.TRANSITION_WINDOW_S:.0f} s; {name} intent dropped")
            return self._finish(now, "budget")
        if verdict == gate_mod.ANGRY_GUARD:
            _bump(self.stats.gate_rejections, verdict)
            self._emit_guardrail(now, "ANGRY-GUARD", "substitute_thinking",
                                 f"angry needs an INLINE intent with confidence >= 0.8 from "
                                 f"neutral/sad/scared/confused (was {self.mood})")
            name = "thinking"
        # spec 002 §13.3 mood_reason validation
        verdict_reason = validate_mood_reason(mood_reason, name, self.conversation_active)
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
            now = self._check_now(now)
            session_id = _text("session_id", session_id).strip()
            _text("trigger", trigger)
            if not session_id:
                raise InputRejected("missing_session", "conversation started without session_id")
        except InputRejected as exc:
            raise self._reject(exc) from None
        if session_id in self._ended_sessions:
            raise self._reject(InputRejected(
                "stale_start", f"conversation STARTED for {session_id[:40]!r}, which already "
                "ended (out of order)"))
        if self.conversation_active:
            if session_id == self.session_id:
                # A duplicate STARTED: the session is running and counted already.
                raise self._reject(InputRejected(
                    "duplicate_start", f"conversation STARTED (a duplicate: "
                    f"{session_id[:40]!r}) while it runs"))
            return self._take_over_session(now, session_id)
        self._advance(now)
        self.conversation_active = True
        self.session_id = session_id
        self.turn_id = 0
        self.usage.session_s = 0.0
        self._rs1_sent = False
        self._arc.clear()
        self._session_had_negative = False
        self.memory.session_count += 1
        self.usage.save_due = True  # issue 19: the session is in the state file at once
        self._wake(now)
        self._fire_l0("L0-06", now)
        self._profile_due = True
        if self.usage.daily_s >= self.daily_limit_s:
            self._rs2_sent = True
            self._emit_guardrail(now, "RS-2", "refuse_session",
                                 f"daily conversation time {self.usage.daily_s:.0f} s already "
                                 f"at the limit ({self.daily_limit_s:.0f} s)")
        return self._finish(now, "conversation")

    def _take_over_session(self, now: float, session_id: str) -> EngineOutput:
        """A STARTED for another session while one runs: the bridge restarted (or its
        ENDED was lost) and Buddy talks in the new session. Spec 002 §9.3 counts talk, so
        the new session is counted, never refused into uncounted talk (issue 31 item 2):
        it takes over the running session's clock. RS-1's clock is not restarted (a second
        STARTED must not let a sitting run past its limit) and RS-1 is sent again if the
        sitting is already past it, since the new session has not had it; RS-2's daily
        counter runs on and refuses the session if the day is used up."""
        self._advance(now)
        if self.session_id not in self._ended_sessions:
            self._ended_sessions.append(self.session_id)
        self.stats.sessions_taken_over += 1
        self.warnings.append(f"session {session_id[:40]!r} took over running session "
                             f"{self.session_id[:40]!r} (its end never came)")
        del self.warnings[:-20]
        self.session_id = session_id
        self.turn_id = 0
        self._rs1_sent = False
        self._bridge_absent_since = None
        self.usage.save_due = True
        self._wake(now)
        self._profile_due = True
        if self.usage.daily_s >= self.daily_limit_s:
            self._rs2_sent = True
            self._emit_guardrail(now, "RS-2", "refuse_session",
                                 f"daily conversation time {self.usage.daily_s:.0f} s already "
                                 f"at the limit ({self.daily_limit_s:.0f} s)")
        return self._finish(now, "conversation")

    def stale_end_reason(self, session_id: str) -> str | None:
        """Why a conversation ENDED for `session_id` ends nothing (a duplicate, or the end
        of a session that is not the running one), or None. The engine ignores such an
        event; the node counts it (DESIGN §5 bad input)."""
        if session_id and (not self.conversation_active or session_id != self.session_id):
            what = "a duplicate" if session_id in self._ended_sessions else "not running"
            return f"conversation ENDED for {session_id[:40]!r} ({what})"
        return None

    def on_conversation_ended(self, now: float, session_id: str = "",
                              turns: int = 0, reason: str = "") -> EngineOutput:
        try:
            now = self._check_now(now)
            session_id = _text("session_id", session_id)
        except InputRejected as exc:
            raise self._reject(exc) from None
        self._advance(now)
        if session_id and session_id not in self._ended_sessions:
            self._ended_sessions.append(session_id)
        if not self.conversation_active or (session_id and session_id != self.session_id):
            return self._finish(now, "conversation")  # L0-07/08 need a conversation to end
        self.conversation_active = False
        self._conv_ended_at = now
        self._bridge_absent_since = None
        self.last_end_reason = _text("reason", reason)[:64] or "ended"
        # L0-07 / L0-08 (IDLE-05 / IDLE-06)
        self._fire_l0("L0-07" if self.valence > 0.0 else "L0-08", now)
        self.memory.total_conversation_s += self.usage.session_s
        self.usage.save_due = True
        if self.memory_writable:
            self._memory_save_due = True
        self._write_if_immediate()
        self._restart_idle(now)
        self._arc.clear()
        self._profile_due = True
        return self._finish(now, "conversation")

    def on_system_event(self, now: float, kind: int, battery_pct: float = -1.0,
                        detail: str = "") -> EngineOutput:
        """L0-01..L0-05 (§5.1), IDLE-07, server on/offline (layer, IDLE-09)."""
        try:
            now = self._check_now(now)
            if isinstance(kind, bool) or kind not in SYSTEM_EVENT_KINDS:
                raise InputRejected("unknown_enum", f"unknown system event kind {kind!r}")
            battery_pct = _finite("battery_pct", battery_pct, -1.0, 100.0)
            detail = _text("detail", detail)
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
                today = local_day(now, self.usage.utc_offset_s)
                hour = local_hour(now, self.usage.utc_offset_s)
                if (self.usage.last_boot_day != today
                        and MORNING_HOURS[0] <= hour < MORNING_HOURS[1]):
                    _bump(self.stats.idle_rules_fired, "IDLE-07")
                    self._impulse(IDLE_IMPULSES["IDLE-07"])  # first boot of a morning
                self.usage.last_boot_day = today
                self.usage.save_due = True
                self._write_if_immediate()
        elif kind == SYS_LOW_BATTERY:
            if not pct_known or battery_pct < LOW_BATTERY_PCT:
                self._fire_l0("L0-02", now)
        elif kind == SYS_CRITICAL_BATTERY:
            if not pct_known or battery_pct < CRITICAL_BATTERY_PCT:
                self._fire_l0("L0-03", now)
        elif kind == SYS_FAULT_RAISED:
            self._faults.add(detail or "fault")
            self._fire_l0("L0-04", now)
        elif kind == SYS_FAULT_CLEARED:
            if self._faults:  # L0-05: only when a fault was active
                if detail and detail in self._faults:
                    self._faults.discard(detail)
                else:
                    self._faults.clear()
                if not self._faults:
                    self._fire_l0("L0-05", now)
        elif kind == SYS_SERVER_ONLINE:
            self._server_online = True
            self._offline_since = None
        elif kind == SYS_SERVER_OFFLINE:
            self._server_online = False
            if self._offline_since is None:
                self._offline_since = now
        self._idle_due = now
        self._idle_state_until = now
        if not self.conversation_active:
            self._update_idle_state(now)
        return self._finish(now, "system_event")

    def on_speech_activity(self, now: float, speaking: bool) -> EngineOutput:
        """L0-09 while TTS speaks; speaking also suppresses idle rules (§7.3)."""
        now = self._check_now(now)
        self._advance(now)
        self.speaking = bool(speaking)
        if self.speaking:
            self._speaking_since = now
            self._wake(now)
            self._fire_l0("L0-09", now)
        self._idle_due = now
        return self._finish(now, "speech")

    def on_button(self, now: float, button_id: int, event_type: int) -> EngineOutput:
        """L0-10 on a press, click or toggle of a face button."""
        try:
            now = self._check_now(now)
            if isinstance(button_id, bool) or button_id not in BUTTON_IDS:
                raise InputRejected("unknown_enum", f"unknown button id {button_id!r}")
            if isinstance(event_type, bool) or event_type not in (
                    BUTTON_PRESS, BUTTON_RELEASE, BUTTON_TOGGLE, BUTTON_CLICK):
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
        now = self._check_now(now)
        self._advance(now)
        self._wake(now)
        self._fire_l0("L0-13", now)
        return self._finish(now, "child_approach")

    # ------------------------------------------------------------------ identity, consent, memory
    def on_identity(self, now: float, user_id: str) -> EngineOutput:
        """The identity node's current user (empty when unknown)."""
        self._current_user = _text("user_id", user_id).strip()
        return self.snapshot(now)

    def on_consent(self, now: float, records: Iterable[tuple[str, str, int]]) -> EngineOutput:
        """All consent records (user_id, scope, state); replaces the previous set."""
        self._consented_users = {
            user for user, scope, state in records
            if scope == MEMORY_SCOPE and state == CONSENT_GRANTED and user
        }
        return self.snapshot(now)

    def memory_refusal(self, user_id: str = "") -> str | None:
        """Why memory may not be written now (RS-5, DESIGN §4.1), or None."""
        if not self.memory_consent:
            return "memory_consent parameter is false"
        if not self.guardrails.memory_consent_required:
            return None
        user = user_id or self._current_user
        if not user:
            return "no identified user"
        if user != self._current_user:
            return f"user {user!r} is not the current user"
        if user not in self._consented_users:
            return f"no GRANTED memory consent for user {user!r}"
        return None

    @property
    def memory_writable(self) -> bool:
        return self.memory_refusal() is None

    def on_memory_extract(self, now: float, tags: Sequence[tuple[str, str, float, float]],
                          user_id: str = "") -> EngineOutput:
        """Store the (tag, category, valence_bias, arousal_bias) of one turn under consent."""
        now = self._check_now(now)
        self._advance(now)
        user_id = _text("user_id", user_id).strip()
        refused = self.memory_refusal(user_id)
        # issue 16: each entry notes the household user it came from (the extract's user,
        # or the identified user), so a parent can forget one child
        source_user = user_id or self._current_user
        stored: list[str] = []
        reinforced: list[str] = []
        evicted: list[str] = []
        rejected: list[tuple[str, str]] = []
        if refused is not None:
            _bump(self.stats.memory_refusals, "consent")
        else:
            for tag, category, vb, ab in tags:
                result = self.memory.remember(tag, category, vb, ab, now,
                                              user=source_user)
                if result.reason is not None:
                    rejected.append((str(tag)[:STRING_MAX], result.reason))
                    _bump(self.stats.memory_refusals, "invalid_tag")
                elif result.reinforced:
                    reinforced.append(tag)
                else:
                    stored.append(tag)
                if result.evicted:
                    evicted.append(result.evicted)
            if stored or reinforced:
                self._memory_save_due = True
                self._write_if_immediate()
        out = self._finish(now, "memory")
        report = MemoryReport(tuple(stored), tuple(reinforced), tuple(evicted),
                              tuple(rejected), refused)
        return EngineOutput(out.snapshot, out.events, out.profile, report)

    def reset_memory(self, now: float) -> EngineOutput:
        """'Forget everything' (spec 002 §8.5, parent command via identity)."""
        now = self._check_now(now)
        self._advance(now)
        self.memory.reset()
        self._profile_due = True
        return self._finish(now, "memory")

    def list_memories(self, now: float) -> list[MemoryView]:
        """Every stored memory, strongest first (RS-4 parent viewer)."""
        return [
            MemoryView(e.tag, e.category, s, e.valence_bias, e.arousal_bias, e.created_ts,
                       e.last_reinforced_ts, e.reinforcement_count, e.source, tuple(e.users))
            for e, s in self.memory.strongest(now)
        ]

    def forget_user(self, now: float, user_id: str) -> tuple[EngineOutput, ForgetUserResult]:
        """'Forget this child' (issue 16; spec 002 §8.5 parent deletion, for one household
        user; the identity node calls it after an executed, confirmed forget_child). The
        memory file is written at once; an OSError reaches the caller."""
        try:
            now = self._check_now(now)
            user_id = _text("user_id", user_id).strip()
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
        now = self._check_now(now)
        self._advance(now)
        refusal = lower_limits_check(self.session_limit_s, self.daily_limit_s,
                                     session_limit_s, daily_limit_s)
        if refusal is None:
            usage = self.usage
            if session_limit_s is not None:
                usage.lowered_session_s = float(session_limit_s)
            if daily_limit_s is not None:
                usage.lowered_daily_s = float(daily_limit_s)
            usage.save_due = True
            _bump(self.stats.guardrail_triggers, "limits_lowered")
            if self.conversation_active:
                self._check_time_limits(now)
            self._write_if_immediate()
            message = (f"today's limits: {self.session_limit_s / 60.0:g} min a talk, "
                       f"{self.daily_limit_s / 60.0:g} min a day")
        else:
            _bump(self.stats.guardrail_triggers, "limits_refused")
            message = refusal
        outcome = LimitsOutcome(refusal is None, message, self.session_limit_s,
                                self.daily_limit_s)
        return self._finish(now, "limits"), outcome

    # ------------------------------------------------------------------ dev commands
    def set_guardrail(self, key: str, value: str) -> None:
        """spec 002 §9.5 toggle (dev only; the node gates it). Raises ValueError."""
        self.guardrails.set_value(key, value)

    def override_affect(self, now: float, valence: float, arousal: float,
                        duration_s: float = 0.0) -> EngineOutput:
        """Place affect at a point (dev only); guardrails still apply to what is shown."""
        try:
            now = self._check_now(now)
            valence = _finite("valence", valence, -1.0, 1.0)
            arousal = _finite("arousal", arousal, -1.0, 1.0)
            duration_s = _finite("duration_s", duration_s, 0.0, 3600.0)
        except InputRejected as exc:
            raise self._reject(exc) from None
        self._advance(now)
        self.valence, self.arousal = cap_and_clamp(valence, arousal, self.traits)
        self._override_until = now + duration_s if duration_s > 0.0 else -math.inf
        return self._finish(now, "override")

    # ------------------------------------------------------------------ LLM profile §12.5
    def conversation_arc(self) -> str:
        if not self.conversation_active or len(self._arc) < 2:
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
        if self.memory.version != self._tags_version or now >= self._tags_refresh_at:
            self._top_tags = tuple(
                e.tag for e, _ in self.memory.strongest(now, PROFILE_TOP_TAGS))
            self._tags_version = self.memory.version
            self._tags_refresh_at = now + MEMORY_BIAS_REFRESH_S
        return self._top_tags

    def llm_profile(self, now: float) -> LlmProfile:
        # Memory reaches the LLM only while consent is active (RS-5): a revoked consent
        # silences the tags at once, before any parent asks to delete them.
        tags = self.top_memory_tags(now) if self.memory_refusal() is None else ()
        return LlmProfile(now, self.mood, self.intensity, self.valence, self.arousal,
                          self.tonic_valence, self.tonic_arousal, self.session_id,
                          self.turn_id, tags, self.conversation_arc(), self.layer,
                          self.conversation_active)
