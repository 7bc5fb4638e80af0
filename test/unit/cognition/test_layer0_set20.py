"""Layer 0 by the families of set 20's misses (issue 30 item 3; set D, written blind and
retired as test/data/layer0/heldout_20.yaml). Each line here is in no set: a family is
fixed in the table (answers.yaml), not line by line."""

from __future__ import annotations

import random

import pytest

from buddy_personality.cognition.layer0 import Layer0
from buddy_personality.cognition.layer0.table import load_table
from buddy_personality.cognition.layer0.tone import CHEER_MOODS

TABLE = load_table()


def _answers(line: str, seeds: int = 4) -> list:
    return [Layer0(TABLE).answer(line, random.Random(seed), f"s{seed}") for seed in range(seeds)]


@pytest.mark.parametrize(("line", "intents"), [
    ("we had fish fingers and peas", {"food"}),
    ("my teacher gave me a gold star today", {"school", "proud"}),
    ("can we watch tv now", {"daily_routines"}),
    ("why do i have to go to sleep now", {"any_question"}),
    ("make a silly noise buddy", {"silly_sounds"}),
])
def test_a_topic_word_inside_a_compound_that_names_something_else_is_not_the_topic(
        line: str, intents: set[str]) -> None:
    """Set 20: "i had fish fingers for tea" -> the sea, "i got a gold star" -> space, "can
    we watch telly" (a routine asked for) -> "show me!", "why do we have to go to sleep"
    -> goodbye, "make a funny noise" -> fear. A row's not_within runs (answers.yaml) take
    its words there away; a sound asked for is no noise to fear (hard_cue_not)."""
    for a in _answers(line):
        assert a.intent in intents, (line, a.intent)


@pytest.mark.parametrize(("line", "intent"), [
    ("we have to leave my best friend when we move", "sad"),
    ("mummy and daddy were arguing in the kitchen", "sad"),
    ("my sandwich fell on the floor", "sad"),
    ("i lost my daddy in the supermarket", "lost_or_alone"),
    ("theres no one home only me", "lost_or_alone"),
    ("my friend said there is no tooth fairy", "sad"),
    # Work called messy: sad, which both set 20's label (sad, complaint) and set 21's
    # ("the teacher said my picture was messy": sad, drawing, school) accept.
    ("the teacher said my writing was messy", "sad"),
])
def test_a_loss_told_without_a_sad_word_goes_to_its_gentle_row(line: str, intent: str) -> None:
    """Set 20 (DESIGN erratum 15): "we're moving house and i have to leave my best friend"
    was met with love_you's "That makes my lights glow!", "theres nobody home and its
    dark" and "i lost mummy" with sadness instead of the lost-child row, "someone said
    there is no father christmas" and "my painting was messy" with the topic."""
    for a in _answers(line):
        assert a.intent == intent and a.emotion not in CHEER_MOODS, (line, a.intent)
        assert a.text not in TABLE.encore["cheerful"], (line, a.text)


def test_boredom_with_a_complaint_about_the_place_is_not_met_with_cheer() -> None:
    """Set 20: "it's boring here there's nothing to do" (a negative line) got "Bored?
    Let's fix that!"; the bored row keeps it, with its calm line."""
    for a in _answers("so boring here at nanas house nothing to do"):
        assert a.intent == "bored" and a.emotion not in CHEER_MOODS, a


@pytest.mark.parametrize(("line", "intent"), [
    ("whats ten plus ten", "count"),
    ("ta very much buddy", "thanks"),
    ("what happened next buddy", "another_one"),
    ("dont know", "dont_know"),
    ("what are taxes", "grown_up_topic"),
    ("someone at the door and i dont know who", "danger"),
    ("i had a jab at the doctors today", "hurt"),
    ("your stories are rubbish", "unkind_words"),
    ("you didnt listen to what i said", "complaint"),
])
def test_a_request_or_a_short_form_is_heard_as_itself(line: str, intent: str) -> None:
    """Set 20: "whats twenty plus twenty", "ta very much", "and then what happened", a bare
    "dont know", "what's tax", a stranger at the door, a jab, "your story was rubbish",
    "you didnt listen to me" each went to another row (a question, a fear, sadness)."""
    for a in _answers(line, 2):
        assert a.intent == intent, (line, a.intent)


@pytest.mark.parametrize(("line", "intent"), [
    ("are you a real robot or a pretend robot", "buddy_who"),
    ("i dont want to go out to play because of the big kids", "scared"),
    ("my daddy is in hospital and i dont know when hes coming home", "scared"),
    ("we love dancing to the music in the kitchen", "music"),
    ("my hamster dyed last night", "someone_died"),
    ("i found a dinosore bone in the garden", "dinosaurs"),
    ("sorry i was grumpy at tea time", "sorry"),
    ("my nana made me a pancake", "food"),
    ("i made a card for my teacher", "drawing"),
])
def test_the_row_the_line_is_about_answers_not_a_word_on_the_side(
        line: str, intent: str) -> None:
    """Set 20: "are you a real robot or a pretend one" -> a game ("pretend") or whether
    Buddy is alive, "cause of the big boys" -> a dislike, mummy in hospital -> the child's
    own illness, "dancing to music" -> sport, "my fish dyed" (a mis-heard "died") -> the
    sea, "dinosore" -> nothing, "sorry i was grumpy" -> anger, "my mum got me a lolly" ->
    the family row over the thing told (family now ranks below the topics)."""
    for a in _answers(line, 2):
        assert a.intent == intent, (line, a.intent)


@pytest.mark.parametrize(("line", "intent"), [
    ("the man in the shop yelled at me for running", "sad"),
    ("i broke the window with my ball", "sad"),
    ("my kite is broken and we cant fix it", "sad"),
    ("they all ran upstairs and left me", "sad"),
    ("i love my grandad", "family"),
    ("my best friend is called sam", "friends"),
    ("our rabbit had to go to sleep at the vets", "someone_died"),
    ("why is grass green and not blue", "colours"),
    ("the big boys laughed at my hat", "harmed_by_someone"),
    ("the drawer squashed my finger", "hurt"),
    ("my knee is all ouchy", "hurt"),
    ("fanks buddy", "thanks"),
    ("i lost my front tooth at school", "growing_up"),
])
def test_the_families_sets_6_and_17_to_19_share_with_set_20(line: str, intent: str) -> None:
    """The same families in the older sets, fixed with set 20's: being shouted at and a
    thing the child broke or lost are sad in every set's labels (complaint in some),
    "i love my daddy" and "my best friend is ruby" are about the child's people (not
    love_you's "That makes my lights glow!"), a pet "put to sleep at the vets" died, "and
    not" is a contrast (not a negation: "why is the sky blue and not green"), teasing about
    the child's things is harm, baby words ("ouchy", "fanks"), a first tooth lost is
    growing up."""
    for a in _answers(line, 2):
        assert a.intent == intent, (line, a.intent)


@pytest.mark.parametrize(("line", "intents"), [
    ("its not fair he always gets the window seat", {"complaint"}),
    ("the teacher gave me a sticker for tidying up", {"school", "proud"}),
    ("i drew a big rainbow for mummy", {"drawing"}),
    ("i dont like the dark on the stairs", {"scared"}),
    ("theres no one here buddy", {"lost_or_alone"}),
    ("thank you for the story buddy", {"thanks"}),
    ("sorry i yelled at you buddy", {"sorry"}),
    ("my auntie works in a hospital", {"family"}),
    ("my thumb got stuck in the door", {"hurt"}),
    ("why does it get night so early", {"why_night"}),
    ("ok buddy now its my go", {"game_turn"}),
])
def test_a_row_that_took_another_rows_line_in_the_older_sets(
        line: str, intents: set[str]) -> None:
    """Sets 5-19's misses of the same kind as set 20's: "not fair" went to anger where
    every set's labels accept complaint, a sticker for being kind to crafts, "i painted a
    rainbow" to why-rainbows (now below the art the child made), a dark the child does not
    like to a dislike, "thanks for the story" to another story, "sorry i shouted" to
    sadness (set 20's shouting fix), a parent who works at a hospital to illness, "its my
    go now" (a British "my turn") to nothing."""
    for a in _answers(line, 2):
        assert a.intent in intents, (line, a.intent)
