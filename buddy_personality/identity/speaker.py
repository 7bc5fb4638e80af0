"""What the handlers of parent requests may ask about the person talking with Buddy.

The identity core answers (it owns identity resolution and age context, spec 004 §1,
§1.2); the command, profile, delegation and consent handlers read it through this one
narrow interface and never change it.
"""

from __future__ import annotations

from typing import Protocol

from .commands import Requester
from .enums import AgeGroup
from .parent_pin import ParentProof


class Speaker(Protocol):
    @property
    def age_group(self) -> AgeGroup: ...

    def confirmed_user(self) -> str:
        """The user whose identity is CONFIRMED or CONFIRMED_ACTIVE, else ""."""
        ...

    def requester(self, user_id: str, parent: ParentProof) -> Requester:
        """What authorization sees of `user_id` (spec 004 §3); a valid parent proof
        stands for a confirmed adult parent (erratum 18)."""
        ...
