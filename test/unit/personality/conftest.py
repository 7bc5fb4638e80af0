"""Shared helpers for the personality core tests (no ROS)."""

from __future__ import annotations

import pytest

from buddy_personality.personality.engine import PersonalityEngine
from buddy_personality.personality.traits import TraitParameters, derive_traits

# 2026-01-01 10:00:00 UTC: a weekday morning, not evening, so time-of-day rules stay quiet
T0 = 1_767_261_600.0


def quiet_traits(reactivity: float = 0.50) -> TraitParameters:
    """Canonical axes except predictability 1.0: no noise and no jitter (P13 = P17 = 0)."""
    return derive_traits(0.40, reactivity, 0.30, 0.35, 1.0)


def make_engine(now: float = T0, reactivity: float = 0.50, **kwargs) -> PersonalityEngine:
    return PersonalityEngine(now, quiet_traits(reactivity), seed=1, **kwargs)


@pytest.fixture
def engine() -> PersonalityEngine:
    return make_engine()


def idle_fired(engine: PersonalityEngine, rule_id: str) -> int:
    return engine.stats.idle_rules_fired.get(rule_id, 0)
