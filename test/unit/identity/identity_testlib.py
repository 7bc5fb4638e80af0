"""Household and helpers shared by the identity core tests."""

from __future__ import annotations

import datetime as dt

from buddy_personality.identity import IdentityCore, IdentityInput, Profile
from buddy_personality.identity.enums import IdentityEventKind as K
from buddy_personality.identity.parent_pin import ParentProof

TODAY = dt.date(2026, 11, 21)

HOUSEHOLD = [
    Profile("mom", "Anna", "parent", dt.date(1988, 5, 1)),
    Profile("dad", "Ben", "parent", dt.date(1986, 2, 14), addressing="Papa"),
    Profile("mia", "Mia", "child", dt.date(2021, 3, 3)),  # 5 on TODAY
    Profile("leo", "Leo", "child", dt.date(2012, 1, 9)),  # 14 on TODAY: TEEN
    Profile("gran", "Gerda", "parent", None),  # parent without a birthdate: age unknown
]


def ev(kind: K | int, **kw: object) -> IdentityInput:
    return IdentityInput(kind=int(kind), **kw)  # type: ignore[arg-type]


def confirm(core: IdentityCore, user_id: str, now: float = 1.0) -> None:
    """Claim and validate: the normal way to a CONFIRMED identity (no biometrics)."""
    core.handle_identity_event(ev(K.EXPLICIT_IDENTITY_CLAIM, user_id=user_id), now)
    out = core.handle_identity_event(ev(K.VALIDATION_SUCCESS), now)
    assert out.took("identity", "validation_success", "CONFIRMED"), out.results


# Erratum 18: the authority a valid parent token gives (the node checks the token with
# ParentAuth and hands the core this proof); tests of the FSMs behind it use it directly.
PARENT = ParentProof(True, "parent PIN")
