"""`buddy record`: every topic under /buddy (and /diagnostics) into a rosbag2 MCAP bag.

    buddy record [-o DIR] [--duration S] [--namespace /buddy]

Messages are taken raw (serialized CDR, as they travel) from generic subscriptions and
written with `rosbags`, with the full message definitions of Jazzy's types and of
buddy_msgs, so `ros2 bag info/play`, Foxglove and `buddy eval BAG` read the bag. Topics
are discovered while recording (a node that starts late is still recorded). Stops on
Ctrl-C, SIGTERM or after --duration seconds.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from rosbags.interfaces import (
    Qos,
    QosDurability,
    QosHistory,
    QosLiveliness,
    QosReliability,
    QosTime,
)
from rosbags.rosbag2 import StoragePlugin, Writer
from rosbags.typesys import get_types_from_msg
from rosbags.typesys.store import Typestore

from buddy_personality.tools.bags.typestore import buddy_typestore
from buddy_personality.tools.cli import argtypes

DEFAULT_NAMESPACE = "/buddy"
EXTRA_TOPICS = ("/diagnostics",)
DISCOVERY_PERIOD_S = 0.2
RECORD_DEPTH = 100  # per topic: bursts of events must not be dropped while writing
BAG_VERSION = 9  # rosbag2 metadata version of Jazzy
# Inputs a short-lived writer (`buddy say`) sends with a transient-local writer: a volatile
# reader that matches that writer only after the line was written skips it and still
# acknowledges it (measured: 1-3 of 6 `buddy say` lines missing from a bag, every one
# acknowledged). A second, transient-local reader gets the line as history; the copy a
# volatile reader may also get is dropped (byte-identical: the header stamp is in it).
LATCHED_INPUTS = ("speech/utterance", "face/button")
DEDUP_WINDOW = 64
# The parameters of every node of the graph (issue 30 item 4: what makes a run
# deterministic besides its inputs: the seeds, the axes, the timings), asked once through
# each node's parameter services and kept in the bag's custom_data, so `buddy replay`
# builds the same graph and names a parameter that differs (docs/REPLAY.md).
LIVE_PARAMS_KEY = "buddy.live_params"
PARAMS_RETRY_S = 3.0  # a parameter reply can be lost to a DDS service race: ask again


def message_class(type_name: str) -> type:
    """'pkg/msg/Name' -> the generated Python class (rclpy needs it for the type support)."""
    pkg, kind, name = type_name.split("/")
    return getattr(importlib.import_module(f"{pkg}.{kind}"), name)


def ensure_type(store: Typestore, type_name: str) -> None:
    """Register a message type that is neither Jazzy standard nor buddy_msgs from its
    installed .msg file. Raises LookupError when it cannot be found or parsed."""
    if type_name in store.fielddefs:
        return
    pkg, kind, name = type_name.split("/")
    try:
        from ament_index_python.packages import get_package_share_directory  # noqa: PLC0415

        text = (Path(get_package_share_directory(pkg)) / kind / f"{name}.msg").read_text()
        store.register(get_types_from_msg(text, type_name))
    except Exception as exc:  # missing package, file or a dependency the store lacks
        raise LookupError(f"no definition for {type_name}: {exc}") from exc


def _bag_qos(profile: Any) -> Qos:
    """An rclpy QoSProfile as rosbag2's offered_qos_profiles entry (so replay can match)."""
    zero = QosTime(0, 0)
    return Qos(
        QosHistory(int(profile.history)), int(profile.depth),
        QosReliability(int(profile.reliability)), QosDurability(int(profile.durability)),
        zero, zero, QosLiveliness.AUTOMATIC, zero, False)


@dataclass(slots=True)
class TopicRecord:
    type_name: str
    count: int = 0


class Recorder:
    """Subscribes, raw, to every matching topic of the graph and writes what arrives.

    Runs entirely on the executor thread of `node` (discovery timer and callbacks), so
    the writer needs no lock.
    """

    def __init__(self, node: Any, path: Path | str, *,
                 namespaces: Sequence[str] = (DEFAULT_NAMESPACE,),
                 extra_topics: Sequence[str] = EXTRA_TOPICS,
                 warn: Callable[[str], None] | None = None) -> None:
        self.node = node
        self.path = Path(path)
        self.namespaces = tuple(ns.rstrip("/") for ns in namespaces)
        self.extra_topics = frozenset(extra_topics)
        self.topics: dict[str, TopicRecord] = {}
        self._skipped: set[str] = set()
        self._warn = warn or node.get_logger().warning
        self._store = buddy_typestore()
        self._writer = Writer(self.path, version=BAG_VERSION,
                              storage_plugin=StoragePlugin.MCAP)
        self._writer.open()
        self._subs: list[Any] = []
        self._recent: dict[str, deque[bytes]] = {}
        self._closed = False
        self.params: dict[str, dict[str, Any]] = {}
        self._asked: dict[str, tuple[float, Any, Any]] = {}  # node -> (when, client, future)
        self.discover()
        self._timer = node.create_timer(DISCOVERY_PERIOD_S, self.discover)

    @property
    def total(self) -> int:
        return sum(t.count for t in self.topics.values())

    def wanted(self, topic: str) -> bool:
        return topic in self.extra_topics or any(
            topic.startswith(ns + "/") for ns in self.namespaces)

    def discover(self) -> list[str]:
        """Subscribe to matching topics that have appeared since the last look."""
        added: list[str] = []
        for topic, types in self.node.get_topic_names_and_types():
            if topic in self.topics or topic in self._skipped or not self.wanted(topic):
                continue
            if len(types) != 1:
                self._skip(topic, f"{len(types)} types on one topic ({', '.join(types)})")
                continue
            if self._subscribe(topic, types[0]):
                added.append(topic)
        self._ask_parameters()
        return added

    def _ask_parameters(self) -> None:
        """Ask each node under the namespaces for all its parameters (once it answers)."""
        from rclpy.parameter_client import AsyncParameterClient  # noqa: PLC0415

        now = time.monotonic()
        for name, node_ns in self.node.get_node_names_and_namespaces():
            full = f"{node_ns.rstrip('/')}/{name}"
            if node_ns.rstrip("/") not in self.namespaces or full in self.params:
                continue
            asked = self._asked.get(full)
            if asked is not None and now - asked[0] < PARAMS_RETRY_S:
                continue
            client = asked[1] if asked else AsyncParameterClient(self.node, full)
            if not client.services_are_ready():
                continue
            future = client.list_parameters()
            future.add_done_callback(partial(self._on_names, full, client))
            self._asked[full] = (now, client, future)

    def _on_names(self, full: str, client: Any, future: Any) -> None:
        names = list(future.result().result.names)
        client.get_parameters(names).add_done_callback(
            partial(self._on_values, full, names))

    def _on_values(self, full: str, names: list[str], future: Any) -> None:
        from rclpy.parameter import parameter_value_to_python  # noqa: PLC0415

        values = future.result().values
        self.params[full.rsplit("/", 1)[-1]] = {
            n: parameter_value_to_python(v) for n, v in zip(names, values, strict=True)}

    def _skip(self, topic: str, reason: str) -> None:
        self._skipped.add(topic)
        self._warn(f"not recording {topic}: {reason}")

    def _subscribe(self, topic: str, type_name: str) -> bool:
        from rclpy.qos import (  # noqa: PLC0415
            DurabilityPolicy,
            HistoryPolicy,
            QoSProfile,
            ReliabilityPolicy,
        )

        publishers = self.node.get_publishers_info_by_topic(topic)
        if not publishers:
            return False  # only subscribers so far: look again when someone publishes
        try:
            ensure_type(self._store, type_name)
            cls = message_class(type_name)
        except (LookupError, ImportError, AttributeError, ValueError) as exc:
            self._skip(topic, str(exc))
            return False
        # Mirror what the publishers offer, as rosbag2 does: a transient-local
        # subscription gets latched values from before the recorder started, but would
        # not match a volatile publisher; a reliable one would not match best effort.
        offered = [p.qos_profile for p in publishers]
        durable = all(q.durability == DurabilityPolicy.TRANSIENT_LOCAL for q in offered)
        reliable = all(q.reliability == ReliabilityPolicy.RELIABLE for q in offered)
        qos = QoSProfile(
            depth=RECORD_DEPTH, history=HistoryPolicy.KEEP_LAST,
            reliability=ReliabilityPolicy.RELIABLE if reliable
            else ReliabilityPolicy.BEST_EFFORT,
            durability=DurabilityPolicy.TRANSIENT_LOCAL if durable
            else DurabilityPolicy.VOLATILE)
        conn = self._writer.add_connection(
            topic, type_name, typestore=self._store,
            offered_qos_profiles=[_bag_qos(q) for q in offered[:1]])
        self.topics[topic] = TopicRecord(type_name)
        self._subs.append(self.node.create_subscription(
            cls, topic, partial(self._on_message, topic, conn), qos, raw=True))
        if reliable and not durable and any(
                topic == f"{ns}/{name}" for ns in self.namespaces for name in LATCHED_INPUTS):
            self._recent[topic] = deque(maxlen=DEDUP_WINDOW)
            latched = QoSProfile(depth=RECORD_DEPTH, history=HistoryPolicy.KEEP_LAST,
                                 reliability=ReliabilityPolicy.RELIABLE,
                                 durability=DurabilityPolicy.TRANSIENT_LOCAL)
            self._subs.append(self.node.create_subscription(
                cls, topic, partial(self._on_message, topic, conn), latched, raw=True))
        return True

    def _on_message(self, topic: str, conn: Any, data: bytes) -> None:
        if self._closed:
            return
        recent = self._recent.get(topic)
        if recent is not None:
            if bytes(data) in recent:
                return  # the same line through the other reader
            recent.append(bytes(data))
        stamp_ns = self.node.get_clock().now().nanoseconds  # sim time when it is used
        self._writer.write(conn, stamp_ns, bytes(data))
        self.topics[topic].count += 1

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.node.destroy_timer(self._timer)
        for sub in self._subs:
            self.node.destroy_subscription(sub)
        if self.params:
            self._writer.set_custom_data(LIVE_PARAMS_KEY,
                                         json.dumps(self.params, sort_keys=True, default=str))
        self._writer.close()

    def status(self, elapsed_s: float) -> str:
        return (f"recording {len(self.topics)} topics, {self.total} messages, "
                f"{elapsed_s:.0f} s -> {self.path}")


def default_output() -> Path:
    return Path(f"buddy_{datetime.now().strftime('%Y%m%d_%H%M%S')}")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="buddy record", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-o", "--output", type=Path, default=None,
                   help="bag directory to create (default buddy_<date>_<time>)")
    p.add_argument("--duration", type=argtypes.seconds, default=0.0,
                   help="stop after this many seconds (0 = until Ctrl-C)")
    p.add_argument("--namespace", default=DEFAULT_NAMESPACE,
                   help="record the topics under this namespace (default /buddy)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    ns = build_parser().parse_args(argv)
    out: Path = ns.output or default_output()
    if out.exists():
        print(f"buddy record: {out} already exists; choose another -o", file=sys.stderr)
        return 2
    from buddy_personality.dds_confinement import confine_dds  # noqa: PLC0415

    confine_dds()
    import rclpy  # noqa: PLC0415 - after confine_dds: rmw reads the environment at init
    from rclpy.executors import ExternalShutdownException  # noqa: PLC0415
    from rich.console import Console  # noqa: PLC0415

    from buddy_personality.nodes.common.executor import make_executor  # noqa: PLC0415

    console = Console(stderr=True)
    rclpy.init(args=["buddy_record"])
    node = rclpy.create_node("buddy_recorder")
    # The robot's executor (executor.make_executor): its wait set is kept between wakes
    # and rebuilt only when the recorder subscribes to a new topic; rclpy's own rebuilds
    # it for every message (a 10-turn recording cost 22-31 s of CPU, issue 28's budget).
    executor = make_executor()
    executor.add_node(node)
    recorder: Recorder | None = None
    status = None
    try:
        recorder = Recorder(node, out, namespaces=(ns.namespace,),
                            warn=lambda text: console.print(f"[yellow]{text}[/]"))
        start = time.monotonic()
        deadline = start + ns.duration if ns.duration > 0 else None
        if console.is_terminal:
            status = console.status(recorder.status(0.0))
            status.start()
        else:
            console.print(f"buddy record: recording {ns.namespace}/* and /diagnostics "
                          f"to {out}")
        next_status = 0.0
        while rclpy.ok() and (deadline is None or time.monotonic() < deadline):
            executor.spin_once(timeout_sec=0.1)
            now = time.monotonic()
            if status is not None and now >= next_status:
                status.update(recorder.status(now - start))
                next_status = now + 0.5
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        if status is not None:
            status.stop()
        if recorder is not None:
            recorder.close()
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()
    if recorder is None:
        return 2
    # plain prints: a summary must not wrap at rich's 80 columns when piped
    print(f"buddy record: wrote {recorder.total} messages on {len(recorder.topics)} "
          f"topics to {out}", file=sys.stderr)
    for topic, rec in sorted(recorder.topics.items()):
        print(f"  {rec.count:>7}  {topic}  ({rec.type_name})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
