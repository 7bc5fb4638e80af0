"""The cognition gate: whether a world event deserves an LLM call (spec 003 §3.3-§3.4).

M = w1·salience + w2·pressure + w3·arc_hot + w4·rel_stakes − w5·(1 − energy)   (§3.3)

A call happens only when ALL of §3.4 hold: M ≥ threshold, the event is not trivial, the
cooldown has elapsed, and there is a behavioural choice to make. For Buddy a choice
exists only when a child addresses Buddy inside a session: Buddy never starts talking on
its own (PE-5), so system events never qualify, whatever their M. With the default
weights a child's non-trivial utterance in a session always reaches the threshold
(salience 1: w1 − w5 = 0.30 ≥ 0.25 even at zero energy and no pressure).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

EVENT_UTTERANCE = "utterance"   # a child's final utterance inside a session
EVENT_SYSTEM = "system"         # battery, faults, server status, birthdays...

# Salience of an event for Buddy, by kind: a child speaking to Buddy is the most salient
# thing that can happen; system events concern the robot, not the conversation.
EVENT_SALIENCE: dict[str, float] = {EVENT_UTTERANCE: 1.0, EVENT_SYSTEM: 0.2}

# spec 002 §12.3 conversation arc -> arc intensity ("arc_hot" of §3.3).
ARC_HOT: dict[str, float] = {
    "peak": 1.0, "rising": 0.7, "recovery": 0.5, "falling": 0.4, "stable": 0.3,
}

# Filler words a recogniser passes on that carry no content ("triviality", §3.4.2).
FILLER_WORDS: frozenset[str] = frozenset({
    "um", "umm", "uh", "uhh", "er", "erm", "hmm", "hm", "mm", "mmm", "mhm", "ah", "ahh",
    "oh", "huh", "eh", "uhm",
})
_WORD = re.compile(r"[a-z0-9']+")


def is_trivial_utterance(text: str) -> bool:
    """Empty, punctuation-only, or only filler words (spec 003 §3.4.2)."""
    words = _WORD.findall(text.lower())
    return not words or all(w in FILLER_WORDS for w in words)


@dataclass(slots=True, frozen=True)
class GateConfig:
    w_salience: float = 0.5
    w_pressure: float = 0.1
    w_arc: float = 0.1
    w_stakes: float = 0.2
    w_energy: float = 0.2
    threshold: float = 0.25
    cooldown_s: float = 1.0


@dataclass(slots=True, frozen=True)
class GateInputs:
    kind: str                  # EVENT_UTTERANCE or EVENT_SYSTEM
    in_session: bool
    text: str = ""
    pressure_max: float = 0.0  # max governor pressure, clamped to [0, 1]
    arc: str = "stable"
    rel_stakes: float = 0.0    # [0, 1] how much the relationship is at stake
    energy: float = 1.0        # governor effort budget [0, 1]


@dataclass(slots=True, frozen=True)
class GateDecision:
    call: bool
    m: float
    reason: str                # "ok" or why not: below_threshold, trivial, cooldown, no_choice


def _c01(x: float) -> float:
    if not math.isfinite(x):
        return 0.0
    return min(1.0, max(0.0, x))


class CognitionGate:
    """Stateful only in the time of the last call (the cooldown, §3.4.3)."""

    def __init__(self, config: GateConfig | None = None) -> None:
        self.config = config or GateConfig()
        self._last_call: float | None = None

    def meaningfulness(self, ev: GateInputs) -> float:
        c = self.config
        return (
            c.w_salience * EVENT_SALIENCE.get(ev.kind, 0.0)
            + c.w_pressure * _c01(ev.pressure_max)
            + c.w_arc * ARC_HOT.get(ev.arc, ARC_HOT["stable"])
            + c.w_stakes * _c01(ev.rel_stakes)
            - c.w_energy * (1.0 - _c01(ev.energy))
        )

    def decide(self, now: float, ev: GateInputs) -> GateDecision:
        """Decide; a positive decision starts the cooldown."""
        m = self.meaningfulness(ev)
        # §3.4.4 behavioural choice: only a child addressing Buddy in a session (PE-5).
        if ev.kind != EVENT_UTTERANCE or not ev.in_session:
            return GateDecision(False, m, "no_choice")
        if is_trivial_utterance(ev.text):
            return GateDecision(False, m, "trivial")
        if m < self.config.threshold:
            return GateDecision(False, m, "below_threshold")
        if self._last_call is not None and now - self._last_call < self.config.cooldown_s:
            return GateDecision(False, m, "cooldown")
        self._last_call = now
        return GateDecision(True, m, "ok")

    def reset(self) -> None:
        self._last_call = None
