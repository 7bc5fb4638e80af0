"""Which birthday greetings were already emitted today, kept across restarts.

spec 004 §6 says greet once per user per day; a node restart must not greet twice. The
log keeps only today's entries (a schema-versioned state file, buddy_personality.state_files:
atomic writes, a previous generation); a corrupt file is quarantined, the previous
generation used, and without one the log starts empty.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from buddy_personality.state_files import StateFile, json_object

SCHEMA_VERSION = 1

Greeted = set[tuple[str, dt.date]]


def _parse(data: Any) -> Greeted:
    # issue 19: valid JSON of the wrong shape (a list, a string) crashed start-up
    doc = json_object(data)
    if doc.get("schema_version") != SCHEMA_VERSION:
        raise ValueError(f"unsupported schema_version {doc.get('schema_version')}")
    return {(str(u), dt.date.fromisoformat(d)) for u, d in doc["greeted"]}


class GreetingLog:
    def __init__(self, path: Path | str | None) -> None:
        self.path = Path(path) if path is not None else None
        self._file = (StateFile(self.path, "greeting log", _parse, indent=2)
                      if self.path is not None else None)
        self.warnings: list[str] = []

    def load(self) -> Greeted:
        if self._file is None:
            return set()
        greeted = self._file.load().value
        self.warnings.extend(self._file.warnings)
        self._file.warnings.clear()
        return greeted if greeted is not None else set()

    def save(self, greeted: Greeted) -> None:
        if self._file is None:
            return
        rows = sorted([u, d.isoformat()] for u, d in greeted)
        self._file.save({"schema_version": SCHEMA_VERSION, "greeted": rows})
