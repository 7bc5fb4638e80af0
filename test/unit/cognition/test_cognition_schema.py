"""Response schema V2 (spec 002 §12.3 + spec 003 §5 intention_updates) and its validation."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from buddy_personality.cognition.schema import (
    MAX_GESTURES,
    MAX_MEMORY_TAGS,
    MAX_MOOD_REASON_WORDS,
    MAX_TEXT_CHARS,
    MAX_TEXT_SENTENCES,
    parse_answer_text,
    response_json_schema,
    sanitise_tag,
    validate_response,
)
from buddy_personality.cognition.vocabulary import GESTURES, MOODS

GOOD: dict[str, Any] = {
    "inner_thought": "Science question.",
    "emotion": "curious",
    "intensity": 0.6,
    "mood_reason": "child asking a science question",
    "emotional_arc": "rising",
    "child_affect": "positive",
    "text": "Ooh, great question!",
    "gestures": ["nod"],
    "memory_tags": ["interested_in_science"],
    "intention_updates": [{"operation": "create", "type": "follow_up", "target": "sky",
                           "horizon": "short", "description": "ask about the sky"}],
}


def good(**changes: Any) -> dict[str, Any]:
    d = copy.deepcopy(GOOD)
    d.update(changes)
    return d


def test_json_schema_closes_emotion_and_gesture_sets() -> None:
    schema = response_json_schema()
    props = schema["properties"]
    assert props["emotion"]["enum"] == list(MOODS) and len(MOODS) == 13  # spec 002 §4.1
    assert set(props["gestures"]["items"]["enum"]) == set(GESTURES)
    assert next(iter(props)) == "inner_thought"  # spec 002 §12.3: reasoning first
    assert "intention_updates" in props


def test_a_good_answer_passes_whole() -> None:
    out = validate_response(good())
    assert out.response is not None and out.dropped == []
    r = out.response
    assert (r.text, r.emotion, r.intensity, r.gestures, r.memory_tags) == (
        "Ooh, great question!", "curious", 0.6, ("nod",), ("interested_in_science",))
    assert r.intention_updates[0].type == "follow_up"


@pytest.mark.parametrize("text", [None, "", "   ", 5, ["hi"]])
def test_no_usable_text_is_a_failure(text: Any) -> None:
    out = validate_response(good(text=text))
    assert out.response is None and out.failure == "no usable text"


@pytest.mark.parametrize("data", [None, [], "text", 3])
def test_non_object_is_a_failure(data: Any) -> None:
    assert validate_response(data).response is None


def test_invalid_parts_are_dropped_with_reasons_and_the_rest_kept() -> None:
    out = validate_response(good(
        emotion="furious", intensity=1.7, emotional_arc="sideways", child_affect="meh",
        gestures=["nod", "moonwalk", 3], mood_reason=7,
        intention_updates=[{"operation": "explode", "type": "be_gentle"}, "x"],
    ))
    r = out.response
    assert r is not None
    assert r.text == "Ooh, great question!"
    assert r.emotion is None and r.intensity == 0.5 and r.emotional_arc is None
    assert r.child_affect == "unclear" and r.gestures == ("nod",) and r.mood_reason == ""
    assert r.intention_updates == ()
    fields = sorted({d.split(":")[0] for d in out.dropped})
    assert fields == ["child_affect", "emotion", "emotional_arc", "gestures",
                      "intensity", "intention_updates", "mood_reason"]


def test_lengths_are_capped() -> None:
    long_text = " ".join(f"Sentence number {i} is here." for i in range(20))
    out = validate_response(good(
        text=long_text, mood_reason=" ".join(["word"] * 40),
        gestures=["nod", "wiggle", "heart", "blink"],
        memory_tags=["a_b", "c_d", "e_f", "g_h", "i_j"],
    ))
    r = out.response
    assert r is not None
    assert len(r.text) <= MAX_TEXT_CHARS
    assert r.text.count(".") <= MAX_TEXT_SENTENCES
    assert len(r.mood_reason.split()) == MAX_MOOD_REASON_WORDS
    assert len(r.gestures) == MAX_GESTURES and len(r.memory_tags) == MAX_MEMORY_TAGS


@pytest.mark.parametrize(
    ("raw", "tag"),
    [
        ("Likes Dinosaurs!", "likes_dinosaurs"),
        ("  has-2-cats ", "has_2_cats"),
        ("interested_in_SCIENCE", "interested_in_science"),
    ],
)
def test_tags_become_short_snake_case(raw: str, tag: str) -> None:
    assert sanitise_tag(raw) == (tag, "")


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("x", "too short"),
        ("!!!", "too short"),
        ("123", "only digits"),
        ("feels_sad_about_school", "HC-3"),
        ("gets_angry_easily", "HC-3"),
        ("name_emma", "household profiles"),
        (42, "not a string"),
    ],
)
def test_tags_that_are_dropped(raw: Any, why: str) -> None:
    tag, reason = sanitise_tag(raw)
    assert tag is None and why in reason


def test_long_tags_are_cut_at_a_word_boundary() -> None:
    tag, _ = sanitise_tag("likes_" + "_".join(["dinosaurs"] * 10))
    assert tag is not None and len(tag) <= 48 and not tag.endswith("_")
    assert tag.split("_")[-1] == "dinosaurs"


def test_parse_answer_tolerates_fences_and_preamble() -> None:
    assert parse_answer_text('{"text": "hi"}')[0] == {"text": "hi"}
    assert parse_answer_text('Sure!\n```json\n{"text": "hi"}\n```')[0] == {"text": "hi"}
    assert parse_answer_text('<think>hmm</think> {"text": "hi"} ')[0] == {"text": "hi"}
    data, reason = parse_answer_text('{"text": "Hel')
    assert data is None and reason == "malformed JSON"
