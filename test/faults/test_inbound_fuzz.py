"""Issue 31 item 1: one message killed all of Buddy. A `face/state` with intensity 1e308
passed the dashboard's isfinite check, `round(1e308 * 20)` raised OverflowError, and
`buddy run` exited 1 with every node in it.

DESIGN §5 bad input: "NaN, infinities and out-of-range numbers are clamped or rejected at
the node boundary, unknown enum values ... are rejected, oversize strings are truncated;
each rejection is logged once per cause and counted in diagnostics"; DESIGN §1: never
crash. So extreme values (±1e308, ±inf, NaN, -0.0, the largest integers, 1 MB strings,
unknown enum values) go to every inbound topic of every node, in `buddy run` and in the
launch, and afterwards every node is alive and answering: its parameter service answers,
its /diagnostics still comes (and counted what it refused), the snapshot still flows,
and no process ended.

The topics are not hand-picked: they are read from the nodes' code
(support/inbound_topics.py), and the test waits until the live graph shows each of them
subscribed.
"""

from __future__ import annotations

import importlib
import math
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rclpy
from diagnostic_msgs.msg import DiagnosticArray
from rclpy.context import Context
from rclpy.duration import Duration
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from support.inbound_topics import inbound_topics
from support.launching import Launched, exit_codes, process_env, require_launch_tools, ros2_command
from support.ros_harness import RosHarness

from buddy_msgs.msg import PersonalitySnapshot
from buddy_personality.nodes.bringup import NAMESPACE, NODE_CLASSES
from buddy_personality.nodes.common import qos

pytestmark = [pytest.mark.ros, pytest.mark.process, pytest.mark.slow, pytest.mark.fault]

COME_UP_S = 60.0
ANSWER_S = 15.0
MEGA = "x" * 1_000_000
EXTREME_FLOATS = (1e308, -1e308, math.inf, -math.inf, math.nan, -0.0)
FLOAT32_MAX = 3.4e38     # a float32 field (std_msgs/Float32) cannot hold 1e308
INT_RANGES = {
    "octet": (0, 255), "char": (0, 255), "uint8": (0, 255), "int8": (-128, 127),
    "uint16": (0, 65535), "int16": (-32768, 32767), "uint32": (0, 2**32 - 1),
    "int32": (-2**31, 2**31 - 1), "uint64": (0, 2**64 - 1), "int64": (-2**63, 2**63 - 1),
}
# Our writers offer transient-local, so they also match the latched readers; deep enough
# that a burst is not overwritten in our own history.
FUZZ_QOS = QoSProfile(depth=200, history=HistoryPolicy.KEEP_LAST,
                      reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.TRANSIENT_LOCAL)


# --- the inbound topics, from the code ---------------------------------------------------

INBOUND = inbound_topics()
ALWAYS = inbound_topics(conditional=False)   # the graph's default configuration has these


def test_every_node_has_its_inbound_topics_found() -> None:
    """The derivation above sees what DESIGN §3's table lists for the core nodes."""
    topics = {name: {t for t, _ in subs} for name, subs in INBOUND.items()}
    assert {"personality/ai_emotion", "conversation/events", "system/events",
            "face/button", "memory/extract"} <= topics["personality"]
    assert topics["governor"] == {"governor/signal"}
    assert {"identity/events", "consent/events"} <= topics["identity"]
    assert {"personality/snapshot", "face/gesture"} <= topics["face_driver"]
    assert {"face/state", "personality/snapshot"} <= topics["parent_dashboard"]
    assert {"speech/utterance", "personality/llm_profile"} <= topics["llm_bridge"]


def topic_types() -> dict[str, type]:
    return {topic: t for subs in INBOUND.values() for topic, t in subs}


# --- extreme messages --------------------------------------------------------------------

def _msg_class(type_name: str) -> type:
    package, _, name = type_name.partition("/")
    return getattr(importlib.import_module(f"{package}.msg"), name)


def _extreme(type_name: str, float_value: float, int_high: bool) -> Any:
    """One field's extreme value: `float_value` for floats, the type's largest (or
    smallest) integer, a 1 MB string, sequences of three extremes, nested messages
    filled the same way."""
    if type_name in ("double", "float"):
        if type_name == "float" and math.isfinite(float_value) and abs(float_value) > 1:
            return math.copysign(FLOAT32_MAX, float_value)
        return float_value
    if type_name in INT_RANGES:
        lo, hi = INT_RANGES[type_name]
        return (hi if int_high else lo).to_bytes() if type_name == "octet" else \
            (hi if int_high else lo)
    if type_name == "boolean":
        return True
    if type_name.split("<", 1)[0] in ("string", "wstring"):
        return MEGA
    if type_name.startswith("sequence<"):
        inner = type_name[len("sequence<"):-1].split(",", 1)[0]
        return [_extreme(inner, float_value, int_high) for _ in range(3)]
    if "/" in type_name:
        return _filled(_msg_class(type_name), float_value, int_high)
    raise AssertionError(f"no extreme value for {type_name}")


def _filled(cls: type, float_value: float, int_high: bool) -> Any:
    msg = cls()
    for name, type_name in cls.get_fields_and_field_types().items():
        if name == "header":
            continue
        setattr(msg, name, _extreme(type_name, float_value, int_high))
    return msg


def extreme_messages(cls: type) -> Iterator[Any]:
    """Every field extreme at once, for each extreme float; then one float field at a
    time (so that a field refused first cannot shield the others)."""
    fields = cls.get_fields_and_field_types()
    for value in EXTREME_FLOATS:
        yield _filled(cls, value, int_high=True)
        yield _filled(cls, value, int_high=False)
    for name, type_name in fields.items():
        if type_name in ("double", "float"):
            for value in EXTREME_FLOATS:
                msg = cls()
                setattr(msg, name, _extreme(type_name, value, True))
                yield msg


# --- the fuzz and the checks ------------------------------------------------------------

@pytest.fixture
def probe() -> Iterator[RosHarness]:
    context = Context()
    rclpy.init(context=context)
    harness = RosHarness(context, f"/{NAMESPACE}")
    try:
        yield harness
    finally:
        harness.close()
        rclpy.try_shutdown(context=context)


def full_name(topic: str) -> str:
    return topic if topic.startswith("/") else f"/{NAMESPACE}/{topic}"


def wait_for_inbound_topics(probe: RosHarness, alive: Any) -> None:
    """Until the live graph shows every node subscribed to every topic of its code."""
    def subscribed(node: str) -> set[str]:
        try:
            pairs = probe.probe.get_subscriber_names_and_types_by_node(node, f"/{NAMESPACE}")
        except Exception:
            return set()
        return {topic for topic, _ in pairs}

    def missing() -> dict[str, set[str]]:
        gaps = {name: {full_name(t) for t, _ in subs} - subscribed(name)
                for name, subs in ALWAYS.items()}
        return {name: gap for name, gap in gaps.items() if gap}

    assert probe.spin_until(lambda: not missing() or not alive(), COME_UP_S), \
        f"the graph did not come up with every node's subscriptions: {missing()}"
    assert alive(), "the graph ended while coming up"


def readers_keep_all(topic: str, count: int) -> bool:
    """Whether every reader of `topic` holds `count` samples until its node takes them:
    a reliable keep-last history at least that deep (every endpoint takes the topic's
    one profile from qos.of, issue 28 item 4). Then the burst needs no pacing (issue 28
    item 5: 5 ms after each of ~540 messages was ~3 s of each test's wall)."""
    try:
        profile = qos.of(topic)
    except KeyError:
        return False
    if profile.reliability != ReliabilityPolicy.RELIABLE:
        return False
    return profile.history == HistoryPolicy.KEEP_ALL or profile.depth >= count


def fuzz(probe: RosHarness, alive: Any) -> int:
    """Publish every extreme message on every inbound topic; returns how many."""
    sent = 0
    publishers = []
    for topic, cls in sorted(topic_types().items()):
        pub = probe.probe.create_publisher(cls, full_name(topic), FUZZ_QOS)
        publishers.append(pub)
        if any(t == topic for subs in ALWAYS.values() for t, _ in subs):
            matched = probe.spin_until(lambda p=pub: p.get_subscription_count() > 0, ANSWER_S)
            assert matched, f"nobody matched our {topic} writer (graph alive: {alive()})"
        messages = list(extreme_messages(cls))
        pace = not readers_keep_all(topic, len(messages))
        for msg in messages:
            pub.publish(msg)
            sent += 1
            if pace:   # the latched readers keep one sample: let each one be taken
                probe.spin_for(0.005)
    for pub in publishers:
        pub.wait_for_all_acked(Duration(seconds=5))
        probe.probe.destroy_publisher(pub)
    return sent


def _has_values(cls: type) -> bool:
    return any(t != "boolean" for t in cls.get_fields_and_field_types().values())


def assert_every_node_answers(probe: RosHarness, alive: Any) -> None:
    """After the fuzz: every node's parameter service answers, every node's /diagnostics
    comes again and counted what it refused, a new snapshot comes."""
    fresh: dict[str, dict[str, str]] = {}

    def on_diag(msg: DiagnosticArray) -> None:
        for st in msg.status:
            fresh[st.name.rsplit("/", 1)[-1]] = {kv.key: kv.value for kv in st.values}

    probe.probe.create_subscription(DiagnosticArray, "/diagnostics", on_diag,
                                    qos.DIAGNOSTICS)
    snaps = probe.collect(PersonalitySnapshot, f"/{NAMESPACE}/personality/snapshot",
                          qos.LATCHED)
    n_snaps = len(snaps)
    for name in NODE_CLASSES:
        got = probe.get_parameters(f"/{NAMESPACE}/{name}", ["use_sim_time"], ANSWER_S)
        assert got == {"use_sim_time": False}, name
    assert probe.spin_until(lambda: set(NODE_CLASSES) <= set(fresh) or not alive(),
                            ANSWER_S), f"no /diagnostics after the fuzz from " \
                                       f"{set(NODE_CLASSES) - set(fresh)}"
    assert probe.spin_until(lambda: len(snaps) > n_snaps + 1, ANSWER_S), \
        "the snapshot stopped"
    for name in NODE_CLASSES:
        values = fresh[name]
        # DESIGN §5: what was refused, clamped or truncated is counted in diagnostics
        # (a node that only hears std_msgs/Bool had nothing to refuse)
        if any(_has_values(cls) for _, cls in INBOUND[name]):
            # (the governor names its counters signals.rejected.*)
            assert any(int(v) > 0 for k, v in values.items()
                       if k.endswith("rejected.total")), (name, values)
        # and nothing got past the checks to raise in a callback
        assert values.get("callback_errors.total", "0") == "0", (name, values)
    assert alive()


def test_extreme_values_on_every_topic_leave_buddy_run_alive(probe, tmp_path: Path) -> None:
    log = tmp_path / "buddy-run.log"
    with log.open("w") as out:
        run = subprocess.Popen(
            [str(Path(sys.prefix) / "bin" / "buddy"), "run", "--headless",
             "--duration", "600", "--state-dir", str(tmp_path / "state")],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env=process_env(tmp_path), cwd=tmp_path)
    try:
        def alive() -> bool:
            return run.poll() is None

        wait_for_inbound_topics(probe, alive)
        assert fuzz(probe, alive) > 0
        assert alive(), f"buddy run ended ({run.returncode}):\n{log.read_text()[-4000:]}"
        assert_every_node_answers(probe, alive)
        assert alive(), f"buddy run ended ({run.returncode}):\n{log.read_text()[-4000:]}"
        run.send_signal(signal.SIGINT)
        assert run.wait(timeout=20) == 0, log.read_text()[-4000:]
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()


@pytest.mark.launch
def test_extreme_values_on_every_topic_leave_every_launched_node_alive(
        probe, tmp_path: Path) -> None:
    require_launch_tools()
    log = tmp_path / "ros2-launch.log"
    with log.open("wb") as out:
        popen = subprocess.Popen(
            [ros2_command(), "launch", "buddy_personality", "robot.launch.py"],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, env=process_env(tmp_path), cwd=tmp_path)
    run = Launched(popen, log)
    try:
        def alive() -> bool:
            _started, ended = exit_codes(run.output())
            return popen.poll() is None and not ended

        wait_for_inbound_topics(probe, alive)
        assert fuzz(probe, alive) > 0
        assert_every_node_answers(probe, alive)
        assert alive(), f"a node ended:\n{run.output()[-4000:]}"
        run.ctrl_c()
        assert run.wait(20) == 0, run.output()[-4000:]
    finally:
        if popen.poll() is None:
            run.kill()
