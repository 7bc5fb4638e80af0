"""What the bridge knows about the rest of the robot: plain records the node fills from
the latched topics (personality/llm_profile and snapshot, governor/state, identity/state).

Numbers in these records stay on the robot (DESIGN §1.3): the context packet renders them
into words, and the gate uses them only to decide whether to call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

# buddy_msgs/IdentityState constants, repeated so the core imports no ROS.
ID_UNKNOWN, ID_PROBABLE, ID_CONFIRMED, ID_CONFIRMED_ACTIVE, ID_AMBIGUOUS, ID_REJECTED = range(6)
ADDR_UNKNOWN, ADDR_INFERRED, ADDR_CONFIRMED = range(3)
AGE_UNKNOWN, AGE_CHILD, AGE_TEEN, AGE_ADULT = range(4)
MODE_PRIVATE, MODE_SHARED_VERIFIED, MODE_SHARED_UNVERIFIED = range(3)
CONFIRMED_STATES = frozenset({ID_CONFIRMED, ID_CONFIRMED_ACTIVE})

# buddy_msgs/GovernorState.state
GOV_IDLE, GOV_RECOVERING, GOV_HALTED = range(3)


def finite01(x: float, default: float = 0.0) -> float:
    if not isinstance(x, (int, float)) or not math.isfinite(x):
        return default
    return min(1.0, max(0.0, float(x)))


@dataclass(slots=True, frozen=True)
class ProfileView:
    """personality/llm_profile (+ snapshot mood for the TTS tag, spec 002 §11.5)."""

    mood: str = "neutral"
    intensity: float = 0.0
    tonic_valence: float = 0.0
    memory_tags: tuple[str, ...] = ()   # ordered by strength, strongest first
    conversation_arc: str = "stable"


@dataclass(slots=True, frozen=True)
class IdentityView:
    """identity/state. The default is the safe side: unknown person, unknown age (child)."""

    state: int = ID_UNKNOWN
    addressing_state: int = ADDR_UNKNOWN
    preferred_name: str = ""
    age_group: int = AGE_UNKNOWN
    conversation_mode: int = MODE_PRIVATE
    child_safe: bool = True
    session_name: str = ""   # the name the child gave this session (erratum 17), not stored

    @property
    def is_child_context(self) -> bool:
        # spec 004 §1.2 / DESIGN §1.4: unknown age behaves as a child.
        return self.child_safe or self.age_group in (AGE_UNKNOWN, AGE_CHILD)

    def name_for_prompt(self) -> str:
        """The name Buddy may use, or "" (spec 004 §1.1 addressing guards).

        Only a confirmed identity with a resolved addressing preference, and never in a
        shared unverified conversation (addressing preferences must not be exposed to
        other users).
        """
        if self.conversation_mode == MODE_SHARED_UNVERIFIED:
            return ""
        if (
            self.preferred_name.strip()
            and self.state in CONFIRMED_STATES
            and self.addressing_state in (ADDR_INFERRED, ADDR_CONFIRMED)
        ):
            return " ".join(self.preferred_name.split())[:32]
        # erratum 17: the name a child gave (an unknown name, or a validated one without a
        # stored addressing preference) addresses them for this session only.
        return " ".join(self.session_name.split())[:32]

    def memories_allowed(self) -> bool:
        """Personal memory tags only for a confirmed person in a private or verified
        conversation (spec 004 §2: mode changes affect privacy rules immediately)."""
        return self.state in CONFIRMED_STATES and self.conversation_mode in (
            MODE_PRIVATE, MODE_SHARED_VERIFIED,
        )

    def relationship_stakes(self) -> float:
        """rel_stakes of spec 003 §3.3: how much a known relationship is at stake."""
        if self.state in CONFIRMED_STATES:
            return 0.6
        if self.state == ID_PROBABLE:
            return 0.4
        return 0.2


@dataclass(slots=True, frozen=True)
class GovernorView:
    """governor/state; the default is a fresh episode (what a reset gives)."""

    state: int = GOV_IDLE
    effort: float = 1.0
    persistence: float = 1.0
    risk: float = 0.0
    exploration: float = 0.0
    pressures: tuple[float, ...] = field(default_factory=tuple)
    episode_id: int = 0

    def pressure_max(self) -> float:
        return max((finite01(p) for p in self.pressures), default=0.0)
