"""Run a scripted scenario on a `SimGraph` and keep everything it published.

A `Scenario` is a `SimSetup` plus timed cues: messages from outside the graph (a child's
utterances, the power monitor, a button on the face board) at fixed sim times. While it
runs, a TTS stand-in answers every `tts/say` the way the robot's TTS does: `tts/speaking`
true shortly after, false when the words are spoken (`speech_rate_wps`). Everything the
graph and the stand-ins publish, and every /clock step, is captured; `write_scenario_bag`
stores it as an MCAP bag that `buddy replay` replays.

Step policy (`StepPolicy`, docs/REPLAY.md): the clock lands exactly on every cue and TTS
event; in between it moves in `active_s` steps (1 s, the personality tick) while a
conversation runs or anything happened in the last `quiet_after_s`, and in `quiet_s`
steps through long quiet stretches, where an rcl timer fires once per step and the cores
integrate the whole step (decay, noise scaled by sqrt(dt), idle rules on their timers).
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buddy_personality.tools.bags.bagio import BagMessage, deserialize, write_bag
from buddy_personality.tools.sim.sim_graph import (
    NAMESPACE,
    SETUP_KEY,
    Captured,
    SimGraph,
    SimSetup,
    relative,
)

TTS_LATENCY_S = 0.2    # tts/say -> tts/speaking true (the TTS starts talking)
SCENARIO_KEY = "buddy.scenario"  # custom_data: the scenario's name


@dataclass(slots=True, frozen=True)
class Cue:
    """One input from outside the graph, `at_s` seconds after the scenario starts."""

    at_s: float
    topic: str                  # relative input topic (sim_graph.INPUT_TOPICS)
    make: Callable[[], Any]     # builds the message (messages are mutable)
    label: str                  # what it means, for the timeline


@dataclass(slots=True, frozen=True)
class StepPolicy:
    active_s: float = 1.0
    quiet_s: float = 10.0
    quiet_after_s: float = 60.0


@dataclass(slots=True)
class Scenario:
    name: str
    title: str
    setup: SimSetup
    cues: list[Cue]
    duration_s: float
    steps: StepPolicy = field(default_factory=StepPolicy)
    tts: bool = True
    speech_rate_wps: float = 2.5
    exclude_topics: tuple[str, ...] = ()  # relative topics left out of the bag


@dataclass(slots=True)
class ScenarioRun:
    scenario: Scenario
    captures: list[Captured]
    labels: list[tuple[float, str]]  # (sim time, cue label)
    wall_s: float
    steps: int
    callbacks: int

    @property
    def start_s(self) -> float:
        return self.scenario.setup.start_s


class _Activity:
    """Follows the graph's outputs: is a conversation running, when did anything last
    happen, and the TTS stand-in's schedule."""

    def __init__(self, scenario: Scenario, schedule: Callable[[float, str, Any], None]) -> None:
        self.scenario = scenario
        self.schedule = schedule
        self.in_conversation = False
        self.last_activity = scenario.setup.start_s

    def on_capture(self, cap: Captured) -> None:
        rel = relative(cap.topic)
        t = cap.t_ns * 1e-9
        if rel == "conversation/events":
            msg = deserialize(cap.type_name, cap.data)
            self.in_conversation = msg.kind == 0  # STARTED
            self.last_activity = t
        elif rel == "tts/say" and self.scenario.tts:
            msg = deserialize(cap.type_name, cap.data)
            words = max(1, len(msg.text.split()))
            start = t + TTS_LATENCY_S
            self.schedule(start, "tts/speaking", True)
            self.schedule(start + words / self.scenario.speech_rate_wps, "tts/speaking", False)
            self.last_activity = t

    def step_s(self, now: float) -> float:
        p = self.scenario.steps
        if self.in_conversation or now - self.last_activity < p.quiet_after_s:
            return p.active_s
        return p.quiet_s


def run_scenario(scenario: Scenario, *,
                 progress: Callable[[float, float], None] | None = None) -> ScenarioRun:
    """Run the scenario to its end; `progress(sim_s_done, duration_s)` after every step."""
    from std_msgs.msg import Bool  # noqa: PLC0415

    from buddy_personality.tools.sim.scenarios.responders import start_llm  # noqa: PLC0415

    setup = scenario.setup
    start_ns = round(setup.start_s * 1e9)
    end_ns = start_ns + round(scenario.duration_s * 1e9)
    seq = itertools.count()
    queue: list[tuple[int, int, str, Any, str]] = []

    def schedule(t: float, topic: str, payload: Any, label: str = "") -> None:
        heapq.heappush(queue, (round(t * 1e9), next(seq), topic, payload, label))

    for cue in sorted(scenario.cues, key=lambda c: c.at_s):
        schedule(setup.start_s + cue.at_s, cue.topic, cue.make, cue.label)
    activity = _Activity(scenario, schedule)
    labels: list[tuple[float, str]] = []
    server = start_llm(setup.llm)
    wall = time.monotonic()
    try:
        with SimGraph(setup, llm_url=server.url if server else "") as graph:
            graph.listeners.append(activity.on_capture)
            while True:
                target = min(queue[0][0], end_ns) if queue else end_ns
                while graph.now_ns < target:
                    step_ns = round(activity.step_s(graph.now) * 1e9)
                    graph.advance_to_ns(min(target, graph.now_ns + step_ns))
                    if progress is not None:
                        progress(graph.now - setup.start_s, scenario.duration_s)
                if not queue or queue[0][0] > end_ns:
                    break
                while queue and queue[0][0] == graph.now_ns:
                    _, _, topic, payload, label = heapq.heappop(queue)
                    msg = Bool(data=payload) if topic == "tts/speaking" else payload()
                    if label:
                        labels.append((graph.now, label))
                    activity.last_activity = graph.now
                    graph.publish(topic, msg)
            captures = list(graph.captures)
            steps, callbacks = graph.steps, graph.callbacks_run
    finally:
        if server is not None:
            server.stop()
    return ScenarioRun(scenario, captures, labels, time.monotonic() - wall, steps, callbacks)


def write_scenario_bag(run: ScenarioRun, path: Path | str, *, compress: bool = False) -> Path:
    """The run's captures as an MCAP bag that `buddy replay` can replay."""
    from buddy_personality.tools.bags.replay import latched_topics  # noqa: PLC0415

    excluded = {f"/{NAMESPACE}/{t}" for t in run.scenario.exclude_topics}
    messages = [BagMessage(c.topic, c.type_name, c.t_ns, c.data) for c in run.captures
                if c.topic not in excluded]
    return write_bag(path, messages, latched=latched_topics(), compress=compress,
                     custom_data={SETUP_KEY: run.scenario.setup.to_json(),
                                  SCENARIO_KEY: run.scenario.name})
