"""`buddy run --demo`'s report (tools/sim/demo.py render_report): pure, from hand-made parts."""

from __future__ import annotations

import math
from pathlib import Path

from buddy_personality.tools.evaluation.evaluate import INDICATORS
from buddy_personality.tools.sim.demo import render_report
from buddy_personality.tools.sim.scenarios.checks import CheckResult
from buddy_personality.tools.sim.scenarios.timeline import Event

T0 = 1_000_000.0


def report(**overrides: object) -> str:
    args: dict = {
        "title": "A morning", "seed": 7, "start_s": T0, "duration_s": 2400.0, "wall_s": 9.5,
        "steps": 1795, "bag": Path("out/bag"),
        "events": [
            Event(T0, "system", "system event BOOT"),
            Event(T0 + 420.0, "child", 'child says "hey buddy"'),
            Event(T0 + 420.0, "started", "conversation started (wake_word)"),
            Event(T0 + 420.0, "phase", "phase LISTENING"),
            Event(T0 + 1320.0, "guardrail", "guardrail RS-1: end_session (a | b)",
                  {"rule_id": "RS-1"}),
        ],
        "checks": [CheckResult("boot lift", True, "curious"),
                   CheckResult("RS-1 at 15 min", False, "ended at 16 min")],
        "figures": {"mood_cv": 0.17, "arc_smoothness": math.nan, "idle_aliveness": 0.25,
                    "idle_switches_per_min": 0.2,
                    "pass": {"mood_cv": True, "arc_smoothness": None,
                             "idle_aliveness": True, "idle_switches_per_min": True},
                    "mood_shares": {"neutral": 0.6, "curious": 0.4}},
        "indicators": INDICATORS,
    }
    args.update(overrides)
    return render_report(**args)


def test_the_report_says_the_replies_are_scripted() -> None:
    text = report()
    assert "**Scripted demo**" in text
    assert "SCRIPTED responder" in text and "not from a language model" in text


def test_the_timeline_lists_events_at_sim_clock_times_without_phase_noise() -> None:
    lines = report().splitlines()
    assert "| 00:00.0 | system event BOOT |" in lines
    assert '| 07:00.0 | child says "hey buddy" |' in lines
    assert "| 22:00.0 | guardrail RS-1: end_session (a / b) |" in lines  # no table break
    assert not any("phase LISTENING" in line for line in lines)


def test_checks_show_failures_and_indicators_show_undefined_values() -> None:
    text = report()
    assert "| **FAIL** | RS-1 at 15 min | ended at 16 min |" in text
    assert "| ok | boot lift | curious |" in text
    assert "| Temporal coherence: arc smoothness (per reply) | n/a | < 5 | n/a |" in text
    assert "| Relationship continuity: greeting accuracy | n/a | > 80% | n/a |" in text
    assert "| Idle aliveness: idle time not NEUTRAL | 25.0% | > 15% | met |" in text
    assert "Time in each mood: neutral 60%, curious 40%." in text


def test_the_header_gives_seed_span_wall_time_and_how_to_replay() -> None:
    text = report()
    assert "seed 7; ran in 9.5 s of wall time (1795 sim steps)" in text
    assert "Sim time: 40 min" in text
    assert "`buddy replay out/bag`" in text
    assert "guardrail events: RS-1 x1." in text
