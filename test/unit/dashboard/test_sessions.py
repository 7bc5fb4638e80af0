"""The dashboard's session log (DESIGN §4.6): start, length, turns, how it ended and the
mood mix per session, 14 days kept, no transcripts (HC-3), and a file that a person or a
crash may have broken never crashes the node (DESIGN §5 Persistence)."""

from __future__ import annotations

import json

from buddy_personality.dashboard.sessions import SessionLog

DAY = 86400.0


def test_a_session_records_length_turns_reason_and_mood_mix(tmp_path) -> None:
    log = SessionLog(tmp_path / "s.json", now=0.0)
    log.on_started("s1", 100.0)
    log.on_mood("happy", 100.0)
    log.on_mood("sad", 130.0)        # 30 s happy
    log.on_ended("s1", "goodbye", 7, 140.0)   # 10 s sad
    [view] = log.views(200.0)
    assert view.length_s == 40.0 and view.turns == 7 and not view.open
    assert view.end_reason == "said goodbye"
    assert abs(view.mood_mix["positive"] - 0.75) < 1e-9
    assert abs(view.mood_mix["negative"] - 0.25) < 1e-9


def test_the_log_survives_a_restart_and_keeps_no_words(tmp_path) -> None:
    path = tmp_path / "s.json"
    log = SessionLog(path, now=0.0)
    log.on_started("s1", 10.0)
    log.on_ended("s1", "hc9_distress", 2, 20.0)
    again = SessionLog(path, now=30.0)
    [view] = again.views(30.0)
    assert view.session_id == "s1" and "grown-up" in view.end_reason
    stored = json.loads(path.read_text())
    assert set(stored["sessions"][0]) == {"session_id", "started", "ended", "turns",
                                          "end_reason", "mood_seconds"}


def test_sessions_older_than_the_retention_are_dropped(tmp_path) -> None:
    log = SessionLog(tmp_path / "s.json", now=0.0, retention_days=14.0)
    log.on_started("old", 0.0)
    log.on_ended("old", "goodbye", 1, 10.0)
    log.on_started("new", 15 * DAY)
    assert [s.session_id for s in log.sessions] == ["new"]


def test_a_duplicate_started_does_not_open_a_second_session(tmp_path) -> None:
    log = SessionLog(None, now=0.0)
    log.on_started("s1", 1.0)
    log.on_started("s1", 2.0)
    assert len(log.sessions) == 1 and log.sessions[0].started == 1.0


def test_a_missed_end_is_closed_when_the_next_session_starts(tmp_path) -> None:
    log = SessionLog(None, now=0.0)
    log.on_started("s1", 1.0)
    log.on_started("s2", 5.0)
    assert log.sessions[0].ended == 5.0 and log.sessions[1].ended is None


def test_a_corrupt_file_is_moved_aside(tmp_path) -> None:
    path = tmp_path / "s.json"
    path.write_text("{not json")
    log = SessionLog(path, now=0.0)
    (aside,) = tmp_path.glob("s.json.corrupt-*")
    assert log.sessions == [] and aside.read_text() == "{not json"


def test_a_corrupt_file_falls_back_to_the_previous_generation(tmp_path) -> None:
    """Issue 31 item 4: the previous good generation is kept and used; the bad file is
    quarantined and counted (DESIGN §5 Persistence)."""
    path = tmp_path / "s.json"
    log = SessionLog(path, now=0.0)
    log.on_started("s1", 100.0)
    log.on_ended("s1", "goodbye", 3, 160.0)       # saved
    log.on_started("s2", 200.0)
    log.on_ended("s2", "goodbye", 4, 260.0)       # saved again: s1 alone is the previous
    path.write_text('{"version": 1, "sessions": [')
    again = SessionLog(path, now=300.0)
    assert [s.session_id for s in again.sessions] == ["s1"]
    assert again.load_errors == 1
    assert len(list(tmp_path.glob("s.json.corrupt-*"))) == 1


def test_bad_entries_are_dropped_and_good_ones_kept(tmp_path) -> None:
    path = tmp_path / "s.json"
    good = {"session_id": "s1", "started": 1.0, "ended": 2.0, "turns": 1,
            "end_reason": "goodbye", "mood_seconds": {"happy": 1.0}}
    bad = [{**good, "turns": "many"}, {**good, "ended": 0.5}, "x",
           {**good, "mood_seconds": {"happy": float("nan")}}.copy()]
    bad[-1]["mood_seconds"] = {"<script>": 1.0}
    path.write_text(json.dumps({"version": 1, "sessions": [good, *bad]}))
    log = SessionLog(path, now=3.0)
    assert [s.session_id for s in log.sessions] == ["s1"] and log.load_errors == 4


def test_an_hc9_record_of_the_safety_alert_log_reads_as_a_sentence() -> None:
    """docs/SAFETY.md record (schema 1) -> a distress alert naming what matched."""
    from buddy_personality.dashboard.graph_view import parse_alert_line

    line = (b'{"category": "disclosure", "layer": 0, "matched": "mommy hits me", '
            b'"pattern": "...", "rule_id": "HC-9", "schema": 1, "session_id": "5b0e", '
            b'"source": "utterance", "turn_id": 1, "wall_time": 1795456800.0}')
    alert = parse_alert_line(line)
    assert alert is not None and alert.distress and alert.rule_id == "HC-9"
    assert alert.time == 1795456800.0
    assert "someone hurting them" in alert.sentence and "mommy hits me" in alert.sentence
    assert parse_alert_line(b'{"torn": ') is None
    assert parse_alert_line(b'["not", "a", "record"]') is None


def test_an_acknowledged_alert_stays_acknowledged_after_a_restart(tmp_path) -> None:
    """Issue 16: a parent acknowledges an HC-9 alert; the alert stays listed first (the
    safety log is never edited) but marked seen, also for the next dashboard process
    (its acknowledgements are a file of its own); an unknown id acknowledges nothing."""
    from buddy_personality.dashboard.graph_view import GraphView
    from buddy_personality.dashboard.sessions import SessionLog

    alerts = tmp_path / "hc9_alerts.jsonl"
    record = {"category": "hurt", "layer": 0, "matched": "it hurts", "pattern": "...",
              "rule_id": "HC-9", "schema": 1, "session_id": "5b0e", "source": "utterance",
              "turn_id": 1, "wall_time": 1795456800.0}
    alerts.write_text(json.dumps(record) + "\n" + json.dumps(
        {**record, "session_id": "77aa", "wall_time": 1795456900.0}) + "\n")
    before = alerts.read_bytes()
    acks = tmp_path / "acks.json"

    def view() -> GraphView:
        return GraphView(SessionLog(tmp_path / "s.json", now=1795457000.0),
                         alerts_path=alerts, acks_path=acks)

    first = view()
    listed = first.alerts(1795457000.0)
    assert [a.distress for a in listed] == [True, True]
    assert not any(a.acknowledged for a in listed)
    assert first.acknowledge("no-such-alert") is False
    assert first.acknowledge(listed[1].alert_id) is True
    again = view().alerts(1795457000.0)   # a new process reads the same files
    assert [(a.alert_id, a.acknowledged) for a in again] == [
        (listed[0].alert_id, False), (listed[1].alert_id, True)]
    assert alerts.read_bytes() == before


def test_corrupt_acknowledgements_fall_back_to_the_previous_generation(tmp_path) -> None:
    """Issue 31 item 4 / issue 28 item 2: the parent page's acknowledgements are a typed
    state file too. Before, a corrupt file was ignored and the next acknowledgement wrote
    over it (what it held was lost); now it is quarantined and the previous one used."""
    from buddy_personality.dashboard.graph_view import GraphView

    alerts, acks = tmp_path / "hc9_alerts.jsonl", tmp_path / "acks.json"
    record = {"category": "hurt", "layer": 0, "matched": "it hurts", "pattern": "...",
              "rule_id": "HC-9", "schema": 1, "session_id": "5b0e", "source": "utterance",
              "turn_id": 1, "wall_time": 1795456800.0}
    alerts.write_text("".join(json.dumps({**record, "wall_time": record["wall_time"] + k})
                              + "\n" for k in range(2)))

    def view() -> GraphView:
        return GraphView(SessionLog(None, now=0.0), alerts_path=alerts, acks_path=acks)

    first = view()
    one, two = (a.alert_id for a in first.alerts(1795457000.0))
    assert first.acknowledge(one) and first.acknowledge(two)   # two generations
    acks.write_text('{"version": 1, "acknowledged": ["a1", "a2", "a')
    assert view().acknowledged == {one}
    assert [p.read_text() for p in tmp_path.glob("acks.json.corrupt-*")] == \
        ['{"version": 1, "acknowledged": ["a1", "a2", "a']
