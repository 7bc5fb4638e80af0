"""The personality engine: the one call surface of the personality core.

spec 002 §2-§10 and §13, the spec 000 intent gate, DESIGN §4.1 and §6. A node calls
`tick(now)` at 1 Hz and one `on_*` method per inbound event (§10.3); each returns an
`EngineOutput` (snapshot, mood-changed and guardrail events, LLM profile when due).
Time is always an argument (wall-clock or sim seconds); randomness comes from the seed,
so the same seed and inputs give the same outputs bit for bit.

This module holds the inbound events and the commands; `engine_base.EngineBase` holds the
parts, moves them to `now`, runs the tick and builds the output. The parts, each in its
own module:
- `dynamics.AffectDynamics`: affect and tonic layer over time (§2, §5.3, §6);
- `sleep.SleepCycle`: awake / drowsy / asleep and the idle rules (§7, erratum 11);
- `session_limits.SessionLimits`: the running session, RS-1 / RS-2 (§9.3);
- `display.MoodDisplay`: projection through the guardrails and the budget (§4, §9);
- `memory_access.MemoryAccess`: the RS-5 consent gate, the §8.3 bias, profile tags.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from buddy_personality.msg_constants import Button, ButtonAction, SystemKind
from buddy_personality.personality import intent_gate as gate_mod
from buddy_personality.personality.emotion_intake import (
    OUTPUT_CAUSE,
    EmotionIntent,
    admit,
    parse_intent,
)
from buddy_personality.personality.engine_base import EngineBase, EngineStats
from buddy_personality.personality.guardrails import LimitsOutcome, local_day, local_hour
from buddy_personality.personality.idle import IDLE_IMPULSES, MORNING_HOURS
from buddy_personality.personality.impulses import CRITICAL_BATTERY_PCT, LOW_BATTERY_PCT
from buddy_personality.personality.inputs import InputRejected, bump, check_now, finite, text
from buddy_personality.personality.memory import ForgetUserResult
from buddy_personality.personality.records import EngineOutput, MemoryView
from buddy_personality.personality.session_limits import BRIDGE_LOST_GRACE_S, END_BRIDGE_LOST
from buddy_personality.personality.sleep import SPEAKING_STALE_S

__all__ = ["BRIDGE_LOST_GRACE_S", "END_BRIDGE_LOST", "SPEAKING_STALE_S", "EngineOutput",
           "EngineStats", "InputRejected", "PersonalityEngine"]

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


class PersonalityEngine(EngineBase):
    """All of spec 002 §2-§10, §13 and the spec 000 gate behind one call surface."""

    # ------------------------------------------------------------------ inbound events §10.3
    def on_ai_emotion(self, now: float, emotion: str, intensity: float, confidence: float,
                      source: int, mood_reason: str = "", session_id: str = "",
                      turn_id: int = 0) -> EngineOutput:
        """An LLM emotion intent: spec 000 gate, then the §13 pipeline, then an impulse
        (emotion_intake.py decides; this applies it). An intent of a session whose STARTED
        has not come yet is held and applied right after it (early_intents.py, issue 30
        item 2): a session's L0-06 start comes before its intents whatever their order."""
        try:
            now = check_now(now)
            intent = parse_intent(emotion, intensity, confidence, source, mood_reason,
                                  session_id, turn_id)
        except InputRejected as exc:
            raise self._reject(exc) from None
        self._advance(now)
        applied = self._release_early(now)
        early = self.early_intents
        if early.should_hold(intent, self.session.awaits):
            bump(self.stats.early_intents, "held")
            # past the count bound, the oldest one's session is given up and applied now
            applied += self._apply_released(now, early.hold(now, intent, self.session.awaits))
            self._project(now, OUTPUT_CAUSE)
        else:
            applied.append(self._apply_intent(now, intent))
        return self._output_applied(now, applied)

    def _apply_intent(self, now: float, intent: EmotionIntent) -> tuple[str, int]:
        """Gate, pipeline, impulse and projection of one checked intent; its (session,
        turn) for `EngineOutput.intents_applied`."""
        if self.sleep.offline_since is None and intent.source != gate_mod.SOURCE_RULES:
            # An LLM intent arrived: layer 1 is evidently up. Not after the bridge reported
            # SERVER_OFFLINE: its own lines' intents (the HC-9 calm face, the output guard's
            # THINKING) come from no server; only SERVER_ONLINE ends an offline stretch.
            # Nor from layer 0's own answers (SOURCE_RULES, issue 15), which need none.
            self.sleep.server_online = True
        self.session.note_turn(intent.session_id, intent.turn_id)
        admission = admit(self.gate, now, intent, self.mood, self.session.active, self.traits)
        if admission.rejection:
            bump(self.stats.gate_rejections, admission.rejection)
        if admission.budget_hold_until is not None:
            self.affect.pull_to_baseline(BUDGET_PULL)
            self.display.budget_hold_until = admission.budget_hold_until
        for rule_id, action, details in admission.guardrails:
            self._emit_guardrail(now, rule_id, action, details)
        if admission.impulse is not None:
            self._impulse(admission.impulse)
            # DESIGN §6.12: only this impulse's mood change counts against the budget
            self._llm_impulse = True
        self._project(now, admission.cause)
        return intent.session_id, intent.turn_id

    def _release_early(self, now: float) -> list[tuple[str, int]]:
        """Apply the held intents whose session started or ended, or whose hold ran out
        (early_intents.py), each projected in turn, in the order they came."""
        if not len(self.early_intents):
            return []
        return self._apply_released(now, self.early_intents.release(now, self.session.awaits))

    def _apply_released(self, now: float,
                        released: list[tuple[EmotionIntent, bool]]) -> list[tuple[str, int]]:
        applied: list[tuple[str, int]] = []
        for intent, without_start in released:
            bump(self.stats.early_intents,
                 "released_without_start" if without_start else "released")
            if without_start:
                self._start_lost_session(now, intent.session_id)
            applied.append(self._apply_intent(now, intent))
        return applied

    def _start_lost_session(self, now: float, session_id: str) -> None:
        """A session whose STARTED never came is started by its first intent, when no
        session runs. STARTED is a volatile event: sent in the first second after a start,
        before the bridge's writer matched the personality's reader, or while the
        personality restarted, it is lost, and that session's talk went uncounted by RS-1
        and RS-2 (spec 002 §9.2: the limits bound the child's talk, not the events that
        happen to arrive). Its clock starts when its intent's hold ran out (at most HOLD_S
        late). Counted in `sessions_started_by_intent`."""
        if self.session.active or not self.session.awaits(session_id):
            return
        self.stats.sessions_started_by_intent += 1
        self.warnings.append(f"conversation {session_id[:40]!r} started by its first intent: "
                             "its STARTED never came (counted for RS-1/RS-2)")
        del self.warnings[:-20]
        self._begin_session(now, session_id)
        self._project(now, "conversation")

    def _output_applied(self, now: float, applied: list[tuple[str, int]]) -> EngineOutput:
        out = self._output(now)
        out.intents_applied = tuple(applied)
        return out

    def tick(self, now: float) -> EngineOutput:
        """The 1 Hz tick (engine_base.tick, §10.1), after the held intents whose hold ran
        out are applied: an intent whose STARTED never comes still moves the face."""
        applied: list[tuple[str, int]] = []
        if len(self.early_intents) and math.isfinite(now):
            self._advance(now)
            applied = self._release_early(now)
        out = super().tick(now)
        out.intents_applied = tuple(applied)
        return out

    def on_conversation_started(self, now: float, session_id: str,
                                trigger: str = "") -> EngineOutput:
        """spec 002 §10.3 conv_started: the session runs, L0-06 (§5.1) pulls, and then
        the intents of this session that came before it are applied (issue 30 item 2)."""
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
        self._begin_session(now, session_id)
        # the start is shown first, then this session's early intents, each in turn: the
        # same events and state as when STARTED came first
        self._project(now, "conversation")
        return self._output_applied(now, self._release_early(now))

    def _begin_session(self, now: float, session_id: str) -> None:
        """`session_id` runs from `now`: started (L0-06, §5.1), or taking a running one over."""
        if self.session.active:
            # issue 31 item 2: another session over a running one is counted (RS-1's clock
            # goes on), never refused into uncounted talk (session_limits.take_over).
            self.stats.sessions_taken_over += 1
            self.warnings.append(self.session.take_over(now, session_id))
            del self.warnings[:-20]
            self._wake(now)
        else:
            self.session.start(now, session_id)
            self._arc.clear()
            self._session_had_negative = False
            self.memory.session_count += 1
            self._wake(now)
            self._fire_l0("L0-06", now)
        self._profile_due = True

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
        ended = self.session.end(now, session_id, text("reason", reason))
        # intents held for a session that ended before its STARTED came (early_intents.py)
        applied = self._release_early(now)
        if not ended:
            self._project(now, "conversation")  # L0-07/08 need a conversation to end
            return self._output_applied(now, applied)
        # L0-07 / L0-08 (IDLE-05 / IDLE-06)
        self._fire_l0("L0-07" if self.affect.valence > 0.0 else "L0-08", now)
        self.memory.total_conversation_s += self.usage.session_s
        if self.memory_writable:
            self.writes.memory_changed()
        self.sleep.restart(now, self.session.active)
        self._arc.clear()
        self._profile_due = True
        self._project(now, "conversation")
        return self._output_applied(now, applied)

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
            self.writes.memory_changed()
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
