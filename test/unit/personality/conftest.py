"""Shared helpers for the personality core tests (no ROS)."""

from __future__ import annotations

from pathlib import Path

import pytest

from buddy_personality.personality.engine import PersonalityEngine
from buddy_personality.personality.records import EngineOutput
from buddy_personality.personality.state_keeper import StateKeeper
from buddy_personality.personality.traits import TraitParameters, derive_traits

# 2026-01-01 10:00:00 UTC: a weekday morning, not evening, so time-of-day rules stay quiet
T0 = 1_767_261_600.0


def quiet_traits(reactivity: float = 0.50) -> TraitParameters:
    """Canonical axes except predictability 1.0: no noise and no jitter (P13 = P17 = 0)."""
    return derive_traits(0.40, reactivity, 0.30, 0.35, 1.0)


class KeptEngine(PersonalityEngine):
    """The engine with a state keeper over the given files, writing as the node does:
    after each call, or only when the test flushes (`defer_writes`, the node's order)."""

    def __init__(self, now: float, traits: TraitParameters, *,
                 usage_path: Path | None = None, memory_path: Path | None = None,
                 state_path: Path | None = None, defer_writes: bool = False,
                 utc_offset_s: float = 0.0, **kwargs) -> None:
        self.keeper = keeper = StateKeeper(now, utc_offset_s, usage_path, memory_path,
                                           state_path)
        self._defer = defer_writes
        super().__init__(now, traits, usage=keeper.usage, memory=keeper.memory,
                         resume=keeper.resume, keeps_state=keeper.state_path is not None,
                         warnings=keeper.warnings, utc_offset_s=utc_offset_s, **kwargs)

    def _output(self, now: float) -> EngineOutput:
        out = super()._output(now)
        if not self._defer and self.writes_pending:
            self.keeper.write(self)
        return out

    def flush_writes(self) -> None:
        self.keeper.write(self)

    def flush_all(self) -> None:
        self.keeper.write_all(self)


def make_engine(now: float = T0, reactivity: float = 0.50, **kwargs) -> KeptEngine:
    return KeptEngine(now, quiet_traits(reactivity), seed=1, **kwargs)


@pytest.fixture
def engine() -> PersonalityEngine:
    return make_engine()


def idle_fired(engine: PersonalityEngine, rule_id: str) -> int:
    return engine.stats.idle_rules_fired.get(rule_id, 0)
