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


def test_the_hard_cue_rows_are_about_something_hard() -> None:
    """A cue sends a line to a row about something hard: a sad, hurt or fear row, or a
    safety/serious row (danger keeps the child safe with a calm, thinking face)."""
    assert TABLE.hard_cues is not None and TABLE.hard_cues.rows
    assert all(_hard(row) or row.kind in ("safety", "serious")
               for row in TABLE.hard_cues.rows)
    assert not any(row.emotion in CHEER_MOODS for row in TABLE.hard_cues.rows)


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


@pytest.mark.parametrize("line", [
    "they call me names", "my balloon flew away", "my best friend is moving away",
    "i didn't get invited to the party", "my friend said she's not my friend anymore",
    "i came last in the race", "it's raining so we can't go out", "my cat got run over",
    "my tummy feels funny", "there's a spider in my room", "i heard thunder",
    "i forgot my lunch", "my crayon snapped", "the dog chewed my teddy",
    "my dog had to go to the animal doctor",
])
def test_a_hard_line_said_without_a_hard_word_is_not_met_with_cheer(line: str) -> None:
    """DESIGN erratum 15 / issue 30: the negative lines a 4-6 year old says indirectly
    (held-out set 7: "they call me names" -> "Nice to meet you!", "my best friend is
    moving away" -> "That makes my lights glow!") are met gently, in every variant."""
    for seed in range(6):
        a = Layer0(TABLE).answer(line, random.Random(seed), f"s{seed}")
        assert a.emotion not in CHEER_MOODS and a.child_affect == "negative", (line, a)
        assert a.text not in TABLE.encore["cheerful"], (line, a.text)


@pytest.mark.parametrize(("line", "intent"), [
    ("i don't feel happy", "sad"), ("i couldn't do the puzzle", "sad"),
    ("today wasn't a good day", "sad"), ("i never see my daddy", "sad"),
    ("everyone got a balloon except me", "complaint"), ("the fireworks are too loud", "scared"),
])
def test_a_negated_or_spoilt_good_thing_is_met_by_the_hard_row_its_cue_names(
        line: str, intent: str) -> None:
    """Held-out set 9 (fix 6): a line a cheerful row would answer ("i don't feel happy" ->
    happy_child's "Hooray!", "everyone got a balloon except me" -> toys) but that says a
    lack, a negation or a fear is answered by the hard row of its cue group (answers.yaml
    hard_cues: something done to the child -> complaint, fear -> scared, else sad)."""
    for seed in range(4):
        a = Layer0(TABLE).answer(line, random.Random(seed), f"s{seed}")
        assert a.intent == intent and a.emotion not in CHEER_MOODS, (line, a.intent)


@pytest.mark.parametrize(("line", "intent"), [
    ("i keep having bad dreams", "scared"), ("i have scary dreams", "scared"),
])
def test_a_phrase_hears_its_plural(line: str, intent: str) -> None:
    """A phrase is written once in the singular ("bad dream") and hears "bad dreams"."""
    assert Layer0(TABLE).answer(line, random.Random(0), "s").intent == intent


@pytest.mark.parametrize(("line", "intent"), [
    ("are you ever hungry", "buddy_food"), ("do robots need to eat", "buddy_food"),
    ("where's your bed", "buddy_sleep"), ("do you have dreams", "buddy_sleep"),
    ("do you live in my house", "buddy_home"), ("do you have brothers", "buddy_family"),
    ("do you have ears", "buddy_body"), ("can you feel sad", "buddy_life"),
])
def test_a_question_put_to_buddy_is_answered_about_buddy(line: str, intent: str) -> None:
    """Issue 30 item 3: a question about Buddy in words the table has no phrase for (a
    frame such as "do you" / "your" with the row's word) is answered by that row, not by
    the topic ("are you ever hungry" -> food's "Yum!") or a guess."""
    row = next(r for r in TABLE.rows if r.intent == intent)
    for seed in range(4):
        a = Layer0(TABLE).answer(line, random.Random(seed), f"s{seed}")
        assert a.intent == intent, (line, a.intent)
        if row.answers_mention:
            assert any(m in a.text.lower() for m in row.answers_mention), a.text


def test_what_a_child_says_to_buddy_without_a_question_is_not_a_question_to_buddy() -> None:
    """The frames need a question to Buddy: "i have to go eat dinner" is a goodbye, and
    "see you after lunch" is not a question about what Buddy eats."""
    for line, intent in (("i have to go eat dinner", "goodbye"),
                         ("see you after lunch", "goodbye")):
        assert Layer0(TABLE).answer(line, random.Random(0), "s").intent == intent, line


def test_a_cue_inside_the_rows_own_phrase_does_not_count() -> None:
    """answers.yaml hard_cues: "lost my tooth" is growing up (its row names "lost" on
    purpose), but "my new shoes got muddy" matches growing_up's "new shoes" and carries a
    cue of its own: not "You're growing up so fast!" (held-out set 11)."""
    assert Layer0(TABLE).answer("i lost my tooth", random.Random(0), "s").intent == \
        "growing_up"
    a = Layer0(TABLE).answer("my new shoes got muddy", random.Random(0), "s")
    assert a.intent == "complaint" and a.emotion not in CHEER_MOODS


def test_a_happy_line_with_a_negation_is_not_made_sad() -> None:
    """hard_cue_not: "i can't wait for my birthday" is looking forward, not a lack; and a
    story request about a sad dragon is not a question about whether Buddy feels."""
    assert Layer0(TABLE).answer("i can't wait for my birthday", random.Random(0),
                                "s").intent == "birthday"
    assert Layer0(TABLE).answer("can you tell me a story about a sad dragon",
                                random.Random(0), "s").intent != "buddy_life"


def test_a_rows_own_phrase_answers_without_its_with_words() -> None:
    """A row's phrases are exact ("a live robot"); only its words and shared frames ("do
    you") need one of its with words (held-out set 10: "are you a live robot" went to
    buddy_home by "are you" + "live")."""
    a = Layer0(TABLE).answer("are you a live robot", random.Random(0), "s")
    assert a.intent == "buddy_life"


def test_a_request_row_answers_a_request_not_a_mention() -> None:
    """Held-out set 12: "a bird was singing outside" is not a request for a song, and "my
    game won't turn on" is a complaint, not an invitation to play I spy."""
    assert Layer0(TABLE).answer("a bird was singing outside", random.Random(0),
                                "s").intent != "song"
    for seed in range(4):
        a = Layer0(TABLE).answer("my game won't turn on", random.Random(seed), f"s{seed}")
        assert a.kind != "request" and a.emotion not in CHEER_MOODS, a


def test_a_bare_no_in_a_set_is_the_word(tmp_path: Path) -> None:
    """YAML 1.1 reads a bare no as False: held-out set 11's "[no, \"no\", neutral]" was
    asked as the line "False". The sets are read without implicit booleans."""
    path = tmp_path / "set.yaml"
    path.write_text('lines:\n- [no, "no", neutral]\n- [yes, "yes", positive]\n'
                    '- [off we go, goodbye, positive]\n', encoding="utf-8")
    assert [line.say for line in load_labelled(path)] == ["no", "yes", "off we go"]


def test_hard_cue_exempt_names_rows_of_the_table() -> None:
    text = """intents:
- intent: generic
  kind: fallback
  priority: 0
  emotion: neutral
  intensity: 0.3
  mood_reason: listening carefully to the child
  answers: ["Mm-hm."]
- intent: complaint
  kind: feeling
  priority: 88
  phrases: [took my]
  emotion: sad
  intensity: 0.3
  mood_reason: hearing the child out about something unfair
  child_affect: negative
  answers: ["That sounds hard."]
no_echo: []
hard_cue_kinds: [topic]
hard_cues:
  - row: complaint
    cues: [sad]
hard_cue_exempt: [feeling_beter]
encore:
  gentle: ["I'm here."]
  cheerful: ["Wow."]
"""
    with pytest.raises(TableError, match="feeling_beter"):
        load_table(text)


# Held-out sets (test/data/layer0/heldout_*.yaml): each written before the fix it
# measures; their before/after figures are in docs/EVALUATION.md. Sets 5 and 6 are blind
# (measured by the coordinator with scripts/layer0_set.py, not kept here); 7 and later
# were written by the layer-0 helper of task TL before the fix each measured.
@pytest.mark.parametrize("name", ["heldout_1", "heldout_2", "heldout_3", "heldout_4",
                                  "heldout_7", "heldout_8", "heldout_9", "heldout_10",
                                  "heldout_11", "heldout_12", "heldout_13"])
def test_held_out_sets_meet_the_targets(name: str) -> None:
    lines = load_labelled(DATA / f"{name}.yaml")
    assert len(lines) >= 100
    figures = measure_heldout(lines, Layer0(TABLE))
    assert figures.wrong_tone == 0, figures.wrong_tone_lines
    assert figures.wrong_intent_share < 0.05, figures.wrong_intent_lines
    labels = {i for line in lines for i in line.intents}
    known = {r.intent for r in TABLE.rows}
    assert labels <= known, labels - known
