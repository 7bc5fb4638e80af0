"""Property tests over random in-range signal scripts, times and profiles (spec 001 §6)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from buddy_personality.governor import HALTED, PROFILES, RECOVERING, Governor, Signal

signals = st.builds(
    Signal,
    reward=st.floats(-1.0, 1.0),
    novelty=st.floats(0.0, 1.0),
    urgency=st.floats(0.0, 1.0),
    difficulty=st.floats(0.0, 1.0),
)
# Rests from back-to-back (0) to long pauses, and occasionally a clock stepping back.
rests = st.floats(-1.0, 20.0)
scripts = st.lists(st.tuples(signals, rests), min_size=1, max_size=120)
profiles = st.sampled_from(sorted(PROFILES))


def walk(profile: str, script: list[tuple[Signal, float]]) -> list:
    gov = Governor(PROFILES[profile], now=0.0)
    t, out = 0.0, []
    for sig, rest in script:
        t += rest
        out.append(gov.step(sig, t))
    return out


@settings(max_examples=150, deadline=None)
@given(profiles, scripts)
def test_budgets_always_in_unit_interval(profile: str, script: list) -> None:
    for s in walk(profile, script):
        for b in (s.effort, s.risk, s.exploration, s.persistence):
            assert 0.0 <= b <= 1.0


@settings(max_examples=150, deadline=None)
@given(profiles, scripts)
def test_once_halted_always_halted_and_frozen(profile: str, script: list) -> None:
    snaps = walk(profile, script)
    halted_at = next((i for i, s in enumerate(snaps) if s.state == HALTED), None)
    if halted_at is None:
        assert all(not s.halt_reason for s in snaps)
        return
    first = snaps[halted_at]
    assert first.halt_reason
    assert (first.effort, first.risk, first.exploration, first.persistence) == (0, 0, 0, 0)
    assert all(s == first for s in snaps[halted_at:])


@settings(max_examples=150, deadline=None)
@given(profiles, scripts)
def test_risk_frozen_and_exploration_locked_in_recovering(profile: str, script: list) -> None:
    gov = Governor(PROFILES[profile], now=0.0)
    t = 0.0
    prev = gov.snapshot()
    for sig, rest in script:
        t += rest
        s = gov.step(sig, t)
        if s.state == RECOVERING:
            assert s.risk == prev.risk
            assert s.exploration <= prev.exploration
        prev = s


@settings(max_examples=100, deadline=None)
@given(profiles, scripts)
def test_step_count_never_passes_max_steps(profile: str, script: list) -> None:
    snaps = walk(profile, script)
    assert all(s.step <= PROFILES[profile].max_steps for s in snaps)
    assert [s.step for s in snaps if s.state != HALTED] == list(
        range(1, 1 + sum(s.state != HALTED for s in snaps)))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(signals, st.floats(0.5, 30.0)), min_size=1, max_size=120))
def test_at_conversation_pace_balanced_never_exhausts_or_stagnates(script: list) -> None:
    """With rests >= recovery_delay (0.5 s) every RECOVERING step adds >= 0.25 * 0.5, capped
    by the last IDLE effort, itself >= 0.3 (IDLE needs effort >= 0.3): effort stays
    >= 0.125, above both the exhaustion threshold (0.05) and the stagnation floor (0.1).
    So at conversation pace the balanced governor halts only by SAFETY, OVERRISK or the
    EXTERNAL fuse; EXHAUSTION and STAGNATION need signals faster than 0.5 s."""
    for s in walk("balanced", script):
        assert s.halt_reason in ("", "SAFETY", "OVERRISK", "EXTERNAL")
        if not s.halt_reason:
            assert s.effort >= 0.125
