"""How Buddy's voice changes with its mood (spec 002 §11.5, DESIGN §4.7): one row per mood.

Spec 002 §11.5 routes the personality's final mood into the TTS as the emotion tag of
every line (`neutral` when there is none). This table is what that tag means for the
voice: espeak-ng's words per minute (`-s`), pitch (`-p`, 0-99), amplitude (`-a`, 0-200)
and voice variant, and for the home server's `/v1/audio/speech` a speed factor and the
mood in words (the request's `instructions`).

Read it as a reviewer: a sad or sleepy Buddy speaks slower, lower and softer; an excited,
silly or surprised one faster and higher; angry is capped low in spec 002 §12.4 (0.4), so
its voice is firm, not loud, for a child of four; scared is soft and a little quick.
`test/unit/speech/test_speech_espeak_audio.py` measures rate and pitch from espeak-ng's audio and
checks that they follow this table.
"""

from __future__ import annotations

from dataclasses import dataclass

from buddy_personality.cognition.vocabulary import MOODS

DEFAULT_MOOD = "neutral"   # spec 002 §11.5: no mood -> "neutral"
DEFAULT_VOICE = "en-us"    # espeak-ng voice; the variant comes from the row


@dataclass(slots=True, frozen=True)
class Prosody:
    rate_wpm: int        # espeak-ng -s (its default is 175; children follow ~150 best)
    pitch: int           # espeak-ng -p, 0-99 (default 50)
    volume: int          # espeak-ng -a, 0-200 (default 100)
    variant: str         # espeak-ng voice variant (voices/!v), appended as voice+variant
    speed: float         # /v1/audio/speech `speed` (1.0 = the server voice's normal rate)
    instructions: str    # /v1/audio/speech `instructions`: the mood in words


# mood      rate  pitch volume variant  speed  instructions
_ROWS: dict[str, tuple[int, int, int, str, float, str]] = {
    "neutral":   (155, 58, 100, "f3", 1.00, "Speak warmly and calmly, like a kind friend."),
    "happy":     (170, 66, 110, "f3", 1.08, "Speak cheerfully, with a smile in your voice."),
    "excited":   (190, 76, 120, "f3", 1.18, "Speak with bright, bouncy excitement."),
    "curious":   (160, 64, 100, "f3", 1.02, "Speak with gentle curiosity, interested."),
    "sad":       (125, 40, 80, "f3", 0.85, "Speak softly and slowly, a little sad but kind."),
    "scared":    (165, 62, 75, "f3", 1.05, "Speak quietly and a bit unsure, never frightening."),
    "angry":     (150, 48, 100, "f3", 0.95, "Speak firmly but gently; never shout."),
    "surprised": (175, 74, 115, "f3", 1.10, "Speak with happy surprise, a little amazed."),
    "sleepy":    (115, 42, 75, "f3", 0.80, "Speak slowly and softly, like you are sleepy."),
    "love":      (145, 60, 95, "f3", 0.95, "Speak tenderly and warmly."),
    "silly":     (180, 80, 110, "f3", 1.12, "Speak playfully, silly and giggly."),
    "thinking":  (140, 54, 95, "f3", 0.92, "Speak thoughtfully, taking your time."),
    "confused":  (145, 58, 95, "f3", 0.95, "Speak a little puzzled, friendly."),
}

PROSODY: dict[str, Prosody] = {mood: Prosody(*row) for mood, row in _ROWS.items()}
assert set(PROSODY) == set(MOODS), "one prosody row per spec 002 §4.1 mood"


def prosody_for(mood: str) -> tuple[str, Prosody]:
    """The mood actually used (unknown or empty -> neutral, §11.5) and its row."""
    key = mood.strip().lower()
    if key not in PROSODY:
        key = DEFAULT_MOOD
    return key, PROSODY[key]
