"""Which commands exist and who may run them (spec 004 §3, Cross-FSM Rules).

Authorization looks at role, age group and identity state (the Command FSM "MUST consult
Authorization and Consent FSMs"); an active delegation may stand in for role and age for
its one scope, but never for the identity check or the confirmation.
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import CMD_FORGET_EVERYTHING, CONFIRMED_STATES, ROLE_PARENT, AgeGroup, IdentityStateId


@dataclass(slots=True, frozen=True)
class CommandPolicy:
    name: str
    roles: frozenset[str]
    age_groups: frozenset[AgeGroup]
    requires_confirmation: bool
    delegable: bool = False
    consent_scope: str | None = None  # consent that must be GRANTED for the requester
    effect: str = ""  # what EXECUTED emits ("reset_memory")
    question: str = ""  # the confirmation question to ask


DEFAULT_COMMANDS: dict[str, CommandPolicy] = {
    # DESIGN §4.3 and ExecuteCommand.srv: "forget everything" is a parent command that
    # requires confirmation; it runs personality/reset_memory.
    CMD_FORGET_EVERYTHING: CommandPolicy(
        name=CMD_FORGET_EVERYTHING,
        roles=frozenset({ROLE_PARENT}),
        age_groups=frozenset({AgeGroup.ADULT}),
        requires_confirmation=True,
        delegable=True,
        effect="reset_memory",
        question="Do you really want me to forget everything I remember? Please confirm.",
    ),
}


@dataclass(slots=True, frozen=True)
class Requester:
    user_id: str
    identity_state: IdentityStateId
    identified_user: str  # the user the identity FSM is about
    role: str
    age_group: AgeGroup
    delegated_scopes: frozenset[str]
    granted_consents: frozenset[str]


def authorize(policy: CommandPolicy, who: Requester) -> tuple[bool, str]:
    """Decide authorization_granted / authorization_denied, with the reason."""
    if who.identity_state not in CONFIRMED_STATES or who.identified_user != who.user_id:
        return False, f"identity of {who.user_id!r} is not confirmed"
    by_role = who.role in policy.roles and who.age_group in policy.age_groups
    by_delegation = policy.delegable and policy.name in who.delegated_scopes
    if not (by_role or by_delegation):
        if who.role not in policy.roles:
            return (
                False,
                f"{policy.name} needs role {sorted(policy.roles)}; {who.user_id!r} is {who.role!r}",
            )
        return False, (
            f"{policy.name} needs age group {sorted(g.name for g in policy.age_groups)}; "
            f"{who.user_id!r} is {who.age_group.name} (unknown age behaves as CHILD)"
        )
    if policy.consent_scope and policy.consent_scope not in who.granted_consents:
        return False, f"{policy.name} needs consent {policy.consent_scope!r}"
    return True, "authorized by delegation" if not by_role else "authorized"
