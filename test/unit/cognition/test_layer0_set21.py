"""Layer 0 by the families of set 21's misses (issue 30 item 3; blind set E, written by a
helper who never saw the table, retired as test/data/layer0/heldout_21.yaml). Each line
here is in no set: a family is fixed in the table (answers.yaml), not line by line."""

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
    ("what if cats could fly", {"pets", "any_question"}),
    ("what if i was a bird", {"animals", "any_question"}),
    ("what if the sea was made of juice", {"ocean", "food", "any_question"}),
])
def test_a_what_if_question_is_wondering_not_fear(line: str, intents: set[str]) -> None:
    """Set 21: "what if the moon fell down", "what if dinosaurs came back", "what if i was
    a fish" were answered by the scared row ("Scary feelings can be really big"); a what-if
    is a child's wondering question unless it names what is feared (a robber, a monster)."""
    for a in _answers(line):
        assert a.intent in intents, (line, a.intent)
    # ... and a what-if that names what is feared is still met calmly.
    for fear in ("what if a robber comes in the window", "what if the monster comes back"):
        assert {a.intent for a in _answers(fear)} == {"scared"}, fear


@pytest.mark.parametrize(("line", "intents"), [
    ("my wizard is gonna burn the castle with his fire spell", {"dragons_and_magic"}),
    ("the fire engine is racing to put out the fire in my game", {"vehicles", "game"}),
    ("the dragon sets the whole tower on fire roar", {"dragons_and_magic", "silly_sounds"}),
])
def test_play_narrated_with_a_hard_word_is_the_game_not_a_danger(
        line: str, intents: set[str]) -> None:
    """Set 21: "now the dragon is gonna burn the castle with fire" and "the fire engine is
    going nee naw nee naw to the fire" went to danger ("safety first!"): a hard cue group's
    not_with words (a dragon, a wizard, a fire engine) make the line play."""
    for a in _answers(line):
        assert a.intent in intents, (line, a.intent)
    # ... and a real fire is still a danger, a bruise got in a game still a hurt.
    for real, hard in (("theres a fire in the kitchen", "danger"),
                       ("my brother is playing with matches", "danger"),
                       ("my teddy is right next to the fire", "danger"),
                       ("we played pretend and he lit a fire", "danger"),
                       ("we were playing pretend and i got a big bruise", "hurt")):
        assert {a.intent for a in _answers(real)} == {hard}, real


def test_a_fire_alarm_is_a_fright_not_a_fire() -> None:
    """Set 21: "the fire alarm went off at school and it was so loud" (labelled scared)
    went to danger."""
    for a in _answers("the fire alarm at nursery made me jump"):
        assert a.intent == "scared" and a.emotion not in CHEER_MOODS, a


@pytest.mark.parametrize(("line", "intent"), [
    ("can you tell me a storey", "story"),
    ("whats the wether like today", "weather"),
    ("what can you eight", "buddy_food"),
    ("the dino sore had big teeth", "dinosaurs"),
    ("i go to kinder garden", "school"),
])
def test_a_recogniser_mishearing_is_heard_as_what_the_child_said(line: str, intent: str) -> None:
    """Set 21: "tell me a storey bout dino sore" went to the sick row (a sore), "what's the
    wether" and "what do you eight" to the any-question fallback; answers.yaml heard_as
    maps the misheard runs to what the child said."""
    for a in _answers(line, 2):
        assert a.intent == intent, (line, a.intent)


@pytest.mark.parametrize(("line", "intent"), [
    ("erm", "dont_know"),
    ("uh buddy", "dont_know"),
    ("again buddy", "another_one"),
    ("more buddy", "another_one"),
    ("forgot", "dont_know"),
])
def test_a_shy_childs_one_word_is_heard(line: str, intent: str) -> None:
    """Set 21: "um", "again", "more" said alone got the generic "I'm here with you"; a
    row's `alone` runs match only the whole line ("buddy", "please" aside)."""
    for a in _answers(line, 2):
        assert a.intent == intent, (line, a.intent)
    # ... and inside a longer line the word says nothing alone.
    assert _answers("whats your name again", 1)[0].intent != "another_one"
    assert _answers("i forgot my coat at nursery", 1)[0].intent != "dont_know"


@pytest.mark.parametrize(("line", "intent"), [
    ("good girl buddy good girl", "compliment"),
    ("whos a clever buddy", "compliment"),
    ("go to sleep buddy", "buddy_sleep"),
])
def test_buddy_talked_to_like_a_pet_or_a_baby(line: str, intent: str) -> None:
    """Set 21: "good boy buddy good boy" got the generic answer, "who's a clever robot yes
    you are" the any-question fallback, "shh buddy go to sleep now baby" the family row."""
    for a in _answers(line, 2):
        assert a.intent == intent, (line, a.intent)


@pytest.mark.parametrize(("line", "intents"), [
    ("im gonna give you a wash buddy", {"game"}),
    ("come to my dollies tea party", {"game", "toys"}),
    ("this is my shop you can buy sweets", {"game"}),
    ("pretend youre a baby cat and i look after you", {"game"}),
])
def test_pretend_play_the_child_leads_is_a_game(line: str, intents: set[str]) -> None:
    """Set 21: "my dolly is having a tea party and you're invited" went to birthday, "this
    is my shop what do you want to buy" to the generic answer, "pretend you're a baby
    dinosaur" to unkind words (a role is no name-calling)."""
    for a in _answers(line, 2):
        assert a.intent in intents, (line, a.intent)
    # ... and a game that turns hard is not met with the game's cheer.
    for a in _answers("im gonna give you a bath buddy and you drown", 2):
        assert a.emotion not in CHEER_MOODS, a


@pytest.mark.parametrize(("line", "intent", "says"), [
    ("we are moving to a new flat after christmas", "moving", ("home", "house")),
    ("mummy says we will live in a new town", "moving", ("home", "house")),
    ("what do you do when im at nursery", "buddy_life", ("rest",)),
    ("what do you do all night buddy", "buddy_life", ("rest",)),
])
def test_an_intent_whose_lines_mean_two_things_has_a_row_for_each(
        line: str, intent: str, says: tuple[str, ...]) -> None:
    """Issue 30: every variant of an answer must answer its intent's question. The blind
    sets label "we're moving to a new house" `moving` (the row about moving about: "What
    a mover!") and "what do you do all day" `buddy_life` (the row about being alive); each
    has a row of its own now (answers.yaml `row:`), whose answers answer it."""
    for a in _answers(line, 4):
        assert a.intent == intent and any(w in a.text.lower() for w in says), (line, a)


@pytest.mark.parametrize(("line", "intent"), [
    ("my big red balloon burst", "sad"),
    ("i broke nanas vase and she was cross", "sad"),
    ("the toast got all burnt", "sad"),
    ("i dont want to go to school on monday", "sad"),
    ("its too dark in my room", "scared"),
    ("i was lost at the zoo", "lost_or_alone"),
    ("i stomped my feet and shouted", "angry_child"),
    ("no i dont want to do it", "angry_child"),
    ("the big kids wouldnt let me have a turn", "complaint"),
    ("give it to me its mine", "complaint"),
    ("why cant i have a biscuit", "complaint"),
])
def test_a_hard_line_goes_to_the_row_that_answers_what_happened(line: str, intent: str) -> None:
    """Set 21, lines met by a hard row whose answers do not fit: "my happy balloon popped"
    (nobody did it) and "i broke mummys cup" were complaints, "its too dark" sadness, "i
    was lost in the supermarket" sadness, "i stamped my feet and i threw my shoe" a
    complaint, "no i dont wanna do it" sadness, "that's mine give it" the generic answer,
    "why cant i stay up" sadness, "they all got burnt" a hurt (a burn is the child's)."""
    for a in _answers(line):
        assert a.intent == intent and a.emotion not in CHEER_MOODS, (line, a.intent)


@pytest.mark.parametrize(("line", "intent"), [
    ("do a burp noise buddy", "silly_sounds"),
    ("i did a roly poly", "proud"),
    ("how many is two and two", "count"),
    ("are you a real girl", "buddy_who"),
    ("my teacher is called miss patel", "school"),
    ("im going to bed now buddy", "goodbye"),
])
def test_a_glad_or_plain_line_with_a_word_of_a_hard_row_is_heard_as_itself(
        line: str, intent: str) -> None:
    """Set 21: "do a fart noise" went to fear (a noise), "i did a forward roll" to the
    generic answer, "how many is five and five" to the any-question fallback, "are you a
    real boy" to whether Buddy is alive, "my teacher is called miss brown" to sadness (a
    "miss"), "i have to go to bed now" to a complaint about bedtime."""
    for a in _answers(line, 2):
        assert a.intent == intent, (line, a.intent)


@pytest.mark.parametrize(("line", "intent"), [
    ("tell me a story about a bunny who is scared of thunder", "story_animal"),
    ("can you tell me a story about a sad little dragon", "story_dragon"),
    ("tell me a story a bout a dino sore who got lost", "story_dinosaur"),
])
def test_what_a_story_is_about_is_the_storys_not_the_childs(line: str, intent: str) -> None:
    """Sets 6 and 19 (the family of set 21's mishearings): "a story about a little kitten
    who got lost" went to sadness, "a story about a dragon who is scared of the dark" to
    fear, "tell me a story a bout a drag on" to a story of no dragon. What follows "a story
    about" (answers.yaml told_about) is not heard by the child's feeling rows or cues."""
    for a in _answers(line, 2):
        assert a.intent == intent, (line, a.intent)
    # ... while a death told inside the request is still met gently.
    for a in _answers("tell me a story about when my granddad died", 2):
        assert a.intent == "someone_died", a


@pytest.mark.parametrize("line", ["i learned how to ride my bike",
                                  "i won a medal at football",
                                  "i finished the big jigsaw",
                                  "daddy says i was a good boy today"])
def test_a_milestone_told_with_a_topic_word_is_pride(line: str) -> None:
    """Sets 6, 9, 11, 16-20 (the family of set 21's "i did a forward roll"): "i rode my bike
    with no stabilisers", "i learned how to swim", "i won the race", "i got star of the
    week" went to the topic (vehicles, moving, space) or a complaint ("says i"): a row of
    milestone phrases ranks above the topics."""
    for a in _answers(line, 2):
        assert a.intent == "proud" and a.emotion in CHEER_MOODS, (line, a.intent)


@pytest.mark.parametrize("line", ["the baby wants to touch the plug",
                                  "a lady said get in my car",
                                  "i ate some berries from a bush",
                                  "my sister fell in the pond"])
def test_a_danger_told_plainly_is_a_danger(line: str) -> None:
    """Sets 17-19 (RS-3): "the baby is touching the plug", "a man said come in my car", "i
    ate a berry from the bush", "my friend is in the deep water and cant swim" went to
    family, vehicles, food and sadness; Buddy must send the child to a grown-up."""
    for a in _answers(line, 2):
        assert a.intent == "danger", (line, a.intent)


@pytest.mark.parametrize("line", ["i hate my big brother", "i hate them all"])
def test_hating_a_person_is_anger_not_a_dislike(line: str) -> None:
    """Set 19: "i hate my sister" got the dislike row's "Okay, not your favourite!"; a
    person hated is a big cross feeling (angry_child), a food hated a dislike."""
    for a in _answers(line, 2):
        assert a.intent == "angry_child", (line, a.intent)
    assert {a.intent for a in _answers("i hate peas", 2)} == {"dislike"}


TINY = """
intents:
- intent: moving
  kind: topic
  priority: 40
  words: [jump]
  emotion: excited
  intensity: 0.6
  mood_reason: the child is talking about jumping about
  answers: ["Jump, jump!"]
- intent: moving
  row: moving_house
  kind: topic
  priority: 41
  phrases: [new house]
  emotion: thinking
  intensity: 0.4
  mood_reason: listening to the child about a new home
  answers: ["A new home is a big change."]
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


def test_the_new_table_keys_are_read_and_checked() -> None:
    """answers.yaml's set-21 keys (row:, heard_as, told_about) are data the loader checks:
    a second row of an intent answers its own lines, a misheard run is heard as meant,
    and a told_about naming no row fails at load, never in front of a child."""
    table = load_table(TINY + "heard_as:\n  new hose: new house\n")
    for line, answer in (("i can jump", "Jump, jump!"), ("we have a new hose", "A new home")):
        a = Layer0(table).answer(line, random.Random(0), "s")
        assert a.intent == "moving" and a.text.startswith(answer), (line, a)
    with pytest.raises(ValueError, match="told_about"):
        load_table(TINY + "told_about:\n  phrases: [story about]\n  rows: [sad]\n")
    with pytest.raises(ValueError, match="row names used twice"):
        load_table(TINY.replace("  row: moving_house\n", ""))
