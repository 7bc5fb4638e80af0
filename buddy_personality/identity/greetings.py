"""Which birthday greetings were already emitted today, kept across restarts.

spec 004 §6 says greet once per user per day; a node restart must not greet twice. The
log keeps only today's entries (schema-versioned JSON, atomic writes); a corrupt file is
moved aside and the log starts empty.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from buddy_personality.state_files import clean_stale_tmp, read_state_json

from .persistence import atomic_write_json, move_aside

SCHEMA_VERSION = 1


class GreetingLog:
    def __init__(self, path: Path | str | None) -> None:
        self.path = Path(path) if path is not None else None
        self.warnings: list[str] = []

    def load(self) -> set[tuple[str, dt.date]]:
        if self.path is None:
            return set()
        for tmp in clean_stale_tmp(self.path):
            self.warnings.append(f"removed {tmp.name}, left by an interrupted write")
        if not self.path.exists():
            return set()
        try:
            # issue 19: valid JSON of the wrong shape (a list, a string) crashed start-up
            data = read_state_json(self.path)
            if not isinstance(data, dict):
                raise ValueError("top level is not an object")
            if data.get("schema_version") != SCHEMA_VERSION:
                raise ValueError(f"unsupported schema_version {data.get('schema_version')}")
            return {(str(u), dt.date.fromisoformat(d)) for u, d in data["greeted"]}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            aside = move_aside(self.path)
            self.warnings.append(f"corrupt greeting log moved to {aside}: {exc}")
            return set()

    def save(self, greeted: set[tuple[str, dt.date]]) -> None:
        if self.path is None:
            return
        rows = sorted([u, d.isoformat()] for u, d in greeted)
        atomic_write_json(self.path, {"schema_version": SCHEMA_VERSION, "greeted": rows}, indent=2)
