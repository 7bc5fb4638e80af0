"""What a replay of a bag will do, read from the bag alone (DESIGN §1.6, §7): which
messages are inputs, which topics are compared and under which rules, the step schedule,
and the graph's setup. Pure functions of the bag's contents, no ROS graph: `replay.py`
runs the graph on this plan and compares; kept apart so that each can be read (and
unit-tested) on its own."""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from buddy_personality.tools.bags.bag_compare import Record, TopicRule, flatten
from buddy_personality.tools.bags.bagio import (
    BagContents,
    BagError,
    BagMessage,
    deserialize,
    plain,
)
from buddy_personality.tools.bags.divergence import recorded_overrides
from buddy_personality.tools.sim.sim_graph import (
    CLOCK_TOPIC,
    INPUT_TOPICS,
    NAMESPACE,
    SETUP_KEY,
    Captured,
    SimSetup,
    relative,
)

SERVER_KINDS = (5, 6)      # SystemEvent.SERVER_ONLINE / SERVER_OFFLINE: the bridge's own

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



# -- what a bag message is -----------------------------------------------------------


def infer_namespace(topics: Iterable[str]) -> str:
    """The namespace most topics share ('/buddy/tts/say' -> 'buddy')."""
    counts: dict[str, int] = {}
    for topic in topics:
        parts = topic.strip("/").split("/")
        if len(parts) > 1:
            counts[parts[0]] = counts.get(parts[0], 0) + 1
    return max(counts, key=lambda k: counts[k]) if counts else NAMESPACE


def message_fields(m: BagMessage | Captured) -> dict[str, Any]:
    return flatten(plain(deserialize(m.type_name, m.data)))


def is_input(msg: BagMessage, namespace: str) -> bool:
    """Published from outside the graph (DESIGN §3), so replay publishes it."""
    rel = relative(msg.topic, namespace)
    if rel not in INPUT_TOPICS:
        return False
    if rel == "system/events":
        return message_fields(msg).get("kind") not in SERVER_KINDS
    return True


def is_output_topic(topic: str, namespace: str) -> bool:
    rel = relative(topic, namespace)
    if topic in NOT_COMPARED or rel in NOT_COMPARED or rel == topic:  # outside the namespace
        return False
    return rel not in INPUT_TOPICS or rel in RULES  # mixed topics keep their outputs


def output_records(messages: Iterable[BagMessage | Captured], namespace: str,
             only: Iterable[str]) -> dict[str, list[Record]]:
    """The messages on the output topics `only` (relative names), as records."""
    wanted = set(only)
    out: dict[str, list[Record]] = {t: [] for t in wanted}
    for m in messages:
        rel = relative(m.topic, namespace)
        if rel in wanted:
            out[rel].append(Record(m.t_ns * 1e-9, message_fields(m)))
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


# -- the graph's setup --------------------------------------------------------------


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
