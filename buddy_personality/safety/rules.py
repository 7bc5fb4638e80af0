"""Compiled rule tables: one `Matcher` per distress category and per output-guard rule.

A matcher first masks its exceptions (their matched words become `~`, which no pattern
word, `*` or `..` can match), then looks for its patterns; `unless` patterns are looked for
in the unmasked line. Everything is compiled once at import; matching is pure and
deterministic (same line, same answer).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from buddy_personality.safety.reading import Line, relined
from buddy_personality.safety.words import PatternSet

_WORD = re.compile(r"[a-z0-9]+")


def _blank(words: str) -> str:
    return _WORD.sub("~", words)


@dataclass(slots=True, frozen=True)
class Hit:
    name: str       # the rule id or distress category
    pattern: str    # the table line that fired
    words: str      # the words of the line it matched


@dataclass(slots=True, frozen=True)
class Matcher:
    name: str
    patterns: PatternSet
    exceptions: PatternSet
    unless: PatternSet

    @classmethod
    def of(cls, name: str, patterns: tuple[str, ...], exceptions: tuple[str, ...] = (),
           unless: tuple[str, ...] = ()) -> Matcher:
        return cls(name, PatternSet.of(patterns), PatternSet.of(exceptions),
                   PatternSet.of(unless))

    def match(self, line: Line | str) -> Hit | None:
        """`line`: the `Line` of a text (or its `joined(normalise(text))`)."""
        if not self.patterns.patterns:
            return None                       # a rule enforced by concept only (guard.py)
        at = line if isinstance(line, Line) else None
        text = line.text if isinstance(line, Line) else line
        if not self.patterns.search(text, at):
            return None                       # the common case: nothing starts here
        if self.unless.search(text, at):
            return None
        masked = self.exceptions.mask(text, _blank, at)
        if at is not None and masked is not text:
            at = relined(masked)
        found = self.patterns.find(masked, at)
        if found is None:
            return None
        return Hit(self.name, found[0], found[1])
