"""Plain records the core takes and returns, so the node only translates messages."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from .fsm import TransitionResult


@dataclass(slots=True, frozen=True)
class IdentityInput:
    """One IdentityEvent (buddy_msgs), without the header."""

    kind: int
    user_id: str = ""
    confidence: float = 1.0
    value: str = ""
    participant_id: str = ""
    identity_known: bool = False


@dataclass(slots=True, frozen=True)
class ConsentInput:
    """One ConsentEvent (buddy_msgs), without the header."""

    kind: int
    user_id: str
    scope: str
    granted_by: str = ""


@dataclass(slots=True, frozen=True)
class BirthdayGreeting:
    """Spec 004 §6: emit birthday_greeting(user_id) (SystemEvent.BIRTHDAY_GREETING)."""

    user_id: str
    date: dt.date


@dataclass(slots=True, frozen=True)
class ResetMemory:
    """An executed memory-reset command: the node calls personality/reset_memory once."""

    command: str
    requested_by: str


@dataclass(slots=True, frozen=True)
class ForgetUser:
    """An executed forget_child: the node calls personality/forget_user once (issue 16)."""

    command: str
    requested_by: str
    user_id: str


@dataclass(slots=True, frozen=True)
class LowerLimits:
    """An executed lower_limits: the node calls personality/lower_limits once (issue 16).
    None leaves that limit as it is."""

    command: str
    requested_by: str
    session_limit_s: float | None
    daily_limit_s: float | None


Effect = BirthdayGreeting | ResetMemory | ForgetUser | LowerLimits


@dataclass(slots=True, frozen=True)
class Reply:
    """A service answer: whether the action was valid, the state reached, and why."""

    accepted: bool
    state: int
    message: str = ""
    user_id: str = ""  # the household member the request was about (a new child's id)


@dataclass(slots=True, frozen=True)
class IdentitySnapshot:
    """What identity/state publishes (IdentityState), plus two flags it cannot carry."""

    state: int
    user_id: str
    role: str
    addressing_state: int
    preferred_name: str
    age_group: int
    conversation_mode: int
    child_safe: bool
    participants: tuple[str, ...]
    private_info_allowed: bool  # PRIVATE mode and a confirmed identity
    may_ask_addressing: bool  # addressing unresolved and not asked yet (spec 004 §1.1)


@dataclass(slots=True, frozen=True)
class ConsentSnapshot:
    """One ConsentRecord."""

    user_id: str
    scope: str
    state: int


@dataclass(slots=True, frozen=True)
class Rejection:
    """Bad input refused before any FSM saw it: a counter name and a reason."""

    cause: str
    reason: str


@dataclass(slots=True)
class Outcome:
    """Everything one call on the core did: transitions taken or refused, and effects."""

    results: list[TransitionResult] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)  # bad input, refused before any FSM
    reply: Reply | None = None
    identity_changed: bool = False
    consent_changed: bool = False

    @property
    def refused(self) -> list[TransitionResult]:
        return [r for r in self.results if not r.accepted]

    @property
    def taken(self) -> list[TransitionResult]:
        return [r for r in self.results if r.accepted]

    def took(self, machine: str, event: str, target: str | None = None) -> bool:
        return any(
            r.accepted
            and r.machine == machine
            and r.event == event
            and (target is None or r.target == target)
            for r in self.results
        )
