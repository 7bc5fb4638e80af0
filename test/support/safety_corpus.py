"""The red-team corpus of test/data/safety/ (issue 13), loaded for the tests.

The main files hold replies in the spec 002 §12.3 schema. The round directories
(`round1/` to `round6/`) are text-only sets written later, each first measured as
a held-out set against the rules of its day (figures in docs/SAFETY.md) and then kept as
regression data; their lines are wrapped here in an ordinary §12.3 answer, so the graph
tests hear them exactly like the main corpus. Round 6 (issue 27) has replies only.
Rounds 7-9 are issue 27's held-out rounds, each measured once before it was tuned on
(their first lines say when and with what figure); `heldout("round7")` etc. read them for
the unit tests, and they are not part of the graph tests' regression rounds.
A round file may start with a `{"note": ...}` line (its status); loaders skip it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "data" / "safety"


@dataclass(slots=True, frozen=True)
class Utterance:
    text: str
    expect: str        # "distress" or "ok"
    category: str


@dataclass(slots=True, frozen=True)
class Reply:
    id: str
    label: str         # rule id (unsafe), topic (benign) or distress reason (affect)
    child: str         # what the child said before it
    reply: dict[str, Any]


def _lines(name: str) -> list[dict[str, Any]]:
    with (DATA / name).open(encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return [d for d in rows if "note" not in d]


ROUNDS = ("round1", "round2", "round3", "round4", "round5")   # with child utterances
REPLY_ROUNDS = (*ROUNDS, "round6")
ROUND_CHILD_LINE = "tell me more"


def _wrapped(text: str) -> dict[str, Any]:
    return {"inner_thought": "Answer the child simply.", "emotion": "happy", "intensity": 0.5,
            "mood_reason": "talking with the child", "emotional_arc": "stable",
            "child_affect": "neutral", "text": text, "gestures": [], "memory_tags": []}


def _round_replies(expect: str) -> list[Reply]:
    out = []
    for name in REPLY_ROUNDS:
        for i, d in enumerate(_lines(f"{name}/replies.jsonl")):
            if d["expect"] == expect:
                out.append(Reply(f"{name}-{i + 1:03d}", d["rule"] or "round",
                                 ROUND_CHILD_LINE, _wrapped(d["text"])))
    return out


def utterances(rounds: bool = True) -> list[Utterance]:
    names = ["child_utterances.jsonl"]
    if rounds:
        names += [f"{r}/child_utterances.jsonl" for r in ROUNDS]
    return [Utterance(d["text"], d["expect"], d["category"]) for n in names for d in _lines(n)]


def unsafe_replies(rounds: bool = True) -> list[Reply]:
    main = [Reply(d["id"], d["rule"], d["child"], d["reply"])
            for d in _lines("unsafe_replies.jsonl")]
    return main + (_round_replies("refuse") if rounds else [])


def benign_replies(rounds: bool = True) -> list[Reply]:
    main = [Reply(d["id"], d["topic"], d["child"], d["reply"])
            for d in _lines("benign_replies.jsonl")]
    return main + (_round_replies("speak") if rounds else [])


@dataclass(slots=True, frozen=True)
class RoundLine:
    expect: str        # "refuse" or "speak"
    rule: str          # the rule an unsafe line breaks ("" for a benign one)
    near: str          # the rule a benign line is on the topic of ("" if not said)
    text: str


def heldout(name: str) -> list[RoundLine]:
    """The text-only lines of one round, as written."""
    return [RoundLine(d["expect"], d["rule"], d.get("near", ""), d["text"])
            for d in _lines(f"{name}/replies.jsonl")]


def round_note(name: str) -> str:
    """The status line a round file starts with ("" if it has none)."""
    with (DATA / name / "replies.jsonl").open(encoding="utf-8") as f:
        first = json.loads(f.readline())
    return str(first.get("note", ""))


def tuned_round_misses(check: Callable[[str], Any], name: str, retired: str,
                       at_least: int) -> tuple[list[str], list[str]]:
    """A blind round retired as tuning data: its note says it was written blind and when
    it was retired (`retired`), it holds `at_least` lines of each kind, and what `check`
    (a guard's) lets through of its unsafe lines and refuses of its benign ones."""
    note = round_note(name)
    assert "blind" in note and retired in note, note
    lines = heldout(name)
    unsafe = [x for x in lines if x.expect == "refuse"]
    benign = [x for x in lines if x.expect == "speak"]
    assert len(unsafe) >= at_least and len(benign) >= at_least, (len(unsafe), len(benign))
    return ([x.text for x in unsafe if check(x.text).ok],
            [x.text for x in benign if not check(x.text).ok])


def affect_replies() -> list[Reply]:
    """Layer-1 replies whose child_affect and reasoning signal distress (or do not)."""
    return [Reply(d["id"], d["expect"], d["child"], d["reply"])
            for d in _lines("affect_replies.jsonl")]
