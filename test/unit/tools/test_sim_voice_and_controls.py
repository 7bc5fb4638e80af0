"""The simulated day's voice, its server and its LLM controls (issue 12, after issue 19).

Issue 19 gave every turn a deadline: "after `filler_after_s` without an answer Buddy says
a short filler" (cognition/turn_deadline.py). From then on the server's speed and the way
lines are voiced change what the face does, so the day must voice lines as the tts node
does and run its server at the speed the design assumes."""

from __future__ import annotations

import itertools
import math

import pytest

from buddy_personality.cognition.bridge import PHASE_SPEAKING
from buddy_personality.cognition.turn_deadline import FILLER_LINES, TurnDeadline
from buddy_personality.tools.evaluation import evaluate, metrics
from buddy_personality.tools.sim import sim_day

HOUR = 3600
MORNING_S = int(5.3 * HOUR)  # 06:30-11:48: the sessions before the server-down stretch


@pytest.fixture(scope="module")
def slow_morning() -> sim_day.SimDay:
    """A slow server (80 characters a second, 3.5-5 s a turn): a filler before every
    answer."""
    return sim_day.simulate_day(2, duration_s=MORNING_S, server_chars_per_s=80.0)


def test_lines_of_one_turn_are_voiced_one_after_the_other(
        slow_morning: sim_day.SimDay) -> None:
    """DESIGN §4.7 / tts_core: "Lines of one turn queue in order" and `tts/speaking` is
    "true at a line's first sample played, false after its last". The day used to start
    every line on its own clock, so an answer played over its filler and the filler's end
    said "not speaking" in the middle of the answer."""
    voice = slow_morning.voice
    fillers = [v for v in voice if v[2] in FILLER_LINES]
    assert len(fillers) >= 10
    for (s0, e0, _), (s1, _, _) in itertools.pairwise(sorted(voice)):
        assert s0 < e0 <= s1


def test_speaking_phase_covers_the_answer_said_after_a_filler() -> None:
    """The bridge ends SPEAKING when Buddy's voice stops (issue 21), but a filler's voice
    stopping is not the answer's: every answer that follows a filler starts and ends inside
    its SPEAKING phase (the child is not listened to while Buddy still talks)."""
    phases: list[tuple[float, int]] = []
    original = sim_day._Day.route

    def route(self, step, now):
        phases.extend((now, p.phase) for p in step.phases)
        return original(self, step, now)

    sim_day._Day.route = route
    try:
        day = sim_day.simulate_day(2, duration_s=3 * HOUR, server_chars_per_s=80.0)
    finally:
        sim_day._Day.route = original

    def phase_at(t: float) -> int:
        return [p for s, p in phases if s <= t][-1]

    after_filler = [b for a, b in itertools.pairwise(sorted(day.voice))
                    if a[2] in FILLER_LINES and b[2] not in FILLER_LINES]
    assert len(after_filler) >= 5
    for start, end, text in after_filler:
        assert phase_at(start) == PHASE_SPEAKING, text
        assert phase_at(end - 0.01) == PHASE_SPEAKING, text


def test_the_simulated_server_answers_as_fast_as_the_turn_deadline_assumes() -> None:
    """cognition/turn_deadline.py: "a home-server Qwen3-8B answers a short turn in 1-3 s".
    Every corpus answer is a short turn (§12.4: 1-5 sentences), so the day's server
    answers each within 3 s, and the filler stays what it is meant to be: the exception
    of a slow turn, not a line before every answer."""
    day = sim_day.simulate_day(1, duration_s=MORNING_S)
    assert 0.0 < day.llm_latency_max_s <= 3.0
    answers = [v for v in day.voice if v[2] not in FILLER_LINES]
    fillers = [v for v in day.voice if v[2] in FILLER_LINES]
    assert len(fillers) < len(answers) / 2
    assert TurnDeadline().filler_after_s == 2.5


def test_a_random_emotion_llm_scores_worse_on_arc_smoothness() -> None:
    """DESIGN §6.13: arc smoothness is "total path length / maximum displacement from
    baseline", "about 2-5 for a coherent arc, far above 10 for a random walk". An LLM
    whose emotion is one of the 13 moods at random (the random walk) draws a longer path
    on the same day than the corpus' replies, on the sessions the LLM answers."""
    def arc(**kw: bool) -> float:
        d = sim_day.simulate_day(1, duration_s=MORNING_S, **kw)
        return evaluate.evaluate(d.samples, d.speaking_starts, d.greetings,
                                 safety_stops=d.safety_stops)["arc_smoothness_layer1"]

    coherent, random_walk = arc(), arc(random_emotions=True)
    assert not math.isnan(coherent) and coherent < metrics.ARC_SMOOTHNESS_MAX
    assert random_walk > coherent * 1.1


def test_the_shuffled_emotions_reach_the_engine() -> None:
    """--shuffle-emotions replaces the reply's `emotion` before the server streams it, so
    the INLINE and HYBRID intents carry it: the arc points differ from the corpus'."""
    def points(**kw: bool) -> list[tuple[float, float]]:
        d = sim_day.simulate_day(1, duration_s=3 * HOUR, **kw)
        starts = sorted(d.speaking_starts)
        return [p for s in metrics.sessions(d.samples)
                for p in metrics.reply_arc_points(s, starts)]

    coherent, shuffled = points(), points(shuffle_emotions=True)
    assert len(coherent) == len(shuffled) and coherent != shuffled
