"""Layer 0 answers what the child said (issue 30 item 3; DESIGN erratum 15; spec 002 §10
RS-9): no reply answers a complaint, a hurt or a sad line with cheer, every variant of a
row answers the row's own question, and the held-out sets' figures meet the targets
(wrong intent < 5 %, wrong tone 0)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from buddy_personality.cognition.layer0 import Layer0
from buddy_personality.cognition.layer0.figures import (
    CHEER_MOODS,
    load_labelled,
    measure_heldout,
)
from buddy_personality.cognition.layer0.table import TableError, load_table

DATA = Path(__file__).resolve().parents[2] / "data" / "layer0"
TABLE = load_table()
# Words of cheer a line about something hard must not carry (DESIGN erratum 15).
CHEER_WORDS = re.compile(r"\b(yay|hooray|woo-hoo|wow|awesome|amazing|lovely|exciting|"
                         r"brilliant|hee hee|ha ha|ooh|smile|great)\b", re.IGNORECASE)
# The one cheerful row allowed above the hard rows: it says the hard feeling is over
# ("i'm not sad anymore" must not be answered as sadness).
OVER_THE_HARD_FEELING = {"feeling_better"}


def _hard(row) -> bool:
    return row.child_affect == "negative"


def test_no_row_about_something_hard_carries_cheer() -> None:
    """Over the whole table: a row about a complaint, a hurt, a sad line, fear... sends
    no cheerful mood and says no cheerful words; its encore lines are the gentle ones."""
    hard = [r for r in TABLE.rows if _hard(r)]
    assert {"sad", "hurt", "scared", "complaint", "harmed_by_someone"} <= {
        r.intent for r in hard}
    for row in hard:
        assert row.emotion not in CHEER_MOODS, row.intent
        assert row.encore_group == "gentle", row.intent
        for line in row.answers:
            assert not CHEER_WORDS.search(line), (row.intent, line)
    for line in TABLE.encore["gentle"]:
        assert not CHEER_WORDS.search(line), line


def test_a_line_that_says_something_hard_is_never_answered_by_a_cheerful_row() -> None:
    """The highest priority answers (understand.py): every hard row must rank above every
    cheerful row, so a line matching both is answered gently."""
    cheerful = [r for r in TABLE.rows if r.emotion in CHEER_MOODS
                and r.intent not in OVER_THE_HARD_FEELING]
    lowest_hard = min(r.priority for r in TABLE.rows if _hard(r))
    above = [r.intent for r in cheerful if r.priority >= lowest_hard]
    assert not above, f"cheerful rows ranking with the hard ones: {above}"


def test_the_hard_cue_row_is_about_something_hard() -> None:
    assert TABLE.hard_cues is not None and _hard(TABLE.hard_cues.row)


@pytest.mark.parametrize("line", [
    "my brother took my toy", "my ice cream fell on the floor", "mommy yelled at me",
    "i'm sad", "my tower fell down", "they laughed at me", "no one likes me at school",
])
def test_the_issues_hard_lines_are_met_gently(line: str) -> None:
    """Issue 30: "my brother took my toy" -> "That sounds lovely. Families are like a
    team!"; "i'm sad" -> "Sad feelings pass, like clouds. What's something that makes
    you smile?" (a brush-off)."""
    for seed in range(6):
        a = Layer0(TABLE).answer(line, random.Random(seed), f"s{seed}")
        assert a.emotion not in CHEER_MOODS and a.child_affect == "negative", (line, a)
        assert not CHEER_WORDS.search(a.text) and "team" not in a.text, (line, a.text)


@pytest.mark.parametrize(("line", "about"), [
    ("what do you eat", ("eat", "food", "battery", "charg")),
    ("do you sleep", ("sleep", "rest", "bed")),
    ("where do you live", ("live", "home", "here")),
    ("are you alive", ("alive",)),
])
def test_every_variant_answers_the_question_asked(line: str, about: tuple[str, ...]) -> None:
    """Issue 30: "what do you eat" was answered "Robots don't have beds" by a variant of
    the same row. Ask in enough sessions to hear every variant."""
    heard = {Layer0(TABLE).answer(line, random.Random(seed), f"s{seed}").text
             for seed in range(40)}
    assert len(heard) >= 2
    for text in heard:
        assert any(w in text.lower() for w in about), (line, text)


def test_a_row_with_an_off_topic_variant_is_refused_at_load() -> None:
    """answers_mention (answers.yaml's header): a bad edit fails here, not in front of a
    child."""
    text = """intents:
- intent: buddy_food
  kind: social
  priority: 60
  phrases: [what do you eat]
  emotion: silly
  intensity: 0.6
  mood_reason: the child wonders what a robot eats
  answers_mention: [eat, battery]
  answers: ["I don't eat, I charge my battery.", "Robots don't have beds."]
- intent: generic
  kind: fallback
  priority: 0
  emotion: neutral
  intensity: 0.3
  mood_reason: listening carefully to the child
  answers: ["Mm-hm."]
no_echo: []
encore:
  gentle: ["I'm here."]
  cheerful: ["Wow."]
"""
    with pytest.raises(TableError, match="beds"):
        load_table(text)


# Held-out sets (test/data/layer0/heldout_*.yaml): each written before the fix it
# measures; their before/after figures are in docs/EVALUATION.md.
@pytest.mark.parametrize("name", ["heldout_1", "heldout_2", "heldout_3", "heldout_4"])
def test_held_out_sets_meet_the_targets(name: str) -> None:
    lines = load_labelled(DATA / f"{name}.yaml")
    assert len(lines) >= 100
    figures = measure_heldout(lines, Layer0(TABLE))
    assert figures.wrong_tone == 0, figures.wrong_tone_lines
    assert figures.wrong_intent_share < 0.05, figures.wrong_intent_lines
    labels = {i for line in lines for i in line.intents}
    known = {r.intent for r in TABLE.rows}
    assert labels <= known, labels - known
