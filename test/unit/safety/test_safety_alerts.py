"""The HC-9 alert log the parent dashboard reads (docs/SAFETY.md): append-only JSON lines,
readable back, a torn or foreign line skipped and counted, nothing else lost."""

from __future__ import annotations

import json
import stat

from buddy_personality.safety.alerts import AlertRecord, append_alert, read_alerts


def record(n: int) -> AlertRecord:
    return AlertRecord(wall_time=1000.0 + n, rule_id="HC-9", category="hurt",
                       matched="my arm hurts", pattern="my (arm) hurts", source="utterance",
                       layer=0, session_id=f"s{n}", turn_id=1)


def test_append_and_read_back(tmp_path) -> None:
    path = tmp_path / "state" / "safety_alerts.jsonl"
    append_alert(path, record(1))
    append_alert(path, record(2))
    records, skipped = read_alerts(path)
    assert records == [record(1), record(2)] and skipped == 0
    doc = json.loads(path.read_text().splitlines()[0])
    assert doc["schema"] == 1 and doc["rule_id"] == "HC-9" and doc["matched"] == "my arm hurts"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600    # a child's alert is private


def test_a_torn_line_is_skipped_and_the_rest_kept(tmp_path) -> None:
    path = tmp_path / "alerts.jsonl"
    append_alert(path, record(1))
    with path.open("a") as f:
        f.write('{"schema": 1, "wall_ti')          # a crash mid-write
        f.write("\n[1, 2]\n")                      # not a record
    append_alert(path, record(3))
    records, skipped = read_alerts(path)
    assert [r.session_id for r in records] == ["s1", "s3"] and skipped == 2


def test_missing_file_is_no_alerts(tmp_path) -> None:
    assert read_alerts(tmp_path / "none.jsonl") == ([], 0)


def test_long_fields_are_capped(tmp_path) -> None:
    path = tmp_path / "a.jsonl"
    r = AlertRecord(1.0, "HC-9", "hurt", "x" * 5000, "p", "utterance", 0, "s", 1)
    append_alert(path, r)
    assert len(json.loads(path.read_text())["matched"]) == 200
