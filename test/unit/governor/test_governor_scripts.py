"""Each halt reason, a retry storm, an urgency flood and a recovery, as signal scripts.

Every expected timeline below is derived by hand from DESIGN §4.2 (spec 001 §4-§5), not
copied from the code: for a constant signal the pressures after k steps are k times the
appraisal delta, so g(k) = k * (W - V)ᵀ ΔP and each budget follows the one-line recurrence
b_k = 0.8 b_{k-1} + 0.2 (scale * g(k) - decay), clipped to [0, 1]. `expected_budget`
re-evaluates that recurrence from the DESIGN numbers written out in this file.

Cadence matters. With the default rest-based recovery (+0.25/s once the rest between two
steps reaches 0.5 s, capped by the last IDLE budget), a governor stepped at conversation
pace (>= 0.5 s apart) in RECOVERING is lifted back to min(last IDLE budget, b + 0.25 dt)
every step, so effort never falls below min(0.3, 0.125) > 0.1: EXHAUSTION and STAGNATION
are reached only by signals arriving faster than 0.5 s apart (retries of failed requests,
automatic re-prompts). The scripts for those use 0.2 s; `test_conversation_pace_*` pins
the slow-cadence behaviour down.
"""

from __future__ import annotations

import pytest
from unit.governor.governor_testlib import first_step, run_script

from buddy_personality.governor import (
    HALT_EXHAUSTION,
    HALT_EXTERNAL,
    HALT_OVERRISK,
    HALT_SAFETY,
    HALT_STAGNATION,
    HALTED,
    IDLE,
    RECOVERING,
    Governor,
    Signal,
    call_policy,
    profile_config,
)

# DESIGN §4.2, written out again so the expected values do not come from the code.
W_MINUS_V = {  # pressure -> (effort, risk, exploration, persistence)
    "c": (0.6, 0.3, 0.2, 0.5),
    "f": (-0.7, -0.9, -0.9, -0.8),
    "cu": (0.2, 0.1, 0.7, 0.1),
    "a": (0.3, 0.2, 0.1, 0.2),
    "r": (0.1, 0.5, 0.3, 0.1),
}
COLUMN = {"effort": 0, "risk": 1, "exploration": 2, "persistence": 3}


def delta(p: float, n: float, u: float, d: float) -> dict[str, float]:
    """DESIGN §4.2 appraisal."""
    return {"c": 0.3 * p - 0.1 * d, "f": (0.0 if p > 0 else 0.4 * d) + 0.2 * u,
            "cu": 0.5 * n - 0.2 * (1 - n), "a": 0.6 * u, "r": -0.3 * abs(p)}


def g_per_step(sig: tuple[float, float, float, float], budget: str) -> float:
    dp = delta(*sig)
    return sum(dp[k] * W_MINUS_V[k][COLUMN[budget]] for k in dp)


def expected_budget(sig: tuple[float, float, float, float], budget: str, steps: int,
                    dt: float, start: float, scale: float = 1.0) -> list[float]:
    """The IDLE-state recurrence for a constant signal (valid while nothing locks/recovers)."""
    decay = 0.05 + 0.002 * dt if budget in ("exploration", "persistence") else 0.0
    slope = g_per_step(sig, budget)
    out, b = [], start
    for k in range(1, steps + 1):
        b = min(1.0, max(0.0, 0.8 * b + 0.2 * (scale * slope * k - decay)))
        out.append(b)
    return out


def test_safety_topic_hopping_child() -> None:
    """SAFETY: every turn a brand-new topic (n=1) that goes fairly well (p=0.5), every 5 s.

    ΔP = (c 0.14, f 0, cu 0.5, a 0, r -0.15); exploration g = 0.333 k, decay 0.06:
    x1 = 0.2*0.273 = 0.0546, x2 = 0.1649, x3 = 0.3197, x4 = 0.5102, x5 = 0.7292,
    x6 = 0.9709, x7 = 0.8*0.9709 + 0.2*2.271 = 1.231 -> 1.0 >= max_exploration: SAFETY at 7.
    Effort (g = 0.169 k) and persistence (g = 0.105 k - 0.06) stay >= 0.3: IDLE until then.
    """
    sig = (0.5, 1.0, 0.0, 0.1)
    snaps = run_script(lambda k: Signal(*sig), period=5.0, steps=10)
    x = expected_budget(sig, "exploration", 6, 5.0, 0.0)
    assert x[0] == pytest.approx(0.0546) and x[5] == pytest.approx(0.9709, abs=1e-4)
    assert [s.exploration for s in snaps[:6]] == pytest.approx(x)
    assert [s.state for s in snaps[:6]] == [IDLE] * 6
    assert len(snaps) == 7 and snaps[-1].state == HALTED
    assert snaps[-1].halt_reason == HALT_SAFETY
    assert snaps[-1].curiosity == pytest.approx(3.5)  # 7 * 0.5: pressures of the last step kept


def test_overrisk_with_a_low_risk_limit_and_no_exploration() -> None:
    """OVERRISK needs a non-default config, documented here.

    With DESIGN's W and V the risk budget gains at most 0.1 * 0.5 = 0.05 per step (curiosity
    at novelty 1) while frustration (0.9) and risk pressure (always <= 0 after appraisal)
    pull it down; the same curiosity gives exploration 0.35 per step, so under the defaults
    SAFETY (priority 1) always comes first and OVERRISK is unreachable by in-range signals.
    Config: exploration_scale = 0 (no exploration granted) and max_risk = 0.2.

    Script: barely successful turns (p=0.05, d=0) on new topics (n=1), every 5 s.
    ΔP = (c 0.015, f 0, cu 0.5, a 0, r -0.015); risk g = 0.047 k:
    r1 = 0.0094, r2 = 0.02632, r3 = 0.049256, r4 = 0.0770, r5 = 0.1086, r6 = 0.1433,
    r7 = 0.1804, r8 = 0.8*0.1804 + 0.2*0.376 = 0.2195 >= 0.2: OVERRISK at step 8.
    """
    cfg = profile_config("balanced", exploration_scale=0.0, max_risk=0.2)
    sig = (0.05, 1.0, 0.0, 0.0)
    snaps = run_script(lambda k: Signal(*sig), period=5.0, steps=20, config=cfg)
    r = expected_budget(sig, "risk", 7, 5.0, 0.0)
    assert r[0] == pytest.approx(0.0094) and r[6] == pytest.approx(0.180426, abs=1e-6)
    assert [s.risk for s in snaps[:7]] == pytest.approx(r)
    assert all(s.exploration == 0.0 and s.state == IDLE for s in snaps[:7])
    assert len(snaps) == 8 and snaps[-1].halt_reason == HALT_OVERRISK


def test_overrisk_is_unreachable_under_defaults_safety_wins() -> None:
    # The same script under the defaults: exploration reaches 1.0 first.
    snaps = run_script(lambda k: Signal(0.05, 1.0, 0.0, 0.0), period=5.0, steps=100)
    assert snaps[-1].halt_reason == HALT_SAFETY


def test_exhaustion_flat_unproductive_exchange() -> None:
    """EXHAUSTION: p=0, n=0, u=0, d=0.1 every 0.2 s (no rest, so no recovery).

    ΔP = (c -0.01, f 0.04, cu -0.2, a 0, r 0); effort g = -0.074 k:
    e1 = 0.7852, e2 = 0.59856, e3 = 0.434448, e4 = 0.2883584 (< 0.3: RECOVERING at 4),
    e5 = 0.15668672, e6 = 0.8*0.15668672 - 0.0888 = 0.0365 <= 0.05: EXHAUSTION at 6.
    """
    sig = (0.0, 0.0, 0.0, 0.1)
    snaps = run_script(lambda k: Signal(*sig), period=0.2, steps=30)
    e = expected_budget(sig, "effort", 5, 0.2, 1.0)
    assert e == pytest.approx([0.7852, 0.59856, 0.434448, 0.2883584, 0.15668672])
    assert [s.effort for s in snaps[:5]] == pytest.approx(e)
    assert [s.state for s in snaps] == [IDLE] * 3 + [RECOVERING] * 2 + [HALTED]
    assert snaps[-1].halt_reason == HALT_EXHAUSTION


def test_retry_storm_of_failures_exhausts_and_retries_shrink() -> None:
    """Retry storm: failed LLM requests retried at once (p=-1, u=0.3, d=0.8, every 0.2 s).

    ΔP = (c -0.38, f 0.38, cu -0.2, a 0.18, r -0.3); effort g = -0.51 k:
    e1 = 0.8 - 0.102 = 0.698, e2 = 0.5584 - 0.204 = 0.3544, e3 = 0.2835 - 0.306 < 0 -> 0:
    EXHAUSTION at step 3. Persistence g = -0.508 k, decay 0.0504: p1 = 0.68832,
    p2 = 0.337376. The bridge's retries (round(3 * persistence)) fall 3 -> 2 -> 1 -> 0.
    """
    sig = (-1.0, 0.0, 0.3, 0.8)
    gov = Governor(now=0.0)
    retries = [call_policy(IDLE, 1.0, 1.0, 0.0, 0.0).max_retries]
    snaps = run_script(lambda k: Signal(*sig), period=0.2, steps=10, governor=gov)
    for s in snaps:
        retries.append(call_policy(s.state, s.effort, s.persistence, s.risk,
                                   s.exploration).max_retries)
    assert [s.effort for s in snaps[:2]] == pytest.approx([0.698, 0.3544])
    assert [s.persistence for s in snaps[:2]] == pytest.approx([0.68832, 0.337376])
    assert [s.state for s in snaps] == [IDLE, IDLE, HALTED]
    assert snaps[-1].halt_reason == HALT_EXHAUSTION
    assert retries == [3, 2, 1, 0]


def test_urgency_flood_at_speed_exhausts() -> None:
    """Urgency flood: u=1 on every step (p=0, n=0, d=0.1), every 0.2 s.

    ΔP = (c -0.01, f 0.24, cu -0.2, a 0.6, r 0); effort g = -0.034 k (arousal's 0.3*0.6
    is outweighed by frustration's 0.7*0.24 and the stale-input curiosity):
    e1..e7 = 0.7932, 0.62096, 0.476368, 0.3538944, 0.2491155, 0.1584924, 0.0791939;
    e8 = 0.0634 - 0.0544 = 0.009 <= 0.05: EXHAUSTION at 8. Persistence g = -0.097 k:
    p4 = 0.2209 < 0.3, so RECOVERING from step 4 (no rest at 0.2 s, so no recovery).
    """
    sig = (0.0, 0.0, 1.0, 0.1)
    snaps = run_script(lambda k: Signal(*sig), period=0.2, steps=30)
    e = expected_budget(sig, "effort", 7, 0.2, 1.0)
    assert e[6] == pytest.approx(0.0791939, abs=1e-6)
    assert [s.effort for s in snaps[:7]] == pytest.approx(e)
    p = expected_budget(sig, "persistence", 4, 0.2, 1.0)
    assert p[3] == pytest.approx(0.22091904)
    assert [s.state for s in snaps] == [IDLE] * 3 + [RECOVERING] * 4 + [HALTED]
    assert snaps[-1].halt_reason == HALT_EXHAUSTION


def test_conversation_pace_urgency_flood_is_held_in_recovering_until_the_fuse() -> None:
    """The same flood one turn every 5 s: RECOVERING at step 4, then each 5 s rest restores
    effort and persistence to the last IDLE budget (step 3: e3 = 0.476368, the same effort
    as above since effort has no decay), so the episode neither exhausts nor stagnates and
    ends only at the EXTERNAL fuse, step 100, with risk and exploration locked at 0."""
    sig = (0.0, 0.0, 1.0, 0.1)
    snaps = run_script(lambda k: Signal(*sig), period=5.0, steps=200)
    assert len(snaps) == 100 and snaps[-1].halt_reason == HALT_EXTERNAL
    assert first_step(snaps, RECOVERING) == 4
    live = snaps[3:99]
    assert all(s.state == RECOVERING for s in live)
    assert all(s.effort == pytest.approx(0.476368) for s in live)
    assert all(s.persistence == snaps[2].persistence for s in live)


def test_stagnation_child_keeps_talking_but_nothing_progresses() -> None:
    """STAGNATION: p=0, n=0.5, u=0.2, d=0.1 every 0.2 s.

    ΔP = (c -0.01, f 0.08, cu 0.15, a 0.12, r 0); effort g = +0.004 k (arousal and
    curiosity just outweigh frustration), so e_k = 0.8 e_{k-1} + 0.0008 k: effort sinks
    slowly and stays above 0.05 (minimum e18 = 0.0743). Step 20 is the 20th step without
    progress: stagnating, so effort x0.7: e20 = 0.7 (0.8 e19 + 0.016) = 0.0530, inside
    (0.05, 0.1]: not EXHAUSTION (priority 3) but STAGNATION (priority 4) at step 20.
    """
    sig = (0.0, 0.5, 0.2, 0.1)
    snaps = run_script(lambda k: Signal(*sig), period=0.2, steps=40)
    e = expected_budget(sig, "effort", 19, 0.2, 1.0)
    assert min(e) == pytest.approx(0.0743, abs=1e-4) and min(e) > 0.05
    assert [s.effort for s in snaps[:19]] == pytest.approx(e)
    e20 = 0.7 * (0.8 * e[18] + 0.2 * 0.004 * 20)
    assert 0.05 < e20 <= 0.1
    assert len(snaps) == 20 and snaps[-1].halt_reason == HALT_STAGNATION
    assert [s.non_progress_steps for s in snaps] == list(range(1, 21))
    assert not snaps[18].stagnating and snaps[19].stagnating


def test_external_fuse_after_max_steps_of_calm_conversation() -> None:
    """EXTERNAL: a calm, mildly successful chat (p=0.3, n=0.3, u=0.1, d=0.1) every 5 s.

    ΔP = (c 0.08, f 0.02, cu 0.01, a 0.06, r -0.09). Exploration g = -0.016 k and risk
    g = -0.026 k: both stay at 0 (no SAFETY/OVERRISK). Effort g = +0.045 k, and p > 0 every
    step (no stagnation), so no governance halt: the fuse fires at step 100 = max_steps.
    """
    sig = (0.3, 0.3, 0.1, 0.1)
    assert g_per_step(sig, "exploration") == pytest.approx(-0.016)
    assert g_per_step(sig, "risk") == pytest.approx(-0.026)
    assert g_per_step(sig, "effort") == pytest.approx(0.045)
    snaps = run_script(lambda k: Signal(*sig), period=5.0, steps=150)
    assert len(snaps) == 100
    assert all(s.state != HALTED for s in snaps[:99])
    assert all(s.risk == 0.0 and s.exploration == 0.0 for s in snaps[:99])
    assert snaps[-1].halt_reason == HALT_EXTERNAL and snaps[-1].step == 100


def test_external_fuse_follows_max_steps_parameter() -> None:
    cfg = profile_config("balanced", max_steps=12)
    snaps = run_script(lambda k: Signal(0.3, 0.3, 0.1, 0.1), 5.0, steps=50, config=cfg)
    assert len(snaps) == 12 and snaps[-1].halt_reason == HALT_EXTERNAL


def test_recovery_returns_to_idle_when_the_child_re_engages() -> None:
    """Two failed requests in a fast storm, then successful turns every 2 s.

    Steps 1-2 are the retry storm above: e2 = 0.3544, p2 = 0.337376, still IDLE: this is the
    last stable budget. Step 3 (p=1, n=0.6, d=0, 2 s later): ΔP_B = (c 0.3, f 0, cu 0.22,
    a 0, r -0.3). Effort g(3) = g_e(P2) + 0.194 = -1.02 + 0.194 = -0.826, so the blended
    effort is 0.8*0.3544 - 0.1652 = 0.1183 < 0.3: RECOVERING; the 2 s rest adds 0.5, capped
    by the stable 0.3544. Persistence stays pinned at 0.337376 while its blend
    0.8*0.337376 + 0.2*(g_p - 0.054) is below it, with g_p(k) = -1.016 + 0.142 (k - 2).
    The return to IDLE needs both blends >= 0.3; persistence's needs
    g_p - 0.054 >= 0.1504, i.e. k - 2 >= 8.59: IDLE again at step 11 and after.
    Budgets never exceed the stable level through recovery, and risk stays frozen.
    """
    storm, good = (-1.0, 0.0, 0.3, 0.8), (1.0, 0.6, 0.0, 0.0)
    gov = Governor(now=0.0)
    snaps = [gov.step(Signal(*storm), 0.2), gov.step(Signal(*storm), 0.4)]
    snaps += [gov.step(Signal(*good), 0.4 + 2.0 * (k - 2)) for k in range(3, 21)]
    states = [s.state for s in snaps]
    assert states == [IDLE] * 2 + [RECOVERING] * 8 + [IDLE] * 10
    stable_e, stable_p = snaps[1].effort, snaps[1].persistence
    assert (stable_e, stable_p) == pytest.approx((0.3544, 0.337376))
    assert snaps[2].effort == pytest.approx(stable_e)  # lifted exactly to the stable budget
    for s in snaps[2:10]:
        assert s.persistence == pytest.approx(stable_p)
        assert s.risk == snaps[1].risk and s.exploration <= snaps[1].exploration
    g_p = [-1.016 + 0.142 * (k - 2) for k in range(3, 12)]
    assert [k for k, g in zip(range(3, 12), g_p, strict=True) if g - 0.054 >= 0.1504] == [11]
