"""The HC-9 alert log (DESIGN §6.15, §4.6): a local JSON-lines file in Buddy's state
directory that the parent dashboard reads, newest last. docs/SAFETY.md documents the path
and the record shape; this module is the one writer and the one reader.

One record per HC-9 stop. It names what was matched, never the whole utterance: HC-3 and
the dashboard's "no transcripts" (§4.6) hold for alerts too. Appends are whole lines,
flushed and fsynced; a reader skips a torn or foreign line and says how many it skipped.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ALERT_SCHEMA_VERSION = 1
DEFAULT_ALERT_LOG = "~/.local/share/buddy/safety_alerts.jsonl"
MAX_FIELD_CHARS = 200
MAX_READ_BYTES = 4 * 1024 * 1024   # the dashboard reads at most the last 4 MiB


@dataclass(slots=True, frozen=True)
class AlertRecord:
    wall_time: float    # wall-clock seconds (DESIGN §5: persisted time is wall time)
    rule_id: str        # "HC-9"
    category: str       # distress category (distress_phrases) or "child_affect"
    matched: str        # the words that matched
    pattern: str        # the table line that fired
    source: str         # "utterance" or "child_affect"
    layer: int          # 0 rules, 1 LLM
    session_id: str
    turn_id: int
    schema: int = ALERT_SCHEMA_VERSION

    def to_json(self) -> str:
        doc = {k: (v[:MAX_FIELD_CHARS] if isinstance(v, str) else v)
               for k, v in asdict(self).items()}
        return json.dumps(doc, ensure_ascii=False, sort_keys=True)


def append_alert(path: Path, record: AlertRecord) -> None:
    """Append one line; raises OSError (the caller counts it and keeps going)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (record.to_json() + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def read_alerts(path: Path) -> tuple[list[AlertRecord], int]:
    """(records oldest first, lines skipped as unreadable). A missing file is no alerts."""
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            if size > MAX_READ_BYTES:
                f.seek(size - MAX_READ_BYTES)
                f.readline()  # drop the partial first line
            raw = f.read()
    except FileNotFoundError:
        return [], 0
    records: list[AlertRecord] = []
    skipped = 0
    for line in raw.decode("utf-8", errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            records.append(_record(json.loads(line)))
        except (ValueError, TypeError, KeyError):
            skipped += 1
    return records, skipped


def _record(doc: Any) -> AlertRecord:
    if not isinstance(doc, dict) or doc.get("schema") != ALERT_SCHEMA_VERSION:
        raise ValueError("not an alert record of this schema")
    return AlertRecord(
        wall_time=float(doc["wall_time"]), rule_id=str(doc["rule_id"]),
        category=str(doc["category"]), matched=str(doc["matched"]),
        pattern=str(doc["pattern"]), source=str(doc["source"]), layer=int(doc["layer"]),
        session_id=str(doc["session_id"]), turn_id=int(doc["turn_id"]),
    )


def clear_alerts(path: Path, up_to: float) -> int:
    """A parent's "clear the safety alerts too" (issue 30 item 5): remove the records up to
    `up_to` (wall time: what the parent saw), keep any newer one. The live file is first
    renamed aside, so a record the bridge appends meanwhile (it opens the file for each
    line) lands in a fresh file and is never lost; the newer records of the old file are
    appended back, and a line that cannot be read is kept, not judged. Returns how many
    records were removed; raises OSError (nothing is removed then)."""
    aside = path.with_name(f".{path.name}.clearing")
    try:
        os.replace(path, aside)
    except FileNotFoundError:
        return 0
    keep: list[bytes] = []
    removed = 0
    for line in aside.read_bytes().splitlines():
        try:
            doc = json.loads(line)
            when = float(doc.get("wall_time", doc.get("time")))
        except (ValueError, TypeError, AttributeError):
            if line.strip():
                keep.append(line)
            continue
        if when <= up_to:
            removed += 1
        else:
            keep.append(line)
    if keep:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, b"\n".join(keep) + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
    aside.unlink()
    return removed
