"""Which commands exist and who may run them (spec 004 §3, Cross-FSM Rules).

Authorization looks at role, age group and identity state (the Command FSM "MUST consult
Authorization and Consent FSMs"); an active delegation may stand in for role and age for
its one scope, but never for the identity check or the confirmation.
"""

from __future__ import annotations

import json
import math
from collections.abc import Container
from dataclasses import dataclass

from .enums import (
    CMD_FORGET_CHILD,
    CMD_FORGET_EVERYTHING,
    CMD_LOWER_LIMITS,
    CONFIRMED_STATES,
    ROLE_PARENT,
    AgeGroup,
    IdentityStateId,
)

# What a command's `args` hold (ExecuteCommand.srv), checked at command_detected so that
# a confirmed command runs with arguments already known to be well formed.
ARGS_NONE = ""  # ignored
ARGS_HOUSEHOLD_USER = "household_user"  # a user id of the household file
ARGS_LIMITS = "limits"  # JSON {"session_limit_s": s, "daily_limit_s": s}, either or both
LIMIT_KEYS = ("session_limit_s", "daily_limit_s")
MAX_LIMIT_S = 86400.0  # the personality node's parameter range for both limits
# Issue 31: a limit under a minute is not a parent's intent (a typo, seconds for minutes,
# 1e-9 s): the page takes whole minutes from 1, and so does the command.
MIN_LIMIT_S = 60.0


@dataclass(slots=True, frozen=True)
class CommandPolicy:
    name: str
    roles: frozenset[str]
    age_groups: frozenset[AgeGroup]
    requires_confirmation: bool
    delegable: bool = False
    consent_scope: str | None = None  # consent that must be GRANTED for the requester
    effect: str = ""  # what EXECUTED emits ("reset_memory", "forget_user", "lower_limits")
    question: str = ""  # the confirmation question to ask ({user} names the user)
    args: str = ARGS_NONE  # what `args` must hold


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
    # Issue 16 (DESIGN §4.6, erratum 18): forget one child's memories. Like forget
    # everything it deletes what cannot be brought back, so it asks first.
    CMD_FORGET_CHILD: CommandPolicy(
        name=CMD_FORGET_CHILD,
        roles=frozenset({ROLE_PARENT}),
        age_groups=frozenset({AgeGroup.ADULT}),
        requires_confirmation=True,
        effect="forget_user",
        question="Do you really want me to forget what I remember about {user}? "
                 "Please confirm.",
        args=ARGS_HOUSEHOLD_USER,
    ),
    # Issue 16: lower today's RS-1 / RS-2 limits (spec 002 §9.3). Lowering only makes
    # Buddy safer, so it runs at once; the personality engine refuses any raise.
    CMD_LOWER_LIMITS: CommandPolicy(
        name=CMD_LOWER_LIMITS,
        roles=frozenset({ROLE_PARENT}),
        age_groups=frozenset({AgeGroup.ADULT}),
        requires_confirmation=False,
        effect="lower_limits",
        args=ARGS_LIMITS,
    ),
}


def parse_limits(args: str) -> tuple[tuple[float | None, float | None] | None, str]:
    """(session_limit_s, daily_limit_s) from a lower_limits command's JSON args, or None
    with the reason. Whether a value lowers a limit is the personality engine's rule (it
    owns RS-1 / RS-2); this only checks the shape: known keys, finite seconds from one
    minute (MIN_LIMIT_S, issue 31) to a day."""
    try:
        data = json.loads(args) if args else None
    except ValueError:
        return None, "lower_limits needs JSON args such as {\"daily_limit_s\": 1800}"
    if not isinstance(data, dict):
        return None, "lower_limits needs a JSON object of limits"
    unknown = sorted(set(data) - set(LIMIT_KEYS))
    if unknown:
        return None, f"lower_limits does not know {unknown}; known: {list(LIMIT_KEYS)}"
    values: list[float | None] = []
    for key in LIMIT_KEYS:
        value = data.get(key)
        if value is None:
            values.append(None)
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value) or not 0.0 < value <= MAX_LIMIT_S:
            return None, f"{key} must be seconds in [{MIN_LIMIT_S:.0f}, {MAX_LIMIT_S:.0f}]"
        if value < MIN_LIMIT_S:
            return None, (f"{key} of {value:g} s is under a minute: a limit is at least "
                          f"{MIN_LIMIT_S:.0f} s (one minute), so nothing changed")
        values.append(float(value))
    if values == [None, None]:
        return None, "lower_limits needs session_limit_s or daily_limit_s"
    return (values[0], values[1]), ""


def parse_args(policy: CommandPolicy, args: str,
               household: Container[str]) -> tuple[object, str]:
    """The command's checked argument (None when it takes none), or None with a reason."""
    if policy.args == ARGS_HOUSEHOLD_USER:
        user = args.strip()
        if not user:
            return None, f"{policy.name} needs the user id of a household member"
        if user not in household:
            return None, f"{policy.name}: unknown user {user!r}"
        return user, ""
    if policy.args == ARGS_LIMITS:
        return parse_limits(args.strip())
    return None, ""


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
