"""The five nodes in one process under sim time, stepped deterministically (DESIGN §1.6).

`SimGraph` is what `buddy replay`, the golden-bag scenarios and `buddy run --demo` drive:

- the graph of `nodes/bringup.py` (same classes, parameters from robot.yaml, namespace
  `buddy`) with `use_sim_time`, its persistent files in a state directory of its own,
  the seeds from `SimSetup` (parameters `personality.seed`, `llm_bridge.seed`);
- a driver node that publishes `/clock`, publishes the inputs that come from outside the
  graph (speech, TTS, power monitor, identity and consent events, face board), and taps
  every topic the graph publishes (raw CDR, stamped with sim time);
- `advance_to(t)` publishes one `/clock` step and *settles* the graph, `publish(...)`
  delivers one input and settles.

Why the outputs are the same on every run:

1. Delivery is synchronous. All nodes share one rclpy context, so Fast DDS delivers a
   message to the readers of this process inside `publish()` (checked at start-up by
   `check_synchronous_delivery`; replay refuses to run without it; this and the
   guards of points 4 and 5 are in sim_determinism.py).
2. One callback at a time. Settling asks the executor for ready work without waiting,
   runs one callback, and repeats until a pass finds nothing but background work. The
   executor's order is fixed (node order, then timers, subscriptions, guards, clients,
   services), and what is ready depends only on what was published before.
3. LLM calls are instantaneous in sim time. After every callback the settle waits for the
   LLM bridge's worker jobs (`LlmBridgeNode.jobs_in_flight`), so a reply reaches the
   executor at the same point of the event sequence on every run.
4. Every node starts together. What the constructors publish (their latched state) is
   held back until all nodes and taps exist, then published live: a latched value that
   reaches a late subscriber comes on Fast DDS's own thread, at no fixed moment.
5. Nothing else leaks in: the context runs with ROS_AUTOMATIC_DISCOVERY_RANGE=OFF (no
   other process can publish into the sim, not even another sim on the same domain),
   the local time zone is `SimSetup.tz` while the graph runs (local midnight resets RS-2,
   the identity node reads the local date), and every node's clock starts at
   `SimSetup.start_s` before its constructor reads it.

Background work: the face driver's 50 Hz tick runs on the steady clock by design (the
serial link is hardware real time, see face_driver_node.py). It runs whenever it is due but
never keeps a settle going; its outputs can differ in timing between runs, which replay's
comparison allows for (docs/REPLAY.md).

Step policy: `advance_to` jumps straight to the given time; an rcl timer on the ROS clock
then fires once, however many periods were skipped. Callers choose the steps (the scenario
runner: 1 s while anything happens, coarser in long quiet stretches; replay: the recorded
`/clock`, or a fixed grid). See docs/REPLAY.md.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buddy_personality.dds_confinement import confine_dds
from buddy_personality.tools.sim.sim_determinism import (
    SimError,
    check_synchronous_delivery,
    deferred_publishes,
    drop_qos_event_handlers,
    environment,
    local_time_zone,
    ros_time_starts_at,
)
from buddy_personality.tools.sim.sim_setup import (
    DEFAULT_START_S,
    SimSetup,
    graph_overrides,
    seed_daily_usage,
)

# importable from here as before the split (replay, the scenario runner, tests)
__all__ = ["CLOCK_TOPIC", "DEFAULT_START_S", "INPUT_TOPICS", "NAMESPACE", "SETUP_KEY",
           "Captured", "SimError", "SimGraph", "SimSetup", "graph_overrides", "relative",
           "type_name_of"]

NAMESPACE = "buddy"
CLOCK_TOPIC = "/clock"
SETUP_KEY = "buddy.sim_setup"  # rosbag2 custom_data key of the JSON SimSetup
SETTLE_CALLBACK_LIMIT = 200_000  # callbacks in one settle: more means a livelock
WORKER_TIMEOUT_S = 60.0  # an LLM job that runs longer is a hung server

# Topics that come from outside the graph (DESIGN §3 "Outside the graph"): speech
# recognition, TTS, the power monitor, identity and consent events, the face board.
INPUT_TOPICS: dict[str, str] = {
    "speech/utterance": "buddy_msgs/msg/Utterance",
    "tts/speaking": "std_msgs/msg/Bool",
    "system/events": "buddy_msgs/msg/SystemEvent",
    "identity/events": "buddy_msgs/msg/IdentityEvent",
    "consent/events": "buddy_msgs/msg/ConsentEvent",
    "face/button": "buddy_msgs/msg/ButtonEvent",
    "face/touch": "buddy_msgs/msg/TouchEvent",
}



@dataclass(slots=True, frozen=True)
class Captured:
    """One message seen on a tapped topic: raw CDR and the sim time it was seen at."""

    topic: str       # absolute topic name
    type_name: str   # pkg/msg/Name
    t_ns: int        # sim time (ns) when the tap received it
    data: bytes


def type_name_of(cls: type) -> str:
    """buddy_msgs.msg._say.Say -> 'buddy_msgs/msg/Say'."""
    pkg, kind = cls.__module__.split(".")[:2]
    return f"{pkg}/{kind}/{cls.__name__}"


def relative(topic: str, namespace: str = NAMESPACE) -> str:
    """'/buddy/tts/say' -> 'tts/say'; names outside the namespace stay absolute."""
    prefix = "/" + namespace.strip("/") + "/"
    return topic[len(prefix):] if topic.startswith(prefix) else topic


class SimGraph:
    """The graph under sim time. Use as a context manager (or start() / close())."""

    def __init__(self, setup: SimSetup | None = None, *, llm_url: str = "",
                 state_dir: Path | str | None = None, namespace: str = NAMESPACE,
                 input_types: dict[str, str] | None = None,
                 log_to_stdout: bool = False, record_clock: bool = True) -> None:
        self.setup = setup or SimSetup()
        self.llm_url = llm_url
        self.namespace = namespace.strip("/")
        self.input_types = dict(INPUT_TOPICS if input_types is None else input_types)
        self.log_to_stdout = log_to_stdout
        self.record_clock = record_clock  # /clock steps go into `captures` (the schedule)
        self._state_dir_arg = Path(state_dir) if state_dir is not None else None
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self.state_dir: Path | None = None
        self.captures: list[Captured] = []
        self.listeners: list[Callable[[Captured], None]] = []
        self.now_ns = round(self.setup.start_s * 1e9)
        self.callbacks_run = 0
        self.steps = 0
        self._stack = contextlib.ExitStack()
        self._context: Any = None
        self._executor: Any = None
        self.nodes: list[Any] = []
        self._driver: Any = None
        self._bridge: Any = None
        self._clock_pub: Any = None
        self._inputs: dict[str, Any] = {}
        self._taps: list[Any] = []

    # -- life cycle --------------------------------------------------------------------

    def __enter__(self) -> SimGraph:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def now(self) -> float:
        """Sim time in seconds."""
        return self.now_ns * 1e-9

    def start(self) -> None:
        try:
            self._start()
        except BaseException:
            self.close()
            raise

    def _start(self) -> None:
        confine_dds()
        import rclpy  # noqa: PLC0415 - after confine_dds: rmw reads the environment at init
        from rclpy.context import Context  # noqa: PLC0415
        from rclpy.node import Node  # noqa: PLC0415
        from rclpy.parameter import Parameter  # noqa: PLC0415
        from rosgraph_msgs.msg import Clock  # noqa: PLC0415

        from buddy_personality.nodes.bringup import (  # noqa: PLC0415
            GraphOptions,
            create_graph,
            default_params_file,
        )
        from buddy_personality.nodes.common.executor import make_executor  # noqa: PLC0415
        from buddy_personality.nodes.llm_bridge_node import LlmBridgeNode  # noqa: PLC0415

        setup = self.setup
        if self._state_dir_arg is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="buddy_sim_")
            self.state_dir = Path(self._tmp.name)
        else:
            self.state_dir = self._state_dir_arg
            self.state_dir.mkdir(parents=True, exist_ok=True)
        self._stack.enter_context(local_time_zone(setup.tz))
        if setup.daily_conversation_s > 0:
            seed_daily_usage(self.state_dir / "usage.json", setup.start_s,
                             setup.daily_conversation_s)
        params = setup.params_file or str(default_params_file())
        args = ["buddy_sim", "--ros-args", "--params-file", params]
        if not self.log_to_stdout:
            args.append("--disable-stdout-logs")
        self._context = Context()
        # A closed world: no discovery of (or by) any other process.
        with environment(ROS_AUTOMATIC_DISCOVERY_RANGE="OFF"):
            rclpy.init(args=args, context=self._context)
        overrides = graph_overrides(setup, self.state_dir, self.llm_url)
        with ros_time_starts_at(self.now_ns):
            self._driver = Node("sim_driver", namespace=self.namespace,
                                context=self._context, start_parameter_services=False,
                                parameter_overrides=[Parameter("use_sim_time", value=True)])
        check_synchronous_delivery(self._driver)
        with ros_time_starts_at(self.now_ns), \
                deferred_publishes(f"/{self.namespace}/") as held:
            # Nobody outside can reach the sim, so the nodes need no parameter services.
            # The parent page is no part of a replay (it publishes nothing compared) and
            # would fight a running graph for its port (issue 30 item 4).
            self.nodes = create_graph(GraphOptions(overrides=overrides,
                                                   namespace=self.namespace,
                                                   without=frozenset({"parent_dashboard"})),
                                      context=self._context, start_parameter_services=False)
        for node in [*self.nodes, self._driver]:
            drop_qos_event_handlers(node)
        self._bridge = next((n for n in self.nodes if isinstance(n, LlmBridgeNode)), None)
        # The executor the robot's processes spin (executor.make_executor): LeanExecutor
        # keeps its wait set between wakes, where rclpy's rebuilds it on every one, which
        # was most of a replay's CPU (a 13 s replay of a golden bag). Same callbacks, same
        # order (executor.py), so a replay's outputs do not change.
        self._executor = make_executor(context=self._context)
        for node in [*self.nodes, self._driver]:
            self._executor.add_node(node)
        from rclpy.qos import QoSProfile, ReliabilityPolicy  # noqa: PLC0415

        self._clock_pub = self._driver.create_publisher(
            Clock, CLOCK_TOPIC, QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE))
        self._create_input_publishers()
        self._create_taps()
        self._wait_for_services()
        for pub, msg in held:  # the constructors' latched state, now live to everyone
            pub.publish(msg)
        self.settle()

    def close(self) -> None:
        import rclpy  # noqa: PLC0415

        if self._executor is not None:
            self._executor.shutdown()
            self._executor = None
        for node in [*reversed(self.nodes), self._driver]:
            if node is not None:
                with contextlib.suppress(Exception):
                    node.destroy_node()
        self.nodes = []
        self._driver = None
        if self._context is not None:
            rclpy.try_shutdown(context=self._context)
            self._context = None
        self._stack.close()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    # -- wiring ------------------------------------------------------------------------

    def _topic(self, name: str) -> str:
        return name if name.startswith("/") else f"/{self.namespace}/{name}"

    def _create_input_publishers(self) -> None:
        """One publisher per input topic, with the QoS the graph subscribes with."""
        from buddy_personality.nodes.common import qos  # noqa: PLC0415
        from buddy_personality.tools.bags.record import message_class  # noqa: PLC0415

        subscribed = {sub.topic_name: sub.qos_profile for n in self.nodes
                      for sub in n.subscriptions}
        for name, type_name in self.input_types.items():
            topic = self._topic(name)
            profile = subscribed.get(topic, qos.EVENTS)
            self._inputs[topic] = self._driver.create_publisher(
                message_class(type_name), topic, profile)

    def _create_taps(self) -> None:
        """Raw subscriptions on every topic under the namespace that the graph or the
        driver publishes (so not /diagnostics), deep enough to keep every message of a
        burst, and in the publisher's durability so that every publisher matches."""
        from rclpy.qos import (  # noqa: PLC0415
            DurabilityPolicy,
            HistoryPolicy,
            QoSProfile,
            ReliabilityPolicy,
        )

        topics: dict[str, tuple[type, Any]] = {}
        for node in [*self.nodes, self._driver]:
            for pub in node.publishers:
                name = pub.topic_name
                if name.startswith(f"/{self.namespace}/") and name not in topics:
                    topics[name] = (pub.msg_type, pub.qos_profile)
        for name, (cls, offered) in sorted(topics.items()):
            profile = QoSProfile(
                depth=1000, history=HistoryPolicy.KEEP_LAST,
                reliability=ReliabilityPolicy.RELIABLE,
                durability=(DurabilityPolicy.TRANSIENT_LOCAL
                            if offered.durability == DurabilityPolicy.TRANSIENT_LOCAL
                            else DurabilityPolicy.VOLATILE))
            type_name = type_name_of(cls)
            self._taps.append(self._driver.create_subscription(
                cls, name, self._tap_callback(name, type_name), profile, raw=True))
        drop_qos_event_handlers(self._driver)

    def _tap_callback(self, topic: str, type_name: str) -> Callable[[bytes], None]:
        def on_message(data: bytes) -> None:
            cap = Captured(topic, type_name, self.now_ns, bytes(data))
            self.captures.append(cap)
            for listener in self.listeners:
                listener(cap)

        return on_message

    def _wait_for_services(self, timeout_s: float = 10.0) -> None:
        """Every client in the graph sees its service (the bridge's governor/reset,
        the identity node's personality/reset_memory). Discovery runs on its own
        thread, so this polls without spinning the executor."""
        deadline = time.monotonic() + timeout_s
        clients = [c for n in self.nodes for c in n.clients
                   if c.srv_name.startswith(f"/{self.namespace}/")]
        while not all(c.service_is_ready() for c in clients):
            if time.monotonic() > deadline:
                missing = [c.srv_name for c in clients if not c.service_is_ready()]
                raise SimError(f"services never became available: {', '.join(missing)}")
            time.sleep(0.001)

    # -- stepping ----------------------------------------------------------------------

    def advance_to(self, t: float) -> None:
        """One /clock step to `t` seconds (not before now), then settle."""
        self.advance_to_ns(round(t * 1e9))

    def advance_to_ns(self, t_ns: int) -> None:
        from rosgraph_msgs.msg import Clock  # noqa: PLC0415

        if t_ns < self.now_ns:
            raise ValueError(f"sim time cannot go back ({t_ns} < {self.now_ns} ns)")
        if t_ns == self.now_ns:
            return
        self.now_ns = t_ns
        msg = Clock()
        msg.clock.sec, msg.clock.nanosec = divmod(t_ns, 1_000_000_000)
        self._clock_pub.publish(msg)
        if self.record_clock:
            from rclpy.serialization import serialize_message  # noqa: PLC0415

            self.captures.append(Captured(CLOCK_TOPIC, "rosgraph_msgs/msg/Clock", t_ns,
                                          serialize_message(msg)))
        self.steps += 1
        self.settle()

    def publish(self, topic: str, msg: Any) -> None:
        """Publish one input now (its header stamped with sim time), then settle."""
        header = getattr(msg, "header", None)
        if header is not None:
            header.stamp.sec, header.stamp.nanosec = divmod(self.now_ns, 1_000_000_000)
        self._input(topic).publish(msg)
        self.settle()

    def publish_raw(self, topic: str, data: bytes) -> None:
        """Publish one serialized input as it was recorded, then settle."""
        self._input(topic).publish(bytes(data))
        self.settle()

    def _input(self, topic: str) -> Any:
        pub = self._inputs.get(self._topic(topic))
        if pub is None:
            raise KeyError(f"{topic} is not an input topic of the sim "
                           f"({', '.join(sorted(self._inputs))})")
        return pub

    def settle(self) -> None:
        """Run callbacks one at a time until a pass finds only background work."""
        from rclpy.executors import TimeoutException  # noqa: PLC0415

        executor = self._executor
        run = 0
        while True:
            foreground = False
            while True:
                try:
                    handler, entity, _node = executor.wait_for_ready_callbacks(timeout_sec=0)
                except TimeoutException:
                    break
                handler()
                if handler.exception() is not None:
                    raise handler.exception()
                self.callbacks_run += 1
                run += 1
                if not self._background(entity):
                    foreground = True
                self._await_workers()
                if run > SETTLE_CALLBACK_LIMIT:
                    raise SimError(f"the graph did not settle after {run} callbacks at "
                                   f"sim time {self.now:.3f}")
            if not foreground:
                return

    @staticmethod
    def _background(entity: Any) -> bool:
        """Timers on the steady clock (the face driver's link tick) run when due, but
        they follow wall time, so they never keep a settle going."""
        from rclpy.clock_type import ClockType  # noqa: PLC0415
        from rclpy.timer import Timer  # noqa: PLC0415

        return isinstance(entity, Timer) and entity.clock.clock_type == ClockType.STEADY_TIME

    def _await_workers(self) -> None:
        bridge = self._bridge
        if bridge is None or not bridge.jobs_in_flight:
            return
        deadline = time.monotonic() + WORKER_TIMEOUT_S
        while bridge.jobs_in_flight:
            if time.monotonic() > deadline:
                raise SimError(f"an LLM bridge job ran longer than {WORKER_TIMEOUT_S:.0f} s")
            time.sleep(0.0002)  # the job is HTTP on a worker thread; its end is polled
