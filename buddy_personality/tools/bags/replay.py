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
import bisect
import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buddy_personality.tools.bags.bag_compare import (
    CompareReport,
    Record,
    TopicRule,
    compare,
    flatten,
    format_report,
    report_json,
)
from buddy_personality.tools.bags.bagio import (
    BagContents,
    BagError,
    BagMessage,
    deserialize,
    plain,
    read_bag,
    write_bag,
)
from buddy_personality.tools.bags.divergence import (
    Divergence,
    explain,
    parameter_changes,
    recorded_overrides,
)
from buddy_personality.tools.bags.live_timing import (
    first_stamp_ns,
    heard_at_ns,
    live_grid,
    live_slack,
    output_stamps_ns,
    start_ticking_at,
    startup_stamps,
    tick_start_ns,
)
from buddy_personality.tools.sim.scenarios.responders import start_llm
from buddy_personality.tools.sim.sim_graph import (
    CLOCK_TOPIC,
    INPUT_TOPICS,
    NAMESPACE,
    SETUP_KEY,
    Captured,
    SimError,
    SimGraph,
    SimSetup,
    relative,
)

DEFAULT_STEP_S = 0.1       # the LLM bridge's tick period, the fastest sim-time timer
DEFAULT_TOLERANCE = 1e-6
# A live bag's ticks and reactions run a few ms to 0.1 s late, each by its own amount:
# the mood integrated over those dt differs from the replay's by up to ~2e-3 over a
# session on a loaded machine, and an intensity (0.01 steps) may round the other way
# (docs/REPLAY.md).
LIVE_TOLERANCE = 0.02
SERVER_KINDS = (5, 6)      # SystemEvent.SERVER_ONLINE / SERVER_OFFLINE: the bridge's own
LATCHED_TOPICS = ("personality/snapshot", "personality/llm_profile", "conversation/phase",
                  "governor/state", "identity/state", "consent/state", "face/state",
                  "personality/affect_markers")

# Not compared, and why (docs/REPLAY.md).
NOT_COMPARED: dict[str, str] = {
    "/diagnostics": "wall-clock figures (latencies, rates)",
    "/rosout": "log lines",
    "/parameter_events": "parameter bookkeeping",
    CLOCK_TOPIC: "the step schedule itself",
    # rclpy's lifecycle bookkeeping of the face driver (configure, activate), published
    # while it is built: the sim builds it before it taps the graph
    "face_driver/transition_event": "the face driver's lifecycle start-up",
}

RULES: dict[str, TopicRule] = {
    # The face driver runs its link on the steady clock by design (face_driver_node.py):
    # its 50 Hz tick and 1 s keepalive republish interleave with the sim's events at
    # wall-clock moments, so within one sim step it may show a passing state or repeat
    # itself. What it shows at the end of each step, and when that changes, is fixed.
    "face/state": TopicRule(ignore=frozenset({"snapshot_age_s"}), dedupe=True,
                            settled=True,
                            why="state at the end of each step, as a sequence of changes; "
                                "snapshot_age_s is wall time"),
    # Both an input (power monitor) and an output (the bridge's SERVER_ONLINE/OFFLINE,
    # whose detail is the server's URL: a loopback port that differs on every run).
    "system/events": TopicRule(keep=lambda f: f.get("kind") in SERVER_KINDS,
                               ignore=frozenset({"detail"}),
                               why="outputs only: SERVER_ONLINE / SERVER_OFFLINE"),
}


# Not compared in a live recording (docs/REPLAY.md). The face driver runs on the steady
# clock in a thread of its own: live, its passing states (the old mood for tens of ms,
# a phase a few ms before a tick) fall on either side of a tick at random (1 of 3 live
# test runs differed even per tick period). What it shows comes from
# personality/snapshot and conversation/phase, both compared; its own rules are
# compared in the sim bags (RULES face/state).
LIVE_NOT_COMPARED: dict[str, str] = {
    "face/state": "the face driver's steady-clock thread (its inputs, the snapshot and "
                  "the phase, are compared)"}


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


# -- what a bag message is -----------------------------------------------------------


def infer_namespace(topics: Iterable[str]) -> str:
    """The namespace most topics share ('/buddy/tts/say' -> 'buddy')."""
    counts: dict[str, int] = {}
    for topic in topics:
        parts = topic.strip("/").split("/")
        if len(parts) > 1:
            counts[parts[0]] = counts.get(parts[0], 0) + 1
    return max(counts, key=lambda k: counts[k]) if counts else NAMESPACE


def _fields(m: BagMessage | Captured) -> dict[str, Any]:
    return flatten(plain(deserialize(m.type_name, m.data)))


def is_input(msg: BagMessage, namespace: str) -> bool:
    """Published from outside the graph (DESIGN §3), so replay publishes it."""
    rel = relative(msg.topic, namespace)
    if rel not in INPUT_TOPICS:
        return False
    if rel == "system/events":
        return _fields(msg).get("kind") not in SERVER_KINDS
    return True


def is_output_topic(topic: str, namespace: str) -> bool:
    rel = relative(topic, namespace)
    if topic in NOT_COMPARED or rel in NOT_COMPARED or rel == topic:  # outside the namespace
        return False
    return rel not in INPUT_TOPICS or rel in RULES  # mixed topics keep their outputs


def _records(messages: Iterable[BagMessage | Captured], namespace: str,
             only: Iterable[str]) -> dict[str, list[Record]]:
    """The messages on the output topics `only` (relative names), as records."""
    wanted = set(only)
    out: dict[str, list[Record]] = {t: [] for t in wanted}
    for m in messages:
        rel = relative(m.topic, namespace)
        if rel in wanted:
            out[rel].append(Record(m.t_ns * 1e-9, _fields(m)))
    return out


def session_ordinals(records: dict[str, list[Record]]) -> dict[str, list[Record]]:
    """Session ids as ordinals ("session 1", in order of first appearance). A live bridge
    draws its ids from the operating system (cognition/session_ids.py, issue 31: an id
    never comes again), so no replay can reproduce them; which messages share a
    session, and in which order sessions start, is what a replay can check."""
    seen: dict[str, str] = {}
    stream = sorted(((r.t, topic, k) for topic, rs in records.items()
                     for k, r in enumerate(rs)))
    out = {topic: list(rs) for topic, rs in records.items()}
    for _t, topic, k in stream:
        rec = out[topic][k]
        fields = dict(rec.fields)
        for key, value in rec.fields.items():
            if key.rsplit(".", 1)[-1] == "session_id" and value:
                fields[key] = seen.setdefault(value, f"session {len(seen) + 1}")
        out[topic][k] = Record(rec.t, fields)
    return out


def compared_topics(types: Iterable[str], namespace: str,
                    topics: Sequence[str] | None) -> list[str]:
    """The bag's output topics (relative), or those of them named in `topics`."""
    out = []
    for topic in types:
        rel = relative(topic, namespace)
        if not is_output_topic(topic, namespace):
            continue
        if topics and rel not in topics and topic not in topics:
            continue
        out.append(rel)
    return sorted(out)


# -- the step schedule ---------------------------------------------------------------


def clock_schedule(contents: BagContents) -> list[int]:
    """The /clock values of a bag written by the sim (ns), in order; [] when none."""
    times = []
    for m in contents.messages:
        if m.topic == CLOCK_TOPIC:
            c = deserialize(m.type_name, m.data).clock
            times.append(int(c.sec) * 1_000_000_000 + int(c.nanosec))
    return sorted(set(times))


def grid_schedule(start_ns: int, end_ns: int, step_s: float) -> list[int]:
    step = max(1, round(step_s * 1e9))
    return list(range(start_ns + step, end_ns + step, step))


def slack_function(schedule: Sequence[int]) -> Callable[[float], float]:
    """One sim step at time t: the gap between the schedule points around t."""
    points = [t * 1e-9 for t in schedule]

    def slack(t: float) -> float:
        if len(points) < 2:
            return 0.0
        i = bisect.bisect_right(points, t)
        lo = points[max(0, i - 1)]
        hi = points[min(len(points) - 1, i)]
        before = points[max(0, i - 2)] if i >= 2 else lo
        return max(hi - lo, lo - before)

    return slack


# -- the replay ----------------------------------------------------------------------


def setup_from_bag(contents: BagContents) -> tuple[SimSetup, list[str]]:
    """The graph the bag was recorded with: the sim's own setup, or robot.yaml and the
    host's time zone for a bag recorded on the robot."""
    warnings: list[str] = []
    text = contents.custom_data.get(SETUP_KEY)
    if text:
        try:
            return SimSetup.from_json(text), warnings
        except (ValueError, TypeError) as exc:
            raise BagError(f"{contents.path}: custom_data {SETUP_KEY} unreadable: {exc}") \
                from exc
    from buddy_personality.nodes.bringup import NODE_CLASSES  # noqa: PLC0415

    try:
        overrides = recorded_overrides(contents.custom_data, list(NODE_CLASSES))
    except ValueError as exc:
        raise BagError(f"{contents.path}: {exc}") from exc
    if not overrides:
        warnings.append("no sim setup in the bag and no recorded parameters: replaying "
                        "with robot.yaml, seed 0, the host's time zone, no LLM server, the "
                        "graph starting at the oldest stamp in the bag; outputs match only "
                        "if the bag was recorded from the graph's start under the same "
                        "conditions (docs/REPLAY.md)")
    seed = overrides.get("personality", {}).get("seed", 0)
    return SimSetup(start_s=boot_time_ns(contents) * 1e-9, tz="",
                    seed=seed if isinstance(seed, int) else 0,
                    overrides=overrides), warnings


def effective_parameters(setup: SimSetup) -> dict[str, dict[str, Any]]:
    """The parameters a setup sets: the seeds, then its overrides on top."""
    out: dict[str, dict[str, Any]] = {"personality": {"seed": setup.seed},
                                      "llm_bridge": {"seed": setup.seed}}
    for node, params in setup.overrides.items():
        out.setdefault(node, {}).update(params)
    return out


def input_time_ns(m: BagMessage, live: bool) -> int:
    """When an input happened. In a live recording, the sender's header stamp: a line from
    a short-lived `buddy say` can reach the recorder's history reader after Buddy's
    answer (measured: 1.7 s late), so its receive time is not when the graph heard it.
    In a sim bag both are the same sim time; the receive time is kept there."""
    if live:
        stamp = getattr(getattr(deserialize(m.type_name, m.data), "header", None), "stamp",
                        None)
        if stamp is not None and stamp.sec > 0:
            return int(stamp.sec) * 1_000_000_000 + int(stamp.nanosec)
    return m.t_ns


def boot_time_ns(contents: BagContents, window_s: float = 5.0) -> int:
    """When the recorded graph started: the oldest header stamp among the outputs of the
    first seconds (a recorder started after the graph still receives the latched values
    the nodes published when they were built), else the first receive time."""
    if not contents.messages:
        return 0
    namespace = infer_namespace(contents.types)
    first = contents.messages[0].t_ns
    oldest = first
    for m in contents.messages:
        if m.t_ns > first + window_s * 1e9:
            break
        if not is_output_topic(m.topic, namespace):
            continue
        stamp = getattr(getattr(deserialize(m.type_name, m.data), "header", None), "stamp",
                        None)
        if stamp is not None and stamp.sec > 0:
            oldest = min(oldest, int(stamp.sec) * 1_000_000_000 + int(stamp.nanosec))
    return oldest


def apply_overrides(setup: SimSetup, sets: Sequence[str], seed: int | None) -> SimSetup:
    """`NODE.PARAM=VALUE` overrides (VALUE as JSON when it parses, else a string)."""
    overrides = {node: dict(params) for node, params in setup.overrides.items()}
    for item in sets:
        key, sep, raw = item.partition("=")
        node, dot, param = key.partition(".")
        if not sep or not dot or not param:
            raise ValueError(f"--set wants NODE.PARAM=VALUE, got {item!r}")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        overrides.setdefault(node, {})[param] = value
    return SimSetup(start_s=setup.start_s, seed=setup.seed if seed is None else seed,
                    tz=setup.tz, daily_conversation_s=setup.daily_conversation_s,
                    llm=setup.llm, overrides=overrides, params_file=setup.params_file)


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
    wanted = compared_topics(contents.types, namespace, None)
    schedule = clock_schedule(contents) or (
        sorted(set(live_grid(tick_ns, end_ns, step_s, bridge_ns or 0))
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
    recorded = _records(contents.messages, namespace, wanted)
    # A live bag recorded from before the graph's timers started (ticked) holds the
    # start-up: the recorder got the latched values of the nodes built before it joined.
    joined_ns = start_ns if ticked else contents.messages[0].t_ns
    replayed = _records(since_recording_began(captures, joined_ns, namespace),
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
    f = _fields(m)
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
