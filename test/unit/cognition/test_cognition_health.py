"""Layer switching (spec 002 §9.3 RS-9, DESIGN §4.5)."""

from __future__ import annotations

from buddy_personality.cognition.health import (
    LAYER_LLM,
    LAYER_RULES,
    SERVER_OFFLINE,
    SERVER_ONLINE,
    HealthConfig,
    ServerHealth,
)


def test_unconfigured_is_layer_0_for_good_and_silent() -> None:
    h = ServerHealth(configured=False)
    assert h.layer == LAYER_RULES and not h.may_call()
    assert not h.probe_due(0.0) and h.record_failure(0.0) is None


def test_repeated_failure_goes_offline_and_success_comes_back() -> None:
    h = ServerHealth(True, HealthConfig(offline_after_failures=2, probe_interval_s=10.0))
    assert h.layer == LAYER_LLM
    assert h.record_failure(1.0) is None            # one failure is not "repeated"
    assert h.record_failure(2.0) == SERVER_OFFLINE
    assert h.layer == LAYER_RULES and not h.may_call()
    assert h.record_failure(3.0) is None            # announced once
    assert not h.probe_due(11.9) and h.probe_due(12.0)
    assert h.record_success(12.5) == SERVER_ONLINE
    assert h.layer == LAYER_LLM and h.record_success(13.0) is None


def test_a_success_resets_the_failure_count() -> None:
    h = ServerHealth(True, HealthConfig(offline_after_failures=2))
    h.record_failure(0.0)
    h.record_success(1.0)
    assert h.record_failure(2.0) is None


def test_startup_probe_learns_the_state() -> None:
    h = ServerHealth(True, HealthConfig(probe_interval_s=5.0))
    assert h.probe_due(0.0)
    h.probe_started(0.0)
    assert h.record_failure(0.1, probe=True) == SERVER_OFFLINE
    assert h.record_failure(5.2, probe=True) is None
    assert h.record_success(10.0) == SERVER_ONLINE
    assert not h.probe_due(100.0)
