"""The conversation corpus that drives the simulated day (DESIGN §6.13, §6.14).

A corpus is JSON Lines, one conversation a line:

    {"id": "dino-1", "child": "leo",
     "turns": [{"child": "hey buddy, do you like dinosaurs?",
                "reply": {<one spec 002 §12.3 ConversationResponseV2 object>}}, ...]}

`child`, when present, is the id of a household child Buddy knows (lower-case letters,
digits, `_` or `-`); the simulated day gives it a household profile whose preferred name
is the id, capitalised. Each `reply` must validate against the strict §12.3 schema
(`cognition.schema.ConversationResponseV2`): the corpus stands in for a well-prompted
model, so an answer the schema would not accept is an error in the corpus, not something
to repair. A file that is not valid is refused as a whole with the line and field named.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from buddy_personality.cognition.schema import ConversationResponseV2

DEFAULT_CORPUS = Path(__file__).resolve().parent / "data" / "conversations.jsonl"
CHILD_ID = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
MAX_TURNS = 40
MAX_CHILD_LINE_CHARS = 500
MAX_CONVERSATIONS = 10_000


class CorpusError(ValueError):
    """The corpus file is not valid; the message names the line and the field."""


@dataclass(slots=True, frozen=True)
class CorpusTurn:
    child: str  # what the child says
    reply: dict[str, Any]  # the §12.3 answer, as JSON (validated)


@dataclass(slots=True, frozen=True)
class Conversation:
    id: str
    child: str  # household child id, "" for an unidentified child
    turns: tuple[CorpusTurn, ...]
    line: int  # where it came from, for messages

    @property
    def child_name(self) -> str:
        """The preferred name the simulated household gives this child."""
        return self.child.capitalize() if self.child else ""


def _fail(path: Path, line: int, field: str, why: str) -> CorpusError:
    return CorpusError(f"{path}:{line}: {field}: {why}")


def _parse_line(path: Path, line: int, text: str) -> Conversation:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(path, line, "(line)", f"not JSON ({exc.msg}, column {exc.colno})") from None
    if not isinstance(data, dict):
        raise _fail(path, line, "(line)", "not a JSON object")
    unknown = sorted(set(data) - {"id", "child", "turns"})
    if unknown:
        raise _fail(path, line, unknown[0], "unknown field (expected id, child, turns)")
    cid = data.get("id")
    if not isinstance(cid, str) or not cid.strip():
        raise _fail(path, line, "id", "missing or not a non-empty string")
    child = data.get("child", "")
    if child is None:
        child = ""
    if not isinstance(child, str) or (child and not CHILD_ID.match(child)):
        raise _fail(path, line, "child",
                    "not a household child id (lower-case letters, digits, _ or -)")
    turns = data.get("turns")
    if not isinstance(turns, list) or not turns:
        raise _fail(path, line, "turns", "missing or not a non-empty list")
    if len(turns) > MAX_TURNS:
        raise _fail(path, line, "turns", f"more than {MAX_TURNS} turns")
    out: list[CorpusTurn] = []
    for k, turn in enumerate(turns):
        where = f"turns[{k}]"
        if not isinstance(turn, dict):
            raise _fail(path, line, where, "not an object with child and reply")
        said = turn.get("child")
        if not isinstance(said, str) or not said.strip():
            raise _fail(path, line, f"{where}.child", "missing or not a non-empty string")
        if len(said) > MAX_CHILD_LINE_CHARS:
            raise _fail(path, line, f"{where}.child", f"longer than {MAX_CHILD_LINE_CHARS}")
        reply = turn.get("reply")
        if not isinstance(reply, dict):
            raise _fail(path, line, f"{where}.reply", "missing or not a JSON object")
        try:
            ConversationResponseV2.model_validate(reply, strict=False)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(x) for x in err["loc"])
            raise _fail(path, line, f"{where}.reply.{loc}", err["msg"]) from None
        out.append(CorpusTurn(" ".join(said.split()), reply))
    return Conversation(cid.strip(), child, tuple(out), line)


def load_corpus(path: Path | str | None = None) -> list[Conversation]:
    """Every conversation of the file, in file order. Blank lines are skipped. Raises
    CorpusError naming the line and field of the first problem."""
    path = Path(path) if path is not None else DEFAULT_CORPUS
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CorpusError(f"{path}: cannot read the corpus ({exc})") from None
    conversations: list[Conversation] = []
    seen: dict[str, int] = {}
    for n, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        conv = _parse_line(path, n, text)
        if conv.id in seen:
            raise _fail(path, n, "id", f"{conv.id!r} already used on line {seen[conv.id]}")
        seen[conv.id] = n
        conversations.append(conv)
        if len(conversations) > MAX_CONVERSATIONS:
            raise _fail(path, n, "(file)", f"more than {MAX_CONVERSATIONS} conversations")
    if not conversations:
        raise CorpusError(f"{path}: no conversations in the corpus")
    return conversations
