"""What the dashboard shows, as plain records (JSON-ready through `to_json`).

These are views, not state: the graph owns every value (DESIGN §4.6)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from buddy_personality.msg_constants import IdleState, Phase

# Spec 002 §4.1 mood classes: what a parent reads, in words.
MOOD_CLASS: dict[str, str] = {
    "happy": "positive", "excited": "positive", "curious": "positive", "love": "positive",
    "silly": "positive",
    "neutral": "neutral", "thinking": "neutral", "surprised": "neutral", "sleepy": "neutral",
    "confused": "neutral",
    "sad": "negative", "scared": "negative", "angry": "negative",
}

# Face protocol conversation states (face-protocol.md "Enumerations": FaceState.conv_state
# holds the ConversationPhase numbers) and PersonalitySnapshot.idle_state, by number.
CONV_STATE_NAMES: tuple[str, ...] = tuple(p.name.lower() for p in sorted(Phase))
IDLE_STATE_NAMES: tuple[str, ...] = tuple(s.name.lower() for s in sorted(IdleState))


@dataclass(slots=True)
class FaceView:
    """The face as the child sees it (FaceState: the mood the board shows)."""

    mood: str = "neutral"
    mood_meant: str = ""
    intensity: float = 0.0
    talking: bool = False
    conv_state: str = "idle"
    connected: bool = False
    backstop: bool = False


@dataclass(slots=True)
class NowView:
    activity: str = "unknown"        # awake | drowsy | asleep | talking | unknown
    mood: str = "neutral"
    mood_words: str = "unknown"
    layer: str = "rules"             # rules (server down or not configured) | llm
    # from the LLM bridge's health: server | rules_no_server | rules_server_down | unknown
    thinking_with: str = "unknown"
    face: FaceView = field(default_factory=FaceView)
    updated: float = 0.0             # wall seconds of the newest input


@dataclass(slots=True)
class UsageView:
    """RS-1 / RS-2 as bars: seconds used against the limits in force."""

    session_s: float = 0.0
    session_limit_s: float = 0.0
    daily_s: float = 0.0
    daily_limit_s: float = 0.0
    known: bool = False
    can_lower: bool = False          # the graph accepts a parent's lower limits for today


@dataclass(slots=True)
class SessionView:
    session_id: str
    started: float
    length_s: float
    turns: int
    end_reason: str                  # goodbye, limit, HC-9, server down, ... in words
    mood_mix: dict[str, float]       # class -> share of the session's time
    open: bool = False


@dataclass(slots=True)
class AlertView:
    alert_id: str
    time: float
    rule_id: str                     # kept for the data; the page shows `what`
    sentence: str
    distress: bool                   # HC-9: shown first
    acknowledged: bool = False
    what: str = ""                   # what happened, in words (plain_words.RULE_WORDS)
    words: str = ""                  # the child's own words that worried Buddy (HC-9)
    session_id: str = ""             # the conversation it happened in (names the child)


@dataclass(slots=True)
class ChildView:
    """A child of the household as the parent page lists and edits it (issue 30)."""

    user_id: str
    name: str
    birthdate: str = ""              # YYYY-MM-DD or ""
    addressing: str = ""


@dataclass(slots=True)
class MemoryView:
    tag: str
    category: str
    strength: float
    created: float
    last_reinforced: float
    reinforcement_count: int
    child: str = ""                  # whose memory, when the store says so


@dataclass(slots=True)
class ConsentView:
    child: str
    scope: str
    state: str                       # none | pending | granted | expired | revoked


@dataclass(slots=True)
class ActionResult:
    """The outcome of a parent action, as the graph reported it."""

    ok: bool
    message: str


@dataclass(slots=True)
class LoginResult:
    ok: bool
    token: str = ""
    expires_in_s: float = 0.0
    message: str = ""
    retry_after_s: float = 0.0


def to_json(value: Any) -> Any:
    """Records (and lists and dicts of them) as JSON-ready values."""
    if hasattr(value, "__dataclass_fields__"):
        return asdict(value)
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    return value
