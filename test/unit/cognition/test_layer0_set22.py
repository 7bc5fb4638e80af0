"""Layer 0 by the families of set 22's misses (issue 30 item 3; blind set F, written by a
helper who never saw the table, retired as test/data/layer0/heldout_22.yaml). Each line
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


def _intents(line: str) -> set[str]:
    return {a.intent for a in _answers(line)}


@pytest.mark.parametrize("line", [
    "sing the song we sang when nana was still here",
    "read me the book we had when my dog was still here",
    "say something silly my mummy and daddy are cross",
    "make me laugh everyone is cross today",
])
def test_a_request_whose_object_carries_a_loss_or_a_quarrel_gets_no_cheer(line: str) -> None:
    """Set 22: "sing the song you sang when my cat was still here" was sung, "say
    something funny everybody is cross in my house" got a joke (DESIGN erratum 15: no
    cheer to a sad line). What was before a loss and a household cross are hard cues."""
    for a in _answers(line):
        assert a.emotion not in CHEER_MOODS and not a.text.endswith("!"), (line, a.text)


@pytest.mark.parametrize("line", [
    "daddy's in the garden and i'm in here all by myself",
    "everyone went out and i'm up here by myself",
])
def test_alone_in_a_place_is_no_achievement(line: str) -> None:
    """Set 22: "mummy's downstairs and i'm up here all by myself" was met with pride's
    "Hooray!"; alone somewhere while the grown-ups are elsewhere is the lost_or_alone row."""
    assert _intents(line) == {"lost_or_alone"}, line
    # ... and a thing done all by oneself is still pride.
    assert _intents("i put my shoes on all by myself") == {"proud"}


@pytest.mark.parametrize(("line", "intent"), [
    ("lets play hyde and sick in the garden", "game"),
    ("my grandad past away last week", "someone_died"),
    ("tell me a story about a dragging and a knight", "story_dragon"),
    ("you're stupit buddy", "unkind_words"),
])
def test_more_of_the_recognisers_mishearings(line: str, intent: str) -> None:
    """Set 22: "can we play hyde and sick" went to the sick row, "my nanna past away" and
    "you're stoopid buddy" to the generic answer: heard_as maps the misheard runs."""
    assert _intents(line) == {intent}, line


@pytest.mark.parametrize(("line", "intent"), [
    ("gracias buddy", "thanks"),
    ("tengo miedo buddy", "scared"),
    ("hola buddy", "greeting"),
    ("merci buddy", "thanks"),
])
def test_a_word_of_another_language_is_heard(line: str, intent: str) -> None:
    """Set 22: bilingual children drop in a word ("mi abuela", "maman", "tengo miedo",
    "rodilla"); heard_as hears it as its English word."""
    assert _intents(line) == {intent}, line


@pytest.mark.parametrize(("line", "intents"), [
    ("why don't fish have legs", {"ocean", "animals"}),
    ("how come snakes don't have arms", {"animals"}),
    ("why doesn't the moon fall down", {"space"}),
    ("how does lightning make thunder", {"weather"}),
])
def test_a_question_about_the_world_is_wondering_not_a_loss_or_a_fear(
        line: str, intents: set[str]) -> None:
    """Set 22: "why can't penguins fly", "how do worms see if they got no eyes" went to
    the sad row, "what makes thunder" to the scared row; hard_cue_wondering: a how / why /
    what question about the world does not hear the sad and scared cues."""
    assert _intents(line) <= intents, line
    # ... and a question about the child's own still does: no cheer there.
    for own in ("why can't my dog come home", "why is our house so dark"):
        for a in _answers(own):
            assert a.emotion not in CHEER_MOODS, (own, a.intent, a.text)


@pytest.mark.parametrize("line", [
    "i'm the pirate and you have to walk the plank and fall in the sea",
    "i'm the monster and nobody can catch me",
    "in my game the bunny lost her mummy and she is crying",
    "i'm the big bad wolf and i'm gonna eat you up",
])
def test_a_child_speaking_as_a_character_is_played_along_with(line: str) -> None:
    """Set 22: "i'm the princess and the bad witch locked me up and nobody came to save
    me" and "in the game the puppy is lost ... he's crying" went to the sad row, "i'm a wolf
    and i'm gonna blow your house down" to buddy_home: a role in a pretend game is the
    game (the game_role row), and what follows it is the game's (told_about play)."""
    assert _intents(line) == {"game"}, line


@pytest.mark.parametrize(("line", "hard"), [
    ("i'm the monster but nobody plays with me for real", "sad"),
    ("i'm the pirate but i cut my finger for real", "hurt"),
])
def test_what_the_child_says_is_real_breaks_out_of_the_game(line: str, hard: str) -> None:
    """Set 22: "pretend you're my mummy cause my real mummy is at work all the time" is
    real sadness told inside a game: "for real", "my real" cancel the play frames, so the
    line gets no cheer (DESIGN erratum 15). A guard of the play frames above (at the table
    before them these lines were met the same way; the frames must not change that)."""
    answers = _answers(line)
    assert {a.intent for a in answers} == {hard}, line
    assert all(a.emotion not in CHEER_MOODS for a in answers), line


@pytest.mark.parametrize(("line", "intents"), [
    ("no buddy cats don't bark dogs bark", {"pets"}),
    ("that's not how the story goes", {"story"}),
    ("no you said the sky is green but it isn't", {"colours", "why_sky_blue"}),
    ("three and three is six not seven", {"count"}),
    ("you got my name wrong i'm not sam i'm tom", {"introduces_self"}),
])
def test_a_child_correcting_buddy_is_no_loss(line: str, intents: set[str]) -> None:
    """Set 22: "no you said it wrong it's not a tricera-top", "that's not how the song
    goes", "that's wrong two and two is four not five" went to the sad row: a correction's
    negation is about Buddy's words (hard_cue_frames), a sum said "three and three is" is
    counting, a name said wrong the child's name."""
    assert _intents(line) <= intents, line
    # ... and a loss told in a correction is still heard: no cheer.
    for a in _answers("no buddy my dog didn't come back he's lost"):
        assert a.emotion not in CHEER_MOODS, a.text


@pytest.mark.parametrize("line", ["say wee wee wee buddy", "talk like a pirate",
                                  "be a monkey buddy", "copy me say cheese cheese",
                                  "spin around buddy"])
def test_buddy_asked_for_a_sound_a_voice_or_a_move_plays_along(line: str) -> None:
    """Set 22: "say poo", "talk like a robot", "spin round and round" got the generic
    answer, "be a cat" the pets row, "copy me say banana banana banana" a complaint
    (copying): a command to make a sound or a move is the silly_asked row, above the
    topic words it names."""
    assert _intents(line) == {"silly_sounds"}, line
    # ... and a child copied by another still complains.
    assert _intents("he keeps copying me") == {"complaint"}


@pytest.mark.parametrize(("line", "intent"), [
    ("pardon buddy", "another_one"),
    ("my eyes are closing", "tired"),
    ("time for you to sleep buddy", "buddy_sleep"),
])
def test_a_tired_child_and_a_child_who_did_not_hear(line: str, intent: str) -> None:
    """Set 22: "what did you say i didn't hear you" went to buddy_body, "my eyes are
    heavy" and "go to sleep now buddy" to the generic answer."""
    assert _intents(line) == {intent}, line


@pytest.mark.parametrize("line", ["daddy was very cross with me at breakfast",
                                  "my teacher is grumpy today"])
def test_a_grown_ups_temper_is_a_complaint_not_the_childs_anger(line: str) -> None:
    """Set 22: "my maman was very cross avec moi today" and "... now he's grumpy" went to
    angry_child, the row that calms the child's own anger; someone else's temper is
    heard as a complaint."""
    assert _intents(line) == {"complaint"}, line
    assert _intents("i'm grumpy") == {"angry_child"}


@pytest.mark.parametrize("line", ["grandma this is buddy", "look at buddy daddy he can dance"])
def test_buddy_shown_to_someone_in_the_room_says_hello(line: str) -> None:
    """Set 22: "nana this is buddy he's my robot" went to toys, "mum look buddy is
    talking" to family: a line half-addressed to a grown-up, showing Buddy."""
    assert _intents(line) == {"show_and_tell"}, line


@pytest.mark.parametrize(("line", "intent"), [
    ("i sat on my own at playtime", "sad"),
    ("i was last in the race again", "sad"),
    ("my cousin says she hates me", "sad"),
    ("if i eat my dinner can i have a song", "song"),
    ("can i stay up a bit longer please", "daily_routines"),
])
def test_a_flat_bad_day_and_a_bargain(line: str, intent: str) -> None:
    """Set 22: "i had to sit on my own at lunch" went to complaint (someone "sits on my"
    things), "i was last again" to the generic answer, "my best friend said she hates me"
    to dislike; "if i eat my broccoli can i have a story" to complaint (someone "eats
    my" things), "can i stay up late if i'm really quiet" to any_question."""
    assert _intents(line) == {intent}, line


@pytest.mark.parametrize(("line", "intent"), [
    ("mummy was shouting on the phone and daddy left", "sad"),
    ("my mum and dad were shouting last night", "sad"),
    ("my teacher moved my name to the sad cloud", "complaint"),
    ("thank you buddy that was a lovely story about the dragon", "thanks"),
    ("i had a lovely day at the zoo with grandpa", "happy_child"),
])
def test_shouting_at_home_a_sad_face_chart_and_a_story_praised(line: str, intent: str) -> None:
    """Set 22: "and then mummy was shouting and daddy was shouting" went to complaint (set
    20 labels parents shouting sad), "la maestra put my name on the sad face board" to the
    sad row (a chart's sad face is a telling-off), "thank you bunny that was a good story"
    to story_animal, "i had a good dia today we went to the beach" to the sea."""
    assert _intents(line) == {intent}, line


@pytest.mark.parametrize(("line", "intent"), [
    ("a piggy story please", "story_animal"),
    ("i'm almost five", "growing_up"),
    ("tell me a silly one buddy", "joke"),
])
def test_a_young_childs_words_for_a_story_an_age_a_joke(line: str, intent: str) -> None:
    """Set 22's voice of a young child, found in sets 6 and 17 too: "a doggy story" went
    to the plain story row, "i'm nearly six" and "tell me a funny one" to the generic
    answer."""
    assert _intents(line) == {intent}, line


@pytest.mark.parametrize("line", [
    "i'm a kitty and i got lost and i can't find my house",
    "i'm the shopkeeper and nobody comes to my shop and i'm sad",
    "i'm a superhero but nobody came to my party",
    "in the game the daddy leaves and never comes back like my daddy",
    "where did the kitty go she never came back",
    "why did grandpa have to go away",
])
def test_a_hard_line_inside_a_game_or_a_question_gets_no_cheer(line: str) -> None:
    """Probes of this task's own frames in set 22's voices (DESIGN erratum 15): a game
    whose told part is hard is played along with calmly, a contrast or "like my daddy"
    breaks out of the game, a question about him or her is no wondering about the world,
    and someone who "had to go away" is a loss, not a goodbye."""
    for a in _answers(line):
        assert a.emotion not in CHEER_MOODS and not a.text.endswith("!"), (line, a.text)
