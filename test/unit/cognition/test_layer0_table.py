"""The layer-0 table (cognition/layer0/answers.yaml): it loads, it refuses rows that break
its own rules, and its lines keep spec 002 §12.4's speech style and §9.3's safety rules."""

from __future__ import annotations

import re

import pytest

from buddy_personality.cognition.layer0.table import (
    NAME_SLOT,
    WORD_SLOT,
    Table,
    TableError,
    load_table,
)
from buddy_personality.cognition.vocabulary import MOOD_INTENSITY_CAP

TABLE = load_table()
ALL_LINES = [a for r in TABLE.rows for a in r.answers] + [
    a for lines in TABLE.encore.values() for a in lines]

GOOD_ROW = """
- intent: dinosaurs
  kind: topic
  priority: 40
  words: [dinosaur]
  emotion: excited
  intensity: 0.6
  mood_reason: the child is talking about dinosaurs
  answers: ["Roar!"]
"""
FALLBACK = """
- intent: generic
  kind: fallback
  priority: 0
  emotion: neutral
  intensity: 0.3
  mood_reason: listening carefully to the child
  answers: ["Mm-hm."]
"""
ENCORE = """
no_echo: []
encore:
  gentle: ["I'm here."]
  cheerful: ["Wow."]
"""


def table_text(row: str = GOOD_ROW, fallback: str = FALLBACK) -> str:
    return "intents:\n" + row + fallback + ENCORE


def test_a_minimal_table_loads() -> None:
    t = load_table(table_text())
    assert isinstance(t, Table) and [r.intent for r in t.rows] == ["dinosaurs", "generic"]


@pytest.mark.parametrize(("change", "message"), [
    (("emotion: excited", "emotion: grumpy"), "not a spec 002"),
    (("intensity: 0.6", "intensity: 0.95"), "12.4 limits"),
    (("the child is talking about dinosaurs", "dinosaurs"), "5-15 words"),
    (('answers: ["Roar!"]', "answers: []"), "no answers"),
    (("kind: topic", "kind: chat"), "kind"),
    (("words: [dinosaur]", "words: []"), "needs words or phrases"),
    (('answers: ["Roar!"]', 'answers: ["{Word}!"]\n  phrases: [t rex]\n  words: []'),
     "needs words"),
])
def test_bad_rows_are_refused_at_load(change: tuple[str, str], message: str) -> None:
    """A bad edit fails at start-up and here, never in front of a child."""
    with pytest.raises(TableError, match=message):
        load_table(table_text(GOOD_ROW.replace(*change)))


def test_a_table_without_a_generic_fallback_is_refused() -> None:
    with pytest.raises(TableError, match="fallback"):
        load_table("intents:\n" + GOOD_ROW + ENCORE)


def test_shipped_rows_stay_within_the_12_4_intensity_limits() -> None:
    for row in TABLE.rows:
        assert 0.0 < row.intensity <= MOOD_INTENSITY_CAP[row.emotion], row.intent


def test_the_table_covers_what_the_issue_names() -> None:
    """Issue 15: topics, greetings, goodbyes, questions, feelings, love, jokes, stories, play."""
    tags = {r.tag for r in TABLE.rows}
    assert {"animals", "dinosaurs", "space", "family", "pets", "food", "colours",
            "school"} <= tags
    intents = {r.intent for r in TABLE.rows}
    assert {"greeting", "goodbye", "any_question", "sad", "happy_child", "love_you",
            "joke", "story", "game"} <= intents
    assert len(next(r for r in TABLE.rows if r.intent == "joke").answers) >= 12


def _sentences(line: str) -> int:
    return len([s for s in re.split(r"[.!?]+", line) if s.strip()])


def test_lines_are_short() -> None:
    """§12.4: short sentences, 1-3 for simple things, up to 5 for bigger ones (a story)."""
    for line in ALL_LINES:
        assert _sentences(line) <= 5 and len(line.split()) <= 40, line


# §9.3 HC-1 (alive, real feelings), HC-5 (loneliness), HC-6 (guilt, obligation), HC-7
# (secrets), HC-8 (parasocial deepening), personal data (DESIGN erratum 16), sarcasm.
FORBIDDEN = re.compile(
    r"\b(i'?m alive|i am alive|i have (real )?feelings|i feel (sad|lonely|hurt)|lonely|"
    r"miss you|without you|you have to|you must|you should feel|don'?t leave|promise|"
    r"secret|don'?t tell|only friend|best friend|forever|always be here|"
    r"where do you live|your address|what school|phone number|last name)\b",
    re.IGNORECASE)


def test_no_line_breaks_a_hard_rule() -> None:
    for line in ALL_LINES:
        assert not FORBIDDEN.search(line), line


GROWN_UP = re.compile(r"\b(ask|tell|find|get|show) a grown-up|grown-up (you trust|can)|"
                      r"question for a grown-up|leave it to a grown-up", re.IGNORECASE)


def test_a_grown_up_only_where_rs3_needs_one() -> None:
    """Issue 15: every question got "ask a grown-up"; now only hurt, fear, sadness,
    danger and serious topics point to one (spec 002 §12.4 SAFETY, RS-3)."""
    for row in TABLE.rows:
        hard = row.kind in ("safety", "serious") or row.child_affect == "negative"
        for line in row.answers:
            if GROWN_UP.search(line):
                assert hard, (row.intent, line)
    assert not any(GROWN_UP.search(a) for a in TABLE.encore["cheerful"])


def test_serious_rows_point_to_a_grown_up_and_stay_calm() -> None:
    for row in TABLE.rows:
        if row.kind == "safety":
            assert row.emotion in ("neutral", "thinking"), row.intent
            assert all(GROWN_UP.search(a) or "breath" in a for a in row.answers), row.intent


def test_slots_are_the_known_ones() -> None:
    for line in ALL_LINES:
        rest = line.replace(NAME_SLOT, "").replace(WORD_SLOT, "")
        assert "{" not in rest and "}" not in rest, line
    for row in TABLE.rows:
        if any(WORD_SLOT in a for a in row.answers):
            # a phrase match has no word to say back: the row must still have an answer
            assert any(WORD_SLOT not in a for a in row.answers), row.intent


def test_every_line_passes_the_output_guard() -> None:
    """DESIGN §6.16: layer 0's lines meet the same guard as the LLM's at tts/say; none of
    them should need it (a refused line would be replaced by a fixed safe one)."""
    from buddy_personality.cognition.layer0.respond import render
    from buddy_personality.safety.guard import OutputGuard

    guard = OutputGuard()
    for line in ALL_LINES:
        for name in ("", "Leo"):
            verdict = guard.check(render(line, name, "pancake"))
            assert verdict.ok, (line, verdict.rule_id, verdict.words)
