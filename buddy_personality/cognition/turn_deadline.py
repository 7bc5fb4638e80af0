"""The turn's own deadline (issue 19; spec 002 §10 RS-9 graceful degradation).

A child who spoke hears something within a few seconds, whatever the server does: after
`filler_after_s` without an answer Buddy says a short filler ("Hmm, let me think."); at
`answer_by_s` the LLM request is abandoned (cancelled: its worker is freed) and layer
0's answer is spoken. The LLM request itself gets `request_budget_s`, a little less, so
a server that answers late but inside the budget still wins the turn.

Why these numbers: a home-server Qwen3-8B answers a short turn in 1-3 s; a silence past
about 2.5 s reads to a 4-6 year old as "Buddy didn't hear me", and a filler buys a few
more seconds; beyond ~7 s even a filler wears thin, so layer 0 answers.
"""

from __future__ import annotations

from dataclasses import dataclass

FILLER = "filler"
GIVE_UP = "give_up"

# Short, neutral, never a promise of a long answer (a reviewer reads them line by line).
FILLER_LINES: tuple[str, ...] = (
    "Hmm, let me think.",
    "Ooh, good one. Let me think.",
    "Hmm, one moment.",
)


@dataclass(slots=True, frozen=True)
class TurnDeadline:
    filler_after_s: float = 2.5
    answer_by_s: float = 7.0
    request_margin_s: float = 0.3   # the request ends this much before the turn does

    @property
    def request_budget_s(self) -> float:
        return max(0.1, self.answer_by_s - self.request_margin_s)

    def next_due_s(self, filler_said: bool) -> float:
        """Seconds after the request started at which `due` next changes its answer."""
        return self.answer_by_s if filler_said else min(self.filler_after_s, self.answer_by_s)

    def due(self, waited_s: float, filler_said: bool) -> str | None:
        """What the turn needs now, after waiting `waited_s` for the server."""
        if waited_s >= self.answer_by_s:
            return GIVE_UP
        if not filler_said and waited_s >= self.filler_after_s:
            return FILLER
        return None


def filler_line(turn_id: int) -> str:
    return FILLER_LINES[turn_id % len(FILLER_LINES)]


def layer_note(event: int, reason: str) -> str:
    """The one log line of a layer 0 <-> 1 transition (SystemEvent SERVER_ONLINE = 5)."""
    if event == 5:
        return f"layer 1: the LLM server answers again ({reason})"
    return f"layer 0: falling back to rule-based answers ({reason})"
