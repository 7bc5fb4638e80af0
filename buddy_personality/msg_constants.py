"""The constants of buddy_msgs, written once and importable without ROS (issue 28 item 2).

The cores import no ROS, so the numbers of the messages' enumerations (DESIGN §3:
"Enumerations are uint8 constants in the message") are repeated here, one enum per
message field; test/unit/interfaces/test_msg_constants.py checks every one against the
generated buddy_msgs classes, both ways (no constant missing, none different).

`MESSAGE_ENUMS` says which message field each enum is the value set of: the inbound
checks (nodes/common/inbound.py) reject any other value at the subscription.
The identity FSM's enums live with the identity core (identity/enums.py) and are
re-exported here, so there is still one copy of each number.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

from buddy_personality.identity.enums import (
    AddressingState,
    AgeGroup,
    ConsentEventKind,
    ConsentStateId,
    ConversationMode,
    IdentityEventKind,
    IdentityStateId,
)

__all__ = [
    "MESSAGE_ENUMS",
    "AddressingState",
    "AgeGroup",
    "Button",
    "ButtonAction",
    "ConsentEventKind",
    "ConsentScope",
    "ConsentStateId",
    "ConversationKind",
    "ConversationMode",
    "EmotionSource",
    "EndReason",
    "GestureId",
    "GovernorMode",
    "HaltReason",
    "IdentityEventKind",
    "IdentityStateId",
    "IdleState",
    "Layer",
    "MemoryCategory",
    "Phase",
    "StartTrigger",
    "SystemKind",
    "TouchAction",
]


class Phase(IntEnum):
    """ConversationPhase.phase (same numbers as the face protocol's SET_CONV_STATE)."""

    IDLE = 0
    ATTENTION = 1
    LISTENING = 2
    PTT = 3
    THINKING = 4
    SPEAKING = 5
    ERROR = 6
    DONE = 7


class ConversationKind(IntEnum):
    """ConversationEvent.kind."""

    STARTED = 0
    ENDED = 1


class StartTrigger(StrEnum):
    """ConversationEvent.trigger of a STARTED (TRIGGER_*)."""

    WAKE_WORD = "wake_word"
    PTT = "ptt"


class EndReason(StrEnum):
    """ConversationEvent.end_reason of an ENDED (END_*)."""

    GOODBYE = "goodbye"
    SILENCE = "silence_timeout"
    SESSION_LIMIT = "session_limit"
    DAILY_LIMIT = "daily_limit"
    GOVERNOR_HALTED = "governor_halted"
    REQUESTED = "requested"
    HC9 = "hc9_distress"
    SERVER = "server_unavailable"


class SystemKind(IntEnum):
    """SystemEvent.kind."""

    BOOT = 0
    LOW_BATTERY = 1
    CRITICAL_BATTERY = 2
    FAULT_RAISED = 3
    FAULT_CLEARED = 4
    SERVER_ONLINE = 5
    SERVER_OFFLINE = 6
    BIRTHDAY_GREETING = 7


class EmotionSource(IntEnum):
    """AiEmotion.source (SOURCE_*)."""

    INLINE = 0
    HYBRID = 1
    POST = 2
    RULES = 3


class Button(IntEnum):
    """ButtonEvent.button_id (BUTTON_*)."""

    PTT = 0
    ACTION = 1


class ButtonAction(IntEnum):
    """ButtonEvent.event_type."""

    PRESS = 0
    RELEASE = 1
    TOGGLE = 2
    CLICK = 3


class TouchAction(IntEnum):
    """TouchEvent.event_type."""

    PRESS = 0
    RELEASE = 1
    DRAG = 2


class GestureId(IntEnum):
    """Gesture.gesture_id (face protocol GESTURE ids)."""

    BLINK = 0
    WINK_L = 1
    WINK_R = 2
    CONFUSED = 3
    LAUGH = 4
    SURPRISE = 5
    HEART = 6
    X_EYES = 7
    SLEEPY = 8
    RAGE = 9
    NOD = 10
    HEADSHAKE = 11
    WIGGLE = 12


class Layer(IntEnum):
    """PersonalitySnapshot.layer and LlmProfile.layer (LAYER_*)."""

    RULES = 0
    LLM = 1


class IdleState(IntEnum):
    """PersonalitySnapshot.idle_state (IDLE_*)."""

    AWAKE = 0
    DROWSY = 1
    ASLEEP = 2


class GovernorMode(IntEnum):
    """GovernorState.state."""

    IDLE = 0
    RECOVERING = 1
    HALTED = 2


class HaltReason(StrEnum):
    """GovernorState.halt_reason (HALT_*)."""

    SAFETY = "SAFETY"
    OVERRISK = "OVERRISK"
    EXHAUSTION = "EXHAUSTION"
    STAGNATION = "STAGNATION"
    EXTERNAL = "EXTERNAL"


class ConsentScope(StrEnum):
    """ConsentEvent.scope (SCOPE_*)."""

    MEMORY = "memory"


class MemoryCategory(StrEnum):
    """MemoryTag.category (CATEGORY_*)."""

    NAME = "name"
    RITUAL = "ritual"
    TOPIC = "topic"
    TONE = "tone"
    PREFERENCE = "preference"


# (message, field) -> (the enum of its values, the prefix of its constants in the .msg)
MESSAGE_ENUMS: dict[tuple[str, str], tuple[type[IntEnum] | type[StrEnum], str]] = {
    ("ConversationPhase", "phase"): (Phase, ""),
    ("ConversationEvent", "kind"): (ConversationKind, ""),
    ("ConversationEvent", "trigger"): (StartTrigger, "TRIGGER_"),
    ("ConversationEvent", "end_reason"): (EndReason, "END_"),
    ("SystemEvent", "kind"): (SystemKind, ""),
    ("AiEmotion", "source"): (EmotionSource, "SOURCE_"),
    ("ButtonEvent", "button_id"): (Button, "BUTTON_"),
    ("ButtonEvent", "event_type"): (ButtonAction, ""),
    ("TouchEvent", "event_type"): (TouchAction, ""),
    ("Gesture", "gesture_id"): (GestureId, ""),
    ("PersonalitySnapshot", "layer"): (Layer, "LAYER_"),
    ("PersonalitySnapshot", "idle_state"): (IdleState, "IDLE_"),
    ("LlmProfile", "layer"): (Layer, "LAYER_"),   # PersonalitySnapshot.LAYER_* (no own)
    ("FaceState", "conv_state"): (Phase, ""),      # ConversationPhase constants (no own)
    ("GovernorState", "state"): (GovernorMode, ""),
    ("GovernorState", "halt_reason"): (HaltReason, "HALT_"),
    ("IdentityEvent", "kind"): (IdentityEventKind, ""),
    ("IdentityState", "state"): (IdentityStateId, ""),
    ("IdentityState", "addressing_state"): (AddressingState, "ADDRESSING_"),
    ("IdentityState", "age_group"): (AgeGroup, "AGE_"),
    ("IdentityState", "conversation_mode"): (ConversationMode, ""),
    ("ConsentEvent", "kind"): (ConsentEventKind, ""),
    ("ConsentEvent", "scope"): (ConsentScope, "SCOPE_"),
    ("ConsentRecord", "state"): (ConsentStateId, ""),
    ("MemoryTag", "category"): (MemoryCategory, "CATEGORY_"),
}
# Where a message has no constants of its own, the enum's constants are another message's.
CONSTANTS_FROM: dict[tuple[str, str], str] = {
    ("LlmProfile", "layer"): "PersonalitySnapshot",
    ("FaceState", "conv_state"): "ConversationPhase",
}
