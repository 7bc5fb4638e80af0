"""The parent page speaks plainly (issue 30 item 5; DESIGN §4.6): the views the page is
given carry no rule codes and no "very thinking"; an alert names the child who talked in
that conversation; where Buddy's answers come from is the LLM bridge's health, not the
last snapshot's layer; and the safety alerts can be cleared, keeping any newer one."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from buddy_personality.dashboard.graph_view import GraphView
from buddy_personality.dashboard.plain_words import (
    MOOD_WORDS,
    RULE_WORDS,
    mood_in_words,
    rule_words,
)
from buddy_personality.dashboard.sessions import END_REASON_WORDS, SessionLog

RULE_CODE = re.compile(r"\b(HC|RS)-\d")
T0 = 1795456800.0


def alert(t: float, session: str, matched: str) -> dict:
    return {"category": "hurt", "layer": 0, "matched": matched, "pattern": "...",
            "rule_id": "HC-9", "schema": 1, "session_id": session, "source": "utterance",
            "turn_id": 1, "wall_time": t}


def view(tmp_path: Path, alerts: Path | None = None) -> GraphView:
    return GraphView(SessionLog(None, now=T0), alerts_path=alerts,
                     acks_path=tmp_path / "acks.json", local_date=lambda _t: T0 // 86400)


@pytest.mark.parametrize("mood", sorted(MOOD_WORDS))
def test_every_mood_at_every_degree_reads_as_english(mood: str) -> None:
    """"Mood: very thinking" was shown; a parent reads words, not mood names."""
    for intensity in (0.1, 0.4, 0.9):
        words = mood_in_words(mood, intensity)
        assert words and "very thinking" not in words and "very neutral" not in words
    assert mood_in_words("thinking", 0.9) == "deep in thought"


def test_no_words_a_parent_reads_hold_a_rule_code() -> None:
    for text in [*RULE_WORDS.values(), *END_REASON_WORDS.values()]:
        assert not RULE_CODE.search(text), text
    assert rule_words("HC-9", "Leo") == "Buddy stopped the chat and told Leo to find a grown-up"
    assert "your child" in rule_words("HC-9")


def test_an_alert_says_what_happened_and_names_the_child(tmp_path: Path) -> None:
    log = tmp_path / "alerts.jsonl"
    log.write_text(json.dumps(alert(T0, "s1", "it hurts")) + "\n")
    v = view(tmp_path, log)
    v.on_conversation(True, "s1", "", 0, T0 - 60)
    v.on_identity("Leo")
    [a] = v.alerts(T0)
    assert a.what == "Buddy stopped the chat and told Leo to find a grown-up"
    assert a.sentence.startswith("Leo said") and "\u201cit hurts\u201d" in a.sentence
    assert a.words == "it hurts" and not RULE_CODE.search(a.what + a.sentence)


def test_other_guardrail_events_say_what_happened_without_the_code(tmp_path: Path) -> None:
    v = view(tmp_path)
    v.on_guardrail("RS-1", "end_session", T0)
    v.on_guardrail("HC-10", "context_gate", T0)  # Buddy's own housekeeping: not news
    [a] = v.alerts(T0)
    assert a.what == RULE_WORDS["RS-1"] and not RULE_CODE.search(a.what + a.sentence)


def test_thinking_with_is_the_bridges_health_not_the_snapshots_layer(tmp_path: Path) -> None:
    """Issue 30: "the home server" was shown after a distress stop with no server at all:
    it came from the last snapshot's layer."""
    v = view(tmp_path)
    v.on_snapshot("thinking", 0.9, 0, False, 1, T0)   # a snapshot that says layer 1
    assert v.now_view.thinking_with == "unknown"
    v.on_bridge_health(0, "(none: layer 0)")
    assert v.now_view.thinking_with == "rules_no_server"
    v.on_bridge_health(0, "http://127.0.0.1:8000/v1")
    assert v.now_view.thinking_with == "rules_server_down"
    version = v.feed.version
    v.on_bridge_health(1, "http://127.0.0.1:8000/v1")
    v.on_bridge_health(1, "http://127.0.0.1:8000/v1")   # every second: pushed once
    assert v.now_view.thinking_with == "server" and v.feed.version == version + 1


def test_clearing_the_alerts_keeps_a_newer_one_and_what_it_cannot_read(
        tmp_path: Path) -> None:
    log = tmp_path / "alerts.jsonl"
    log.write_text("\n".join([json.dumps(alert(T0, "s1", "it hurts")), "{torn",
                              json.dumps(alert(T0 + 10, "s1", "help")),
                              json.dumps(alert(T0 + 99, "s2", "I'm lost"))]) + "\n")
    v = view(tmp_path, log)
    assert len(v.alerts(T0)) == 3
    assert v.clear_alerts(T0 + 10) == 2
    assert [a.words for a in v.alerts(T0)] == ["I'm lost"]
    assert "{torn" in log.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alerts.jsonl"]
