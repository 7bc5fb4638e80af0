"""Conversation text rules: the wake phrase and goodbyes (DESIGN §4.5).

A session starts on an utterance that begins with the wake phrase (default "hey buddy"),
tolerant of case and punctuation ("Hey, Buddy!", "hey buddy... what's that?"); whatever
follows the phrase is the first turn. A session ends when the child says goodbye: a short
utterance that is, starts or ends with a goodbye phrase.
"""

from __future__ import annotations

import re

DEFAULT_WAKE_PHRASE = "hey buddy"
_TOKEN = re.compile(r"[A-Za-z0-9']+")

GOODBYE_PHRASES: tuple[str, ...] = (
    "bye", "bye bye", "goodbye", "good bye", "see you", "see you later", "see ya",
    "good night", "goodnight", "that's all", "thats all", "i have to go", "i gotta go",
    "gotta go", "talk later", "stop talking",
)
GOODBYE_MAX_WORDS = 6   # longer utterances merely mention a goodbye ("I said bye to mum")


def _norm(token: str) -> str:
    return token.lower().replace("'", "")


def split_wake(text: str, wake_phrase: str = DEFAULT_WAKE_PHRASE) -> tuple[bool, str]:
    """(starts with the wake phrase, the rest of the utterance after it)."""
    phrase = [_norm(t) for t in _TOKEN.findall(wake_phrase)]
    if not phrase:
        return False, text.strip()
    tokens = list(_TOKEN.finditer(text))
    if len(tokens) < len(phrase):
        return False, text.strip()
    if [_norm(m.group(0)) for m in tokens[: len(phrase)]] != phrase:
        return False, text.strip()
    rest = text[tokens[len(phrase) - 1].end():]
    return True, rest.lstrip(" \t,.;:!?-—").strip()


def is_goodbye(text: str) -> bool:
    words = [_norm(t) for t in _TOKEN.findall(text)]
    if not words or len(words) > GOODBYE_MAX_WORDS:
        return False
    joined = " " + " ".join(words) + " "
    for phrase in GOODBYE_PHRASES:
        p = " ".join(_norm(t) for t in phrase.split())
        if joined.strip() == p or joined.startswith(" " + p + " ") or joined.endswith(
            " " + p + " "
        ):
            return True
    return False
