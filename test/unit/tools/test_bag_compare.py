"""Comparing recorded and replayed outputs (tools/bags/bag_compare.py): pure functions over
hand-written messages."""

from __future__ import annotations

import json

import pytest

from buddy_personality.tools.bags.bag_compare import (
    RECEIVED,
    Record,
    TopicRule,
    apply_rule,
    compare,
    compare_topic,
    flatten,
    format_report,
    report_json,
)


def snap(t: float, mood: str = "neutral", valence: float = 0.1, stamp: float | None = None,
         layer: int = 0) -> Record:
    stamp = t if stamp is None else stamp
    sec = int(stamp)
    return Record(t, flatten({"header": {"stamp": {"sec": sec,
                                                   "nanosec": round((stamp - sec) * 1e9)},
                                         "frame_id": ""},
                              "mood": mood, "valence": valence, "layer": layer}))


def stream(n: int = 5) -> list[Record]:
    return [snap(100.0 + k, valence=0.1 * k) for k in range(n)]


def test_flatten_turns_times_into_seconds_and_lists_into_indexed_paths() -> None:
    flat = flatten({"header": {"stamp": {"sec": 12, "nanosec": 500_000_000}, "frame_id": "x"},
                    "records": [{"scope": "memory"}, {"scope": "photos"}], "tags": []})
    assert flat == {"header.stamp": 12.5, "header.frame_id": "x", "records.len": 2,
                    "records[0].scope": "memory", "records[1].scope": "photos",
                    "tags.len": 0}


def test_identical_streams_match() -> None:
    result = compare_topic("personality/snapshot", stream(), stream())
    assert result.ok
    assert (result.recorded, result.replayed, result.mismatched) == (5, 5, 0)


def test_times_in_the_text_are_relative_to_the_start() -> None:
    replayed = stream()
    replayed[1] = snap(101.0, valence=0.1, stamp=101.5)
    text = format_report(compare({"s": stream()}, {"s": replayed}, t0=100.0))
    assert "#1 t=+1.000s  header.stamp: recorded +1.000s, replayed +1.500s" in text


def test_a_float_within_the_tolerance_matches_and_beyond_it_is_named() -> None:
    replayed = stream()
    replayed[2] = snap(102.0, valence=0.2 + 5e-7)
    assert compare_topic("s", stream(), replayed, tolerance=1e-6).ok
    replayed[2] = snap(102.0, valence=0.25)
    result = compare_topic("s", stream(), replayed, tolerance=1e-6)
    assert (result.mismatched, result.missing, result.extra) == (1, 0, 0)
    (m,) = result.mismatches
    assert (m.index, m.t, m.path, m.kind) == (2, 102.0, "valence", "field")
    assert m.recorded == pytest.approx(0.2) and m.replayed == pytest.approx(0.25)


def test_a_changed_string_is_reported_with_both_values() -> None:
    replayed = stream()
    replayed[3] = snap(103.0, mood="curious", valence=0.3)
    (m,) = compare_topic("s", stream(), replayed).mismatches
    assert (m.index, m.path, m.recorded, m.replayed) == (3, "mood", "neutral", "curious")


def test_a_missing_message_is_one_difference_not_a_cascade() -> None:
    replayed = stream()
    del replayed[1]
    result = compare_topic("s", stream(), replayed)
    assert (result.mismatched, result.missing, result.extra) == (1, 1, 0)
    (m,) = result.mismatches
    assert (m.kind, m.index, m.t) == ("missing", 1, 101.0)


def test_an_extra_message_is_reported_at_its_replayed_time() -> None:
    replayed = stream()
    replayed.insert(3, snap(102.5, mood="surprised", valence=0.9))
    result = compare_topic("s", stream(), replayed)
    assert (result.mismatched, result.missing, result.extra) == (1, 0, 1)
    (m,) = result.mismatches
    assert (m.kind, m.index, m.t, m.replayed["mood"]) == ("extra", -1, 102.5, "surprised")


def test_stamps_and_receive_times_may_move_within_one_step_only() -> None:
    """DESIGN §1.6 replay: a message may land anywhere in the sim step it belongs to."""
    replayed = [snap(r.t + 0.05, valence=0.1 * k, stamp=r.t + 0.05)
                for k, r in enumerate(stream())]
    assert compare_topic("s", stream(), replayed, stamp_slack=lambda _t: 0.1).ok
    result = compare_topic("s", stream(), replayed, stamp_slack=lambda _t: 0.01)
    assert result.mismatched == 5
    # a stamped message is judged by its stamp: a latched value is received whenever
    # the recorder joined
    assert {m.path for m in result.mismatches} == {"header.stamp"}


def test_a_message_without_a_stamp_is_judged_by_its_receive_time() -> None:
    recorded = [Record(10.0, {"data": True}), Record(12.0, {"data": False})]
    replayed = [Record(10.0, {"data": True}), Record(12.5, {"data": False})]
    assert compare_topic("tts/speaking", recorded, replayed,
                         stamp_slack=lambda _t: 1.0).ok
    (m,) = compare_topic("tts/speaking", recorded, replayed,
                         stamp_slack=lambda _t: 0.1).mismatches
    assert (m.path, m.recorded, m.replayed) == (RECEIVED, 12.0, 12.5)


def test_a_settled_deduped_state_ignores_repeats_and_passing_states() -> None:
    """face/state: republished on a wall-clock keepalive; only the state at the end of
    each step, and its changes, are compared."""
    rule = TopicRule(ignore=frozenset({"age"}), dedupe=True, settled=True)

    def face(t: float, mood: str, age: float = 0.0) -> Record:
        return Record(t, {"mood": mood, "age": age})

    recorded = [face(1.0, "neutral"), face(2.0, "neutral", 0.5), face(3.0, "happy")]
    replayed = [face(1.0, "neutral"), face(1.0, "neutral", 0.9), face(3.0, "thinking"),
                face(3.0, "happy"), face(4.0, "happy", 1.0)]
    assert [r.fields["mood"] for r in apply_rule(replayed, rule)] == ["neutral", "happy"]
    assert compare_topic("face/state", recorded, replayed, rule=rule).ok
    replayed.append(face(5.0, "sleepy"))
    result = compare_topic("face/state", recorded, replayed, rule=rule)
    assert (result.extra, result.mismatches[0].replayed["mood"]) == (1, "sleepy")


def test_keep_selects_the_outputs_of_a_mixed_topic() -> None:
    rule = TopicRule(keep=lambda f: f["kind"] in (5, 6), ignore=frozenset({"detail"}))
    recorded = [Record(0.0, {"kind": 0, "detail": "power"}),
                Record(1.0, {"kind": 5, "detail": "http://127.0.0.1:1/v1"})]
    replayed = [Record(1.0, {"kind": 5, "detail": "http://127.0.0.1:2/v1"})]
    assert compare_topic("system/events", recorded, replayed, rule=rule).ok


def test_a_topic_never_replayed_fails_and_one_never_recorded_is_only_listed() -> None:
    report = compare({"tts/say": [Record(5.0, {"text": "hi"})]},
                     {"face/gesture": [Record(5.0, {"gesture_id": 1})]})
    assert not report.ok
    (say,) = report.failed
    assert (say.topic, say.missing) == ("tts/say", 1)
    assert "face/gesture" in report.not_compared


def test_the_text_report_names_topic_index_time_field_and_both_values() -> None:
    replayed = stream()
    replayed[2] = snap(102.0, mood="happy", valence=0.2)
    report = compare({"personality/snapshot": stream(), "tts/say": []},
                     {"personality/snapshot": replayed, "tts/say": []}, t0=100.0)
    text = format_report(report)
    assert text.splitlines()[0].startswith("MISMATCH on 1 of 2 compared topics")
    assert "DIFFERS  personality/snapshot  recorded 5, replayed 5; 1 differing" in text
    assert "#2 t=+2.000s  mood: recorded 'neutral', replayed 'happy'" in text
    assert "     ok  tts/say" in text


def test_a_matching_report_says_so_and_the_json_round_trips() -> None:
    report = compare({"s": stream()}, {"s": stream()})
    assert format_report(report).startswith("MATCH: 1 topics, 5 recorded messages")
    doc = json.loads(json.dumps(report_json(report)))
    assert doc["match"] is True
    assert doc["topics"]["s"] == {"ok": True, "recorded": 5, "replayed": 5, "mismatched": 0,
                                  "missing": 0, "extra": 0, "first_mismatches": []}


def test_only_the_first_mismatches_are_kept_but_all_are_counted() -> None:
    replayed = [snap(r.t, mood="happy", valence=r.fields["valence"]) for r in stream(30)]
    result = compare_topic("s", stream(30), replayed, max_mismatches=4)
    assert result.mismatched == 30
    assert len(result.mismatches) == 4
    assert "(more differences not shown)" in format_report(compare(
        {"s": stream(30)}, {"s": replayed}, max_mismatches=4), max_per_topic=2)
