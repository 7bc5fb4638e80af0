"""The dashboard's own log of conversation sessions (DESIGN §4.6): start, length, turns,
how it ended and the mood mix. No transcripts, ever (HC-3): nothing a child said is kept.

ROS-free: the node feeds it `conversation/events` and the shown mood with wall-clock
times (they are shown to a parent and kept across reboots, DESIGN §6.1). Kept local, in
one JSON file written atomically, pruned to `retention_days` and `max_sessions`."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buddy_personality.dashboard.records import MOOD_CLASS, SessionView
from buddy_personality.state_files import StateFile, json_object

SCHEMA_VERSION = 1
MAX_FILE_BYTES = 4 * 1024 * 1024   # a log of 14 days is a few kB; anything larger is not ours
MAX_ID_CHARS = 128

# ConversationEvent END_* values in words a parent reads (buddy_msgs/msg/ConversationEvent);
# no rule codes (issue 30 item 5).
END_REASON_WORDS: dict[str, str] = {
    "goodbye": "said goodbye",
    "silence_timeout": "went quiet",
    "session_limit": "reached its time limit",
    "daily_limit": "today's talking time was used up",
    "governor_halted": "Buddy needed a rest",
    "requested": "ended by request",
    "hc9_distress": "Buddy stopped and told your child to find a grown-up",
    "server_unavailable": "the home server stopped answering",
    "bridge_lost": "Buddy restarted",
}

log = logging.getLogger(__name__)


@dataclass(slots=True)
class SessionRecord:
    session_id: str
    started: float
    ended: float | None = None
    turns: int = 0
    end_reason: str = ""
    mood_seconds: dict[str, float] = field(default_factory=dict)

    def view(self, now: float) -> SessionView:
        end = self.ended if self.ended is not None else now
        total = sum(self.mood_seconds.values())
        mix: dict[str, float] = {}
        for mood, seconds in self.mood_seconds.items():
            cls = MOOD_CLASS.get(mood, "neutral")
            mix[cls] = mix.get(cls, 0.0) + (seconds / total if total > 0 else 0.0)
        return SessionView(
            session_id=self.session_id, started=self.started,
            length_s=max(0.0, end - self.started), turns=self.turns,
            end_reason=END_REASON_WORDS.get(self.end_reason, self.end_reason or "-"),
            mood_mix=mix, open=self.ended is None)


class SessionLog:
    """Sessions of the last `retention_days`, newest last."""

    def __init__(self, path: Path | None, now: float, retention_days: float = 14.0,
                 max_sessions: int = 2000) -> None:
        self.path = path
        self.retention_s = retention_days * 86400.0
        self.max_sessions = max_sessions
        self.sessions: list[SessionRecord] = []
        self._mood: str = "neutral"
        self._mood_since: float = now
        self.load_errors = 0
        self._file = (StateFile(path, "session log", _parse_log, max_bytes=MAX_FILE_BYTES)
                      if path is not None else None)
        if path is not None:
            self._load(now)

    # -- inputs -----------------------------------------------------------------------
    def on_started(self, session_id: str, now: float) -> None:
        session_id = session_id[:MAX_ID_CHARS]
        current = self.current()
        if current is not None and current.session_id == session_id:
            return                      # a duplicate STARTED (late joiner, retry)
        if current is not None:         # an ENDED we never saw: close it where we are
            self._close(current, now, "", current.turns)
        self.sessions.append(SessionRecord(session_id=session_id, started=now))
        self._mood_since = now
        self._prune(now)

    def on_ended(self, session_id: str, reason: str, turns: int, now: float) -> None:
        current = self.current()
        if current is None or current.session_id != session_id[:MAX_ID_CHARS]:
            return
        self._close(current, now, reason, turns)
        self.save()

    def on_mood(self, mood: str, now: float) -> None:
        """The mood shown changed (or was re-reported): account the time so far."""
        self._account(now)
        self._mood = mood

    # -- views ------------------------------------------------------------------------
    def current(self) -> SessionRecord | None:
        if self.sessions and self.sessions[-1].ended is None:
            return self.sessions[-1]
        return None

    def views(self, now: float, days: float = 14.0) -> list[SessionView]:
        self._account(now)
        since = now - days * 86400.0
        return [s.view(now) for s in self.sessions if s.started >= since]

    # -- internals --------------------------------------------------------------------
    def _account(self, now: float) -> None:
        current = self.current()
        if current is not None and now > self._mood_since:
            dt = now - max(self._mood_since, current.started)
            if dt > 0:
                current.mood_seconds[self._mood] = current.mood_seconds.get(self._mood, 0.0) + dt
        self._mood_since = now

    def _close(self, record: SessionRecord, now: float, reason: str, turns: int) -> None:
        self._account(now)
        record.ended = now
        record.end_reason = reason
        record.turns = max(0, int(turns))

    def _prune(self, now: float) -> None:
        keep = [s for s in self.sessions if s.started >= now - self.retention_s]
        self.sessions = keep[-self.max_sessions:]

    def save(self) -> None:
        if self._file is None:
            return
        data = {"version": SCHEMA_VERSION, "sessions": [
            {"session_id": s.session_id, "started": s.started, "ended": s.ended,
             "turns": s.turns, "end_reason": s.end_reason,
             "mood_seconds": {k: round(v, 3) for k, v in s.mood_seconds.items()}}
            for s in self.sessions if s.ended is not None]}
        self._file.save(data)

    def _load(self, now: float) -> None:
        assert self._file is not None
        rows = self._file.load().value
        for warning in self._file.warnings:
            log.warning("%s", warning)
        self.load_errors += self._file.set_aside
        if rows is None:
            return
        for row in rows:
            record = _parse_row(row)
            if record is None:
                self.load_errors += 1
                continue
            self.sessions.append(record)
        if self.load_errors:
            log.warning("session log %s: %d bad entries dropped, %d kept", self.path,
                        self.load_errors, len(self.sessions))
        self.sessions.sort(key=lambda s: s.started)
        self._prune(now)


def _parse_log(data: Any) -> list[Any]:
    """The rows of a version 1 session log (each row is checked on its own)."""
    doc = json_object(data)
    if doc.get("version") != SCHEMA_VERSION:
        raise ValueError("not a version 1 session log")
    rows = doc.get("sessions")
    if not isinstance(rows, list):
        raise ValueError("'sessions' is not a list")
    return rows


def _finite(x: object) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    value = float(x)
    return value if math.isfinite(value) else None


def _parse_row(row: object) -> SessionRecord | None:
    if not isinstance(row, dict):
        return None
    sid, started, ended = row.get("session_id"), _finite(row.get("started")), \
        _finite(row.get("ended"))
    turns, reason, moods = row.get("turns"), row.get("end_reason"), row.get("mood_seconds")
    if not isinstance(sid, str) or started is None or ended is None or ended < started:
        return None
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 0:
        return None
    if not isinstance(reason, str) or not isinstance(moods, dict):
        return None
    clean: dict[str, float] = {}
    for mood, seconds in moods.items():
        value = _finite(seconds)
        if not isinstance(mood, str) or mood not in MOOD_CLASS or value is None or value < 0:
            return None
        clean[mood] = value
    return SessionRecord(session_id=sid[:MAX_ID_CHARS], started=started, ended=ended,
                         turns=turns, end_reason=reason[:64], mood_seconds=clean)
