"""Governance g = Wᵀs − Vᵀs, profile scale, decay, inertia and clipping (spec 001 §4.2-§4.3)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from buddy_personality.governor import Budgets, GovernorConfig, Pressures
from buddy_personality.governor.kinetics import governance, raw_budgets, smooth

CFG = GovernorConfig()
UNIT = [
    Pressures(confidence=1.0),
    Pressures(frustration=1.0),
    Pressures(curiosity=1.0),
    Pressures(arousal=1.0),
    Pressures(risk=1.0),
]
# Row i of W minus row i of V, DESIGN §4.2 (columns effort, risk, exploration, persistence).
EXPECTED_ROWS = [
    (0.6, 0.3, 0.2, 0.5),
    (-0.7, -0.9, -0.9, -0.8),  # frustration: no enabling, global suppression
    (0.2, 0.1, 0.7, 0.1),
    (0.3, 0.2, 0.1, 0.2),
    (0.1, 0.5, 0.3, 0.1),
]


@pytest.mark.parametrize(("pressure", "row"), list(zip(UNIT, EXPECTED_ROWS, strict=True)))
def test_unit_pressure_selects_w_minus_v_row(pressure: Pressures, row: tuple) -> None:
    assert governance(pressure, CFG.w, CFG.v) == pytest.approx(row)


def test_governance_is_linear_in_pressure() -> None:
    s = Pressures(0.5, -2.0, 1.5, 0.25, -1.0)
    expected = [sum(c * r[j] for c, r in zip(s.as_tuple(), EXPECTED_ROWS, strict=True))
                for j in range(4)]
    assert governance(s, CFG.w, CFG.v) == pytest.approx(expected)


def test_decay_hits_exploration_and_persistence_only() -> None:
    # Step decay 0.05 plus 0.002/s * dt: at dt = 10 s, 0.07 off exploration and persistence.
    raw = raw_budgets((0.5, 0.5, 0.5, 0.5), 10.0, CFG)
    assert raw == pytest.approx((0.5, 0.5, 0.43, 0.43))


def test_profile_scale_multiplies_g_before_decay() -> None:
    cfg = replace(CFG, effort_scale=2.0, risk_scale=0.5, exploration_scale=3.0,
                  persistence_scale=0.0)
    raw = raw_budgets((0.2, 0.2, 0.2, 0.2), 0.0, cfg)
    assert raw == pytest.approx((0.4, 0.1, 0.6 - 0.05, -0.05))


def test_inertia_blends_then_clips() -> None:
    prev = Budgets(0.5, 0.9, 0.9, 0.1)
    b = smooth(prev, (0.0, 1.2, 3.0, -1.0), 0.8)
    assert b.effort == pytest.approx(0.4)          # 0.8*0.5 + 0.2*0
    # Raw is not clipped before blending: 0.72 + 0.24 = 0.96 (0.92 if raw were clipped at 1).
    assert b.risk == pytest.approx(0.96)
    assert b.exploration == 1.0                    # 0.72 + 0.6 = 1.32, clipped
    assert b.persistence == 0.0                    # 0.08 - 0.2, clipped
