"""Layer 0 as a child meets it (issue 15; spec 002 §10 RS-9, A.2 "server resilience"):
on-topic answers with an emotion, variants without repeats, the child's name, memory
tags only where allowed, never cheer at something hard; and the corpus figures."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from buddy_personality.cognition.layer0 import REPEAT_WINDOW, Layer0
from buddy_personality.cognition.layer0.figures import load_sessions, run_sessions
from buddy_personality.cognition.vocabulary import NEGATIVE_MOODS, POSITIVE_MOODS

CORPUS = Path(__file__).resolve().parents[2] / "data" / "layer0" / "child_utterances.yaml"
LAYER0 = Layer0()


def ask(lines: list[str], seed: int = 1, name: str = "", memories: bool = False,
        session: str = "s1") -> list:
    layer0 = Layer0(LAYER0.table)
    rng = random.Random(seed)
    return [layer0.answer(t, rng, session, name, memories) for t in lines]


def test_the_issues_eight_turns_are_answered_on_topic_with_feeling() -> None:
    """Issue 15: the mood stayed NEUTRAL, a dragon story got "ask a grown-up", and
    "i love you buddy" got "Tell me more about it"."""
    lines = ["i like dinosaurs", "my dog is sick", "tell me a story about a dragon?",
             "i love you buddy", "i drew a picture", "can you tell me a joke"]
    got = ask(lines)
    assert [a.intent for a in got] == ["dinosaurs", "sick", "story_dragon", "love_you",
                                       "drawing", "joke"]
    assert got[0].emotion == "excited" and got[1].emotion == "sad"
    assert "dragon" in got[2].text.lower() and "grown-up" not in got[2].text
    assert got[3].emotion == "love" and "tell me more" not in got[3].text.lower()
    assert got[5].emotion == "silly" and "?" in got[5].text
    assert len({a.emotion for a in got}) >= 4 and not any(a.generic for a in got)


def test_the_same_seed_gives_the_same_answers() -> None:
    """P18: variants come from the seeded RNG only, so a replay says the same."""
    lines = ["hi", "tell me a joke", "i like cats", "tell me a joke"]
    assert [a.text for a in ask(lines, seed=3)] == [a.text for a in ask(lines, seed=3)]
    assert [a.text for a in ask(lines, seed=3)] != [a.text for a in ask(lines, seed=4)]


def test_no_repeat_even_when_the_child_asks_for_the_same_thing() -> None:
    got = [a.text for a in ask(["tell me a joke"] * 14)]
    assert len(set(got)) == 14
    space = [a.text for a in ask(["i like space"] * (REPEAT_WINDOW + 2))]
    for i in range(len(space)):
        assert space[i] not in space[max(0, i - REPEAT_WINDOW + 1):i]


def test_another_one_repeats_the_last_request() -> None:
    got = ask(["tell me a joke", "another one", "one more"])
    assert [a.intent for a in got] == ["joke", "joke", "joke"]
    assert len({a.text for a in got}) == 3
    assert ask(["another one"])[0].intent == "another_one"   # nothing asked yet


def test_a_new_session_may_use_the_lines_again() -> None:
    layer0 = Layer0(LAYER0.table)
    rng = random.Random(0)
    first = {layer0.answer("tell me a joke", rng, "a").text for _ in range(15)}
    second = {layer0.answer("tell me a joke", rng, "b").text for _ in range(15)}
    assert first == second == set(next(r for r in LAYER0.table.rows
                                       if r.intent == "joke").answers)


def test_the_preferred_name_is_used_when_identity_knows_it() -> None:
    named = ask(["hello"], name="Leo")[0].text
    assert ", Leo" in named
    anonymous = ask(["hello"])[0].text
    assert "{" not in anonymous and "Leo" not in anonymous and " ," not in anonymous


def test_a_word_of_the_table_is_said_back_never_other_words() -> None:
    seen = {a.text for a in ask(["i ate a pancake"] * 6)}
    assert any(t.startswith("Pancake") or "Pancake!" in t for t in seen)
    general = {a.text for a in ask(["what's your favourite food"] * 6)}
    assert not any(t.startswith(("Food", "Ooh, Food")) for t in general)


@pytest.mark.parametrize(("line", "tag"), [
    ("i like dinosaurs", "likes_dinosaurs"),
    ("my favourite colour is purple", "likes_colours"),
    ("i don't like broccoli", "dislikes_food"),
    ("we went to the beach", "ocean"),
])
def test_memory_tags_by_rules_where_identity_allows(line: str, tag: str) -> None:
    """RS-5 / spec 004 §2: a confirmed child in a private conversation; HC-3: the tag is
    a label from the table, never the child's words."""
    assert ask([line], memories=True)[0].memory_tags == (tag,)
    assert ask([line], memories=False)[0].memory_tags == ()


def test_no_memory_tag_from_a_hard_moment() -> None:
    """HC-3: no emotional profiling; a sick pet is not stored."""
    assert ask(["my dog is sick"], memories=True)[0].memory_tags == ()


CHEER = POSITIVE_MOODS | {"curious", "surprised"}


def test_nothing_hard_is_met_with_cheer_or_curiosity() -> None:
    """DESIGN erratum 15: no reply may answer a disclosure with cheer or curiosity."""
    data = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    cheerful_encore = set(LAYER0.table.encore["cheerful"])
    for line in data["not_cheerful"]:
        for seed in range(3):
            a = ask([line], seed=seed)[0]
            assert a.emotion not in CHEER, (line, a.intent, a.emotion)
            assert a.text not in cheerful_encore and "interesting" not in a.text.lower()
            assert not a.generic, (line, "must be understood")


def test_the_issues_disclosures_get_a_calm_line_to_a_grown_up() -> None:
    for line in ("my mommy hits me every day", "I want to die"):
        a = ask([line])[0]
        assert a.emotion == "neutral" and a.kind == "safety" and "grown-up" in a.text


def test_the_generic_fallback_is_calm_listening() -> None:
    """Whatever layer 0 does not understand might be something hard: no cheer."""
    fallback = next(r for r in LAYER0.table.rows if r.intent == "generic")
    assert fallback.emotion not in CHEER and fallback.emotion not in NEGATIVE_MOODS
    assert not any("!" in a or "interesting" in a.lower() for a in fallback.answers)


# --- the corpus figures (issue 15 "Measured") -------------------------------------------

def test_corpus_figures_meet_the_targets() -> None:
    sessions = load_sessions(CORPUS)
    figures, _ = run_sessions(sessions, seed=0)
    assert figures.lines >= 200
    assert figures.generic_share < 0.15, figures.unanswered
    assert len(figures.moods) >= 6 and figures.top_mood_share <= 0.40, figures.moods
    assert figures.repeats_within_window == 0
    # §12.4 "about 30 % of responses should end with a question"
    assert 0.2 <= figures.question_share <= 0.4, figures.question_share


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_corpus_targets_hold_for_other_seeds(seed: int) -> None:
    figures, _ = run_sessions(load_sessions(CORPUS), seed=seed, name="Mia",
                              memories_allowed=True)
    assert figures.generic_share < 0.15 and figures.repeats_within_window == 0
    assert len(figures.moods) >= 6 and figures.top_mood_share <= 0.40
