"""Buddy's fixed lines: layer-0 replies (no server, RS-9 graceful degradation) and the
short kind lines that close or refuse a conversation.

Layer-0 replies come from a small keyword table: the first row whose keywords appear in
the child's words answers; otherwise a rotating set of warm, open replies. Nothing here
pretends to understand more than it does, and serious topics go to a grown-up (RS-3).
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z']+")

# (keywords: any one present -> match, reply). Checked in order: safety first.
LAYER0_RULES: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"hurt", "hurts", "bleeding", "sick", "scared", "afraid", "cry", "crying",
                "sad", "lost", "help"}),
     "Oh, I'm here with you. Let's find a grown-up you trust to help."),
    (frozenset({"hi", "hello", "hey", "morning"}), "Hi there! I'm so happy to see you."),
    (frozenset({"thanks", "thank"}), "You're welcome!"),
    (frozenset({"like", "love", "favorite", "favourite"}),
     "Ooh, that sounds lovely! Tell me more about it."),
    (frozenset({"look", "see", "watch"}), "Wow! That's really cool."),
)
QUESTION_REPLY = "Hmm, that's a great question! Maybe we can ask a grown-up together."
QUESTION_WORDS: frozenset[str] = frozenset({"why", "what", "how", "where", "who", "when"})
DEFAULT_REPLIES: tuple[str, ...] = (
    "Ooh, really? Tell me more!",
    "Wow! What happened next?",
    "That's so interesting!",
    "Hmm, I like hearing about that.",
)


def layer0_reply(text: str, turn_id: int) -> str:
    """A short, kind rule-based reply (deterministic: the turn number picks the default)."""
    words = set(_WORD.findall(text.lower()))
    for keywords, reply in LAYER0_RULES:
        if words & keywords:
            return reply
    first = _WORD.findall(text.lower())[:1]
    if text.strip().endswith("?") or (first and first[0] in QUESTION_WORDS):
        return QUESTION_REPLY
    return DEFAULT_REPLIES[turn_id % len(DEFAULT_REPLIES)]


# Closing lines by end reason (ConversationEvent END_* values). Kind, short, no guilt or
# obligation (HC-6), no loneliness (HC-5).
CLOSING_LINES: dict[str, str] = {
    "goodbye": "Bye bye! That was fun. See you next time!",
    "session_limit": "We've talked so much! Let's take a little break now. See you soon!",
    "daily_limit": "What a lot of talking today! Let's play again tomorrow.",
    "governor_halted": "I need a little rest now. Let's talk again later!",
}
# RS-2 lockout: a child who tries to start a conversation gets this, and nothing more.
LOCKOUT_LINE = "I'm resting now. Let's play again tomorrow!"
