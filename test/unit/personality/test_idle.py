"""Idle rules IDLE-01..09, suppression (§7.3), HC-5/HC-10 (§7.4), idle_state."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from buddy_personality.personality import engine as eng
from buddy_personality.personality.affect import Impulse
from buddy_personality.personality.idle import (
    IDLE_IMPULSES,
    IdleRules,
    idle_impulse_allowed,
    should_suppress_idle,
)
from buddy_personality.personality.records import IDLE_ASLEEP, IDLE_AWAKE, IDLE_DROWSY
from buddy_personality.personality.traits import canonical_traits, derive_traits

from .conftest import T0, idle_fired, make_engine

HOUR = 3600.0


def _run(engine: eng.PersonalityEngine, start: float, end: float) -> list[int]:
    """Tick at 1 Hz over [start, end); returns the idle states seen."""
    return [engine.tick(start + s).snapshot.idle_state for s in range(int(end - start))]


def test_spec_7_1_impulse_table() -> None:
    table = {k: (v.target_valence, v.target_arousal, v.magnitude)
             for k, v in IDLE_IMPULSES.items()}
    assert table == {
        "IDLE-01": (0.35, 0.40, 0.50), "IDLE-03": (0.00, -0.15, 0.30),
        "IDLE-04": (0.00, -0.30, 0.40), "IDLE-05": (0.20, -0.05, 0.40),
        "IDLE-06": (0.05, -0.10, 0.30), "IDLE-07": (0.05, 0.05, 0.10),
        "IDLE-08": (-0.02, -0.10, 0.10), "IDLE-09": (0.00, -0.40, 0.30),
    }


def test_idle_02_first_five_minutes_only_baseline_drift() -> None:
    engine = make_engine()
    states = _run(engine, T0 + 1, T0 + 300)
    assert not engine.stats.idle_rules_fired
    assert set(states) == {IDLE_AWAKE}
    assert engine.mood == "neutral"


def test_idle_03_and_04_fire_at_their_thresholds_with_cooldowns() -> None:
    """No jitter (P17 = 0): IDLE-03 at 5 min, IDLE-04 at 15 min, then every 30 min."""
    engine = make_engine()
    _run(engine, T0 + 1, T0 + 300)
    assert idle_fired(engine, "IDLE-03") == 0
    engine.tick(T0 + 300)
    assert idle_fired(engine, "IDLE-03") == 1
    _run(engine, T0 + 301, T0 + 900)
    assert idle_fired(engine, "IDLE-03") == 1  # 600 s cooldown, and 900 s is IDLE-04's
    engine.tick(T0 + 900)
    assert idle_fired(engine, "IDLE-04") == 1
    _run(engine, T0 + 901, T0 + 2700)
    assert idle_fired(engine, "IDLE-04") == 1  # 1800 s cooldown
    engine.tick(T0 + 2700)
    assert idle_fired(engine, "IDLE-04") == 2
    assert engine.mood == "sleepy" or engine.valence < 0.2  # drifting toward SLEEPY


def test_idle_state_awake_drowsy_asleep() -> None:
    engine = make_engine()
    states = _run(engine, T0 + 1, T0 + 1000)
    assert states[298] == IDLE_AWAKE and states[299] == IDLE_DROWSY  # t = 299 s, 300 s
    assert states[898] == IDLE_DROWSY and states[899] == IDLE_ASLEEP
    engine.on_button(T0 + 1000, 0, eng.BUTTON_PRESS)
    assert engine.tick(T0 + 1001).snapshot.idle_state == IDLE_AWAKE


def test_idle_03_drifts_toward_sleepy() -> None:
    engine = make_engine()
    engine.tick(T0 + 299)
    assert engine.arousal == pytest.approx(-0.05)
    engine.tick(T0 + 300)
    # magnitude 0.30 exceeds the 0.10 distance to (0.00, -0.15): it lands on the target
    assert (engine.valence, engine.arousal) == pytest.approx((0.0, -0.15))


def test_p17_jitter_is_seeded_and_bounded() -> None:
    """§7.1: thresholds ±2 min / ±5 min at the canonical P17, from the seeded RNG."""
    traits = canonical_traits()
    draws = []
    for seed in range(30):
        rules = IdleRules(traits, random.Random(seed), T0)
        draws.append((rules.state.medium_at_s, rules.state.long_at_s))
    assert all(180.0 <= m <= 420.0 and 600.0 <= lg <= 1200.0 for m, lg in draws)
    assert len(set(draws)) == 30
    again = IdleRules(traits, random.Random(3), T0).state
    assert (again.medium_at_s, again.long_at_s) == draws[3]


def test_idle_05_06_post_conversation_afterglow() -> None:
    """IDLE-05/06 are the L0-07/08 conversation-end impulses (tested in test_impulses)."""
    assert IDLE_IMPULSES["IDLE-05"].target_valence > 0 and IDLE_IMPULSES["IDLE-06"].magnitude == 0.3


def test_idle_07_morning_first_boot_only() -> None:
    morning = T0  # 10:00 UTC, offset 0
    engine = make_engine(morning)
    engine.on_system_event(morning, eng.SYS_BOOT)
    assert idle_fired(engine, "IDLE-07") == 1
    afternoon = make_engine(morning + 6 * HOUR)
    afternoon.on_system_event(morning + 6 * HOUR, eng.SYS_BOOT)
    assert idle_fired(afternoon, "IDLE-07") == 0


def test_idle_07_not_on_a_second_boot_the_same_day(tmp_path) -> None:
    usage = tmp_path / "usage.json"
    first = make_engine(T0 - 2 * HOUR, usage_path=usage)  # 08:00
    first.on_system_event(T0 - 2 * HOUR, eng.SYS_BOOT)
    second = make_engine(T0, usage_path=usage)  # a reboot at 10:00
    second.on_system_event(T0, eng.SYS_BOOT)
    assert idle_fired(first, "IDLE-07") == 1
    assert idle_fired(second, "IDLE-07") == 0


def test_idle_08_evening_subtle_sleepiness_respects_local_time() -> None:
    evening = T0 + 9 * HOUR  # 19:00 UTC
    engine = make_engine(evening)
    engine.tick(evening + 1)
    assert idle_fired(engine, "IDLE-08") == 1
    _run(engine, evening + 2, evening + 1200)
    assert idle_fired(engine, "IDLE-08") == 1  # P19 = 4500 s between lifts
    # the same instant is 22:00 local three hours east: past the evening window
    later_tz = make_engine(evening, utc_offset_s=3 * HOUR)
    later_tz.tick(evening + 1)
    assert idle_fired(later_tz, "IDLE-08") == 0


def test_idle_09_server_offline_over_four_hours_makes_a_resting_robot() -> None:
    engine = make_engine()
    engine.on_system_event(T0, eng.SYS_SERVER_OFFLINE)
    engine.tick(T0 + 4 * HOUR - 1)
    assert idle_fired(engine, "IDLE-09") == 0
    out = engine.tick(T0 + 4 * HOUR)
    assert idle_fired(engine, "IDLE-09") == 1
    assert out.snapshot.idle_state == IDLE_ASLEEP
    engine.tick(T0 + 4 * HOUR + 600)
    assert idle_fired(engine, "IDLE-09") == 2  # persistent
    engine.on_system_event(T0 + 4 * HOUR + 601, eng.SYS_SERVER_ONLINE)
    engine.tick(T0 + 4 * HOUR + 1300)
    assert idle_fired(engine, "IDLE-09") == 2


@pytest.mark.parametrize(("args", "suppressed"), [
    ((False, False, False, 1e9), False),
    ((True, False, False, 1e9), True),  # conversation in progress
    ((False, True, False, 1e9), True),  # TTS playing
    ((False, False, True, 1e9), True),  # system fault
    ((False, False, False, 119.9), True),  # 2-minute post-conversation cooldown (RS-7)
    ((False, False, False, 120.0), False),
])
def test_spec_7_3_should_suppress_idle(args: tuple, suppressed: bool) -> None:
    assert should_suppress_idle(*args) is suppressed


def _offline_engine() -> eng.PersonalityEngine:
    """IDLE-09 due at T0 + 4 h: a rule not tied to the idle timer, to test suppression."""
    engine = make_engine()
    engine.on_system_event(T0, eng.SYS_SERVER_OFFLINE)
    return engine


def test_suppressed_during_a_conversation() -> None:
    engine = _offline_engine()
    engine.on_conversation_started(T0 + 4 * HOUR - 10, "s1")
    engine.tick(T0 + 4 * HOUR + 5)
    assert not engine.stats.idle_rules_fired


def test_suppressed_for_two_minutes_after_a_conversation() -> None:
    engine = _offline_engine()
    engine.on_conversation_started(T0 + 4 * HOUR - 70, "s1")
    engine.on_conversation_ended(T0 + 4 * HOUR - 60, "s1")
    engine.tick(T0 + 4 * HOUR + 59)
    assert idle_fired(engine, "IDLE-09") == 0
    engine.tick(T0 + 4 * HOUR + 60)
    assert idle_fired(engine, "IDLE-09") == 1


def test_suppressed_while_speaking() -> None:
    engine = _offline_engine()
    engine.on_speech_activity(T0 + 4 * HOUR - 5, True)
    engine.tick(T0 + 4 * HOUR + 5)
    assert idle_fired(engine, "IDLE-09") == 0
    engine.on_speech_activity(T0 + 4 * HOUR + 6, False)
    engine.tick(T0 + 4 * HOUR + 7)
    assert idle_fired(engine, "IDLE-09") == 1


def test_suppressed_while_a_fault_is_active() -> None:
    engine = _offline_engine()
    engine.on_system_event(T0 + 10, eng.SYS_FAULT_RAISED, detail="motor")
    engine.tick(T0 + 4 * HOUR + 5)
    assert not engine.stats.idle_rules_fired
    engine.on_system_event(T0 + 4 * HOUR + 6, eng.SYS_FAULT_CLEARED, detail="motor")
    engine.tick(T0 + 4 * HOUR + 7)
    assert idle_fired(engine, "IDLE-09") == 1


def test_hc5_hc10_every_idle_impulse_passes_the_filter() -> None:
    assert all(idle_impulse_allowed(imp) for imp in IDLE_IMPULSES.values())


@pytest.mark.parametrize("target", [(-0.6, -0.4), (-0.3, 0.0), (-0.7, 0.6)])
def test_hc5_hc10_filter_refuses_negative_idle_targets(target: tuple[float, float]) -> None:
    """§7.4: no idle rule may aim at a lonely/sad/negative place."""
    assert not idle_impulse_allowed(Impulse(*target, 0.3, "idle_rule"))


def test_idle_never_shows_a_negative_mood_over_a_day() -> None:
    engine = eng.PersonalityEngine(T0, seed=11)  # canonical traits, noise and jitter on
    engine.on_system_event(T0, eng.SYS_BOOT)
    moods = {engine.tick(T0 + s).snapshot.mood for s in range(1, 86400, 7)}
    assert not moods & {"sad", "scared", "angry"}
    assert engine.stats.idle_rules_fired


def test_a_lost_speaking_false_stops_suppressing_after_five_minutes() -> None:
    engine = _offline_engine()
    engine.on_speech_activity(T0 + 4 * 3600 - 100, True)  # and "false" never comes
    engine.tick(T0 + 4 * 3600 + 5)
    assert idle_fired(engine, "IDLE-09") == 0
    engine.tick(T0 + 4 * 3600 + 200)
    assert idle_fired(engine, "IDLE-09") == 1


_AXIS = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(energy=_AXIS, reactivity=_AXIS, initiative=_AXIS, vulnerability=_AXIS,
       predictability=_AXIS, seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_erratum_11_thresholds_stay_in_bounds_over_the_whole_axis_cube(
        energy: float, reactivity: float, initiative: float, vulnerability: float,
        predictability: float, seed: int) -> None:
    """DESIGN erratum 11: drowsy at 5 min ± 2 min, asleep at 15 min ± 5 min of idle, for
    every personality, not only the canonical one (issue 31 item 5: P17 = 42 s at
    predictability 0.3 scaled the jitter to ±5.6 min and the drowsy threshold below 0)."""
    traits = derive_traits(energy, reactivity, initiative, vulnerability, predictability)
    rules = IdleRules(traits, random.Random(seed), T0)
    for _ in range(3):  # the first period and two redraws after wake events
        s = rules.state
        assert 180.0 <= s.medium_at_s <= 420.0
        assert 600.0 <= s.long_at_s <= 1200.0
        assert s.medium_at_s <= s.long_at_s
        rules.restart(T0 + 1.0)


@settings(max_examples=60, deadline=None)
@given(predictability=st.sampled_from([0.0, 0.3]), seed=st.integers(min_value=0,
                                                                      max_value=200))
def test_erratum_11_awake_at_once_half_a_second_after_a_button(predictability: float,
                                                                seed: int) -> None:
    """Erratum 11: a wake event (L0-10 button) makes Buddy awake at once; 0.5 s later
    he is still awake, whatever this idle period's jitter drew (issue 31 item 5 saw
    SLEEPY there in 15 / 200 seeds at predictability 0.3, 31 / 200 at 0.0)."""
    traits = derive_traits(0.40, 0.50, 0.30, 0.35, predictability)
    engine = eng.PersonalityEngine(T0, traits, seed=seed)
    engine.tick(T0 + 1000.0)
    engine.on_button(T0 + 1000.0, 0, eng.BUTTON_PRESS)
    assert engine.tick(T0 + 1000.5).snapshot.idle_state == IDLE_AWAKE
