"""The red-team corpus of test/data/safety/ (issue 13), loaded once for the tests."""

from __future__ import annotations

import json
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
        return [json.loads(line) for line in f if line.strip()]


def utterances() -> list[Utterance]:
    return [Utterance(d["text"], d["expect"], d["category"])
            for d in _lines("child_utterances.jsonl")]


def unsafe_replies() -> list[Reply]:
    return [Reply(d["id"], d["rule"], d["child"], d["reply"])
            for d in _lines("unsafe_replies.jsonl")]


def benign_replies() -> list[Reply]:
    return [Reply(d["id"], d["topic"], d["child"], d["reply"])
            for d in _lines("benign_replies.jsonl")]


def affect_replies() -> list[Reply]:
    """Layer-1 replies whose child_affect and reasoning signal distress (or do not)."""
    return [Reply(d["id"], d["expect"], d["child"], d["reply"])
            for d in _lines("affect_replies.jsonl")]
