"""The call policy: what the budgets mean to the LLM bridge (DESIGN §4.2)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from buddy_personality.governor import HALTED, IDLE, RECOVERING, Governor, Signal
from buddy_personality.governor.policy import (
    MAX_RETRIES,
    MAX_TOKENS_MAX,
    MAX_TOKENS_MIN,
    TEMPERATURE_MAX,
    TEMPERATURE_MIN,
    CallPolicy,
    call_policy,
)

unit = st.floats(0.0, 1.0)


def test_full_budgets_give_the_widest_policy() -> None:
    p = call_policy(IDLE, 1.0, 1.0, 1.0, 1.0)
    assert p == CallPolicy(True, TEMPERATURE_MAX, MAX_TOKENS_MAX, MAX_RETRIES, False)


def test_initial_budgets_calm_long_answers_all_retries() -> None:
    # Episode start (DESIGN §4.2): effort 1, persistence 1, risk 0, exploration 0.
    p = call_policy(IDLE, 1.0, 1.0, 0.0, 0.0)
    assert p == CallPolicy(True, TEMPERATURE_MIN, MAX_TOKENS_MAX, MAX_RETRIES, False)


def test_documented_midpoints() -> None:
    p = call_policy(IDLE, 0.5, 0.5, 0.0, 0.5)
    assert p.temperature == pytest.approx((TEMPERATURE_MIN + TEMPERATURE_MAX) / 2)
    assert p.max_tokens == MAX_TOKENS_MIN + round((MAX_TOKENS_MAX - MAX_TOKENS_MIN) / 2)
    assert p.max_retries == 2  # round(1.5) -> 2 (banker's rounding)


def test_halted_means_no_more_calls() -> None:
    p = call_policy(HALTED, 1.0, 1.0, 1.0, 1.0)
    assert not p.may_call and p.max_tokens == 0 and p.max_retries == 0
    assert p.risk_exploration_locked


@pytest.mark.parametrize("state", [3, 255, -1])
def test_unknown_state_is_treated_as_halted(state: int) -> None:
    assert not call_policy(state, 1.0, 1.0, 0.0, 0.0).may_call


@pytest.mark.parametrize("effort", [0.0, -0.3, math.nan, -math.inf])
def test_effort_zero_or_invalid_means_no_call(effort: float) -> None:
    # Spec 001 §6 Agency: no action allowed when effort == 0.
    for state in (IDLE, RECOVERING):
        assert not call_policy(state, effort, 1.0, 0.0, 0.0).may_call


def test_recovering_locks_and_caps_temperature_at_the_locked_exploration() -> None:
    free = call_policy(RECOVERING, 0.5, 0.5, 0.2, 0.8)
    locked = call_policy(RECOVERING, 0.5, 0.5, 0.2, 0.8, locked_exploration=0.2)
    assert free.risk_exploration_locked and locked.risk_exploration_locked
    assert locked.temperature == pytest.approx(TEMPERATURE_MIN + 0.2 * 0.6)
    assert free.temperature == pytest.approx(TEMPERATURE_MIN + 0.8 * 0.6)
    # A lower exploration than the locked one is used as is (the lock only forbids rising).
    assert call_policy(RECOVERING, 0.5, 0.5, 0.2, 0.1, 0.5).temperature == pytest.approx(0.36)
    # Outside RECOVERING the lock is ignored.
    idle = call_policy(IDLE, 0.5, 0.5, 0.2, 0.8, locked_exploration=0.2)
    assert not idle.risk_exploration_locked and idle.temperature == free.temperature


def test_out_of_range_budgets_are_clamped() -> None:
    assert call_policy(IDLE, 7.0, 9.0, 0.0, 5.0) == call_policy(IDLE, 1.0, 1.0, 0.0, 1.0)
    assert call_policy(IDLE, 1.0, -2.0, 0.0, math.nan).max_retries == 0
    assert call_policy(IDLE, 1.0, 1.0, 0.0, math.nan).temperature == TEMPERATURE_MIN


@given(unit, unit, unit, unit, unit)
def test_monotone_in_each_budget(e1: float, e2: float, p: float, x: float, r: float) -> None:
    lo, hi = sorted((e1, e2))
    if lo <= 0.0:
        return
    a, b = call_policy(IDLE, lo, p, r, x), call_policy(IDLE, hi, p, r, x)
    assert a.max_tokens <= b.max_tokens and a.temperature == b.temperature
    a, b = call_policy(IDLE, 0.5, lo, r, x), call_policy(IDLE, 0.5, hi, r, x)
    assert a.max_retries <= b.max_retries and a.max_tokens == b.max_tokens
    a, b = call_policy(IDLE, 0.5, p, r, lo), call_policy(IDLE, 0.5, p, r, hi)
    assert a.temperature <= b.temperature and a.max_retries == b.max_retries


@given(st.sampled_from([IDLE, RECOVERING]), unit, unit, unit, unit)
def test_ranges(state: int, e: float, p: float, r: float, x: float) -> None:
    pol = call_policy(state, e, p, r, x)
    assert TEMPERATURE_MIN <= pol.temperature <= TEMPERATURE_MAX
    assert 0 <= pol.max_retries <= MAX_RETRIES
    if pol.may_call:
        assert MAX_TOKENS_MIN <= pol.max_tokens <= MAX_TOKENS_MAX
    else:
        assert pol.max_tokens == 0


def test_policy_from_a_live_governor_snapshot() -> None:
    """The bridge's use: snapshot -> policy, with the snapshot's locked exploration."""
    gov = Governor(now=0.0)
    s = gov.step(Signal(0.5, 1.0, 0.0, 0.1), 5.0)
    pol = call_policy(s.state, s.effort, s.persistence, s.risk, s.exploration,
                      s.locked_exploration)
    assert pol.may_call and not pol.risk_exploration_locked
    assert s.locked_exploration is None
