"""Closed vocabularies the LLM bridge speaks, and the words it renders numbers into.

Every internal number (affect, intensities, budgets, pressures) is turned into words here
before it can reach a prompt (DESIGN §1.3, §6.6; spec 003 §4). The tables are data: each
row says which words a range of the number becomes.
"""

from __future__ import annotations

import math

# spec 002 §4.1: the 13 canonical moods (lowercase, as on the wire).
MOODS: tuple[str, ...] = (
    "neutral", "happy", "excited", "curious", "sad", "scared", "angry",
    "surprised", "sleepy", "love", "silly", "thinking", "confused",
)
MOOD_SET: frozenset[str] = frozenset(MOODS)
NEGATIVE_MOODS: frozenset[str] = frozenset({"sad", "scared", "angry"})  # spec 002 §4.2
POSITIVE_MOODS: frozenset[str] = frozenset({"happy", "excited", "love", "silly"})

# spec 002 §12.4 "EMOTION INTENSITY LIMITS": the highest intensity the prompt allows per
# mood. neutral and sleepy are not listed there; they take the neutral-class limit 0.6.
MOOD_INTENSITY_CAP: dict[str, float] = {
    "happy": 0.9, "curious": 0.9, "love": 0.9, "excited": 0.9, "silly": 0.9,
    "thinking": 0.6, "confused": 0.6, "surprised": 0.6, "neutral": 0.6, "sleepy": 0.6,
    "sad": 0.5, "angry": 0.4, "scared": 0.5,
}

# buddy_msgs/Gesture: the face's gesture set, name -> gesture_id (face protocol 0x21).
GESTURES: dict[str, int] = {
    "blink": 0, "wink_l": 1, "wink_r": 2, "confused": 3, "laugh": 4, "surprise": 5,
    "heart": 6, "x_eyes": 7, "sleepy": 8, "rage": 9, "nod": 10, "headshake": 11,
    "wiggle": 12,
}

# spec 002 §12.3 enumerations.
ARCS: tuple[str, ...] = ("rising", "stable", "falling", "peak", "recovery")
CHILD_AFFECTS: tuple[str, ...] = ("positive", "neutral", "negative", "unclear")

# spec 003 §5 intention_updates, with a controlled type vocabulary (spec 003 §5
# "controlled_intention_type"): the kinds of intention that make sense for Buddy.
INTENTION_OPERATIONS: tuple[str, ...] = ("create", "boost", "lower", "drop")
INTENTION_TYPES: tuple[str, ...] = (
    "be_gentle", "avoid_topic", "follow_up", "encourage", "redirect_to_adult",
    "keep_short", "play_game", "celebrate",
)
INTENTION_HORIZONS: tuple[str, ...] = ("short", "medium", "long")


def _finite(x: float, default: float = 0.0) -> float:
    return x if isinstance(x, (int, float)) and math.isfinite(x) else default


def _band(x: float, table: tuple[tuple[float, str], ...], last: str) -> str:
    """First row whose lower bound x reaches; tables are ordered from high to low."""
    for lower, word in table:
        if x >= lower:
            return word
    return last


# Mood intensity [0, 1] -> adverb (spec 002 §12.5 "intensity 0.4", in words: DESIGN §6.6).
INTENSITY_WORDS: tuple[tuple[float, str], ...] = (
    (0.8, "very"), (0.6, "quite"), (0.4, "fairly"), (0.2, "a little"),
)


def intensity_words(intensity: float) -> str:
    return _band(_finite(intensity), INTENSITY_WORDS, "faintly")


# Personality energy axis [0, 1] -> temperament word (spec 002 §12.4 "calm (0.40)").
ENERGY_AXIS_WORDS: tuple[tuple[float, str], ...] = (
    (0.75, "lively"), (0.55, "upbeat"), (0.3, "calm"),
)


def energy_axis_words(axis: float) -> str:
    return _band(_finite(axis), ENERGY_AXIS_WORDS, "very calm")


# Governor effort budget [0, 1] -> how much energy Buddy has for this conversation.
EFFORT_WORDS: tuple[tuple[float, str], ...] = (
    (0.7, "Buddy has plenty of energy."),
    (0.4, "Buddy is a little tired, so answers stay short."),
    (0.15, "Buddy is getting tired, so answers stay very short."),
)


def effort_words(effort: float) -> str:
    return _band(_finite(effort, 1.0), EFFORT_WORDS, "Buddy is very tired: one short sentence.")


# Tonic (background) valence [-1, 1] -> background mood.
TONIC_WORDS: tuple[tuple[float, str], ...] = (
    (0.2, "cheerful"), (0.05, "gently positive"), (-0.05, "even"), (-0.2, "a little low"),
)


def tonic_words(tonic_valence: float) -> str:
    return _band(_finite(tonic_valence), TONIC_WORDS, "low")


# spec 002 §12.3 emotional_arc -> "Conversation has been {arc_description}" (§12.5).
ARC_WORDS: dict[str, str] = {
    "rising": "warming up",
    "stable": "steady and friendly",
    "falling": "winding down",
    "peak": "at an exciting high point",
    "recovery": "settling back down after a big feeling",
}


def arc_words(arc: str) -> str:
    return ARC_WORDS.get(arc, ARC_WORDS["stable"])


# Turns so far -> how long the conversation has been going (§12.5 "Session turn: 5",
# in words: a turn count is not needed by the model and keeps digits out of the state).
TURN_WORDS: tuple[tuple[float, str], ...] = (
    (12, "You have been talking for quite a while."),
    (5, "You have been talking for a little while."),
    (2, "The conversation has just begun."),
)


def turn_words(turn_id: int) -> str:
    return _band(float(turn_id), TURN_WORDS, "This is the first thing the child says.")


# spec 002 §12.5 "Emotional continuity", by the class of the current mood.
CONTINUITY_WORDS: dict[str, str] = {
    "positive": "keep the warm, positive feeling going; don't snap to a different mood.",
    "negative": "pass through neutral or thinking before becoming cheerful again.",
    "neutral": "shift gently; curious or neutral are good choices when unsure.",
}


def mood_class(mood: str) -> str:
    if mood in POSITIVE_MOODS:
        return "positive"
    if mood in NEGATIVE_MOODS:
        return "negative"
    return "neutral"


def continuity_words(mood: str) -> str:
    return CONTINUITY_WORDS[mood_class(mood)]
