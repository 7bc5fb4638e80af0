"""`buddy replay BAG`: replay a bag's inputs into the graph under sim time, at full speed,
and compare the graph's outputs with the recorded ones (DESIGN §1.6, §7).

    buddy replay BAG [--json] [--tolerance X] [--topics T ...] [--write-bag OUT]
                     [--step S] [--set NODE.PARAM=VALUE ...] [--seed N] [--max-diffs N]

Inputs are the topics that come from outside the graph (speech/utterance, tts/speaking,
system/events except the bridge's SERVER_ONLINE/OFFLINE, identity/events,
consent/events, face/button, face/touch); outputs are the topics the five nodes publish.
The graph is rebuilt as the bag says (custom_data `buddy.sim_setup`, written by the sim:
start time, seeds, time zone, parameter overrides, prior RS-2 usage, the scripted LLM
responder), or from robot.yaml for a bag recorded on the robot.

Steps: the bag's own /clock when it has one (bags written by the sim: the same steps
again), else a grid of --step seconds (default 0.1 s, the LLM bridge's tick period) plus
the time of every input. Exit status: 0 the outputs match, 1 they differ (a readable
diff is printed), 2 the bag cannot be read or replayed. Details: docs/REPLAY.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buddy_personality.tools.bags.bag_compare import (
    CompareReport,
    compare,
    format_report,
    report_json,
)
from buddy_personality.tools.bags.bagio import (
    BagContents,
    BagError,
    BagMessage,
    read_bag,
    write_bag,
)
from buddy_personality.tools.bags.divergence import Divergence, explain, parameter_changes
from buddy_personality.tools.bags.live_timing import (
    first_stamp_ns,
    heard_at_ns,
    live_grid,
    live_slack,
    output_stamps_ns,
    start_ticking_at,
    startup_stamps,
    tick_stamps_ns,
    tick_start_ns,
)

# What the bag says (inputs, compared topics, steps, setup) lives in replay_plan; the
# names other code and tests import from this module stay importable from here.
from buddy_personality.tools.bags.replay_plan import (
    LIVE_NOT_COMPARED,
    NOT_COMPARED,
    RULES,
    SERVER_KINDS,
    apply_overrides,
    boot_time_ns,
    clock_schedule,
    compared_topics,
    effective_parameters,
    grid_schedule,
    infer_namespace,
    input_time_ns,
    is_input,
    is_output_topic,
    message_fields,
    output_records,
    session_ordinals,
    setup_from_bag,
    slack_function,
)
from buddy_personality.tools.sim.scenarios.responders import start_llm
from buddy_personality.tools.sim.sim_graph import (
    INPUT_TOPICS,
    NAMESPACE,
    SETUP_KEY,
    Captured,
    SimError,
    SimGraph,
    SimSetup,
    relative,
)

__all__ = [
    "DEFAULT_STEP_S", "DEFAULT_TOLERANCE", "LATCHED_TOPICS", "LIVE_NOT_COMPARED",
    "LIVE_TOLERANCE", "NOT_COMPARED", "RULES", "SERVER_KINDS", "ReplayResult",
    "apply_overrides", "boot_time_ns", "build_parser", "captures_as_bag_messages",
    "clock_schedule", "compared_topics", "effective_parameters", "grid_schedule",
    "infer_namespace", "input_time_ns", "is_input", "is_output_topic", "latched_topics",
    "main", "replay_bag", "session_ordinals", "setup_from_bag", "since_recording_began",
    "slack_function",
]

DEFAULT_STEP_S = 0.1       # the LLM bridge's tick period, the fastest sim-time timer
DEFAULT_TOLERANCE = 1e-6
# A live bag's ticks and reactions run a few ms to 0.1 s late, each by its own amount:
# the mood integrated over those dt differs from the replay's by up to ~2e-3 over a
# session on a loaded machine, and an intensity (0.01 steps) may round the other way
# (docs/REPLAY.md).
LIVE_TOLERANCE = 0.02
LATCHED_TOPICS = ("personality/snapshot", "personality/llm_profile", "conversation/phase",
                  "governor/state", "identity/state", "consent/state", "face/state",
                  "personality/affect_markers")


@dataclass(slots=True)
class ReplayResult:
    report: CompareReport
    setup: SimSetup
    inputs: int
    steps: int
    sim_s: float
    wall_s: float
    captures: list[Captured] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    divergence: Divergence = field(default_factory=lambda: Divergence("none"))

    @property
    def ok(self) -> bool:
        return self.report.ok


def replay_bag(path: Path | str, *, tolerance: float | None = None,
               topics: Sequence[str] | None = None, step_s: float = DEFAULT_STEP_S,
               sets: Sequence[str] = (), seed: int | None = None,
               setup: SimSetup | None = None, max_mismatches: int = 20,
               progress: Callable[[int, int], None] | None = None,
               contents: BagContents | None = None) -> ReplayResult:
    """Replay the bag's inputs and compare. Raises BagError for an unusable bag."""
    contents = contents or read_bag(path)
    if not contents.messages:
        raise BagError(f"{contents.path} holds no messages")
    namespace = infer_namespace(contents.types)
    warnings: list[str] = []
    if setup is None:
        setup, warnings = setup_from_bag(contents)
    recorded_setup = setup
    try:
        setup = apply_overrides(setup, sets, seed)
    except ValueError as exc:
        raise BagError(str(exc)) from exc
    changes = parameter_changes(effective_parameters(recorded_setup),
                                effective_parameters(setup))
    start_ns = round(setup.start_s * 1e9)
    end_ns = max(m.t_ns for m in contents.messages)
    live = SETUP_KEY not in contents.custom_data
    tick_ns = tick_start_ns(contents, namespace) if live else None
    ticked = tick_ns is not None and tick_ns >= start_ns
    tick_ns = tick_ns if tick_ns is not None and ticked else start_ns
    bridge_ns = first_stamp_ns(contents, "conversation/phase", namespace) if ticked else None
    if tolerance is None:
        tolerance = LIVE_TOLERANCE if live else DEFAULT_TOLERANCE
    # the clock steps onto the compared outputs' stamps; face/state's own thread does not
    # step the graph (a step there fired a late live tick 0.6 s early, before its input)
    wanted = [t for t in compared_topics(contents.types, namespace, None)
              if not (live and t in LIVE_NOT_COMPARED)]
    schedule = clock_schedule(contents) or (
        sorted(set(live_grid(tick_ns, end_ns, step_s, bridge_ns or 0,
                             tick_stamps_ns(contents, namespace)))
               | set(output_stamps_ns(contents.messages, set(wanted), tick_ns, namespace)))
        if ticked else grid_schedule(start_ns, end_ns, step_s))
    inputs = [m for m in contents.messages if is_input(m, namespace)]
    for m in inputs:
        if relative(m.topic, namespace) not in INPUT_TOPICS:
            raise BagError(f"unknown input topic {m.topic}")
    # clock steps first at equal times, then the inputs in recorded order
    events: list[tuple[int, int, int, BagMessage | None]] = [
        (t, 0, k, None) for k, t in enumerate(schedule) if t > tick_ns]
    stamped = [(input_time_ns(m, live), m) for m in inputs]
    times = heard_at_ns(stamped, contents, namespace) if ticked else [t for t, _m in stamped]
    events += [(max(t, tick_ns), 1, k, m) for k, (t, m) in enumerate(
        zip(times, inputs, strict=True))]
    events.sort(key=lambda e: (e[0], e[1], e[2]))
    try:
        server = start_llm(setup.llm)
    except ValueError as exc:
        raise BagError(f"{contents.path}: {exc}") from exc
    wall = time.monotonic()
    try:
        with SimGraph(setup, llm_url=server.url if server else "",
                      namespace=namespace) as graph:
            if ticked:
                start_ticking_at(graph, tick_ns, bridge_ns)
            for k, (t_ns, _kind, _i, msg) in enumerate(events):
                graph.advance_to_ns(max(t_ns, graph.now_ns))
                if msg is not None:
                    graph.publish_raw(relative(msg.topic, namespace), msg.data)
                if progress is not None and (k % 50 == 0 or k == len(events) - 1):
                    progress(k + 1, len(events))
            captures = list(graph.captures)
            steps = graph.steps
            sim_s = graph.now - setup.start_s
    finally:
        if server is not None:
            server.stop()
    wall_s = time.monotonic() - wall
    wanted = compared_topics(contents.types, namespace, topics)
    if ticked:
        wanted = [t for t in wanted if t not in LIVE_NOT_COMPARED]
    if topics and not wanted:
        raise BagError(f"none of {', '.join(topics)} is an output topic of the bag")
    recorded = output_records(contents.messages, namespace, wanted)
    # A live bag recorded from before the graph's timers started (ticked) holds the
    # start-up: the recorder got the latched values of the nodes built before it joined.
    joined_ns = start_ns if ticked else contents.messages[0].t_ns
    replayed = output_records(since_recording_began(captures, joined_ns, namespace),
                        namespace, wanted)
    skipped = {t: why for t, why in NOT_COMPARED.items() if t in contents.types}
    if ticked:
        skipped.update(LIVE_NOT_COMPARED)
    for topic in sorted({c.topic for c in captures} - set(contents.types)):
        if is_output_topic(topic, namespace):
            skipped[relative(topic, namespace)] = "replayed but not in the bag"
    if live:
        recorded, replayed = session_ordinals(recorded), session_ordinals(replayed)
        recorded = startup_stamps(recorded, tick_ns * 1e-9)
        replayed = startup_stamps(replayed, tick_ns * 1e-9)
    report = compare(recorded, replayed, rules=RULES, tolerance=tolerance,
                     stamp_slack=(live_slack(step_s) if ticked else slack_function(schedule)),
                     max_mismatches=max_mismatches,
                     t0=setup.start_s, not_compared=skipped)
    heard = [((t - start_ns) * 1e-9, relative(m.topic, namespace), _input_words(m))
             for t, m in sorted(zip(times, inputs, strict=True), key=lambda x: x[0])]
    return ReplayResult(report, setup, len(inputs), steps, sim_s, wall_s, captures,
                        warnings, explain(report, changes, heard))


def _input_words(m: BagMessage) -> str:
    """An input in a few words: a line's text, else its kind."""
    f = message_fields(m)
    return str(f.get("text", f.get("kind", f.get("event", ""))))


def since_recording_began(captures: Sequence[Captured], first_ns: int,
                          namespace: str) -> list[Captured]:
    """What a recorder that joined at `first_ns` would have got: nothing published
    before, except the last value of each latched topic (received when it joined).
    A bag written by the sim starts with the graph, so this keeps everything."""
    latched = {f"/{namespace}/{t}" for t in LATCHED_TOPICS}
    last_latched: dict[str, Captured] = {}
    out: list[Captured] = []
    for c in captures:
        if c.t_ns >= first_ns:
            out.append(c)
        elif c.topic in latched:
            last_latched[c.topic] = c
    early = [Captured(c.topic, c.type_name, first_ns, c.data) for c in last_latched.values()]
    return early + out


def captures_as_bag_messages(captures: Iterable[Captured]) -> list[BagMessage]:
    return [BagMessage(c.topic, c.type_name, c.t_ns, c.data) for c in captures]


def latched_topics(namespace: str = NAMESPACE) -> list[str]:
    return [f"/{namespace}/{t}" for t in LATCHED_TOPICS]


# -- command line --------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="buddy replay", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bag", type=Path, help="rosbag2 directory, .mcap or .db3 file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--tolerance", type=float, default=None,
                   help=f"absolute tolerance of float fields (default {DEFAULT_TOLERANCE:g}, "
                        f"{LIVE_TOLERANCE:g} for a live recording)")
    p.add_argument("--topics", nargs="+", default=None, metavar="TOPIC",
                   help="compare only these output topics (relative or absolute)")
    p.add_argument("--step", type=float, default=DEFAULT_STEP_S,
                   help="sim step for a bag without /clock (default 0.1 s)")
    p.add_argument("--set", dest="sets", action="append", default=[],
                   metavar="NODE.PARAM=VALUE", help="override a parameter of the replay")
    p.add_argument("--seed", type=int, default=None, help="override the seeds")
    p.add_argument("--max-diffs", type=int, default=5,
                   help="mismatches shown per topic (default 5)")
    p.add_argument("--write-bag", type=Path, default=None, metavar="OUT",
                   help="write what the replay published (inputs, outputs, /clock) to OUT")
    return p


def _progress_bar() -> Any:
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import (  # noqa: PLC0415
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    console = Console(stderr=True)
    if not console.is_terminal:
        return None
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), transient=True, console=console)


def main(argv: Sequence[str] | None = None) -> int:
    ns = build_parser().parse_args(argv)
    if ns.write_bag is not None and ns.write_bag.exists():
        print(f"buddy replay: {ns.write_bag} already exists", file=sys.stderr)
        return 2
    bar = _progress_bar()
    try:
        if bar is not None:
            with bar:
                task = bar.add_task(f"reading {ns.bag}", total=None)
                contents = read_bag(ns.bag, progress=lambda i, n: bar.update(
                    task, completed=i, total=n))
                bar.update(task, description="replaying", completed=0, total=None)
                result = replay_bag(ns.bag, contents=contents, tolerance=ns.tolerance,
                                    topics=ns.topics, step_s=ns.step, sets=ns.sets,
                                    seed=ns.seed, max_mismatches=max(ns.max_diffs, 1),
                                    progress=lambda k, n: bar.update(task, completed=k,
                                                                     total=n))
        else:
            result = replay_bag(ns.bag, tolerance=ns.tolerance, topics=ns.topics,
                                step_s=ns.step, sets=ns.sets, seed=ns.seed,
                                max_mismatches=max(ns.max_diffs, 1))
    except (BagError, SimError) as exc:
        print(f"buddy replay: {exc}", file=sys.stderr)
        return 2
    for warning in result.warnings:
        print(f"buddy replay: warning: {warning}", file=sys.stderr)
    if ns.write_bag is not None:
        write_bag(ns.write_bag, captures_as_bag_messages(result.captures),
                  latched=latched_topics(infer_namespace(c.topic for c in result.captures)),
                  custom_data={SETUP_KEY: result.setup.to_json()})
    summary = (f"{result.inputs} inputs, {result.steps} steps, {result.sim_s:.0f} s of "
               f"sim time in {result.wall_s:.1f} s")
    if ns.json:
        doc = report_json(result.report)
        doc.update(inputs=result.inputs, steps=result.steps, sim_s=round(result.sim_s, 3),
                   wall_s=round(result.wall_s, 3), warnings=result.warnings,
                   cause=result.divergence.as_json(),
                   setup=json.loads(result.setup.to_json()))
        print(json.dumps(doc))
    else:
        print(f"buddy replay {ns.bag}: {summary}")
        print(format_report(result.report, max_per_topic=max(ns.max_diffs, 1)))
        if not result.ok:
            print(result.divergence.text())
        if ns.write_bag is not None:
            print(f"replayed messages written to {ns.write_bag}")
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
