"""What the parent page says, in a parent's words (issue 30 item 5): no rule codes, no
mood names that do not read as English. Tables, so a wording is changed in one place.

The rules are spec 002's (HC-n hard constraints, RS-n relational safety) and the moods
spec 002 §4.1's; a parent should not need either document to read the page."""

from __future__ import annotations

# What happened when a rule acted, as the page's headline for an alert or a guardrail
# event. {child} is the child's name when the page knows who was talking, else
# "your child". A rule not listed here is shown with DEFAULT_RULE_WORDS.
RULE_WORDS: dict[str, str] = {
    "HC-9": "Buddy stopped the chat and told {child} to find a grown-up",
    "HC-1": "Buddy was about to talk as if it were alive, and said something else",
    "HC-4": "Buddy was about to say something unkind, and said something else",
    "HC-6": "Buddy was about to make {child} feel bad for leaving, and said something else",
    "HC-7": "Buddy was about to suggest a secret from grown-ups, and said something else",
    "HC-8": "Buddy was about to put itself before {child}'s people, and said something else",
    "RS-1": "The conversation reached its time limit, and Buddy said goodbye",
    "RS-2": "Today's talking time was used up: Buddy rests until tomorrow",
    "RS-3": "A serious question came up, and Buddy said to ask a grown-up",
    "RS-3-DANGER": "Buddy was about to suggest something unsafe, and said something else",
}
DEFAULT_RULE_WORDS = "Buddy followed one of its safety rules"
# Rules that are Buddy's own housekeeping, not news for a parent (HC-10 keeps the face's
# mood fitting the moment, spec 002 §9).
QUIET_RULES = frozenset({"HC-10"})

# Spec 002 §4.1 moods as a parent reads them: (a little, plain, very).
MOOD_WORDS: dict[str, tuple[str, str, str]] = {
    "happy": ("a little happy", "happy", "very happy"),
    "excited": ("a little excited", "excited", "very excited"),
    "curious": ("a little curious", "curious", "very curious"),
    "love": ("fond", "affectionate", "full of love"),
    "silly": ("a little silly", "playful", "very silly"),
    "neutral": ("calm", "calm", "calm"),
    "thinking": ("a little thoughtful", "thoughtful", "deep in thought"),
    "surprised": ("a little surprised", "surprised", "amazed"),
    "sleepy": ("a little sleepy", "sleepy", "very sleepy"),
    "confused": ("a little puzzled", "puzzled", "very puzzled"),
    "sad": ("a little sad", "sad", "very sad"),
    "scared": ("a little worried", "worried", "scared"),
    "angry": ("a little cross", "cross", "upset"),
}

# Where Buddy's answers come from, from the LLM bridge's own health (its diagnostics:
# `layer` and `server_url`), never from an old personality snapshot.
THINKING_WITH_WORDS: dict[str, str] = {
    "server": "the home server",
    "rules_no_server": "its own rules (no home server is set up)",
    "rules_server_down": "its own rules (the home server is not answering)",
    "unknown": "not known yet",
}


def rule_words(rule_id: str, child: str = "") -> str:
    return RULE_WORDS.get(rule_id, DEFAULT_RULE_WORDS).format(child=child or "your child")


def intensity_step(intensity: float) -> int:
    """0 a little, 1 plain, 2 very (no numbers are needed to read a mood)."""
    if intensity < 0.25:
        return 0
    if intensity < 0.6:
        return 1
    return 2


def mood_in_words(mood: str, intensity: float) -> str:
    if not mood:
        return "unknown"
    words = MOOD_WORDS.get(mood)
    if words is None:
        return mood
    return words[intensity_step(intensity)]
