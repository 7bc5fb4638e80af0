"""Identity, consent and permissions: every FSM of spec 004 as a ROS-free core.

`IdentityCore` (core.py) applies the cross-FSM rules over who is talking (speaking.py) and
one handler per parent concern (command_handler, profile_handler, delegation_handler,
consent_handler), each taking the parent's proof as an argument; each machine's table
lives in its own module so it can be read against the spec line by line.
"""

from .config import IdentityConfig
from .core import IdentityCore
from .profiles import Profile, ProfileStore, write_household
from .records import (
    BirthdayGreeting,
    ConsentInput,
    ConsentSnapshot,
    ForgetUser,
    IdentityInput,
    IdentitySnapshot,
    LowerLimits,
    Outcome,
    Rejection,
    Reply,
    ResetMemory,
)

__all__ = [
    "BirthdayGreeting",
    "ConsentInput",
    "ConsentSnapshot",
    "ForgetUser",
    "IdentityConfig",
    "IdentityCore",
    "IdentityInput",
    "IdentitySnapshot",
    "LowerLimits",
    "Outcome",
    "Profile",
    "ProfileStore",
    "Rejection",
    "Reply",
    "ResetMemory",
    "write_household",
]
