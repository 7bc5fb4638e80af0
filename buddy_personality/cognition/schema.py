"""The LLM's response: spec 002 §12.3 schema V2 plus spec 003 §5 `intention_updates`.

`ConversationResponseV2` is the strict pydantic model whose JSON schema is sent to the
server for guided decoding (spec 002 §12.2). Answers are nevertheless validated field by
field (`validate_response`): a server without guided decoding, or a broken one, may send
anything, and one bad field should not cost the child a whole answer. Every part that is
dropped or corrected is reported with a reason; an answer without usable `text` is a
failure (the caller retries or falls back to layer 0).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from buddy_personality.cognition.vocabulary import (
    ARCS,
    CHILD_AFFECTS,
    GESTURES,
    MOOD_SET,
)

Mood = Literal[
    "neutral", "happy", "excited", "curious", "sad", "scared", "angry",
    "surprised", "sleepy", "love", "silly", "thinking", "confused",
]
GestureName = Literal[
    "blink", "wink_l", "wink_r", "confused", "laugh", "surprise", "heart", "x_eyes",
    "sleepy", "rage", "nod", "headshake", "wiggle",
]
IntentionType = Literal[
    "be_gentle", "avoid_topic", "follow_up", "encourage", "redirect_to_adult",
    "keep_short", "play_game", "celebrate",
]

# Length caps (spec 002 §12.3-§12.4): text is "1-3 sentences, up to 5"; mood_reason is
# 5-15 words; inner_thought 1-2 sentences. Characters cap what a broken server can send.
MAX_TEXT_CHARS = 400
MAX_TEXT_SENTENCES = 5
MAX_MOOD_REASON_WORDS = 15
MAX_INNER_THOUGHT_CHARS = 300
MAX_GESTURES = 2
MAX_MEMORY_TAGS = 3
MAX_INTENTION_UPDATES = 3
MAX_DESCRIPTION_CHARS = 80
TAG_MIN_CHARS = 2   # buddy_msgs/MemoryTag: snake_case, 2-48 chars
TAG_MAX_CHARS = 48
DEFAULT_INTENSITY = 0.5  # when the answer's intensity is missing or invalid


class IntentionUpdateV1(BaseModel):
    """spec 003 §5 intention update (no numbers: the store maps it deterministically)."""

    model_config = ConfigDict(extra="ignore")
    operation: Literal["create", "boost", "lower", "drop"]
    type: IntentionType
    target: str | None = Field(default=None, max_length=TAG_MAX_CHARS)
    horizon: Literal["short", "medium", "long"] = "short"
    description: str = Field(default="", max_length=MAX_DESCRIPTION_CHARS)


class ConversationResponseV2(BaseModel):
    """spec 002 §12.3, field order kept: `inner_thought` first (structured reasoning)."""

    model_config = ConfigDict(extra="ignore")
    inner_thought: str = Field(max_length=MAX_INNER_THOUGHT_CHARS)
    emotion: Mood
    intensity: float = Field(ge=0.0, le=1.0)
    mood_reason: str = Field(max_length=160)
    emotional_arc: Literal["rising", "stable", "falling", "peak", "recovery"]
    child_affect: Literal["positive", "neutral", "negative", "unclear"]
    text: str = Field(min_length=1, max_length=MAX_TEXT_CHARS)
    gestures: list[GestureName] = Field(default_factory=list, max_length=MAX_GESTURES)
    memory_tags: list[str] = Field(default_factory=list, max_length=MAX_MEMORY_TAGS)
    intention_updates: list[IntentionUpdateV1] = Field(
        default_factory=list, max_length=MAX_INTENTION_UPDATES
    )


@functools.cache
def _response_json_schema_text() -> str:
    return json.dumps(ConversationResponseV2.model_json_schema())


def response_json_schema() -> dict[str, Any]:
    """The JSON schema for `response_format` (spec 002 §12.2 guided decoding).

    Generated once: pydantic takes 1-3 ms to build it, on the path of every request
    (end-to-end benchmark). A fresh copy each call, so no caller can change another's.
    """
    return json.loads(_response_json_schema_text())


@dataclass(slots=True, frozen=True)
class IntentionUpdate:
    operation: str
    type: str
    target: str | None
    horizon: str
    description: str


@dataclass(slots=True, frozen=True)
class CognitionResponse:
    """A validated answer: every field is safe to use as is."""

    text: str
    emotion: str | None           # None when the answer's emotion was invalid
    intensity: float
    mood_reason: str
    emotional_arc: str | None
    child_affect: str
    inner_thought: str
    gestures: tuple[str, ...]
    memory_tags: tuple[str, ...]
    intention_updates: tuple[IntentionUpdate, ...]


@dataclass(slots=True)
class ValidationOutcome:
    response: CognitionResponse | None
    dropped: list[str] = field(default_factory=list)  # "field: reason" for each dropped part
    failure: str = ""                                  # set when response is None


_TAG_CLEAN = re.compile(r"[^a-z0-9]+")
# HC-3 (spec 002 §9.3): memory holds semantic labels only, never emotional profiling,
# and names come from household profiles only (spec 004), never from the LLM.
PROFILING_WORDS: frozenset[str] = frozenset({
    "sad", "angry", "scared", "afraid", "upset", "cries", "crying", "cry", "lonely",
    "anxious", "anxiety", "depressed", "mad", "fear", "fears", "worried", "unhappy",
    "tantrum", "tantrums", "nervous", "moody",
})
NAME_PREFIXES: tuple[str, ...] = ("name_", "named_", "is_called_", "called_", "name_is_")


def sanitise_tag(raw: Any) -> tuple[str | None, str]:
    """A short snake_case label, or None with the reason it was dropped."""
    if not isinstance(raw, str):
        return None, "not a string"
    tag = _TAG_CLEAN.sub("_", raw.strip().lower()).strip("_")
    if len(tag) > TAG_MAX_CHARS:
        # Cut at a word boundary so the label stays meaningful.
        tag = tag[:TAG_MAX_CHARS].rsplit("_", 1)[0] if "_" in tag[:TAG_MAX_CHARS] else ""
    if len(tag) < TAG_MIN_CHARS:
        return None, "too short after cleaning"
    words = tag.split("_")
    if sum(ch.isdigit() for ch in tag) > 0 and all(w.isdigit() for w in words):
        return None, "only digits"
    if any(w in PROFILING_WORDS for w in words):
        return None, "emotional profiling (HC-3)"
    if tag.startswith(NAME_PREFIXES) or tag == "name":
        return None, "names come from household profiles only"
    return tag, ""


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def cap_text(text: str) -> str:
    """At most MAX_TEXT_SENTENCES whole sentences within MAX_TEXT_CHARS (§12.4).

    Only whole sentences are kept: a reply is never cut mid-sentence or mid-word (issue
    19: a 20 kB reply was spoken as 399 characters cut mid-word). A reply whose first
    sentence alone passes the limit gives "" (the caller refuses it as schema-breaking).
    """
    text = " ".join(text.split())
    kept: list[str] = []
    length = 0
    for sentence in _SENTENCE_END.split(text)[:MAX_TEXT_SENTENCES]:
        added = len(sentence) + (1 if kept else 0)
        if length + added > MAX_TEXT_CHARS:
            break
        kept.append(sentence)
        length += added
    return " ".join(kept)


def _cap_words(text: str, n: int) -> str:
    return " ".join(text.split()[:n])


_INTENTION_ADAPTER = TypeAdapter(IntentionUpdateV1)
KNOWN_FIELDS = frozenset(ConversationResponseV2.model_fields)
MAX_UNKNOWN_REPORTED = 3


def validate_response(data: Any) -> ValidationOutcome:
    """Validate a decoded answer field by field; see the module docstring."""
    if not isinstance(data, dict):
        return ValidationOutcome(None, [], "answer is not a JSON object")
    dropped: list[str] = []
    text_raw = data.get("text")
    if not isinstance(text_raw, str) or not text_raw.strip():
        return ValidationOutcome(None, [], "no usable text")
    text = cap_text(text_raw)
    if not text:
        return ValidationOutcome(None, [], "text: no whole sentence within the spoken-length "
                                 f"limit ({MAX_TEXT_CHARS} characters)")
    if len(text) < len(" ".join(text_raw.split())):
        dropped.append("text: shortened to the length cap")

    emotion: str | None = data.get("emotion")
    if isinstance(emotion, str):
        emotion = emotion.strip().lower()
    if emotion not in MOOD_SET:
        dropped.append(f"emotion: not one of the 13 canonical moods ({str(emotion)[:20]!r})")
        emotion = None

    intensity = data.get("intensity")
    if isinstance(intensity, bool) or not isinstance(intensity, (int, float)) or not (
        0.0 <= float(intensity) <= 1.0
    ):
        dropped.append("intensity: missing or outside [0, 1]")
        intensity = DEFAULT_INTENSITY
    intensity = float(intensity)

    mood_reason = data.get("mood_reason", "")
    if not isinstance(mood_reason, str):
        dropped.append("mood_reason: not a string")
        mood_reason = ""
    mood_reason = _cap_words(mood_reason, MAX_MOOD_REASON_WORDS)

    arc = data.get("emotional_arc")
    if arc not in ARCS:
        dropped.append("emotional_arc: not an allowed value")
        arc = None

    child_affect = data.get("child_affect")
    if child_affect not in CHILD_AFFECTS:
        dropped.append("child_affect: not an allowed value")
        child_affect = "unclear"

    inner = data.get("inner_thought", "")
    if not isinstance(inner, str):
        inner = ""
    inner = inner[:MAX_INNER_THOUGHT_CHARS]

    gestures: list[str] = []
    raw_gestures = data.get("gestures", [])
    if not isinstance(raw_gestures, list):
        dropped.append("gestures: not a list")
        raw_gestures = []
    for g in raw_gestures:
        if not isinstance(g, str) or g.strip().lower() not in GESTURES:
            dropped.append(f"gestures: unknown gesture {str(g)[:20]!r}")
        elif len(gestures) >= MAX_GESTURES:
            dropped.append("gestures: more than the cap")
        elif g.strip().lower() not in gestures:
            gestures.append(g.strip().lower())

    tags: list[str] = []
    raw_tags = data.get("memory_tags", [])
    if not isinstance(raw_tags, list):
        dropped.append("memory_tags: not a list")
        raw_tags = []
    for t in raw_tags:
        tag, reason = sanitise_tag(t)
        if tag is None:
            dropped.append(f"memory_tags: {str(t)[:24]!r} {reason}")
        elif len(tags) >= MAX_MEMORY_TAGS:
            dropped.append("memory_tags: more than the cap")
        elif tag not in tags:
            tags.append(tag)

    updates: list[IntentionUpdate] = []
    raw_updates = data.get("intention_updates", [])
    if not isinstance(raw_updates, list):
        dropped.append("intention_updates: not a list")
        raw_updates = []
    for u in raw_updates:
        try:
            m = _INTENTION_ADAPTER.validate_python(u)
        except ValidationError as exc:
            dropped.append(f"intention_updates: invalid ({exc.error_count()} errors)")
            continue
        if len(updates) >= MAX_INTENTION_UPDATES:
            dropped.append("intention_updates: more than the cap")
            continue
        target = None
        if m.target:
            target, reason = sanitise_tag(m.target)
            if target is None:
                dropped.append(f"intention_updates: target {reason}")
        updates.append(IntentionUpdate(m.operation, m.type, target, m.horizon,
                                       " ".join(m.description.split())))

    # Fields the schema does not have are not used; say so (issue 14: a server that
    # breaks the schema is reported, not silently half-trusted).
    unknown = sorted(str(k) for k in data if k not in KNOWN_FIELDS)
    dropped.extend(f"unknown field {k[:24]!r} ignored" for k in unknown[:MAX_UNKNOWN_REPORTED])
    if len(unknown) > MAX_UNKNOWN_REPORTED:
        dropped.append(f"{len(unknown) - MAX_UNKNOWN_REPORTED} more unknown fields ignored")

    return ValidationOutcome(
        CognitionResponse(
            text=text, emotion=emotion, intensity=intensity, mood_reason=mood_reason,
            emotional_arc=arc, child_affect=child_affect, inner_thought=inner,
            gestures=tuple(gestures), memory_tags=tuple(tags),
            intention_updates=tuple(updates),
        ),
        dropped,
    )


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def parse_answer_text(content: str) -> tuple[Any, str]:
    """Decode the model's content into JSON, tolerating an unguided server's wrapping.

    Returns (data, "") or (None, reason). Only used on answers; guided answers are plain
    JSON and take the first branch.
    """
    try:
        return json.loads(content), ""
    except (json.JSONDecodeError, TypeError):
        pass
    if not isinstance(content, str):
        return None, "content is not text"
    fenced = _FENCE.search(content)
    candidates = [fenced.group(1)] if fenced else []
    start, end = content.find("{"), content.rfind("}")
    if 0 <= start < end:
        candidates.append(content[start : end + 1])
    for c in candidates:
        try:
            return json.loads(c), ""
        except json.JSONDecodeError:
            continue
    return None, "malformed JSON"
