"""Engine surface: outputs per call, the LLM profile (§12.5), conversation arc, dev commands."""

from __future__ import annotations

import pytest

from buddy_personality.personality import engine as eng
from buddy_personality.personality.engine import InputRejected, PersonalityEngine

from .conftest import T0, make_engine


def test_fresh_engine_rests_at_baseline_neutral() -> None:
    snap = PersonalityEngine(T0).snapshot(T0).snapshot
    assert (snap.mood, snap.valence, snap.arousal) == ("neutral", 0.10, pytest.approx(-0.05))
    assert (snap.tonic_valence, snap.layer, snap.conversation_active, snap.idle_state) == (
        0.10, 0, False, 0)


def test_profile_is_due_on_conversation_start_end_and_every_tick_in_between() -> None:
    engine = make_engine()
    assert engine.tick(T0 + 1).profile is None  # idle, no mood change
    start = engine.on_conversation_started(T0 + 2, "s1")
    assert start.profile is not None and start.profile.conversation_active
    assert all(engine.tick(T0 + s).profile is not None for s in range(3, 10))
    end = engine.on_conversation_ended(T0 + 10, "s1", 4)
    assert end.profile is not None and not end.profile.conversation_active


def test_profile_carries_session_turn_and_layer() -> None:
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    engine.on_ai_emotion(T0 + 1, "curious", 0.6, 0.9, 1, "science question", "s1", 5)
    profile = engine.llm_profile(T0 + 1)
    assert (profile.session_id, profile.turn_id, profile.layer, profile.mood) == (
        "s1", 5, 1, "curious")


def test_turns_of_another_session_are_ignored() -> None:
    engine = make_engine()
    engine.on_conversation_started(T0, "s2")
    engine.on_ai_emotion(T0 + 1, "curious", 0.6, 0.9, 1, "", "s1", 9)
    assert engine.turn_id == 0


@pytest.mark.parametrize(("path", "arc"), [
    ([(0.0, 0.0)] * 3, "stable"),
    ([(0.0, 0.0), (0.2, 0.1)], "rising"),
    ([(0.3, 0.1), (0.0, 0.0)], "falling"),
])
def test_conversation_arc(path: list[tuple[float, float]], arc: str) -> None:
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    t = T0
    for v, a in path:
        t += 1
        engine.override_affect(t, v, a, duration_s=0.5)
        engine.tick(t)
    assert engine.conversation_arc() == arc


def test_arc_peak_and_recovery() -> None:
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    engine.override_affect(T0 + 1, 0.7, 0.35, duration_s=5)
    engine.tick(T0 + 2)
    engine.tick(T0 + 3)
    assert engine.conversation_arc() == "peak"
    sad = make_engine()
    sad.on_conversation_started(T0, "s1")
    sad.override_affect(T0 + 1, -0.6, -0.4, duration_s=0.5)
    sad.tick(T0 + 1)
    sad.override_affect(T0 + 2, 0.2, 0.0, duration_s=0.5)
    sad.tick(T0 + 2)
    assert sad.conversation_arc() == "recovery"


def test_override_hold_keeps_affect_still_then_releases() -> None:
    engine = make_engine()
    engine.override_affect(T0, 0.5, 0.3, duration_s=5.0)
    engine.tick(T0 + 4)
    assert (engine.valence, engine.arousal) == (0.5, 0.3)
    engine.tick(T0 + 6)
    assert engine.valence < 0.5


@pytest.mark.parametrize(("v", "a", "d"), [(float("nan"), 0.0, 0.0), (0.0, 2.0, 0.0),
                                           (0.0, 0.0, -1.0)])
def test_override_refuses_bad_values(v: float, a: float, d: float) -> None:
    engine = make_engine()
    with pytest.raises(InputRejected):
        engine.override_affect(T0, v, a, d)
    assert engine.stats.rejected_inputs


def test_set_guardrail_refuses_unknown_keys() -> None:
    with pytest.raises(ValueError, match="unknown guardrail key"):
        make_engine().set_guardrail("hc_4", "false")


def test_time_going_backwards_does_not_move_affect() -> None:
    engine = make_engine()
    engine.override_affect(T0 + 10, 0.5, 0.3)
    engine.tick(T0 + 5)
    assert (engine.valence, engine.arousal) == (0.5, 0.3)


def test_non_finite_time_is_refused() -> None:
    with pytest.raises(InputRejected):
        make_engine().tick(float("nan"))


def test_system_event_outputs_snapshot_at_once() -> None:
    """The event fast path: every call returns the snapshot of its own instant."""
    engine = make_engine()
    out = engine.on_system_event(T0 + 0.25, eng.SYS_FAULT_RAISED, detail="x")
    assert out.snapshot.stamp == T0 + 0.25


def test_deferred_writes_wait_for_flush(tmp_path) -> None:
    """A node publishes first and writes after: nothing on disk until flush_writes()."""
    usage = tmp_path / "usage.json"
    engine = make_engine(usage_path=usage, defer_writes=True)
    engine.on_conversation_started(T0, "s1")
    engine.on_conversation_ended(T0 + 30, "s1")
    assert engine.writes_pending and not usage.exists()
    engine.flush_writes()
    assert usage.exists() and not engine.writes_pending


def test_a_failed_write_is_a_warning_not_a_crash(tmp_path) -> None:
    (tmp_path / "not_a_dir").write_text("")  # a file where the directory should be
    engine = make_engine(usage_path=tmp_path / "not_a_dir" / "usage.json")
    engine.on_conversation_started(T0, "s1")
    out = engine.on_conversation_ended(T0 + 30, "s1")
    assert out.snapshot.conversation_active is False
    # counted per failed write (the start and the end each had the counter due)
    assert set(engine.stats.write_errors) == {"usage"} and engine.stats.write_errors["usage"] >= 1
    assert any("could not write the usage file" in w for w in engine.warnings)
