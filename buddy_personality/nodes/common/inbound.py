"""Every inbound message is checked at the subscription, before any node code sees it
(DESIGN §5 bad input; issue 31 item 1).

Why: a `face/state` with intensity 1e308 passed the dashboard's `isfinite` check, and
`round(1e308 * 20)` raised OverflowError, which ended `buddy run` and every node in it.
Each node checked some fields, in its own way; one forgotten field was enough. Here the
documented range of every float field of every message a node subscribes to is data
(RANGES, from the comments of buddy_msgs/msg/*.msg), and `InboundChecks`, mixed into
every node, puts `check` in front of each subscription callback:

- NaN and ±inf are refused (a clamped NaN means nothing), counted as `nan`/`infinite`;
- a finite value outside its range is clamped or refused, per field (RANGES says which
  and why; the rule of thumb: a *state* someone else computed is clamped, since showing
  the nearest valid value beats showing nothing; an *input that asks for an action*
  (a suggestion, a governor signal, an identity claim) is refused, since the spec refuses
  it; CORE leaves the range to the receiving core, which clamps or refuses with a
  counter of its own that tests and the parent's monitor already read);
- an integer field whose values are a buddy_msgs enumeration (msg_constants.MESSAGE_ENUMS)
  refuses any other value (`unknown_enum`);
- strings and sequences are truncated to a bound (DESIGN §5: oversize strings are
  truncated), so a 1 MB string is never copied further into the node.

Refusals, clamps and truncations are counted in the node's RejectionLog (its
/diagnostics `rejected.*` keys), each cause logged once.

What this cannot bound: the memory DDS uses before a message reaches Python. After one
1 MB string on every inbound topic `buddy run` stays about 70 MiB larger (133 -> 203
MiB), then grows only a few MiB per further round (207, 213): a high-water mark of the
middleware's per-subscription buffers, not a leak and not Python's (the strings are
truncated here; fixed glibc malloc thresholds change nothing, so the memory is held, not
cached). Bounding it needs bounded strings in buddy_msgs (`string<=N`), from which the
middleware can size its buffers and refuse larger samples (not tried: it changes every
message definition and the recorded bags' types).
"""

from __future__ import annotations

import functools
import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from buddy_personality.msg_constants import MESSAGE_ENUMS
from buddy_personality.nodes.common.rejections import RejectionLog


class OutOfRange(StrEnum):
    CLAMP = "clamp"     # to the nearest bound, counted as `clamped`
    REJECT = "reject"   # the whole message, counted as `out_of_range`
    CORE = "core"       # passed on: the receiving core applies the range and counts it


CLAMP, REJECT, CORE = OutOfRange.CLAMP, OutOfRange.REJECT, OutOfRange.CORE


@dataclass(slots=True, frozen=True)
class Range:
    """The documented range of one float field, and what a value outside it does.
    `cause` (optional) is the counter every refusal of this field goes to, where the
    node already had a name for it."""

    lo: float
    hi: float
    out_of_range: OutOfRange
    cause: str = ""


UNIT = (0.0, 1.0)
SIGNED = (-1.0, 1.0)
DAY_S = 86_400.0
# GovernorState pressures are unbounded accumulators (spec 001 §2); this bound only keeps
# arithmetic on them finite (x * 20 of 1e308 is inf). Spec 001's dynamics stay far below.
PRESSURE_BOUND = 1e6
EPOCH_MAX_S = 1e11   # wall-clock seconds since 1970: year 5138

# message type (package/Name) -> float field -> Range. Every float field of every message
# a node subscribes to must be here (test_inbound_checks checks that).
RANGES: dict[str, dict[str, Range]] = {
    # spec 000 intent gate / DESIGN §6.7: a suggestion outside [0, 1] is refused (the
    # personality's gate refuses it too; the face's backstop must not show it either).
    "buddy_msgs/AiEmotion": {
        "intensity": Range(*UNIT, REJECT),
        "confidence": Range(*UNIT, REJECT),
    },
    # What the face shows: a state, clamped (the parent page draws the nearest face).
    "buddy_msgs/FaceState": {
        "intensity": Range(*UNIT, CLAMP),
        "snapshot_age_s": Range(-1.0, DAY_S, CLAMP),   # -1: no snapshot yet
    },
    # spec 001 §3: the governor refuses a bad signal (counters nan / infinite /
    # out_of_range, the governor core's own names).
    "buddy_msgs/GovernorSignal": {
        "reward": Range(*SIGNED, REJECT),
        "novelty": Range(*UNIT, REJECT),
        "urgency": Range(*UNIT, REJECT),
        "difficulty": Range(*UNIT, REJECT),
    },
    # The governor's own state: budgets in [0, 1], pressures finite.
    "buddy_msgs/GovernorState": {
        **{f: Range(*UNIT, CLAMP) for f in ("effort", "persistence", "risk", "exploration")},
        **{f: Range(-PRESSURE_BOUND, PRESSURE_BOUND, CLAMP)
           for f in ("confidence", "frustration", "curiosity", "arousal", "risk_pressure")},
    },
    # spec 004: a claim with an impossible confidence is refused (identity's counter).
    "buddy_msgs/IdentityEvent": {
        "confidence": Range(*UNIT, REJECT, cause="bad_confidence"),
    },
    # The personality's state, rendered into words by the bridge: clamped.
    "buddy_msgs/LlmProfile": {
        "intensity": Range(*UNIT, CLAMP),
        **{f: Range(*SIGNED, CLAMP)
           for f in ("valence", "arousal", "tonic_valence", "tonic_arousal")},
    },
    # spec 002 §8.1: a tag's bias is at most 0.1 VA units; the personality's memory
    # store refuses the one tag that is outside (counter memory_tag), not the others.
    "buddy_msgs/MemoryTag": {
        "valence_bias": Range(-0.1, 0.1, CORE),
        "arousal_bias": Range(-0.1, 0.1, CORE),
    },
    # A stored memory as the parent viewer shows it (a service reply, not subscribed).
    "buddy_msgs/MemoryEntry": {
        "strength": Range(*UNIT, CLAMP),
        "valence_bias": Range(-0.1, 0.1, CLAMP),
        "arousal_bias": Range(-0.1, 0.1, CLAMP),
        "created": Range(0.0, EPOCH_MAX_S, CLAMP),
        "last_reinforced": Range(0.0, EPOCH_MAX_S, CLAMP),
    },
    "buddy_msgs/MoodChanged": {"intensity": Range(*UNIT, CLAMP)},
    # spec 002 §10.5: the engine's state, clamped (the face shows the nearest).
    "buddy_msgs/PersonalitySnapshot": {
        "intensity": Range(*UNIT, CLAMP),
        **{f: Range(*SIGNED, CLAMP)
           for f in ("valence", "arousal", "tonic_valence", "tonic_arousal")},
    },
    # issue 19: the face core clamps a battery level to 0-100 % and counts it
    # (battery_clamped); -1 means "not a battery event".
    "buddy_msgs/SystemEvent": {"battery_pct": Range(-1.0, 100.0, CORE)},
    # Today's talk against the limits (spec 002 §9.3): seconds within a day.
    "buddy_msgs/UsageState": {
        f: Range(0.0, DAY_S, CLAMP)
        for f in ("session_s", "daily_s", "session_limit_s", "daily_limit_s")
    },
    # A recogniser's score, informative only.
    "buddy_msgs/Utterance": {"confidence": Range(*UNIT, CLAMP)},
    # tts/energy: the mouth's loudness (DESIGN §4.7), a level in [0, 1].
    "std_msgs/Float32": {"data": Range(*UNIT, CLAMP)},
    "std_msgs/Float64": {"data": Range(*UNIT, CLAMP)},
    # tts/played (erratum 24): [played_at, samples...]; speech/played.py refuses a
    # message with a non-finite value or too many samples (asr's bad_played_audio), so
    # 16,000 samples a second are not looked at one by one here.
    "std_msgs/Float64MultiArray": {"data": Range(-math.inf, math.inf, CORE)},
}

# Strings: at most this many characters unless TEXT_MAX says otherwise. Ids, names and
# rule ids are far shorter; the bound only keeps a 1 MB string out of every copy.
TEXT_DEFAULT_MAX = 256
TEXT_MAX: dict[tuple[str, str], int] = {
    # Free text, longer than any node's own bound (the bridge truncates an utterance at
    # 2000 and counts it as utterance_truncated; a reply line is a few sentences).
    ("buddy_msgs/Utterance", "text"): 4096,
    ("buddy_msgs/Say", "text"): 4096,
    ("buddy_msgs/GuardrailEvent", "details"): 1024,
    ("buddy_msgs/SystemEvent", "detail"): 1024,
    ("buddy_msgs/AiEmotion", "mood_reason"): 1024,
    # Read by the dashboard and the console: a node's status line and counters, and a
    # log line (an isolated callback's traceback is one), not to be cut in normal use.
    ("diagnostic_msgs/DiagnosticStatus", "message"): 4096,
    ("diagnostic_msgs/KeyValue", "value"): 4096,
    ("rcl_interfaces/Log", "msg"): 65_536,
}
# By field name, in every message: a session id is 24 hex characters (session_ids.py);
# the personality's resume file holds one of at most 128 (resume.py), so a longer one
# must not get past the subscription (the fuzz test's 1 MB id, cut to 256, failed the
# state file's schema inside a callback).
TEXT_MAX_BY_FIELD: dict[str, int] = {"session_id": 128}
SEQUENCE_DEFAULT_MAX = 64
SEQUENCE_MAX: dict[tuple[str, str], int] = {
    ("buddy_msgs/ConsentState", "records"): 256,   # users x scopes of one household
    ("std_msgs/Float64MultiArray", "data"): 65_536,    # tts/played: a second is 16,001
    ("diagnostic_msgs/DiagnosticStatus", "values"): 1024,   # a node's counters
}
FLOAT_TYPES = frozenset({"float", "double"})
INT_TYPES = frozenset({"octet", "char", "uint8", "int8", "uint16", "int16", "uint32",
                       "int32", "uint64", "int64"})
DETAIL_MAX = 80


def text_limit(message_type: str, field_name: str) -> int:
    """The most characters a string field of `message_type` may carry in."""
    return TEXT_MAX.get((message_type, field_name),
                        TEXT_MAX_BY_FIELD.get(field_name, TEXT_DEFAULT_MAX))


@dataclass(slots=True, frozen=True)
class Refusal:
    cause: str
    detail: str


class Refused(Exception):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.detail)
        self.refusal = refusal


Note = Callable[[str, str], None]   # (cause, detail) of a clamp or a truncation


def _type_key(msg_type: type) -> str:
    """package/Name of a generated message class (buddy_msgs.msg._face_state.FaceState)."""
    return f"{msg_type.__module__.split('.')[0]}/{msg_type.__name__}"


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return f"<{len(value)} chars>" if len(value) > DETAIL_MAX else repr(value)
    return repr(value)[:DETAIL_MAX]


@dataclass(slots=True)
class _Field:
    name: str
    kind: str                       # float, floats, int_enum, text, texts, message(s)
    label: str                      # Type.field, for logs
    rule: Range | None = None
    allowed: frozenset[int] = frozenset()
    limit: int = 0                  # characters (text) or elements (sequences)
    text_limit: int = 0             # texts: characters of each element
    nested: MessageCheck | None = None


@dataclass(slots=True)
class MessageCheck:
    """The compiled checks of one message type (built once per type, from RANGES,
    TEXT_MAX, SEQUENCE_MAX and MESSAGE_ENUMS)."""

    key: str
    fields: list[_Field] = field(default_factory=list)

    def check(self, msg: Any, note: Note) -> None:
        """Clamps and truncates `msg` in place; raises Refused for a message that must
        not reach the node."""
        for f in self.fields:
            value = getattr(msg, f.name)
            if f.kind == "float":
                self._check_float(msg, f, value, note)
            elif f.kind == "floats":
                self._check_floats(f, value)
            elif f.kind == "int_enum":
                if value not in f.allowed:
                    raise Refused(Refusal("unknown_enum", f"{f.label} {value}"))
            elif f.kind == "text":
                if len(value) > f.limit:
                    note("truncated", f"{f.label} {_shown(value)}")
                    setattr(msg, f.name, value[:f.limit])
            elif f.kind == "texts":
                if len(value) > f.limit or any(len(s) > f.text_limit for s in value):
                    note("truncated", f"{f.label}: {len(value)} strings")
                    setattr(msg, f.name, [s[:f.text_limit] for s in value[:f.limit]])
            elif f.kind == "message":
                assert f.nested is not None
                f.nested.check(value, note)
            elif f.kind == "messages":
                assert f.nested is not None
                if len(value) > f.limit:
                    note("truncated", f"{f.label}: {len(value)} elements")
                    value = value[:f.limit]
                    setattr(msg, f.name, value)
                for element in value:
                    f.nested.check(element, note)

    @staticmethod
    def _check_floats(f: _Field, values: Any) -> None:
        """A float sequence: refused when longer than its bound (truncating samples
        would change what they mean); its elements are checked unless the range is
        the receiving core's (CORE)."""
        if len(values) > f.limit:
            raise Refused(Refusal("too_long", f"{f.label}: {len(values)} values"))
        rule = f.rule
        assert rule is not None
        if rule.out_of_range is CORE:
            return
        for value in values:
            if not (math.isfinite(value) and rule.lo <= value <= rule.hi):
                raise Refused(Refusal(rule.cause or "out_of_range", f"{f.label} {value}"))

    @staticmethod
    def _check_float(msg: Any, f: _Field, value: float, note: Note) -> None:
        rule = f.rule
        assert rule is not None
        if not math.isfinite(value):
            cause = rule.cause or ("nan" if math.isnan(value) else "infinite")
            raise Refused(Refusal(cause, f"{f.label} {value}"))
        if rule.lo <= value <= rule.hi or rule.out_of_range is CORE:
            return
        if rule.out_of_range is REJECT:
            raise Refused(Refusal(rule.cause or "out_of_range",
                                  f"{f.label} {value!r} outside [{rule.lo}, {rule.hi}]"))
        clamped = min(max(value, rule.lo), rule.hi)
        note("clamped", f"{f.label} {value!r} to {clamped}")
        setattr(msg, f.name, clamped)


_CHECKS: dict[type, MessageCheck | None] = {}


# Float fields found without a range in RANGES (type/field). They are still checked
# (non-finite refused) but not bounded: test_inbound.py fails while this is not empty for
# any buddy_msgs message or any message a node subscribes to.
UNDOCUMENTED: set[str] = set()
FINITE_ONLY = Range(-math.inf, math.inf, CORE)


def message_check(msg_type: type) -> MessageCheck | None:
    """The checks of `msg_type`, or None if it has nothing to check (std_msgs/Bool)."""
    if msg_type not in _CHECKS:
        built = _compile(msg_type)
        _CHECKS[msg_type] = built if built.fields else None
    return _CHECKS[msg_type]


def _nested_type(type_name: str) -> type:
    package, _, name = type_name.partition("/")
    return getattr(importlib.import_module(f"{package}.msg"), name)


def _compile(msg_type: type) -> MessageCheck:
    key = _type_key(msg_type)
    short = msg_type.__name__
    ranges = RANGES.get(key, {})
    check = MessageCheck(key)
    for name, type_name in msg_type.get_fields_and_field_types().items():
        label = f"{short}.{name}"
        base = type_name.split("<", 1)[0]
        if type_name in FLOAT_TYPES:
            if name not in ranges:
                UNDOCUMENTED.add(f"{key}.{name}")
            check.fields.append(_Field(name, "float", label,
                                       rule=ranges.get(name, FINITE_ONLY)))
        elif type_name in INT_TYPES:
            enum = MESSAGE_ENUMS.get((short, name))
            if enum is not None and key.startswith("buddy_msgs/"):
                check.fields.append(_Field(name, "int_enum", label,
                                           allowed=frozenset(int(v) for v in enum[0])))
        elif base in ("string", "wstring"):
            check.fields.append(_Field(name, "text", label,
                                       limit=text_limit(key, name)))
        elif base == "sequence":
            inner = type_name[len("sequence<"):-1].split(",", 1)[0]
            limit = SEQUENCE_MAX.get((key, name), SEQUENCE_DEFAULT_MAX)
            if inner.split("<", 1)[0] in ("string", "wstring"):
                check.fields.append(_Field(name, "texts", label, limit=limit,
                                           text_limit=text_limit(key, name)))
            elif "/" in inner:
                nested = message_check(_nested_type(inner))
                if nested is not None:
                    check.fields.append(_Field(name, "messages", label, limit=limit,
                                               nested=nested))
            elif inner in FLOAT_TYPES:
                if name not in ranges:
                    UNDOCUMENTED.add(f"{key}.{name}")
                check.fields.append(_Field(name, "floats", label, limit=limit,
                                           rule=ranges.get(name, FINITE_ONLY)))
        elif "/" in type_name:
            nested = message_check(_nested_type(type_name))
            if nested is not None:
                check.fields.append(_Field(name, "message", label, nested=nested))
    return check


def checked(msg_type: type, callback: Callable[[Any], None],
            rejections: Callable[[], RejectionLog]) -> Callable[[Any], None]:
    """`callback` behind the checks of `msg_type`: a refused message is counted in
    `rejections()` and never reaches it; clamps and truncations are counted and passed."""
    check = message_check(msg_type)
    if check is None:
        return callback

    def note(cause: str, detail: str) -> None:
        rejections().reject(cause, detail)

    @functools.wraps(callback)
    def on_message(msg: Any) -> None:
        try:
            check.check(msg, note)
        except Refused as refused:
            rejections().reject(refused.refusal.cause, refused.refusal.detail)
            return
        callback(msg)

    return on_message


class InboundChecks:
    """Mixed into every Buddy node, before rclpy's Node: each subscription it creates
    gets `checked` in front of its callback. Refusals are counted in the node's
    `_rejections` (created here when the node has none of its own)."""

    _rejections: RejectionLog

    def create_subscription(self, msg_type: Any, topic: str, callback: Callable[..., Any],
                            qos_profile: Any, **kwargs: Any) -> Any:
        if not kwargs.get("raw", False):
            callback = checked(msg_type, callback, self.inbound_rejections)
        return super().create_subscription(  # type: ignore[misc]
            msg_type, topic, callback, qos_profile, **kwargs)

    def inbound_rejections(self) -> RejectionLog:
        log = self.__dict__.get("_rejections")
        if log is None:
            log = self._rejections = RejectionLog(
                self.get_logger().warning)  # type: ignore[attr-defined]
        return log
