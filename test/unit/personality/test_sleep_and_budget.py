"""DESIGN §6 errata 11 (idle states and sleep) and 12 (the budget counts LLM transitions).

Each test quotes the sentence of the erratum it states. Numbers come from the DESIGN and
spec text (thresholds, targets, the SLEEPY anchor), never from the engine's constants.
"""

from __future__ import annotations

import math
import random

import pytest

from buddy_personality.personality import engine as eng
from buddy_personality.personality.idle import IdleRules
from buddy_personality.personality.intent_gate import SOURCE_HYBRID, SOURCE_INLINE
from buddy_personality.personality.records import IDLE_ASLEEP, IDLE_AWAKE, IDLE_DROWSY
from buddy_personality.personality.traits import canonical_traits

from .conftest import T0, idle_fired, make_engine

HOUR = 3600.0
BASELINE = (0.10, -0.05)  # spec 002 §3.3 at the canonical axes
SLEEPY_ANCHOR = (0.05, -0.80)  # spec 002 §4.1
MAX_ANCHOR_DISTANCE = 1.20  # spec 002 §4.2
# DESIGN §6.11: "IDLE-03 (0, -0.15), IDLE-04 (0, -0.30), IDLE-09 (0, -0.40)"
DROWSY_TARGET = (0.0, -0.15)
ASLEEP_TARGET = (0.0, -0.30)
OFFLINE_TARGET = (0.0, -0.40)


def _tick_until(engine: eng.PersonalityEngine, start: float, end: float) -> list:
    return [engine.tick(t) for t in range(int(start), int(end) + 1)]


def _sleepy_intensity(point: tuple[float, float]) -> float:
    """spec 002 §4.2 intensity, by erratum 2 against the SLEEPY anchor, 2 decimals."""
    return round(1.0 - math.dist(point, SLEEPY_ANCHOR) / MAX_ANCHOR_DISTANCE, 2)


# ---------------------------------------------------------------- thresholds and jitter
def test_thresholds_without_jitter_are_five_and_fifteen_minutes() -> None:
    """"drowsy from IDLE-03's threshold (5 min of idle ...), asleep from IDLE-04's (15 min
    ...)": with P17 = 0 (no jitter) exactly at 300 s and 900 s."""
    engine = make_engine()
    outs = _tick_until(engine, T0 + 1, T0 + 1000)
    state = {round(o.snapshot.stamp - T0): o.snapshot.idle_state for o in outs}
    assert state[299] == IDLE_AWAKE and state[300] == IDLE_DROWSY
    assert state[899] == IDLE_DROWSY and state[900] == IDLE_ASLEEP


def test_jitter_bounds_are_two_and_five_minutes_drawn_per_idle_period() -> None:
    """"moved by a jitter of up to ±2 min drawn per idle period from the seeded RNG",
    "15 min ± 5 min"."""
    rules = IdleRules(canonical_traits(), random.Random(7), T0)
    draws = set()
    for k in range(200):
        rules.restart(T0 + k)  # every idle period draws its own thresholds
        draws.add((rules.state.medium_at_s, rules.state.long_at_s))
        assert 300.0 - 120.0 <= rules.state.medium_at_s <= 300.0 + 120.0
        assert 900.0 - 300.0 <= rules.state.long_at_s <= 900.0 + 300.0
    assert len(draws) == 200
    lows = [m for m, _ in draws]
    assert min(lows) < 200.0 and max(lows) > 400.0  # the whole ±2 min range is used
    again = IdleRules(canonical_traits(), random.Random(7), T0)
    again.restart(T0)
    first = IdleRules(canonical_traits(), random.Random(7), T0)
    first.restart(T0)
    assert again.state == first.state  # seeded: the same seed draws the same thresholds


def test_jittered_engine_turns_drowsy_at_its_drawn_threshold() -> None:
    engine = eng.PersonalityEngine(T0, seed=5)  # canonical traits: jitter on
    medium = engine.sleep.rules.state.medium_at_s
    assert medium != 300.0
    assert engine.tick(T0 + math.ceil(medium) - 1).snapshot.idle_state == IDLE_AWAKE
    assert engine.tick(T0 + math.ceil(medium)).snapshot.idle_state == IDLE_DROWSY


def test_idle_time_counts_from_the_end_of_the_last_conversation() -> None:
    """"idle time counts from the end of the last conversation or wake event"."""
    engine = make_engine()
    engine.on_conversation_started(T0 + 10, "s1")
    engine.on_conversation_ended(T0 + 400, "s1")
    assert engine.tick(T0 + 699).snapshot.idle_state == IDLE_AWAKE
    assert engine.tick(T0 + 700).snapshot.idle_state == IDLE_DROWSY


def test_asleep_whenever_the_server_has_been_offline_for_more_than_four_hours() -> None:
    engine = make_engine()
    engine.on_system_event(T0, eng.SYS_SERVER_OFFLINE)
    # a child pokes the robot every 10 minutes: never 15 min of idle, yet asleep at 4 h
    for k in range(1, 25):
        engine.on_button(T0 + k * 600 - 300, 0, eng.BUTTON_CLICK)
        engine.tick(T0 + k * 600)
    out = engine.tick(T0 + 4 * HOUR + 1)
    assert out.snapshot.idle_state == IDLE_ASLEEP and out.snapshot.mood == "sleepy"


# ---------------------------------------------------------------- the attractor
@pytest.mark.parametrize(("offline", "until_s", "target"), [
    (False, 899, DROWSY_TARGET),
    (False, 2 * HOUR, ASLEEP_TARGET),
    (True, 5 * HOUR, OFFLINE_TARGET),
])
def test_the_rules_target_replaces_the_baseline_as_attractor(
        offline: bool, until_s: float, target: tuple[float, float]) -> None:
    """"While drowsy or asleep, the rule's target ... replaces the baseline as the attractor
    of the §2.4 decay": affect settles on the target and stays there (P13 = 0, no noise),
    where §2.4 alone would have brought it back to the baseline within a minute."""
    engine = make_engine()
    if offline:
        engine.on_system_event(T0, eng.SYS_SERVER_OFFLINE)
    for t in range(1, int(until_s) + 1, 1):
        engine.tick(T0 + t)
    assert (engine.attractor_valence, engine.attractor_arousal) == pytest.approx(target)
    assert (engine.valence, engine.arousal) == pytest.approx(target, abs=0.005)


def test_waking_makes_the_baseline_the_attractor_again() -> None:
    """"the baseline is the attractor again": affect returns to the baseline after a wake."""
    engine = make_engine()
    _tick_until(engine, T0 + 1, T0 + 1200)
    engine.on_child_approach(T0 + 1201)
    assert (engine.attractor_valence, engine.attractor_arousal) == pytest.approx(BASELINE)
    _tick_until(engine, T0 + 1202, T0 + 1290)  # under the 300 s drowsy threshold
    assert (engine.valence, engine.arousal) == pytest.approx(BASELINE, abs=0.01)


def test_idle_impulse_still_fires_on_entry() -> None:
    """"The §7.1 impulse still fires on entry"."""
    engine = make_engine()
    _tick_until(engine, T0 + 1, T0 + 299)
    assert idle_fired(engine, "IDLE-03") == 0
    engine.tick(T0 + 300)
    assert idle_fired(engine, "IDLE-03") == 1
    _tick_until(engine, T0 + 301, T0 + 900)
    assert idle_fired(engine, "IDLE-04") == 1


# ---------------------------------------------------------------- SLEEPY shown
@pytest.mark.parametrize(("offline", "until_s", "target", "state"), [
    (False, 899, DROWSY_TARGET, IDLE_DROWSY),
    (False, 2 * HOUR, ASLEEP_TARGET, IDLE_ASLEEP),
    (True, 5 * HOUR, OFFLINE_TARGET, IDLE_ASLEEP),
])
def test_sleepy_is_shown_with_its_intensity_against_the_sleepy_anchor(
        offline: bool, until_s: float, target: tuple[float, float], state: int) -> None:
    """"the snapshot shows SLEEPY, its intensity by erratum 2 against the SLEEPY anchor":
    at the three targets 0.46, 0.58 and 0.66."""
    engine = make_engine()
    if offline:
        engine.on_system_event(T0, eng.SYS_SERVER_OFFLINE)
    for t in range(1, int(until_s) + 1):
        snap = engine.tick(T0 + t).snapshot
    assert snap.idle_state == state and snap.mood == "sleepy"
    assert snap.intensity == _sleepy_intensity(target)
    assert {DROWSY_TARGET: 0.46, ASLEEP_TARGET: 0.58, OFFLINE_TARGET: 0.66}[target] == (
        snap.intensity)


def test_sleepy_shows_from_the_first_drowsy_snapshot() -> None:
    engine = make_engine()
    assert engine.tick(T0 + 299).snapshot.mood == "neutral"
    out = engine.tick(T0 + 300)
    assert out.snapshot.mood == "sleepy"
    assert [(c.prev, c.next) for c in out.mood_changes] == [("neutral", "sleepy")]


def test_sleepy_is_neutral_class_no_guardrail_touches_it() -> None:
    """"SLEEPY is Neutral class: no guardrail touches it" (a night of sleep, noise on)."""
    engine = eng.PersonalityEngine(T0, seed=3)
    events = []
    for t in range(1, int(10 * HOUR), 1):
        out = engine.tick(T0 + t)
        events += out.guardrail_events
    assert engine.mood == "sleepy" and not events


# ---------------------------------------------------------------- wake events
def _asleep_engine() -> eng.PersonalityEngine:
    engine = make_engine()
    _tick_until(engine, T0 + 1, T0 + 1200)
    assert engine.idle_state == IDLE_ASLEEP and engine.mood == "sleepy"
    return engine


WAKE_EVENTS = {
    "conversation start": lambda e, t: e.on_conversation_started(t, "s1", "wake_word"),
    "child approach (L0-13)": lambda e, t: e.on_child_approach(t),
    "button (L0-10)": lambda e, t: e.on_button(t, 0, eng.BUTTON_PRESS),
    "speech (L0-09)": lambda e, t: e.on_speech_activity(t, True),
    "fault (L0-04)": lambda e, t: e.on_system_event(t, eng.SYS_FAULT_RAISED, detail="motor"),
    "boot (L0-01)": lambda e, t: e.on_system_event(t, eng.SYS_BOOT),
}
WAKE_IMPULSE = {"conversation start": "L0-06", "child approach (L0-13)": "L0-13",
                "button (L0-10)": "L0-10", "speech (L0-09)": "L0-09",
                "fault (L0-04)": "L0-04", "boot (L0-01)": "L0-01"}


@pytest.mark.parametrize("event", list(WAKE_EVENTS))
def test_every_wake_event_wakes_buddy_at_once(event: str) -> None:
    """"A wake event (conversation start, L0-13 child approach, L0-10 button, speech, a
    fault, a boot) makes Buddy awake at once: the baseline is the attractor again and the
    event's own impulse applies"."""
    engine = _asleep_engine()
    before = (engine.valence, engine.arousal)
    out = WAKE_EVENTS[event](engine, T0 + 1200.5)
    assert out.snapshot.idle_state == IDLE_AWAKE
    assert out.snapshot.mood != "sleepy"
    assert (engine.attractor_valence, engine.attractor_arousal) == pytest.approx(BASELINE)
    assert engine.stats.l0_fired.get(WAKE_IMPULSE[event]) == 1
    assert (engine.valence, engine.arousal) != before


def test_things_that_are_not_wake_events_leave_buddy_asleep() -> None:
    engine = _asleep_engine()
    for out in (engine.on_system_event(T0 + 1201, eng.SYS_LOW_BATTERY, 18.0),
                engine.on_system_event(T0 + 1202, eng.SYS_SERVER_ONLINE),
                engine.on_button(T0 + 1203, 0, eng.BUTTON_RELEASE)):
        assert out.snapshot.idle_state == IDLE_ASLEEP and out.snapshot.mood == "sleepy"


def test_a_poked_resting_robot_looks_up_then_rests_again() -> None:
    """A wake event wakes at once even on a long offline day; IDLE-09's asleep returns
    once the §7.3 two-minute cooldown after the wake has passed."""
    engine = make_engine()
    engine.on_system_event(T0, eng.SYS_SERVER_OFFLINE)
    _tick_until(engine, T0 + 1, T0 + 5 * HOUR)
    assert engine.mood == "sleepy"
    engine.on_button(T0 + 5 * HOUR + 1, 0, eng.BUTTON_CLICK)
    states = [engine.tick(T0 + 5 * HOUR + s).snapshot.idle_state for s in range(2, 200)]
    assert states[0] == IDLE_AWAKE and states[-1] == IDLE_ASLEEP
    assert states.index(IDLE_ASLEEP) == 119  # 121 s after the click: the first tick past 120 s


def test_buddy_stays_awake_through_a_conversation_however_long() -> None:
    engine = make_engine()
    engine.on_conversation_started(T0 + 1, "s1")
    snaps = [o.snapshot for o in _tick_until(engine, T0 + 2, T0 + 1800)]
    assert {s.idle_state for s in snaps} == {IDLE_AWAKE}
    assert "sleepy" not in {s.mood for s in snaps}


# ---------------------------------------------------------------- erratum 12: the budget
def _transitions(engine: eng.PersonalityEngine, now: float) -> int:
    return engine.gate.transitions_in_window(now)


def test_mood_changes_by_decay_l0_idle_and_guardrails_do_not_count() -> None:
    """"Changes made by decay, L0 and idle impulses, idle states and guardrails are not the
    LLM's and do not count"."""
    engine = make_engine()
    changes = [c for o in _tick_until(engine, T0 + 1, T0 + 300) for c in o.mood_changes]
    assert [c.next for c in changes] == ["sleepy"]  # the idle state
    t = T0 + 301.0
    changes += engine.on_button(t, 0, eng.BUTTON_CLICK).mood_changes  # L0-10 wakes, moves
    engine.on_conversation_started(t + 1, "s1")
    for k, point in enumerate([(0.6, 0.35), (0.05, -0.6)] * 3):  # not the LLM's either
        changes += engine.override_affect(t + 2 + k, *point).mood_changes
    changes += [c for o in _tick_until(engine, t + 8, t + 40) for c in o.mood_changes]
    assert len(changes) >= 8
    assert _transitions(engine, t + 40) == 0
    engine.override_affect(t + 41, 0.0, 0.0)
    out = engine.on_ai_emotion(t + 42, "happy", 1.0, 0.9, SOURCE_INLINE, "", "s1", 1)
    assert not out.guardrail_events and out.snapshot.mood == "happy"
    assert _transitions(engine, t + 42) == 1


def test_an_accepted_llm_intent_that_changes_the_mood_counts_once() -> None:
    """"One transition is one accepted LLM intent whose impulse changes the projected
    mood"."""
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    out = engine.on_ai_emotion(T0 + 1, "happy", 0.9, 0.9, SOURCE_INLINE, "", "s1", 1)
    assert out.snapshot.mood == "happy" and _transitions(engine, T0 + 1) == 1
    # the same emotion again (HYBRID after validation): accepted, mood unchanged
    out = engine.on_ai_emotion(T0 + 3, "happy", 0.9, 0.95, SOURCE_HYBRID, "", "s1", 1)
    assert out.snapshot.mood == "happy" and _transitions(engine, T0 + 3) == 1
    # dropped by the confidence gate: not accepted, not counted
    engine.on_ai_emotion(T0 + 5, "excited", 0.9, 0.1, SOURCE_INLINE, "", "s1", 2)
    assert _transitions(engine, T0 + 5) == 1


def test_six_llm_transitions_in_sixty_seconds_spend_the_budget() -> None:
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    t = T0
    for k in range(6):
        t += 2.0
        engine.override_affect(t, 0.0, 0.0)  # back to NEUTRAL: not the LLM's, not counted
        out = engine.on_ai_emotion(t + 0.5, "happy", 1.0, 0.9, SOURCE_INLINE, "", "s1", k + 1)
        assert out.snapshot.mood == "happy"
    assert _transitions(engine, t + 0.5) == 6
    engine.override_affect(t + 2, 0.0, 0.0)
    out = engine.on_ai_emotion(t + 2.5, "happy", 1.0, 0.9, SOURCE_INLINE, "", "s1", 7)
    assert [(e.rule_id, e.action) for e in out.guardrail_events] == [("BUDGET", "budget_reset")]
    assert out.snapshot.mood == "neutral" and out.snapshot.intensity <= 0.35


def test_an_intent_after_server_offline_does_not_bring_layer_1_back() -> None:
    """The bridge's own intents (HC-9 calm face, output guard THINKING) come while the
    server is down; only SERVER_ONLINE ends the offline stretch (and IDLE-09's clock)."""
    engine = make_engine()
    engine.on_system_event(T0, eng.SYS_SERVER_ONLINE)
    engine.on_system_event(T0 + 1, eng.SYS_SERVER_OFFLINE)
    engine.on_conversation_started(T0 + 2, "s1")
    out = engine.on_ai_emotion(T0 + 3, "neutral", 0.3, 0.8, SOURCE_HYBRID, "", "s1", 1)
    assert out.snapshot.layer == 0
    assert engine.on_system_event(T0 + 4, eng.SYS_SERVER_ONLINE).snapshot.layer == 1
