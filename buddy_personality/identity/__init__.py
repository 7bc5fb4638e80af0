"""Identity, consent and permissions: every FSM of spec 004 as a ROS-free core.

`IdentityCore` (core.py) applies the cross-FSM rules over who is talking (speaking.py) and
one handler per parent concern (command_handler, profile_handler, delegation_handler,
consent_handler), each taking the parent's proof as an argument; each machine's table
lives in its own module so it can be read against the spec line by line.

The names below load on first use (PEP 562, lazy_exports.py): every node imports
`identity.enums` through msg_constants and must not pay for the whole core (erratum 22).
"""

from typing import TYPE_CHECKING

from buddy_personality.lazy_exports import lazy_exports

if TYPE_CHECKING:
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

_RECORDS = "buddy_personality.identity.records"
_EXPORTS = {
    "IdentityConfig": "buddy_personality.identity.config",
    "IdentityCore": "buddy_personality.identity.core",
    "Profile": "buddy_personality.identity.profiles",
    "ProfileStore": "buddy_personality.identity.profiles",
    "write_household": "buddy_personality.identity.profiles",
    **dict.fromkeys(("BirthdayGreeting", "ConsentInput", "ConsentSnapshot", "ForgetUser",
                     "IdentityInput", "IdentitySnapshot", "LowerLimits", "Outcome",
                     "Rejection", "Reply", "ResetMemory"), _RECORDS),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

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
