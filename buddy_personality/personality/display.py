"""What the face shows: mood projection (spec 002 §4) through the guardrails (§9) and the
spec 000 transition budget (DESIGN §4.1, §6.12).

`MoodDisplay` keeps the guardrails' own state (a duration cap's clock, a recovery in
progress, the context gate biting, an intensity cap, the budget's neutral hold) and turns
affect into the mood and intensity shown. Guardrail events go to the engine's `emit`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from buddy_personality.personality import intent_gate as gate_mod
from buddy_personality.personality.guardrails import MOOD_CAPS, GuardrailConfig
from buddy_personality.personality.intent_gate import IntentGate
from buddy_personality.personality.moods import NEGATIVE_MOODS, nearest_mood
from buddy_personality.personality.projection import intensity_for, project_mood

_GUARDED_MOODS = NEGATIVE_MOODS | frozenset(MOOD_CAPS)

Emit = Callable[[float, str, str, str], None]  # (now, rule_id, action, details)


class MoodDisplay:
    """Projection, §9.1 duration and intensity caps, §9.2 context gate, budget hold."""

    __slots__ = ("_cap_mood", "_cap_since", "_emit", "_gate_biting", "_intensity_capped",
                 "_recovery_mood", "budget_hold_until", "gate", "guardrails",
                 "recovery_lambda")

    def __init__(self, guardrails: GuardrailConfig, gate: IntentGate, emit: Emit) -> None:
        self.guardrails = guardrails
        self.gate = gate
        self._emit = emit
        self._cap_mood: str | None = None
        self._cap_since = 0.0
        self._recovery_mood: str | None = None
        self.recovery_lambda = 0.0  # §9.1 recovery toward baseline (read by the decay)
        self._gate_biting = False
        self._intensity_capped: str | None = None
        self.budget_hold_until = -math.inf

    def sleepy(self) -> None:
        """DESIGN §6.11: SLEEPY is Neutral class, no guardrail acts on it, so their
        per-mood state is cleared (a new mood after waking starts its caps afresh)."""
        self._cap_mood = None
        self._gate_biting = False
        self._intensity_capped = None

    def show(self, now: float, v: float, a: float, prev: str, llm: bool,
             conversation_active: bool) -> tuple[str, float]:
        """The mood and intensity shown for affect (v, a), the previous mood `prev`."""
        mood, intensity = project_mood(v, a, prev)
        if llm and mood != prev and now >= self.budget_hold_until:
            # DESIGN §6.12: the budget counts accepted LLM intents that change the mood.
            self.gate.record_transition(now)
        if (mood not in _GUARDED_MOODS and self._recovery_mood is None
                and now >= self.budget_hold_until and not self._gate_biting
                and self._intensity_capped is None):
            # Fast path (most ticks): no guardrail is, or was just, acting.
            self._cap_mood = None
            return mood, intensity
        display = mood
        g = self.guardrails
        # spec 002 §9.2 context gate (HC-10)
        if display in NEGATIVE_MOODS and g.context_gate and not conversation_active:
            display = "neutral"
            if not self._gate_biting:
                self._gate_biting = True
                self._emit(now, "HC-10", "context_gate",
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
                self.recovery_lambda = 0.0
        cap = MOOD_CAPS.get(display) if g.negative_duration_caps else None
        if cap is None:
            self._cap_mood = None
        elif self._cap_mood != display:
            self._cap_mood = display
            self._cap_since = now
        elif now - self._cap_since >= cap.max_duration_s:
            self._recovery_mood = display
            self.recovery_lambda = cap.recovery_lambda
            self._cap_mood = None
            self._emit(now, cap.rule_id, "recovery_impulse",
                       f"{display} held {now - self._cap_since:.1f} s "
                       f"(cap {cap.max_duration_s:.1f} s)")
            display = "neutral"
        # spec 000 / DESIGN §4.1: a spent transition budget holds neutral
        budget_hold = now < self.budget_hold_until
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
            if self._intensity_capped != display:
                self._intensity_capped = display
                self._emit(now, "INTENSITY-" + display.upper(), "intensity_cap",
                           f"{display} intensity capped at {cap.max_intensity}")
        elif self._intensity_capped is not None and self._intensity_capped != display:
            self._intensity_capped = None
        return display, intensity
