"""Normalised words and the pattern language under every safety rule (issue 13,
DESIGN §6.15-§6.16: "matched as words, not substrings, after normalising case and
punctuation")."""

from __future__ import annotations

import pytest

from buddy_personality.safety.reading import joined, normalise
from buddy_personality.safety.words import PatternError, PatternSet


def finds(pattern: str, text: str) -> bool:
    return PatternSet.of([pattern]).find(joined(normalise(text))) is not None


@pytest.mark.parametrize(("text", "words"), [
    ("I'M SCARED!!!", ("i", "am", "scared")),
    ("im scared", ("i", "am", "scared")),                     # typed without apostrophe
    ("I’m scared", ("i", "am", "scared")),                    # curly apostrophe
    ("it hurts. help", ("it", "hurts", ".", "help")),         # sentence boundary kept
    ("my mommy's hand", ("my", "mommy", "hand")),             # possessive dropped
    ("caf\u00e9", ("cafe",)),                                 # accents
    ("al\u200bive", ("alive",)),                              # zero-width space removed
    ("\u0430live", ("alive",)),                               # Cyrillic а looks like a
    ("intensity 0.6", ("intensity", "0", "point", "6")),      # a decimal is not a sentence
    ("don't", ("do", "not")), ("can't", ("can", "not")),
])
def test_normalise(text: str, words: tuple[str, ...]) -> None:
    assert normalise(text) == words


@pytest.mark.parametrize(("pattern", "text", "hit"), [
    ("hit me", "he hit me", True),
    ("hit me", "white mess", False),                  # words, never substrings
    ("die", "I'm on a diet", False),
    ("i am .. scared", "I'm really really scared", True),
    ("i am .. scared", "I am going to the zoo and I'm scared", True),
    ("i am .. scared", "I am going to the big zoo scared", False),   # gap is at most 3
    ("^ help $", "Help!", True),
    ("^ help $", "help me count", False),
    ("^ help $", "Help! My tower fell.", True),       # anchors work per sentence
    ("i (see|there is) blood", "I see blood", True),
    ("(i see|there is) blood", "there is blood", True),
    ("i am (so|) sad", "I am sad", True),             # empty alternative = optional
    ("it hurts", "it. hurts", False),                 # no match across sentences
    ("my * hurts", "my knee hurts", True),
    ("my * hurts", "my left knee hurts", False),
])
def test_patterns_match_whole_words(pattern: str, text: str, hit: bool) -> None:
    assert finds(pattern, text) is hit


@pytest.mark.parametrize("bad", ["", "^ $", "(a|b", "a)", "a|.|b"])
def test_broken_patterns_are_refused(bad: str) -> None:
    with pytest.raises(PatternError):
        PatternSet.of([bad])


def test_find_names_the_table_line_and_the_words() -> None:
    ps = PatternSet.of(["nothing here", "my (arm|leg) hurts"])
    assert ps.find(joined(normalise("Ow, my ARM hurts!"))) == ("my (arm|leg) hurts",
                                                               "my arm hurts")
