"""Every buddy_msgs message and service: importable, and every field survives
serialize/deserialize with a non-default value (issue 2). Plus the named contract
that other issues rely on (DESIGN §3)."""

from __future__ import annotations

import importlib
import itertools
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("rclpy", reason="rclpy is not importable (run `make setup`)")
from rclpy.serialization import deserialize_message, serialize_message

MSGS_DIR = Path(__file__).resolve().parents[3] / "buddy_msgs"
MESSAGES = sorted(p.stem for p in (MSGS_DIR / "msg").glob("*.msg"))
SERVICES = sorted(p.stem for p in (MSGS_DIR / "srv").glob("*.srv"))

_values = itertools.count(3)


def _nondefault(type_name: str) -> Any:
    """A value different from the type's default, distinct per call."""
    n = next(_values)
    if type_name.startswith("sequence<"):
        inner = type_name[len("sequence<"):-1].split(",", maxsplit=1)[0]
        return [_nondefault(inner), _nondefault(inner)]
    if type_name in ("string", "wstring") or type_name.startswith("string<"):
        return f"value_{n}"
    if type_name == "boolean":
        return True
    if type_name in ("float", "double"):
        return n + 0.25
    if type_name in ("octet", "char", "uint8", "int8", "uint16", "int16", "uint32", "int32",
                     "uint64", "int64"):
        return n % 100 + 1
    pkg, _, name = type_name.partition("/")
    module = importlib.import_module(f"{pkg}.msg")
    return _filled(getattr(module, name)())


def _filled(msg: Any) -> Any:
    for field, type_name in msg.get_fields_and_field_types().items():
        setattr(msg, field, _nondefault(type_name))
    return msg


@pytest.mark.parametrize("name", MESSAGES)
def test_message_round_trips_with_every_field_set(name: str) -> None:
    cls = getattr(importlib.import_module("buddy_msgs.msg"), name)
    original = _filled(cls())
    assert original != cls(), "the filled message must differ from the default"
    copy = deserialize_message(serialize_message(original), cls)
    assert copy == original


@pytest.mark.parametrize("name", SERVICES)
def test_service_round_trips_with_every_field_set(name: str) -> None:
    srv = getattr(importlib.import_module("buddy_msgs.srv"), name)
    for part in (srv.Request, srv.Response):
        original = _filled(part())
        assert deserialize_message(serialize_message(original), part) == original


# The contract named in issue 2 and DESIGN §3: names other issues and tools rely on.
REQUIRED_FIELDS: dict[str, set[str]] = {
    "PersonalitySnapshot": {"header", "mood", "intensity", "valence", "arousal",
                            "tonic_valence", "tonic_arousal", "layer",
                            "conversation_active", "idle_state"},
    "AiEmotion": {"header", "emotion", "intensity", "confidence", "source", "mood_reason",
                  "session_id", "turn_id"},
    "GovernorSignal": {"reward", "novelty", "urgency", "difficulty"},
    "GovernorState": {"state", "halt_reason", "effort", "persistence", "risk", "exploration",
                      "confidence", "frustration", "curiosity", "arousal", "risk_pressure",
                      "step", "episode_id"},
    "IdentityEvent": {"kind", "user_id", "confidence"},
    "IdentityState": {"state", "user_id", "addressing_state", "preferred_name", "age_group",
                      "conversation_mode", "child_safe"},
    "Utterance": {"text", "session_id", "is_final", "confidence"},
    "Say": {"text", "emotion"},
    "ConversationEvent": {"header", "session_id", "trigger", "turns"},
    "SystemEvent": {"header", "kind", "battery_pct", "detail"},
    "MemoryEntry": {"tag", "category", "strength", "created", "last_reinforced",
                    "reinforcement_count"},
    "MoodChanged": {"prev", "next", "cause"},
    "GuardrailEvent": {"rule_id", "action", "details"},
    "LlmProfile": {"mood", "intensity", "valence", "arousal", "tonic_valence",
                   "tonic_arousal", "turn_id", "memory_tags", "conversation_arc", "layer"},
    "FaceState": {"mood", "intensity", "conv_state", "connected", "protocol_version",
                  "backstop_active"},
}

REQUIRED_CONSTANTS: dict[str, dict[str, Any]] = {
    "AiEmotion": {"SOURCE_INLINE": 0, "SOURCE_HYBRID": 1, "SOURCE_POST": 2},
    "GovernorState": {"IDLE": 0, "RECOVERING": 1, "HALTED": 2, "HALT_SAFETY": "SAFETY",
                      "HALT_OVERRISK": "OVERRISK", "HALT_EXHAUSTION": "EXHAUSTION",
                      "HALT_STAGNATION": "STAGNATION", "HALT_EXTERNAL": "EXTERNAL"},
    # Same numbers as the face protocol's conversation states (face-protocol.md).
    "ConversationPhase": {"IDLE": 0, "ATTENTION": 1, "LISTENING": 2, "PTT": 3, "THINKING": 4,
                          "SPEAKING": 5, "ERROR": 6, "DONE": 7},
    # Face protocol gesture ids.
    "Gesture": {"BLINK": 0, "WINK_L": 1, "WINK_R": 2, "CONFUSED": 3, "LAUGH": 4,
                "SURPRISE": 5, "HEART": 6, "X_EYES": 7, "SLEEPY": 8, "RAGE": 9, "NOD": 10,
                "HEADSHAKE": 11, "WIGGLE": 12},
    "ButtonEvent": {"BUTTON_PTT": 0, "BUTTON_ACTION": 1, "PRESS": 0, "RELEASE": 1,
                    "TOGGLE": 2, "CLICK": 3},
}
SYSTEM_EVENT_KINDS = ("BOOT", "LOW_BATTERY", "CRITICAL_BATTERY", "FAULT_RAISED",
                      "FAULT_CLEARED", "SERVER_ONLINE", "SERVER_OFFLINE")
IDENTITY_EVENT_KINDS = ("VOICE_SIGNAL", "FACE_SIGNAL", "SATELLITE_IDENTITY",
                        "EXPLICIT_IDENTITY_CLAIM", "VALIDATION_SUCCESS", "VALIDATION_FAILURE",
                        "TIMEOUT", "STRONG_CONFLICT", "SPEAKING_TURN", "SILENCE_TIMEOUT",
                        "END_CONVERSATION", "CLARIFICATION_SUCCESS")
IDENTITY_STATES = ("UNKNOWN", "PROBABLE", "CONFIRMED", "CONFIRMED_ACTIVE", "AMBIGUOUS",
                   "REJECTED", "PRIVATE", "SHARED_VERIFIED", "SHARED_UNVERIFIED")
REQUIRED_MESSAGES = ("PersonalitySnapshot", "AiEmotion", "ConversationEvent",
                     "ConversationPhase", "SystemEvent", "MemoryTag", "MemoryExtract",
                     "MemoryEntry", "MoodChanged", "GuardrailEvent", "LlmProfile",
                     "GovernorSignal", "GovernorState", "IdentityEvent", "IdentityState",
                     "ConsentEvent", "ConsentState", "ButtonEvent", "TouchEvent", "FaceState",
                     "Gesture", "Utterance", "Say")


def test_every_required_message_exists() -> None:
    assert set(REQUIRED_MESSAGES) <= set(MESSAGES)


@pytest.mark.parametrize("name", sorted(REQUIRED_FIELDS))
def test_required_fields(name: str) -> None:
    cls = getattr(importlib.import_module("buddy_msgs.msg"), name)
    assert REQUIRED_FIELDS[name] <= set(cls.get_fields_and_field_types())


@pytest.mark.parametrize("name", sorted(REQUIRED_CONSTANTS))
def test_required_constants(name: str) -> None:
    cls = getattr(importlib.import_module("buddy_msgs.msg"), name)
    for const, value in REQUIRED_CONSTANTS[name].items():
        assert getattr(cls, const) == value, const


def test_enumerations_named_after_the_spec() -> None:
    from buddy_msgs.msg import IdentityEvent, IdentityState, SystemEvent

    kinds = [getattr(SystemEvent, k) for k in SYSTEM_EVENT_KINDS]
    assert len(set(kinds)) == len(kinds)
    ids = [getattr(IdentityEvent, k) for k in IDENTITY_EVENT_KINDS]
    assert len(set(ids)) == len(ids)
    for const in IDENTITY_STATES:
        assert hasattr(IdentityState, const)
    for group in ("UNKNOWN", "CHILD", "TEEN", "ADULT"):
        assert hasattr(IdentityState, f"AGE_{group}")
