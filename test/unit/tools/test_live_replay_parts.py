"""The pure parts of replaying a live recording (issue 30 item 4, docs/REPLAY.md "A live
recording"): the step grid, the recorded parameters, and how a divergence is named."""

from __future__ import annotations

import json

from buddy_personality.tools.bags.bag_compare import CompareReport, Mismatch, TopicResult
from buddy_personality.tools.bags.divergence import (
    LIVE_PARAMS_KEY,
    explain,
    parameter_changes,
    recorded_overrides,
)
from buddy_personality.tools.bags.live_timing import live_grid, tick_start_from_stamps

NS = 1_000_000_000


def test_the_grid_follows_the_bridge_phase_and_leaves_the_tick_to_the_recorded_stamp() -> None:
    """REPLAY.md: a 0.1 s grid at the bridge's tick phase, without its points in the first
    0.1 s after each A + k, so the 1 Hz timers fire at the recorded tick stamp."""
    a = 100 * NS
    grid = live_grid(a, a + 2 * NS, 0.1, phase_ns=a + 30_000_000)   # bridge at A + 0.03
    assert all((t - a) % (NS // 10) == 30_000_000 for t in grid)
    assert all((t - a) % NS >= NS // 10 for t in grid)               # none in [A+k, A+k+0.1)
    assert a + 130_000_000 in grid and a + 1_030_000_000 not in grid


MS = 1_000_000


def test_one_late_tick_does_not_move_the_timers_start() -> None:
    """REPLAY.md "The timers' phase": A is when the 1 Hz timers started; each tick runs
    k periods after it plus a few ms. A starved process ran one tick 0.7 s late (a loaded
    2-core machine, recorded): A still comes from the ticks on time, so the replayed ticks
    are due where the live ones were (before: A moved 0.3 s and 74 of 75 ticks differed)."""
    a = 100 * NS
    on_time = [a + k * NS + 4 * MS for k in range(1, 8)]
    late = sorted([*on_time[:2], a + 3 * NS + 700 * MS, *on_time[3:]])
    assert tick_start_from_stamps(on_time) == a + 4 * MS
    assert tick_start_from_stamps(late) == a + 4 * MS
    first_late = [a + NS + 700 * MS, *on_time[1:]]             # the very first tick late
    assert tick_start_from_stamps(first_late) == a + 4 * MS


def test_the_grid_leaves_a_late_tick_to_its_recorded_stamp() -> None:
    """A tick recorded 0.7 s after its due instant integrated 1.7 s of mood (spec 002 §5):
    no grid point between the due instant and the recorded tick, so the sim's timer fires
    at the recorded stamp, not at the first grid point after the due instant."""
    a = 100 * NS
    tick = a + 3 * NS + 700 * MS
    grid = live_grid(a, a + 5 * NS, 0.1, phase_ns=a, ticks_ns=[a + 2 * NS + 5 * MS, tick])
    assert not [t for t in grid if a + 3 * NS <= t < tick]
    assert a + 2 * NS + 200 * MS in grid and a + 3 * NS + 800 * MS in grid


def test_recorded_parameters_become_overrides_except_what_the_sim_owns() -> None:
    """REPLAY.md "What is recorded": seeds and axes are replayed; the clock, state files,
    the face board's port, audio and server URLs are the sim's own."""
    params = {"personality": {"seed": 7, "extraversion": 0.8, "use_sim_time": False,
                              "memory_path": "/home/x/memory.json"},
              "face_driver": {"port": "/dev/ttyACM0", "keepalive_s": 1.0},
              "parent_dashboard": {"port": 8080}}
    got = recorded_overrides({LIVE_PARAMS_KEY: json.dumps(params)},
                             ["personality", "face_driver"])
    assert got == {"personality": {"seed": 7, "extraversion": 0.8},
                   "face_driver": {"keepalive_s": 1.0}}


def test_a_changed_parameter_is_named_with_both_values() -> None:
    changes = parameter_changes({"personality": {"seed": 0}, "llm_bridge": {"seed": 0}},
                                {"personality": {"seed": 4}, "llm_bridge": {"seed": 0}})
    assert changes == ["personality.seed: recorded 0, replayed 4"]


def test_the_first_divergence_in_time_is_named_with_the_input_before_it() -> None:
    """Issue 30 item 4: name the first diverging output and why."""
    report = CompareReport(topics=[
        TopicResult("tts/say", 3, 3, 1, mismatches=[
            Mismatch(2, 130.0, "text", "a", "b")]),
        TopicResult("personality/snapshot", 9, 9, 1, mismatches=[
            Mismatch(4, 112.5, "valence", 0.1, 0.3)]),
    ], t0=100.0)
    inputs = [(5.0, "speech/utterance", "hey buddy"), (12.0, "speech/utterance", "hi"),
              (20.0, "speech/utterance", "bye")]
    d = explain(report, [], inputs)
    assert d.kind == "code"
    assert d.first_output == {"topic": "personality/snapshot", "t": 12.5, "index": 4,
                              "kind": "field", "path": "valence"}
    assert d.after_input == {"t": 12.0, "topic": "speech/utterance", "what": "hi"}
    assert explain(report, ["personality.seed: recorded 0, replayed 4"], inputs).kind \
        == "parameter"


def test_an_answer_with_no_input_before_it_names_a_missing_input() -> None:
    """A bag that lost the wake line (measured once under load): the first divergence
    is the session's start, missing in the replay, with no line before it."""
    report = CompareReport(topics=[TopicResult("conversation/events", 2, 0, 2, 2, mismatches=[
        Mismatch(0, 133.25, "", {"event": 1}, None)])], t0=100.0)
    d = explain(report, [], [(42.7, "speech/utterance", "what is your name")])
    assert d.kind == "input" and d.after_input == {}
    assert "missed" in d.what[0]
