"""Layer 0's answer to one line: the row that understood it, a variant Buddy has not said
yet this session, the child's name, memory tags, and the emotion intent to send.

Spec 002 §10 RS-9 (graceful degradation: Buddy is good company with the server down,
A.2 "server resilience"), PE-7 (rules on the device), P18 (variants by the seeded RNG:
the core never draws from an unseeded source, so a replay gives the same answers).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from buddy_personality.cognition.layer0.table import (
    ABOUT_SLOT,
    NAME_SLOT,
    WORD_SLOT,
    IntentRow,
    Table,
    load_table,
)
from buddy_personality.cognition.layer0.understand import POLARITY_NONE, understand

# The corpus target (issue 15): no reply twice within this many turns of a session.
REPEAT_WINDOW = 10


@dataclass(slots=True, frozen=True)
class Layer0Answer:
    text: str
    intent: str
    kind: str
    generic: bool               # a fallback: nothing in the line was understood
    emotion: str
    intensity: float
    mood_reason: str
    child_affect: str
    memory_tags: tuple[str, ...]   # only where identity allows memories (RS-5)
    topics: tuple[str, ...]        # what the line was about (governor novelty)


@dataclass(slots=True)
class _SessionMemory:
    session_id: str
    said: list[str] = field(default_factory=list)   # answer templates, oldest first
    last_request: IntentRow | None = None            # for "another one"


def render(template: str, name: str, word: str) -> str:
    """ "{name}" -> ", Leo" with a known name, nothing otherwise ("Hi{name}!");
    "{Word}" -> the table word the child used, capitalised."""
    text = template.replace(NAME_SLOT, f", {name}" if name else "")
    return text.replace(WORD_SLOT, word[:1].upper() + word[1:])


class Layer0:
    """The layer-0 conversation: one instance per bridge; remembers the current session's
    answers only (nothing about a child outlives the session here)."""

    def __init__(self, table: Table | None = None) -> None:
        self.table = table if table is not None else load_table()
        self._memory = _SessionMemory("")

    def _pick(self, row: IntentRow, word: str, rng: random.Random, calm: bool = False) -> str:
        """A variant not said this session; else one not said within the repeat window;
        else a line of the row's encore group not said within it; else the oldest.
        `calm`: the table's calm answers about the row's topic, the gentle encore."""
        said = self._memory.said
        recent = said[-(REPEAT_WINDOW - 1):] if REPEAT_WINDOW > 1 else []
        tone = self.table.calm
        if calm and tone is not None:
            own = [a.replace(ABOUT_SLOT, row.about) for a in tone.about] if row.about \
                else list(tone.plain)
            encore = list(self.table.encore["gentle"])
        else:
            own = [a for a in row.answers if word or WORD_SLOT not in a]
            encore = list(self.table.encore[row.encore_group])
        for pool in ([a for a in own if a not in said],
                     [a for a in own if a not in recent],
                     [a for a in encore if a not in recent]):
            if pool:
                return pool[0] if len(pool) == 1 else rng.choice(pool)
        return min(own, key=lambda a: max(i for i, s in enumerate(said) if s == a))

    def gist(self, text: str) -> str:
        """What a line is about as a label of the table (its topic's tag, else the answering
        row's intent): a fixed word a reviewer wrote, never the child's text."""
        u = understand(text, self.table)
        if u.topic is not None:
            return u.topic.tag
        return "" if u.row.kind == "fallback" else u.row.intent

    def answer(self, text: str, rng: random.Random, session_id: str, name: str = "",
               memories_allowed: bool = False) -> Layer0Answer:
        if session_id != self._memory.session_id:
            self._memory = _SessionMemory(session_id)
        u = understand(text, self.table)
        row, word = u.row, u.word
        if row.again and self._memory.last_request is not None:
            row, word = self._memory.last_request, ""
        if row.kind == "request":
            self._memory.last_request = row
        calm = u.calm and row is u.row and self.table.calm is not None
        template = self._pick(row, word, rng, calm)
        self._memory.said.append(template)
        topics: tuple[str, ...] = (u.topic.tag,) if u.topic is not None else ()
        tags: tuple[str, ...] = ()
        if memories_allowed and u.topic is not None and row.kind not in ("safety", "serious"):
            # HC-3: a semantic label from the table, never the child's words.
            tag = u.topic.tag
            tags = (f"{u.polarity}_{tag}" if u.polarity != POLARITY_NONE else tag,)
        tone = self.table.calm
        if calm and tone is not None:
            # Issue 30 item 3 (tone.py): the row's intent, a calm line, no cheer.
            return Layer0Answer(
                text=render(template, name, word), intent=row.intent, kind=row.kind,
                generic=row.generic, emotion=tone.emotion, intensity=tone.intensity,
                mood_reason=tone.mood_reason, child_affect=tone.child_affect,
                memory_tags=tags, topics=topics,
            )
        return Layer0Answer(
            text=render(template, name, word), intent=row.intent, kind=row.kind,
            generic=row.generic, emotion=row.emotion, intensity=row.intensity,
            mood_reason=row.mood_reason, child_affect=row.child_affect,
            memory_tags=tags, topics=topics,
        )
