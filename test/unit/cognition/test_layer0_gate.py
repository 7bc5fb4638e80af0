"""Layer 0's tone gate as it must work on words nobody here wrote (issue 30 item 3, DESIGN
erratum 15; cognition/layer0/tone.py): a broad public negative-word lexicon, a child's
spellings of hard words, and negation, endings and absence keep ANY cheerful row from
answering with cheer, however strongly it matched. Every line here is in no set."""

from __future__ import annotations

import random
from importlib import resources

import pytest
import yaml

from buddy_personality.cognition.layer0 import Layer0
from buddy_personality.cognition.layer0.figures import CHEER_MOODS
from buddy_personality.cognition.layer0.table import TableError, load_table
from buddy_personality.cognition.layer0.tone import spoken_forms, stem

TABLE = load_table()
CHEERFUL_ENCORE = set(TABLE.encore["cheerful"])


def _cheerful_answers(line: str) -> list[str]:
    """Every cheerful answer of five fresh sessions (DESIGN erratum 15: each variant counts)."""
    out = []
    for seed in range(5):
        a = Layer0(TABLE).answer(line, random.Random(seed), f"gate-{seed}")
        if a.emotion in CHEER_MOODS or a.text in CHEERFUL_ENCORE:
            out.append(f"{a.intent} {a.emotion}: {a.text}")
    return out


# A word of the lexicon that no hard cue of the table names, in a line a cheerful row
# matched by its own phrase ("i made", "look at my"): met with the row's cheer before.
@pytest.mark.parametrize("line", [
    "i made a cake for mummy and it was a disaster",
    "look at my tower it collapsed",
])
def test_a_word_of_the_broad_lexicon_stops_the_cheer(line: str) -> None:
    assert _cheerful_answers(line) == []


# A hard word as a 4-6 year old says it (a lisp) is still the hard word.
@pytest.mark.parametrize("line", [
    "the big girl thnatched my thpade",
])
def test_a_hard_word_said_with_a_lisp_stops_the_cheer(line: str) -> None:
    assert _cheerful_answers(line) == []


def test_a_lisp_or_a_dropped_g_is_heard_but_a_th_word_is_not_misheard() -> None:
    assert stem("bleeding") in spoken_forms("bleedin")
    assert stem("pushed") in spoken_forms("puthed")
    assert stem("swing") in spoken_forms("thwing")
    # "thank" is no lisped "sank", "think" no "sink", "thick" no "sick".
    for word in ("thank", "think", "thick", "bath", "teeth"):
        assert spoken_forms(word) == (stem(word),)


# An ending or an absence makes a goodbye or a party no cheerful matter.
@pytest.mark.parametrize("line", [
    "the party is over and we have to go home",
])
def test_an_ending_stops_the_cheer(line: str) -> None:
    assert _cheerful_answers(line) == []


def test_the_lexicon_is_a_public_one_with_its_source_and_licence() -> None:
    name = "negative_words.yaml"
    data = yaml.safe_load(resources.files("buddy_personality.cognition.layer0")
                          .joinpath(name).read_text(encoding="utf-8"))
    assert data["licence"] == "MIT"
    assert "vaderSentiment" in data["source"]
    words = data["words"].split()
    assert len(words) > 3000
    assert {"disaster", "collapsed", "miserable", "lonely"} <= set(words)
    # Folded through stem: the table holds families.
    assert stem("collapsed") in TABLE.calm.lexicon


def test_a_calm_lexicon_that_is_no_file_of_the_package_is_refused() -> None:
    text = resources.files("buddy_personality.cognition.layer0").joinpath(
        "answers.yaml").read_text(encoding="utf-8")
    assert "lexicon: negative_words.yaml" in text
    with pytest.raises(TableError, match="lexicon"):
        load_table(text.replace("lexicon: negative_words.yaml", "lexicon: no_such_words.yaml"))


# Someone else's deed told after what the child made: what they did to it is not known
# (no word of it need be in any lexicon: "trampled", "knocked it over"), so no cheer.
@pytest.mark.parametrize("line", [
    "i built a tower and my brother knocked it over",
    "i made a sandcastle and a dog trampled it",
    "i built a den and the wind blowed it away",
])
def test_someone_elses_deed_after_the_childs_own_stops_the_cheer(line: str) -> None:
    assert _cheerful_answers(line) == []


# "the big boy" is another child, not the child grown: the growing-up row's cheer ("Ooh,
# a big change!") answered what he did before.
@pytest.mark.parametrize("line", [
    "the big boy at the park was on the slide",
    "the big boy thtamped on my thandcastle",
])
def test_the_big_boy_is_another_child_not_the_child_grown(line: str) -> None:
    assert _cheerful_answers(line) == []
    assert "growing_up" not in {
        Layer0(TABLE).answer(line, random.Random(s), f"big-{s}").intent for s in range(5)}
