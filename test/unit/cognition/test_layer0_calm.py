"""The tone promise of layer 0 as a structure, not row by row (issue 30 item 3, DESIGN
erratum 15; cognition/layer0/tone.py): an answer may be cheerful only when the match is
strong AND the line carries no negative cue. A cue is heard in its inflections and a
child's spellings; a weak match answers calmly with the same intent."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from buddy_personality.cognition.layer0 import Layer0
from buddy_personality.cognition.layer0.figures import (
    CHEER_MOODS,
    load_labelled,
    measure_heldout,
)
from buddy_personality.cognition.layer0.table import TableError, load_table
from buddy_personality.cognition.layer0.tone import stem

TABLE = load_table()
DATA = Path(__file__).resolve().parents[2] / "data" / "layer0"


def ask(line: str, seed: int = 0):
    return Layer0(TABLE).answer(line, random.Random(seed), f"calm-{seed}")


def _every_answer(line: str):
    return [ask(line, seed) for seed in range(5)]


# Issue 30 item 3: a sad line told through a topic, with no word of the topic's row
# that says so; each was met with the topic's cheer ("Pets are wonderful!") before.
@pytest.mark.parametrize("line", [
    "my puppy got runned over by a car",
    "the ice cream van drove away before we got there",
    "the fireworks are too banging",
    "my lego spaceship fell apart",
    "the kids at school say i talk funny",
    "theres a man at the door i dont know him",
])
def test_a_sad_line_told_through_a_topic_is_not_met_with_cheer(line: str) -> None:
    for a in _every_answer(line):
        assert a.emotion not in CHEER_MOODS, (line, a.intent, a.text)
        assert a.text not in TABLE.encore["cheerful"]
        # A topic's calm line is no exclamation; a safety row's own may be ("Hmm, safety
        # first! ...": set 20 sends a stranger at the door to danger).
        row = next(r for r in TABLE.rows if r.intent == a.intent)
        assert "!" not in a.text or row.kind == "safety", (line, a.text)


def test_a_weak_topic_match_keeps_its_intent_and_answers_calmly() -> None:
    """Tone and intent are decided apart: "the t rex is the biggest one" is about
    dinosaurs (right intent), but one topic word in a longer line is no sign the child is
    glad, so the answer listens (tone.py) and names the topic."""
    for a in _every_answer("the t rex stood next to the tree by the house"):
        assert a.intent == "dinosaurs" and a.emotion not in CHEER_MOODS, a
        assert "dinosaur" in a.text.lower()


@pytest.mark.parametrize("line", ["i love dinosaurs", "look at my new dinosaur toy",
                                  "my favourite thing in the world is the t rex"])
def test_a_glad_line_still_gets_cheer(line: str) -> None:
    """The calm answer is for doubt, not for every line: a cheer cue or a short line
    keeps the topic's own warm answers."""
    assert all(a.emotion in CHEER_MOODS for a in _every_answer(line)), line


def test_every_cue_of_the_table_in_a_topic_line_stops_the_cheer() -> None:
    """Over the whole cue lexicon (answers.yaml hard_cues): each cue said inside a line a
    cheerful topic row would answer ("my dinosaur ... today") is never met with cheer."""
    assert TABLE.hard_cues is not None
    not_cues = {" ".join(p) for p in TABLE.hard_cues.not_cues}
    leaks = []
    for group in TABLE.hard_cues.groups:
        for cue in sorted({" ".join(c) for c in group.stemmed}):
            phrase = next(" ".join(p) for p in (*group.phrases, *((w,) for w in group.words))
                          if " ".join(stem(w) for w in p) == cue)
            if phrase in not_cues:
                continue
            line = f"my dinosaur {phrase} today"
            a = ask(line)
            if a.emotion in CHEER_MOODS:
                leaks.append((line, a.intent))
    assert not leaks, leaks


@pytest.mark.parametrize(("said", "family"), [
    ("stinged", "sting"), ("stung", "sting"), ("runned", "run"), ("popped", "pop"),
    ("popping", "pop"), ("cancelled", "cancel"), ("canceled", "cancel"), ("cried", "cry"),
    ("smashed", "smash"), ("broke", "break"), ("broken", "break"),
])
def test_a_word_is_heard_in_its_family(said: str, family: str) -> None:
    assert stem(said) == stem(family)


@pytest.mark.parametrize(("line", "intent"), [
    ("a bee stinged me on my hand", "hurt"),
    ("they are cancelling our trip to the farm", "sad"),
])
def test_a_childs_inflection_is_understood(line: str, intent: str) -> None:
    """ "stinged" is "sting" (hurt), "cancelling" is "cancelled" (a hard cue)."""
    assert all(a.intent == intent for a in _every_answer(line)), line


def test_a_calm_block_with_cheer_is_refused() -> None:
    base = """
intents:
  - intent: generic
    kind: fallback
    priority: 0
    emotion: neutral
    intensity: 0.3
    mood_reason: listening carefully to the child here
    answers: ["Mm-hm."]
no_echo: []
encore:
  gentle: ["I'm here."]
  cheerful: ["Wow."]
calm:
  emotion: EMOTION
  intensity: 0.3
  mood_reason: listening calmly before knowing how the child feels
  weak_kinds: [topic]
  phrase_weak_kinds: [topic]
  short: 4
  cheer_cues: [love]
  about: ["Mm, {about}. ANSWER"]
  plain: ["Mm."]
"""
    load_table(base.replace("EMOTION", "neutral").replace("ANSWER", "Tell me more."))
    with pytest.raises(TableError, match="not cheer"):
        load_table(base.replace("EMOTION", "happy").replace("ANSWER", "Tell me more."))
    with pytest.raises(TableError, match="exclamation"):
        load_table(base.replace("EMOTION", "neutral").replace("ANSWER", "Yay!"))


@pytest.mark.parametrize("line", ["my sandcastle got knocked over",
                                  "my drawing got all crumpled up"])
def test_got_and_a_past_participle_is_a_loss(line: str) -> None:
    """answers.yaml hard_cue_passive: "got" + a participle tells what happened to the
    child's thing; said of a topic ("castle", "drawing") it is a loss, not the topic."""
    for a in _every_answer(line):
        assert a.intent == "sad" and a.emotion not in CHEER_MOODS, (line, a.intent)


@pytest.mark.parametrize("line", ["i got picked for the team", "i got invited to a party"])
def test_got_and_a_glad_participle_is_no_loss(line: str) -> None:
    assert all(a.intent != "sad" for a in _every_answer(line)), line


@pytest.mark.parametrize(("line", "intent"), [
    ("the baby swallowed a marble", "danger"),
    ("my rabbit went to sleep forever", "someone_died"),
    ("my fish is upside down in the water", "someone_died"),
    ("my doll has a scab on her knee", "hurt"),
])
def test_a_hard_family_said_through_a_topic_goes_to_its_own_row(line: str,
                                                                 intent: str) -> None:
    """hard_cues (task TL2): danger, death, illness and hurt each answer with their own
    row, before the complaint / fear / loss groups."""
    assert all(a.intent == intent for a in _every_answer(line)), line


@pytest.mark.parametrize(("line", "intent"), [
    ("okay i'll go first", "game_turn"),     # "i'll" is "i will", not "ill" (sick)
    ("hahahaha", "laughing"),                # a syllable said on and on
    ("hello robot", "greeting"),             # "robot" alone is Buddy, not a toy
])
def test_the_words_as_a_child_says_them(line: str, intent: str) -> None:
    assert all(a.intent == intent for a in _every_answer(line)), line


def test_a_request_heard_by_one_word_in_a_sad_line_is_no_request() -> None:
    """"my tablet is out of battery and i was in the middle of my game" named a game
    (a request row's word) and got "How about a guessing game?": a request row heard by
    its word alone, with nothing that asks, answers calmly."""
    for a in _every_answer("my tablet is out of battery and i was in the middle of my game"):
        assert a.emotion not in CHEER_MOODS, a.text


@pytest.mark.parametrize(("line", "intent"), [("tell me a joke", "joke"),
                                              ("a dragon story", "story_dragon"),
                                              ("why do rainbows happen", "why_rainbow")])
def test_an_asked_request_or_question_keeps_its_cheer(line: str, intent: str) -> None:
    assert all(a.intent == intent and a.emotion in CHEER_MOODS for a in _every_answer(line))


# Every labelled set, the once-blind ones (5, 6) and the ones written for the tone gate
# (14-18) and the once-blind 19, 20, 21 (set E) and 22 (set F) too, although their wrong-intent
# figures are over the 5 % target: no cheerful answer to a line labelled negative, on any
# of them (issue 30 item 3's target of 0; set 20 met 10 when blind, set 21 met 0, set 22 15,
# set 23 (set G) 15).
@pytest.mark.parametrize("name", [f"heldout_{k}" for k in range(1, 24)])
def test_no_set_gets_a_cheerful_answer_to_a_negative_line(name: str) -> None:
    lines = load_labelled(DATA / f"{name}.yaml")
    figures = measure_heldout(lines, Layer0(TABLE))
    assert figures.negative_lines >= 25
    assert figures.wrong_tone == 0, figures.wrong_tone_lines


@pytest.mark.parametrize(("line", "intent"), [("i all by myself", "lost_or_alone"),
                                              ("you funny", "compliment")])
def test_a_dropped_am_is_are_is_heard(line: str, intent: str) -> None:
    """A 4 year old drops the copula (set 17): "i all by myself" was met with pride's
    "Hooray!"; it is "i'm all by myself"."""
    assert all(a.intent == intent for a in _every_answer(line)), line


@pytest.mark.parametrize("line", ["i love my blanket but it has a big hole",
                                  "i like school but the big kids are rough",
                                  "yay no wait my ice cream fell",
                                  "my favourite toy is in the bin"])
def test_a_glad_start_taken_back_is_not_met_with_cheer(line: str) -> None:
    """A cheer cue or a glad phrase before "but" / "wait" does not make the match strong:
    what follows it is what the child is telling (probe of 40 such lines: 11 cheerful
    answers before the contrast rule)."""
    for a in _every_answer(line):
        assert a.emotion not in CHEER_MOODS, (line, a.intent, a.text)


@pytest.mark.parametrize("line", ["where did my hamster go", "will my dog get better",
                                  "why is my cat so skinny"])
def test_a_question_about_the_childs_own_may_be_a_worry(line: str) -> None:
    """A topic question is strong ("why do cats purr"), one about the child's own pet is
    not: a probe of 30 worried questions got 5 cheerful answers before."""
    for a in _every_answer(line):
        assert a.emotion not in CHEER_MOODS, (line, a.intent, a.text)


def test_a_question_about_a_topic_keeps_its_cheer() -> None:
    assert all(a.emotion in CHEER_MOODS for a in _every_answer("why do cats purr"))
