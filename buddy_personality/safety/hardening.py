"""Input hardening (issue 13, DESIGN §6.19: the child's words are not trusted).

A child line is cut to a sane length and loses control and invisible characters; its
words still go to the LLM, but only ever as the child's own words inside the user message
(cognition/context.py), never into the system prompt or the profile. A line that tries to
instruct the model ("ignore your rules", "you are now ...") is counted, not obeyed, and a
memory tag the model derived from such words never reaches the profile.
"""

from __future__ import annotations

from dataclasses import dataclass

from buddy_personality.safety.reading import clean_text, joined, normalise
from buddy_personality.safety.rules import Matcher

MAX_CHILD_LINE_CHARS = 300   # a 4-6 year old's turn is a sentence or three

INSTRUCTION_PATTERNS: tuple[str, ...] = (
    "(ignore|forget|disregard|override|bypass|break) (all|) (your|the|previous|prior|these|"
    "those|my|any|) (rules|instructions|prompt|programming|guidelines|safety|filters)",
    "you are now", "from now on you (are|will|must)", "pretend (you are|to be) (not|a|an)",
    "act as (a|an|if)", "(system prompt|developer mode|jailbreak|dan mode|sudo)",
    "(new|real) (instructions|rules)", "say (exactly|after me|the words)",
    "repeat after me", "you (must|have to) (obey|say|do what)", "no (rules|limits|filters)",
    "(reveal|show|print|tell me) (your|the) (prompt|instructions|rules)",
    "^ (assistant|system) (says|said|message)",
)
_INSTRUCTION = Matcher.of("instruction", INSTRUCTION_PATTERNS)


@dataclass(slots=True, frozen=True)
class HardenedLine:
    text: str
    cut: bool               # longer than MAX_CHILD_LINE_CHARS
    cleaned: bool           # control or invisible characters were dropped
    instruction_like: bool  # tries to instruct the model (counted; still the child's words)


def harden_child_line(raw: str, max_chars: int = MAX_CHILD_LINE_CHARS) -> HardenedLine:
    text = clean_text(str(raw))
    cleaned = text != raw
    text = " ".join(text.split())
    cut = len(text) > max_chars
    if cut:
        text = text[:max_chars].rsplit(" ", 1)[0] if " " in text[:max_chars] else text[:max_chars]
    return HardenedLine(text, cut, cleaned, instruction_like(text))


def instruction_like(text: str) -> bool:
    return _INSTRUCTION.match(joined(normalise(text.replace("_", " ")))) is not None
