"""What the LLM bridge asks of safety, in one object (DESIGN §6.15, §6.16): harden a child
line, look for distress in it (and in a layer-1 reply), screen a line before `tts/say`, and
the fixed lines, events and alert records that follow. Counters per rule for diagnostics.
ROS-free and clock-free: the bridge core owns one and passes what it needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from buddy_personality.safety.distress import DistressDetector, DistressMatch
from buddy_personality.safety.guard import OutputGuard, Verdict
from buddy_personality.safety.hardening import (
    MAX_CHILD_LINE_CHARS,
    HardenedLine,
    harden_child_line,
    instruction_like,
)

HC9_RULE = "HC-9"
# DESIGN §6.15: one fixed gentle line that points to a trusted grown-up; no cheer, no
# curiosity, no question that keeps the child talking to a robot.
HC9_LINE = ("I'm really glad you told me. Please go and find a grown-up you trust right now, "
            "so they can help you.")
CALM_EMOTION = "neutral"        # the face and the voice stay calm (never a mirrored mood)
CALM_INTENSITY = 0.3
CALM_REASON = "HC-9: calm and steady for a child who needs a grown-up"
REFUSED_EMOTION = "thinking"    # §6.16: a refused reply's emotion falls back to THINKING
REFUSED_INTENSITY = 0.3
REFUSED_REASON = "output guard replaced the line"
ACTION_END_SESSION = "end_session"
ACTION_SUBSTITUTE = "substitute_line"
DETAILS_MAX = 240


@dataclass(slots=True, frozen=True)
class GuardrailOut:
    rule_id: str
    action: str
    details: str


@dataclass(slots=True, frozen=True)
class AlertOut:
    """An HC-9 alert for the parent log; the node adds the wall time and writes it."""

    category: str
    matched: str
    pattern: str
    source: str
    layer: int
    session_id: str
    turn_id: int


@dataclass(slots=True)
class SafetyStats:
    lines_checked: int = 0
    lines_refused: int = 0
    refused: dict[str, int] = field(default_factory=dict)    # per output-guard rule
    hc9: dict[str, int] = field(default_factory=dict)        # per distress category
    inputs_cut: int = 0
    inputs_cleaned: int = 0
    instruction_like: int = 0
    memory_tags_dropped: int = 0

    def values(self) -> dict[str, object]:
        out: dict[str, object] = {
            "safety.lines_checked": self.lines_checked,
            "safety.lines_refused": self.lines_refused,
            "safety.hc9_stops": sum(self.hc9.values()),
            "safety.inputs_cut": self.inputs_cut,
            "safety.inputs_cleaned": self.inputs_cleaned,
            "safety.instruction_like_inputs": self.instruction_like,
            "safety.memory_tags_dropped": self.memory_tags_dropped,
        }
        out.update({f"safety.refused.{k}": v for k, v in sorted(self.refused.items())})
        out.update({f"safety.hc9.{k}": v for k, v in sorted(self.hc9.items())})
        return out


def _details(**kv: object) -> str:
    return "; ".join(f"{k}={v}" for k, v in kv.items())[:DETAILS_MAX]


class SpeechSafety:
    def __init__(self, max_child_chars: int = MAX_CHILD_LINE_CHARS,
                 learned_lexicon: bool = True) -> None:
        # learned_lexicon: the output guard's second local check (safety/learned.py)
        self.guard = OutputGuard(learned=learned_lexicon)
        self.distress = DistressDetector()
        self.max_child_chars = max_child_chars
        self.stats = SafetyStats()

    # -- child input ------------------------------------------------------------------
    def harden(self, raw: str) -> HardenedLine:
        h = harden_child_line(raw, self.max_child_chars)
        self.stats.inputs_cut += h.cut
        self.stats.inputs_cleaned += h.cleaned
        self.stats.instruction_like += h.instruction_like
        return h

    def distress_in(self, text: str) -> DistressMatch | None:
        return self.distress.check_utterance(text)

    def distress_in_reply(self, child_affect: str, mood_reason: str,
                          inner_thought: str) -> DistressMatch | None:
        return self.distress.check_reply(child_affect, mood_reason, inner_thought)

    def memory_tags(self, tags: tuple[str, ...]) -> tuple[str, ...]:
        """Tags the model derived from instruction-like words never reach the profile."""
        kept = tuple(t for t in tags if not instruction_like(t.replace("_", " ")))
        self.stats.memory_tags_dropped += len(tags) - len(kept)
        return kept

    # -- HC-9 -------------------------------------------------------------------------
    def hc9(self, match: DistressMatch, layer: int, session_id: str,
            turn_id: int) -> tuple[GuardrailOut, AlertOut]:
        self.stats.hc9[match.category] = self.stats.hc9.get(match.category, 0) + 1
        event = GuardrailOut(HC9_RULE, ACTION_END_SESSION, _details(
            category=match.category, matched=repr(match.words), source=match.source,
            layer=layer))
        alert = AlertOut(match.category, match.words, match.pattern, match.source, layer,
                         session_id, turn_id)
        return event, alert

    # -- output guard -----------------------------------------------------------------
    def screen(self, text: str) -> tuple[Verdict, GuardrailOut | None]:
        self.stats.lines_checked += 1
        v = self.guard.check(text)
        if v.ok:
            return v, None
        self.stats.lines_refused += 1
        self.stats.refused[v.rule_id] = self.stats.refused.get(v.rule_id, 0) + 1
        return v, GuardrailOut(v.rule_id, ACTION_SUBSTITUTE, _details(
            matched=repr(v.words), pattern=repr(v.pattern)))
