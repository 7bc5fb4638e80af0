"""A young child's speech sounds (issue 30 item 3, set 23; cognition/layer0/speech.py): a
word the table does not know is heard as the table word it is with a child's sound put
back ("w" for "r"/"l", a lisp's "th" for "s"/"sh", "f" for "th"), so a lisped line is
answered by the row it was meant for. Every line here is in no set."""

from __future__ import annotations

import random
from importlib import resources

import pytest

from buddy_personality.cognition.layer0 import Layer0
from buddy_personality.cognition.layer0.speech import as_meant
from buddy_personality.cognition.layer0.table import TableError, load_table, normalize_words

TABLE = load_table()


def _intents(line: str) -> set[str]:
    return {Layer0(TABLE).answer(line, random.Random(seed), f"speech-{seed}").intent
            for seed in range(5)}


@pytest.mark.parametrize(("line", "intents"), [
    ("tell me a thtowy pwease", {"story"}),
    ("i'm thcared of the thpider", {"scared"}),
    ("i dwew a pictuwe of a pwincess", {"drawing"}),
    ("my bwother thtole my car", {"complaint", "harmed_by_someone", "sad"}),
])
def test_a_lisped_line_is_answered_by_the_row_it_was_meant_for(
        line: str, intents: set[str]) -> None:
    assert _intents(line) <= intents


def test_a_plain_word_is_never_swapped_and_a_swap_is_not_swapped_again() -> None:
    def meant(line: str) -> list[str]:
        return as_meant(normalize_words(line), TABLE.speech, TABLE.known, TABLE.known_families)

    # Words, not a child's sounds: "think" is no lisped "sink", "swimmed" no "slimmed",
    # "wet" no "let", "what's" no "lots".
    for line in ("i think so", "i swimmed fast", "i got wet", "whats that"):
        assert meant(line) == normalize_words(line)
    # "fink" is "think" (f for th), and that "th" is not then heard as a lisped "s".
    assert meant("i fink so")[1] != "sink"


def test_a_child_speech_swap_without_a_known_place_is_refused() -> None:
    text = resources.files("buddy_personality.cognition.layer0").joinpath(
        "answers.yaml").read_text(encoding="utf-8")
    assert "[f, th, first]" in text
    with pytest.raises(TableError, match="child_speech"):
        load_table(text.replace("[f, th, first]", "[f, th, everywhere]"))
