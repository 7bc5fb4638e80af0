"""The parent page's two further commands in the command table (issue 16; spec 004 §3
Command Execution FSM; DESIGN §4.3, §4.6, erratum 18): `forget_child` (parent, confirmation
required, like forget_everything) and `lower_limits` (parent, immediate: lowering only
makes Buddy safer). Their EXECUTED effects name what the identity node asks the
personality node to do; whether a limit is really lowered is the engine's rule (RS-1 /
RS-2 belong to spec 002), so the table only checks the arguments' shape."""

from __future__ import annotations

import json

import pytest
from identity_testlib import PARENT

from buddy_personality.identity import ForgetUser, IdentityCore, LowerLimits, ResetMemory
from buddy_personality.identity.commands import (
    ARGS_HOUSEHOLD_USER,
    ARGS_LIMITS,
    DEFAULT_COMMANDS,
    parse_limits,
)
from buddy_personality.identity.enums import CMD_FORGET_CHILD, CMD_LOWER_LIMITS, AgeGroup
from buddy_personality.identity.enums import CommandAction as A
from buddy_personality.identity.enums import CommandState as C


def effects(*outs):
    return [e for o in outs for e in o.effects]


def test_the_table_holds_both_commands_for_parents_only() -> None:
    """spec 004 §3: authorization by role and age group; erratum 18: parent authority."""
    forget = DEFAULT_COMMANDS[CMD_FORGET_CHILD]
    lower = DEFAULT_COMMANDS[CMD_LOWER_LIMITS]
    for policy in (forget, lower):
        assert policy.roles == frozenset({"parent"})
        assert policy.age_groups == frozenset({AgeGroup.ADULT})
        assert not policy.delegable
    assert forget.requires_confirmation and forget.effect == "forget_user"
    assert forget.args == ARGS_HOUSEHOLD_USER
    assert not lower.requires_confirmation and lower.effect == "lower_limits"
    assert lower.args == ARGS_LIMITS


def test_forget_child_asks_first_then_emits_one_effect_for_that_child(
        core: IdentityCore) -> None:
    """PENDING_AUTHORIZATION -> PENDING_CONFIRMATION -> EXECUTED (spec 004 §3)."""
    out = core.execute_command(A.REQUEST, CMD_FORGET_CHILD, "", "mia", 1, parent=PARENT)
    assert out.reply.accepted and out.reply.state == C.PENDING_CONFIRMATION
    assert "Mia" in out.reply.message and "confirm" in out.reply.message.lower()
    assert effects(out) == []
    done = core.execute_command(A.CONFIRM, CMD_FORGET_CHILD, "", "", 2, parent=PARENT)
    assert done.reply.accepted and done.reply.state == C.EXECUTED
    assert effects(done) == [ForgetUser(CMD_FORGET_CHILD, "", "mia")]
    assert core.command_state == C.IDLE


def test_forget_child_cancelled_forgets_nothing(core: IdentityCore) -> None:
    core.execute_command(A.REQUEST, CMD_FORGET_CHILD, "", "mia", 1, parent=PARENT)
    out = core.execute_command(A.CANCEL, CMD_FORGET_CHILD, "", "", 2, parent=PARENT)
    assert out.reply.state == C.CANCELLED and effects(out) == []


@pytest.mark.parametrize("args", ["", "  ", "nobody"])
def test_forget_child_needs_a_household_user(core: IdentityCore, args: str) -> None:
    """Bad input is refused before the FSM moves (spec 004: no implicit transitions)."""
    out = core.execute_command(A.REQUEST, CMD_FORGET_CHILD, "", args, 1, parent=PARENT)
    assert not out.reply.accepted and out.results == []
    assert core.counters["bad_args"] == 1
    assert core.command_state == C.IDLE


def test_forget_child_without_the_pin_is_refused(core: IdentityCore) -> None:
    """Erratum 18: no token, no command, whoever asks."""
    out = core.execute_command(A.REQUEST, CMD_FORGET_CHILD, "mom", "mia", 1)
    assert not out.reply.accepted and effects(out) == []


def test_lower_limits_runs_at_once_with_the_values(core: IdentityCore) -> None:
    """Immediate: authorization_granted & immediate -> EXECUTED (spec 004 §3)."""
    args = json.dumps({"session_limit_s": 600, "daily_limit_s": 1800.0})
    out = core.execute_command(A.REQUEST, CMD_LOWER_LIMITS, "", args, 1, parent=PARENT)
    assert out.reply.accepted and out.reply.state == C.EXECUTED
    assert effects(out) == [LowerLimits(CMD_LOWER_LIMITS, "", 600.0, 1800.0)]
    only_daily = core.execute_command(A.REQUEST, CMD_LOWER_LIMITS, "",
                                      '{"daily_limit_s": 900}', 2, parent=PARENT)
    assert effects(only_daily) == [LowerLimits(CMD_LOWER_LIMITS, "", None, 900.0)]
    assert not any(isinstance(e, ResetMemory) for e in effects(out, only_daily))


def test_lower_limits_without_the_pin_is_refused(core: IdentityCore) -> None:
    out = core.execute_command(A.REQUEST, CMD_LOWER_LIMITS, "mom", '{"daily_limit_s": 60}', 1)
    assert not out.reply.accepted and effects(out) == []


@pytest.mark.parametrize("args", [
    "", "600", "[600]", "{}", '{"daily_limit_s": null}', '{"weekly_limit_s": 60}',
    '{"daily_limit_s": 0}', '{"daily_limit_s": -5}', '{"daily_limit_s": true}',
    '{"daily_limit_s": "60"}', '{"daily_limit_s": 1e9}', '{"daily_limit_s": NaN}',
    '{"session_limit_s": Infinity}',
])
def test_lower_limits_refuses_malformed_args(core: IdentityCore, args: str) -> None:
    out = core.execute_command(A.REQUEST, CMD_LOWER_LIMITS, "", args, 1, parent=PARENT)
    assert not out.reply.accepted and effects(out) == [] and out.results == []
    assert out.reply.message


def test_parse_limits_keeps_the_absent_limit_as_none() -> None:
    assert parse_limits('{"session_limit_s": 300}') == ((300.0, None), "")
    assert parse_limits('{"daily_limit_s": 600, "session_limit_s": 60}') == ((60.0, 600.0), "")


@pytest.mark.parametrize("seconds", [1e-9, 0.5, 30, 59.9])
def test_lower_limits_under_a_minute_is_refused_with_the_reason(
        core: IdentityCore, seconds: float) -> None:
    """Issue 31: a valid token with 1e-9 s was accepted; a limit below a minute is not a
    parent's intent, so it is refused before the FSM moves, and the reply says why."""
    for key in ("session_limit_s", "daily_limit_s"):
        out = core.execute_command(A.REQUEST, CMD_LOWER_LIMITS, "",
                                   json.dumps({key: seconds}), 1, parent=PARENT)
        assert not out.reply.accepted and effects(out) == [] and out.results == []
        assert "minute" in out.reply.message and key in out.reply.message
    assert core.command_state == C.IDLE
