"""States and input kinds of spec 004, numbered exactly as the buddy_msgs constants.

The core imports no ROS, so the numbers are repeated here; test_enums_match_msgs checks
them against buddy_msgs when it is importable.
"""

from __future__ import annotations

from enum import IntEnum


class IdentityStateId(IntEnum):
    """IdentityState.state (spec 004 §1)."""

    UNKNOWN = 0
    PROBABLE = 1
    CONFIRMED = 2
    CONFIRMED_ACTIVE = 3
    AMBIGUOUS = 4
    REJECTED = 5


CONFIRMED_STATES = frozenset({IdentityStateId.CONFIRMED, IdentityStateId.CONFIRMED_ACTIVE})


class AddressingState(IntEnum):
    """IdentityState.addressing_state (spec 004 §1.1)."""

    UNKNOWN = 0
    INFERRED = 1
    CONFIRMED = 2


class AgeGroup(IntEnum):
    """IdentityState.age_group (spec 004 §1.2); UNKNOWN behaves as CHILD."""

    UNKNOWN = 0
    CHILD = 1
    TEEN = 2
    ADULT = 3


class ConversationMode(IntEnum):
    """IdentityState.conversation_mode (spec 004 §2)."""

    PRIVATE = 0
    SHARED_VERIFIED = 1
    SHARED_UNVERIFIED = 2


class CommandState(IntEnum):
    """ExecuteCommand response states (spec 004 §3)."""

    IDLE = 0
    PENDING_AUTHORIZATION = 1
    PENDING_CONFIRMATION = 2
    EXECUTED = 3
    DENIED = 4
    CANCELLED = 5


class ProfileUpdateState(IntEnum):
    """RequestProfileUpdate response states (spec 004, Pending Profile Update FSM)."""

    NONE = 0
    PENDING_VALIDATION = 1
    PENDING_CONFIRMATION = 2
    APPROVED = 3
    REJECTED = 4
    CANCELLED = 5


class DelegationState(IntEnum):
    """Delegate response states (spec 004 §4)."""

    NONE = 0
    PENDING_CONFIRMATION = 1
    ACTIVE = 2
    REVOKED = 3
    EXPIRED = 4


class ConsentStateId(IntEnum):
    """ConsentRecord.state (spec 004 §5)."""

    NONE = 0
    PENDING = 1
    GRANTED = 2
    EXPIRED = 3
    REVOKED = 4


class IdentityEventKind(IntEnum):
    """IdentityEvent.kind."""

    VOICE_SIGNAL = 0
    FACE_SIGNAL = 1
    SATELLITE_IDENTITY = 2
    EXPLICIT_IDENTITY_CLAIM = 3
    VALIDATION_SUCCESS = 4
    VALIDATION_FAILURE = 5
    TIMEOUT = 6
    STRONG_CONFLICT = 7
    SPEAKING_TURN = 8
    SILENCE_TIMEOUT = 9
    END_CONVERSATION = 10
    CLARIFICATION_SUCCESS = 11
    EXPLICIT_PREFERENCE = 12
    INFERRED_SIGNAL = 13
    CONFLICTING_SIGNAL = 14
    ADDRESSING_ASKED = 15
    PARTICIPANT_DETECTED = 16
    PARTICIPANT_LEFT = 17
    STATEMENT_SOMEONE_ARRIVED = 18
    STATEMENT_ALONE = 19
    PARTICIPANT_IDENTIFIED = 20
    PARTICIPANT_UNIDENTIFIED = 21


class ConsentEventKind(IntEnum):
    """ConsentEvent.kind."""

    CONSENT_REQUEST = 0
    EXPLICIT_GRANT = 1
    EXPLICIT_DENIAL = 2
    TIMEOUT = 3
    CONVERSATION_END = 4
    REVOKE = 5


class CommandAction(IntEnum):
    """ExecuteCommand.action."""

    REQUEST = 0
    CONFIRM = 1
    CANCEL = 2


class ProfileAction(IntEnum):
    """RequestProfileUpdate.action."""

    REQUEST = 0
    CONFIRM = 1
    DENY = 2
    CANCEL = 3


class ConsentAction(IntEnum):
    """RequestConsent.action."""

    REQUEST = 0
    GRANT = 1
    DENY = 2
    REVOKE = 3


class DelegateAction(IntEnum):
    """Delegate.action."""

    REQUEST = 0
    CONFIRM = 1
    DENY = 2
    REVOKE = 3


SCOPE_MEMORY = "memory"  # ConsentEvent.SCOPE_MEMORY
CMD_FORGET_EVERYTHING = "forget_everything"  # ExecuteCommand.CMD_FORGET_EVERYTHING
CMD_FORGET_CHILD = "forget_child"  # ExecuteCommand.CMD_FORGET_CHILD
CMD_LOWER_LIMITS = "lower_limits"  # ExecuteCommand.CMD_LOWER_LIMITS

ROLE_PARENT = "parent"
ROLE_CHILD = "child"
ROLES = frozenset({ROLE_PARENT, ROLE_CHILD})
