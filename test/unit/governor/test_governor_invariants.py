"""Spec 001 §6 invariants, one test each, plus determinism (§7) and the episode rules."""

from __future__ import annotations

from dataclasses import replace

import pytest
from unit.governor.governor_testlib import run_script

from buddy_personality.governor import (
    HALT_EXHAUSTION,
    HALT_SAFETY,
    HALTED,
    IDLE,
    RECOVERING,
    Governor,
    Signal,
    call_policy,
    profile_config,
)

STORM = Signal(-1.0, 0.0, 0.3, 0.8)        # failed request, retried at once
HOPPING = Signal(0.5, 1.0, 0.0, 0.1)       # new topic, fairly good turn


def halted_governor() -> Governor:
    gov = Governor(now=0.0)
    for k in range(1, 4):
        gov.step(STORM, 0.2 * k)
    assert gov.halted
    return gov


def test_terminality_halted_is_absorbing() -> None:
    """§6 Terminality: once HALTED, no signal or time leads out of it."""
    gov = halted_governor()
    for k, sig in enumerate([Signal(1.0, 1.0, 0.0, 0.0), Signal(), HOPPING] * 10):
        assert gov.step(sig, 10.0 + 100.0 * k).state == HALTED


def test_budget_zero_in_halted() -> None:
    """§6 Budget Zero: budget == [0, 0, 0, 0] in HALTED, whatever the halt reason."""
    snaps = run_script(lambda k: HOPPING, period=5.0, steps=20)  # SAFETY with x ~ 1
    last = snaps[-1]
    assert last.halt_reason == HALT_SAFETY
    assert (last.effort, last.risk, last.exploration, last.persistence) == (0, 0, 0, 0)
    gov = halted_governor()
    s = gov.step(HOPPING, 99.0)
    assert (s.effort, s.risk, s.exploration, s.persistence) == (0, 0, 0, 0)


def test_recovery_safety_risk_frozen_while_recovering() -> None:
    """§6 Recovery Safety: the risk budget does not change during RECOVERING.

    Four topic-hopping turns raise risk above 0 (r4 = 0.0279); a fast storm of failures then
    dips effort into RECOVERING; more topic-hopping turns, which raise risk in IDLE, follow.
    """
    gov = Governor(now=0.0)
    t = 0.0
    for _ in range(4):
        t += 5.0
        before = gov.step(HOPPING, t)
    assert before.risk > 0.02 and before.state == IDLE
    risk_at_entry = None
    seen_recovering = 0
    script = [STORM, STORM] + [HOPPING] * 6
    for sig in script:
        t += 0.2 if sig is STORM else 3.0
        prev = gov.snapshot()
        s = gov.step(sig, t)
        if s.state == RECOVERING:
            seen_recovering += 1
            risk_at_entry = prev.risk if risk_at_entry is None else risk_at_entry
            assert s.risk == prev.risk == risk_at_entry
            # What the bridge's call policy gets as the exploration lock.
            assert s.locked_exploration is not None
            assert s.exploration <= s.locked_exploration
            assert s.exploration <= prev.exploration  # §1: exploration locked too
    assert seen_recovering >= 3


def test_freezing_no_mutation_after_halted() -> None:
    """§6 Freezing: after HALTED no pressure accumulates and nothing else changes."""
    gov = halted_governor()
    frozen = gov.snapshot()
    assert frozen.frustration > 0  # the pressures at the halt are kept, not reset
    for k in range(50):
        assert gov.step(Signal(1.0, 1.0, 1.0, 1.0), 5.0 + k) == frozen
    assert gov.snapshot() == frozen
    assert frozen.step == 3


def test_agency_no_action_when_effort_is_zero() -> None:
    """§6 Agency: effort == 0 never leaves the governor acting; the halt guarantees it.

    The retry storm drives effort to exactly 0 at step 3: that step halts (EXHAUSTION) and
    the call policy refuses any call. Even a profile whose exhaustion threshold is 0
    (aggressive) halts at effort 0, since the test is effort <= threshold.
    """
    snaps = run_script(lambda k: STORM, period=0.2, steps=10)
    assert snaps[-1].halt_reason == HALT_EXHAUSTION
    assert not call_policy(snaps[-1].state, 0.0, 1.0, 0.0, 0.0).may_call
    assert not call_policy(IDLE, 0.0, 1.0, 0.0, 0.0).may_call
    cfg = profile_config("aggressive")
    assert cfg.exhaustion_threshold == 0.0
    snaps = run_script(lambda k: STORM, period=0.1, steps=50, config=cfg)
    assert snaps[-1].state == HALTED
    for s in snaps[:-1]:
        assert s.effort > 0.0


def test_determinism_same_signals_and_times_same_trajectory() -> None:
    """§7 Deterministic failure: identical inputs give identical trajectories."""
    script = [Signal(((k * 37) % 21 - 10) / 10, (k % 5) / 4, (k % 3) / 2, (k % 7) / 6)
              for k in range(1, 101)]
    times = [0.3 * k + (k % 4) for k in range(1, 101)]

    def trajectory() -> list:
        gov = Governor(now=0.0)
        return [gov.step(s, t) for s, t in zip(script, times, strict=True)]

    first, second = trajectory(), trajectory()
    assert first == second
    assert len({s.state for s in first}) >= 2  # the script actually moves the machine


def test_reset_refused_while_live_unless_session_ended() -> None:
    gov = Governor(now=0.0, session_id="s1")
    gov.step(HOPPING, 5.0)
    live = gov.snapshot()
    out = gov.new_episode(10.0, "s2")
    assert not out.success and out.episode_id == 0 and "not HALTED" in out.message
    assert gov.snapshot() == live
    out = gov.new_episode(10.0, "s2", session_ended=True)
    assert out.success and out.episode_id == 1
    fresh = gov.snapshot()
    assert (fresh.state, fresh.step, fresh.episode_id, fresh.session_id) == (IDLE, 0, 1, "s2")
    assert (fresh.effort, fresh.persistence, fresh.risk, fresh.exploration) == (1, 1, 0, 0)
    assert fresh.pressures.as_tuple() == (0, 0, 0, 0, 0)


def test_reset_after_halt_starts_a_new_episode_with_a_new_time_base() -> None:
    gov = halted_governor()
    out = gov.new_episode(1000.0, "next")
    assert out.success and out.episode_id == 1 and not gov.halted
    # dt of the first step counts from the reset: same as a new governor made at t=1000.
    assert gov.step(HOPPING, 1005.0) == replace(
        Governor(now=1000.0, episode_id=1, session_id="next").step(HOPPING, 1005.0))
    assert gov.new_episode(1010.0).success is False


def test_backwards_clock_gives_no_rest_and_no_decay() -> None:
    a, b = Governor(now=0.0), Governor(now=0.0)
    a.step(HOPPING, 10.0)
    b.step(HOPPING, 10.0)
    # b's clock jumps back: treated as dt = 0, exactly like a step at the same instant.
    assert a.step(HOPPING, 10.0) == b.step(HOPPING, 4.0)


@pytest.mark.parametrize(("rest", "recovers"), [(0.49, False), (0.5, True)])
def test_recovery_needs_a_rest_of_recovery_delay(rest: float, recovers: bool) -> None:
    """DESIGN §4.2: recovery +0.25/s only after 0.5 s. After the retry storm's step 2
    (e2 = 0.3544), a third failure blends effort to 0.2835 - 0.306 < 0 -> 0: EXHAUSTION,
    unless the rest before it earns recovery, 0.25 * 0.5 = 0.125 > 0.05."""
    gov = Governor(now=0.0)
    gov.step(STORM, 0.2)
    gov.step(STORM, 0.4)
    s = gov.step(STORM, 0.4 + rest)
    if recovers:
        assert s.state == RECOVERING and s.effort == pytest.approx(0.125)
    else:
        assert s.halt_reason == HALT_EXHAUSTION


@pytest.mark.parametrize(("rest", "effort", "persistence"),
                         [(1.0, 0.25, 0.25), (10.0, 0.3544, 0.337376)])
def test_recovery_is_rate_times_rest_capped_by_last_stable_budget(
        rest: float, effort: float, persistence: float) -> None:
    """Retry storm steps 1-2 leave the last IDLE budget at e = 0.3544, p = 0.337376; a third
    failure blends both to 0 (see above). A 1 s rest adds 0.25 * 1 = 0.25 to each; a 10 s
    rest would add 2.5 but stops at the stable budget."""
    gov = Governor(now=0.0)
    gov.step(STORM, 0.2)
    gov.step(STORM, 0.4)
    s = gov.step(STORM, 0.4 + rest)
    assert s.state == RECOVERING
    assert (s.effort, s.persistence) == pytest.approx((effort, persistence))


def test_stagnation_scales_effort_and_persistence() -> None:
    """DESIGN §4.2: while stagnating (>= 20 non-progress steps) effort x0.7, persistence
    x0.6. Compared with the same governor whose scales are 1, everything is identical up
    to step 19 and differs by exactly those factors at step 20 (RECOVERING switched off
    so nothing else intervenes)."""
    base = profile_config("balanced", recovering_threshold=0.0, stabilized_threshold=0.0,
                          exhaustion_threshold=0.0, stagnation_effort_floor=0.0,
                          exploration_scale=0.0)
    plain = replace(base, stagnation_effort_scale=1.0, stagnation_persistence_scale=1.0)
    sig = Signal(0.0, 0.5, 0.0, 0.0)
    a = run_script(lambda k: sig, 1.0, steps=20, config=base)
    b = run_script(lambda k: sig, 1.0, steps=20, config=plain)
    assert a[:19] == b[:19]
    assert a[19].effort == pytest.approx(0.7 * b[19].effort) and a[19].effort > 0
    assert a[19].persistence == pytest.approx(0.6 * b[19].persistence)
    assert a[19].persistence > 0


def test_progress_resets_the_stagnation_count() -> None:
    gov = Governor(profile_config("balanced", max_steps=1000), now=0.0)
    t = 0.0
    for k in range(60):
        t += 5.0
        s = gov.step(Signal(0.2 if k % 15 == 14 else 0.0, 0.4, 0.1, 0.1), t)
        assert not s.stagnating
    assert s.non_progress_steps == 0


def test_unknown_start_time_gives_the_first_step_no_rest_and_no_decay() -> None:
    """A node whose (sim) clock has not started cannot say when the episode began; the
    first step then counts no time, exactly like a step at the episode's start instant."""
    a = Governor(now=None)
    b = Governor(now=1.7e9)
    assert a.step(HOPPING, 1.7e9) == b.step(HOPPING, 1.7e9)
    # From then on time counts normally.
    assert a.step(HOPPING, 1.7e9 + 5.0) == b.step(HOPPING, 1.7e9 + 5.0)
    # Whereas a known but distant start decays exploration and persistence for the rest.
    far = Governor(now=0.0).step(HOPPING, 1000.0)
    assert far.persistence < Governor(now=1000.0).step(HOPPING, 1000.0).persistence
