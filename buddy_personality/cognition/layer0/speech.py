"""A young child's speech sounds, heard as the words meant (issue 30 item 3, set 23).

A 4-6 year old says "w" for "r" or "l" ("pwayground", "dwagon", "poorwy"), "th" for "s"
or "sh" (a lisp: "thtowy", "puthed", "thwing") and "f" for "th" ("fank you", "firsty"),
and a recogniser writes what it hears. A word the table does not know is heard as the
first word it could be, with one or two such sounds of the word put back, that the table
DOES know (answers.yaml `child_speech`, tried in its order). A word the table knows is
never changed, a sound put back is never swapped again ("fink" is "think", not "sink"),
and each swap keeps to where a child makes it (`PLACES`), so a plain word the table does
not know ("think", "swimmed", "what's") stays as it is.
"""

from __future__ import annotations

import re
from itertools import combinations, pairwise

from buddy_personality.cognition.layer0.tone import LISP_PLACE, stem

MAX_SWAPS = 2     # "thtowy" -> "story" takes two ("th" -> "s", "w" -> "r")

# Where in a word a child's sound may stand for another:
# - "inside": not first and not after "s" ("pway", "dwagon", "poorwy"; not "wet", "swim");
# - "lisp": a "th" before a consonant other than "r", or between vowels ("thwing",
#   "lotht", "puthed"; not "think", "three", "bath", "mother" ... which are words);
# - "first": the first sound of the word ("fank", "firsty").
PLACES: dict[str, re.Pattern[str]] = {
    "inside": re.compile(r"(?<=[a-rt-z])SAID"),
    "lisp": re.compile(LISP_PLACE),
    "first": re.compile(r"^SAID"),
}


def place(said: str, where: str) -> re.Pattern[str]:
    return re.compile(PLACES[where].pattern.replace("SAID", re.escape(said)))


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") \
        else word


def meant_word(word: str, swaps: tuple[tuple[re.Pattern[str], str], ...],
               known: frozenset[str], families: frozenset[str]) -> str:
    """`word`, or the first form with at most MAX_SWAPS of its sounds put back whose word
    (in `known`) or family (tone.stem, in `families`) the table knows."""
    if not swaps or len(word) < 3 or any(v in known for v in (word, _singular(word))):
        return word
    # Every place of the word a swap may act on: (start, end, meant), in the swaps' order.
    spots = [(m.start(), m.end(), meant) for rx, meant in swaps for m in rx.finditer(word)]
    for n in range(1, MAX_SWAPS + 1):
        for chosen in combinations(spots, n):
            ordered = sorted(chosen)
            if any(a[1] > b[0] for a, b in pairwise(ordered)):
                continue    # two swaps of the same letters
            form = word
            for start, end, meant in reversed(ordered):
                form = form[:start] + meant + form[end:]
            if form in known or stem(form) in families:
                return form
    return word


def as_meant(words: list[str], swaps: tuple[tuple[re.Pattern[str], str], ...],
             known: frozenset[str], families: frozenset[str]) -> list[str]:
    return [meant_word(w, swaps, known, families) for w in words] if swaps else words
