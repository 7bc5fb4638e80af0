"""The 13 canonical moods, their VA anchors and the LLM emotion table (spec 002 §4.1, §5.2)."""

from __future__ import annotations

import math

# spec 002 §4.1 / §4.2 MOOD_ANCHORS (valence, arousal)
MOOD_ANCHORS: dict[str, tuple[float, float]] = {
    "neutral": (0.00, 0.00),
    "happy": (0.70, 0.35),
    "excited": (0.65, 0.80),
    "curious": (0.40, 0.45),
    "love": (0.80, 0.15),
    "silly": (0.55, 0.60),
    "thinking": (0.10, 0.20),
    "surprised": (0.15, 0.80),
    "sad": (-0.60, -0.40),
    "scared": (-0.70, 0.65),
    "angry": (-0.60, 0.70),
    "confused": (-0.20, 0.30),
    "sleepy": (0.05, -0.80),
}
MOODS: tuple[str, ...] = tuple(MOOD_ANCHORS)

# spec 002 §4.2: SURPRISED is neutral class; it has its own startle rule (§9.1).
NEGATIVE_MOODS: frozenset[str] = frozenset({"sad", "scared", "angry"})
# spec 002 §4.1 "Class" column (CURIOUS, THINKING, SURPRISED, CONFUSED and SLEEPY are Neutral).
POSITIVE_MOODS: frozenset[str] = frozenset({"happy", "excited", "love", "silly"})
MOOD_CLASSES: dict[str, str] = {
    m: "positive" if m in POSITIVE_MOODS else "negative" if m in NEGATIVE_MOODS else "neutral"
    for m in MOOD_ANCHORS
}

# spec 002 §4.2
MAX_ANCHOR_DISTANCE: float = 1.20

# spec 002 §5.2 base magnitude per LLM emotion (targets are the §4.1 anchors)
EMOTION_BASE_MAGNITUDE: dict[str, float] = {
    "neutral": 0.30,
    "happy": 0.60,
    "excited": 0.70,
    "curious": 0.55,
    "love": 0.60,
    "silly": 0.60,
    "thinking": 0.40,
    "surprised": 0.65,
    "sad": 0.50,
    "scared": 0.50,
    "angry": 0.45,
    "confused": 0.40,
    "sleepy": 0.40,
}

# DESIGN §4.1: spec 000's mood names mapped onto ours. `nervous` is scared at low intensity.
EMOTION_ALIASES: dict[str, str] = {"calm": "neutral", "amused": "silly", "nervous": "scared"}
NERVOUS_INTENSITY_CAP: float = 0.3


def nearest_mood(valence: float, arousal: float) -> str:
    """The mood whose anchor is closest (no hysteresis); ties go to the table order."""
    best = "neutral"
    best_d2 = math.inf
    for name, (av, aa) in MOOD_ANCHORS.items():
        d2 = (valence - av) ** 2 + (arousal - aa) ** 2
        if d2 < best_d2:
            best, best_d2 = name, d2
    return best
