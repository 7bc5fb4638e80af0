"""What the graph last said, turned into the dashboard's views (ROS-free).

The node feeds it plain values from `personality/snapshot`, `face/state`,
`conversation/events`, `personality/guardrail`, `consent/state` and the personality
node's diagnostics, with wall-clock times; the web app reads views. It interprets
nothing the spec decides: moods, limits and consent states are shown as the graph
reported them."""

from __future__ import annotations

import datetime as dt
import json
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from buddy_personality.dashboard.plain_words import (
    QUIET_RULES,
    THINKING_WITH_WORDS,
    mood_in_words,
    rule_words,
)
from buddy_personality.dashboard.port import ChangeFeed
from buddy_personality.dashboard.records import (
    IDLE_STATE_NAMES,
    AlertView,
    ConsentView,
    FaceView,
    NowView,
    UsageView,
)
from buddy_personality.dashboard.sessions import SessionLog
from buddy_personality.safety.alerts import clear_alerts as clear_alert_log
from buddy_personality.state_files import StateFile, json_object

log = logging.getLogger(__name__)

CONSENT_STATE_NAMES: tuple[str, ...] = ("none", "pending", "granted", "expired", "revoked")
MAX_GUARDRAIL_EVENTS = 200         # today's other guardrail events shown, newest kept
MAX_ALERT_FILE_BYTES = 8 * 1024 * 1024
# Guardrail rules a parent is told about as alerts (HC-9 comes from the alert log too).
# The others (mood caps, budget) are Buddy's own housekeeping and would only be noise.
PARENT_RULE_PREFIXES: tuple[str, ...] = ("HC-", "RS-", "VOICE-", "AUTH")


# HC-9 alert categories (docs/SAFETY.md) in a parent's words.
CATEGORY_WORDS: dict[str, str] = {
    "hurt": "being hurt", "fear": "being afraid", "lost_alone": "being lost or alone",
    "disclosure": "someone hurting them", "self_harm_death": "wanting to hurt themselves",
    "despair": "deep sadness", "bullying": "bullying", "help": "needing help",
    "crying": "crying", "child_affect": "distress",
}


@dataclass(slots=True)
class _GuardrailSeen:
    time: float
    rule_id: str
    details: str


@dataclass(slots=True)
class GraphView:
    sessions: SessionLog
    alerts_path: Path | None = None
    acks_path: Path | None = None
    feed: ChangeFeed = field(default_factory=ChangeFeed)
    local_date: Callable[[float], dt.date] = lambda t: dt.datetime.fromtimestamp(t).date()
    now_view: NowView = field(default_factory=NowView)
    usage_view: UsageView = field(default_factory=UsageView)
    consent_views: list[ConsentView] = field(default_factory=list)
    guardrails: list[_GuardrailSeen] = field(default_factory=list)
    acknowledged: set[str] = field(default_factory=set)
    _alerts_cache: list[AlertView] = field(default_factory=list)
    _alerts_stat: tuple[float, int] | None = None
    # who talked in which session (identity/state while it was open; issue 30: an alert
    # names the child), kept in memory only, like the rest of what the graph said
    _speaker: str = ""
    _open_session: str = ""
    _session_child: dict[str, str] = field(default_factory=dict)
    _snapshot_mood: str = "neutral"
    _snapshot_intensity: float = 0.0
    _idle_state: int = 0
    _conversation_active: bool = False
    bad_alert_lines: int = 0
    _acks_file: StateFile[list[str]] | None = None

    def __post_init__(self) -> None:
        self._load_acks()

    # -- inputs -----------------------------------------------------------------------
    def on_snapshot(self, mood: str, intensity: float, idle_state: int,
                    conversation_active: bool, layer: int, now: float) -> None:
        # Pushed to open pages only when what the Now panel shows changes (the mood in
        # words, not every 0.01 of a decaying intensity: that was a push a second while
        # idle, issue 16's idle CPU).
        changed = (mood, mood_in_words(mood, _unit(intensity)), idle_state,
                   conversation_active, layer) != (
            self._snapshot_mood, self.now_view.mood_words, self._idle_state,
            self._conversation_active, 1 if self.now_view.layer == "llm" else 0)
        self._snapshot_mood, self._snapshot_intensity = mood, _unit(intensity)
        self._idle_state, self._conversation_active = idle_state, conversation_active
        self.now_view.mood = mood
        self.now_view.mood_words = mood_in_words(mood, self._snapshot_intensity)
        self.now_view.layer = "llm" if layer == 1 else "rules"  # Buddy's own view; the
        # page says where answers come from with `thinking_with` (the bridge's health)
        self.now_view.activity = self._activity()
        self.now_view.updated = now
        self.sessions.on_mood(mood, now)
        if changed:
            self.feed.notify()

    def on_face(self, face: FaceView, now: float) -> None:
        face.intensity = _unit(face.intensity)
        if face != self.now_view.face:
            self.now_view.face = face
            self.now_view.activity = self._activity()
            self.now_view.updated = now
            self.feed.notify()

    def on_conversation(self, started: bool, session_id: str, end_reason: str, turns: int,
                        now: float) -> None:
        if started:
            self.sessions.on_started(session_id, now)
            self._open_session = session_id
            self._note_speaker()
        else:
            self._open_session = ""
            self.sessions.on_ended(session_id, end_reason, turns, now)
        self.feed.notify()

    def on_identity(self, child_name: str) -> None:
        """The confirmed speaker's name ("" when nobody is confirmed), from identity/state."""
        self._speaker = child_name
        self._note_speaker()

    def _note_speaker(self) -> None:
        if self._open_session and self._speaker:
            self._session_child[self._open_session] = self._speaker
            while len(self._session_child) > 1000:
                del self._session_child[next(iter(self._session_child))]

    def on_bridge_health(self, layer: int | None, server_url: str) -> None:
        """Where Buddy's answers come from, as the LLM bridge reports it in its own
        diagnostics (issue 30: not the last snapshot's layer)."""
        configured = bool(server_url) and not server_url.startswith("(none")
        if not configured:
            state = "rules_no_server"
        elif layer == 1:
            state = "server"
        elif layer == 0:
            state = "rules_server_down"
        else:
            state = "unknown"
        assert state in THINKING_WITH_WORDS
        if state != self.now_view.thinking_with:
            self.now_view.thinking_with = state
            self.feed.notify()

    def on_guardrail(self, rule_id: str, details: str, now: float) -> None:
        if not rule_id.startswith(PARENT_RULE_PREFIXES) or rule_id in QUIET_RULES:
            return
        self.guardrails.append(_GuardrailSeen(time=now, rule_id=rule_id, details=details[:300]))
        del self.guardrails[:-MAX_GUARDRAIL_EVENTS]
        self.feed.notify()

    def on_consent(self, records: list[tuple[str, str, int]]) -> None:
        views = [ConsentView(child=user, scope=scope,
                             state=CONSENT_STATE_NAMES[state]
                             if 0 <= state < len(CONSENT_STATE_NAMES) else "unknown")
                 for user, scope, state in records]
        if views != self.consent_views:
            self.consent_views = views
            self.feed.notify()

    def on_usage(self, session_s: float | None, daily_s: float | None) -> None:
        u = self.usage_view
        before = (u.session_s, u.daily_s, u.known)
        if session_s is not None and math.isfinite(session_s):
            u.session_s = max(0.0, session_s)
        if daily_s is not None and math.isfinite(daily_s):
            u.daily_s = max(0.0, daily_s)
        u.known = u.daily_limit_s > 0 and u.session_limit_s > 0
        if (u.session_s, u.daily_s, u.known) != before:
            self.feed.notify()

    def on_limits(self, session_limit_s: float | None, daily_limit_s: float | None,
                  can_lower: bool | None = None) -> None:
        """The RS-1 / RS-2 limits in force, as the personality node reports them (today's
        lowered ones included); `can_lower`: the graph takes a parent's lower limits."""
        u = self.usage_view
        before = (u.session_limit_s, u.daily_limit_s, u.known, u.can_lower)
        if session_limit_s is not None and math.isfinite(session_limit_s):
            u.session_limit_s = session_limit_s
        if daily_limit_s is not None and math.isfinite(daily_limit_s):
            u.daily_limit_s = daily_limit_s
        if can_lower is not None:
            u.can_lower = can_lower
        u.known = u.daily_limit_s > 0 and u.session_limit_s > 0
        if (u.session_limit_s, u.daily_limit_s, u.known, u.can_lower) != before:
            self.feed.notify()

    def acknowledge(self, alert_id: str) -> bool:
        if alert_id not in {a.alert_id for a in self._read_alerts()}:
            return False
        self.acknowledged.add(alert_id)
        if self._acks_file is not None:
            self._acks_file.save({"version": 1, "acknowledged": sorted(self.acknowledged)})
        self.feed.notify()
        return True

    def clear_alerts(self, up_to: float) -> int:
        """Remove the HC-9 alerts up to `up_to` from the alert log (a parent's choice,
        offered with "forget everything"); newer ones stay. Returns how many went."""
        if self.alerts_path is None:
            return 0
        removed = clear_alert_log(self.alerts_path, up_to)
        self._alerts_stat = None
        self.feed.notify()
        return removed

    # -- views ------------------------------------------------------------------------
    def alerts(self, now: float) -> list[AlertView]:
        """HC-9 distress alerts first (newest first), then the day's other guardrail
        events a parent should know about."""
        today = self.local_date(now)
        distress = [a for a in self._read_alerts()]
        for a in distress:
            a.acknowledged = a.alert_id in self.acknowledged
            child = self._session_child.get(a.session_id, "")
            a.what = rule_words(a.rule_id, child)
            a.sentence = a.sentence.replace(CHILD, child or "Your child")
        others = [AlertView(alert_id=f"g{i}-{g.time:.3f}", time=g.time, rule_id=g.rule_id,
                            sentence="", distress=False, acknowledged=False,
                            what=rule_words(g.rule_id))
                  for i, g in enumerate(self.guardrails)
                  if self.local_date(g.time) == today and g.rule_id != "HC-9"]
        distress.sort(key=lambda a: -a.time)
        others.sort(key=lambda a: -a.time)
        return distress + others

    def _activity(self) -> str:
        if self._conversation_active or self.now_view.face.talking:
            return "talking"
        if 0 <= self._idle_state < len(IDLE_STATE_NAMES):
            return IDLE_STATE_NAMES[self._idle_state]
        return "unknown"

    # -- the HC-9 alert log (docs/SAFETY.md) -----------------------------------------
    def _read_alerts(self) -> list[AlertView]:
        path = self.alerts_path
        if path is None:
            return []
        try:
            st = path.stat()
        except OSError:
            self._alerts_cache, self._alerts_stat = [], None
            return []
        key = (st.st_mtime, st.st_size)
        if key == self._alerts_stat:
            return [AlertView(**_fields(a)) for a in self._alerts_cache]
        alerts: list[AlertView] = []
        bad = 0
        try:
            with path.open("rb") as f:
                if st.st_size > MAX_ALERT_FILE_BYTES:   # newest alerts are at the end
                    f.seek(st.st_size - MAX_ALERT_FILE_BYTES)
                    f.readline()
                for line in f:
                    alert = parse_alert_line(line)
                    if alert is None:
                        bad += 1 if line.strip() else 0
                    else:
                        alerts.append(alert)
        except OSError as exc:
            log.warning("cannot read the alert log %s: %s", path, exc)
            return []
        if bad and bad != self.bad_alert_lines:
            log.warning("alert log %s: %d lines not understood (kept on disk)", path, bad)
        self.bad_alert_lines = bad
        self._alerts_cache, self._alerts_stat = alerts, key
        return [AlertView(**_fields(a)) for a in alerts]

    def _load_acks(self) -> None:
        """The acknowledged alerts: one typed state file (a bad file is quarantined and
        the previous generation used, issue 28 item 2 / issue 31 item 4)."""
        if self.acks_path is None:
            return
        self._acks_file = StateFile(self.acks_path, "alert acknowledgements", _parse_acks)
        ids = self._acks_file.load().value
        for warning in self._acks_file.warnings:
            log.warning("%s", warning)
        if ids is not None:
            self.acknowledged = set(ids[-10000:])


def _parse_acks(data: object) -> list[str]:
    ids = json_object(data).get("acknowledged")
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise ValueError("'acknowledged' is not a list of ids")
    return ids


def _fields(a: AlertView) -> dict:
    return {k: getattr(a, k) for k in AlertView.__slots__}  # type: ignore[attr-defined]


def _unit(x: float) -> float:
    return min(1.0, max(0.0, x)) if math.isfinite(x) else 0.0


CHILD = "{child}"  # where an alert's sentence names the child, once the page knows who


def parse_alert_line(line: bytes) -> AlertView | None:
    """One HC-9 alert record (JSON object per line, docs/SAFETY.md). Unknown fields are
    ignored; a line without a time is not an alert."""
    try:
        row = json.loads(line)
    except ValueError:
        return None
    if not isinstance(row, dict):
        return None
    t = row.get("time", row.get("wall_time", row.get("t")))
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
        return None
    rule = row.get("rule_id", "HC-9")
    sentence = row.get("sentence") or row.get("summary") or row.get("message") or ""
    if not sentence:
        matched = row.get("matched") or row.get("phrase") or ""
        category = CATEGORY_WORDS.get(str(row.get("category", "")), "distress")
        sentence = (f"{CHILD} said something that sounded like {category}"
                    + (f": \u201c{str(matched)[:200]}\u201d" if matched else "") + ".")
    alert_id = row.get("alert_id") or row.get("id") or f"hc9-{float(t):.3f}"
    words = row.get("matched") or row.get("phrase") or ""
    return AlertView(alert_id=str(alert_id)[:128], time=float(t), rule_id=str(rule)[:16],
                     sentence=str(sentence)[:400], distress=True,
                     what=rule_words(str(rule)[:16]), words=str(words)[:200],
                     session_id=str(row.get("session_id") or "")[:64])
