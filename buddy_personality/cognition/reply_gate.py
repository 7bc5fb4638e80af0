"""Sentence by sentence (issue 27 item 3, DESIGN erratum 23): an LLM reply is spoken one
sentence at a time, each sentence only after the guard model called the reply up to and
including it safe. ROS-free and clock-free; `BridgeCore` owns the state.

All the sentences' checks go out at once when the reply arrives (check k carries the
reply's first k+1 sentences, so the guard judges each sentence with what came before
it), so the guard's time is added to the first sentence only: sentence k+1's verdict is
in while sentence k plays. A sentence is released when its verdict is SAFE and every
sentence before it was released; the first one that is not SAFE ends the reply: an
unsafe one is replaced by its rule's safe line, an unavailable one by nothing more
(what has been said stays said, and nothing unchecked follows it).

The local output rules (`safety/`) judge the whole reply before any of this (under a
millisecond, and RS-3's "ask a grown-up" may sit in another sentence than the topic).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from buddy_personality.cognition.guard import GuardVerdict

MAX_SENTENCES = 6   # a reply is at most 400 characters (§12.3); the tail stays together
# A sentence ends at . ! ? or an ellipsis, with its closing quotes, before white space.
_BOUNDARY = re.compile(r"(?<=[.!?\u2026])[\"'\u201d\u2019)]*\s+")
_MIN_CHARS = 12     # "Oh!" or "Wow." joins the next sentence: not worth a check of its own
CHILD = -1          # the index of the child line's check
# The guard's own deadline is enforced by its client; the core gives up this much later
# (a worker that never posts back must not hold the turn).
BACKSTOP_S = 0.25


def split_sentences(text: str, max_parts: int = MAX_SENTENCES) -> list[str]:
    """The reply as sentences, in order; joined with spaces they give the reply back
    (white space normalised). Very short ones join the next; past `max_parts` the rest
    stays in the last part."""
    parts = [p.strip() for p in _BOUNDARY.split(text.strip()) if p.strip()]
    merged: list[str] = []
    carry = ""
    for part in parts:
        carry = f"{carry} {part}".strip()
        if len(carry) >= _MIN_CHARS:
            merged.append(carry)
            carry = ""
    if carry:
        if merged:
            merged[-1] = f"{merged[-1]} {carry}"
        else:
            merged.append(carry)
    if len(merged) > max_parts:
        merged[max_parts - 1:] = [" ".join(merged[max_parts - 1:])]
    return merged or [text.strip()]


@dataclass(slots=True, frozen=True)
class GuardCheck:
    """One request for the node's guard worker."""

    check_id: int
    child: str
    reply: str | None      # None: the child's line itself (HC-9)
    deadline_s: float


@dataclass(slots=True)
class Vetting:
    """One LLM reply on its way out, sentence by sentence."""

    ticket: int
    turn_id: int
    whole: str
    sentences: list[str]
    asked_at: float
    verdicts: dict[int, GuardVerdict] = field(default_factory=dict)
    released: int = 0          # sentences handed to tts/say so far

    def prefix(self, k: int) -> str:
        return " ".join(self.sentences[:k + 1])

    @property
    def finished(self) -> bool:
        return self.released >= len(self.sentences)

    def next_verdict(self) -> GuardVerdict | None:
        """The verdict of the next sentence to release, if it is in."""
        return None if self.finished else self.verdicts.get(self.released)


@dataclass(slots=True)
class GuardStats:
    checks: int = 0
    safe: int = 0
    unsafe: int = 0
    unavailable: int = 0
    unavailable_in_row: int = 0      # a guard that keeps failing is a problem line
    child_checks: int = 0
    hc9_stops: int = 0               # the child's line flagged: the guard added a stop
    replies_refused: int = 0         # first sentence refused: layer 0 answered
    replies_cut: int = 0             # a later sentence refused: the safe line followed
    stale: int = 0
    last_reason: str = ""
    latency_ms: list[float] = field(default_factory=list)   # the last 256 verdicts

    def count(self, verdict: GuardVerdict) -> None:
        self.checks += 1
        if verdict.unavailable:
            self.unavailable += 1
            self.unavailable_in_row += 1
            self.last_reason = verdict.reason
        else:
            self.unavailable_in_row = 0
            if verdict.safe:
                self.safe += 1
            else:
                self.unsafe += 1
        self.latency_ms.append(verdict.latency_s * 1000.0)
        del self.latency_ms[:-256]

    def values(self) -> dict[str, object]:
        out: dict[str, object] = {
            "guard.checks": self.checks, "guard.safe": self.safe,
            "guard.unsafe": self.unsafe, "guard.unavailable": self.unavailable,
            "guard.unavailable_in_row": self.unavailable_in_row,
            "guard.child_checks": self.child_checks, "guard.hc9_stops": self.hc9_stops,
            "guard.replies_refused": self.replies_refused,
            "guard.replies_cut": self.replies_cut, "guard.stale": self.stale,
        }
        if self.latency_ms:
            ms = sorted(self.latency_ms)
            out["guard.latency_ms_p50"] = f"{ms[len(ms) // 2]:.1f}"
            out["guard.latency_ms_max"] = f"{ms[-1]:.1f}"
        if self.last_reason:
            out["guard.last_unavailable"] = self.last_reason
        return out
