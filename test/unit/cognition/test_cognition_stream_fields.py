"""Incremental extraction of the streamed `emotion` field (DESIGN §4.5 INLINE intent)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from buddy_personality.cognition.stream_fields import JsonFieldStream

ANSWER = {
    "inner_thought": 'She said "wow" — {curly} [brackets], \\ and a comma, too.',
    "emotion": "curious",
    "intensity": 0.6,
    "nested": {"emotion": "angry", "list": ["x", {"y": "z"}]},
    "text": "Ooh, tell me more!",
    "gestures": ["nod"],
}


def test_emotion_is_reported_the_moment_its_closing_quote_arrives() -> None:
    doc = json.dumps(ANSWER)
    seen: list[tuple[int, str, str]] = []
    s = JsonFieldStream()
    for i, ch in enumerate(doc):
        s._callback = lambda k, v, i=i: seen.append((i, k, v))
        s.feed(ch)
    emotion_event = next(e for e in seen if e[1] == "emotion")
    # The closing quote of "curious" is the character that completes the field.
    close_quote = doc.index('"curious"') + len('"curious"') - 1
    assert emotion_event == (close_quote, "emotion", "curious")


def test_nested_keys_do_not_shadow_top_level_fields() -> None:
    s = JsonFieldStream()
    s.feed(json.dumps({"nested": {"emotion": "angry"}, "emotion": "happy"}))
    assert s.fields["emotion"] == "happy"


def test_non_string_values_and_escapes() -> None:
    s = JsonFieldStream()
    s.feed('{"a": 1.5, "b": true, "c": null, "d": "line\\nbreak \\u00e9", "e": "x"}')
    assert s.fields == {"d": "line\nbreak é", "e": "x"}


def test_each_field_reported_once() -> None:
    calls: list[str] = []
    s = JsonFieldStream(lambda k, v: calls.append(k))
    s.feed('{"emotion": "happy", "emotion": "sad"}')
    assert calls == ["emotion"] and s.fields["emotion"] == "happy"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=30))
def test_any_chunking_gives_the_same_fields(cuts: list[int]) -> None:
    doc = json.dumps(ANSWER)
    s = JsonFieldStream()
    pos = 0
    for c in cuts:
        s.feed(doc[pos : pos + c])
        pos += c
    s.feed(doc[pos:])
    assert s.fields == {k: v for k, v in ANSWER.items() if isinstance(v, str)}


def test_truncated_stream_keeps_only_complete_fields() -> None:
    s = JsonFieldStream()
    s.feed('{"inner_thought": "hm", "emotion": "hap')
    assert s.fields == {"inner_thought": "hm"}
