"""What keeps a sim run deterministic (sim_graph.py's docstring, points 1, 4 and 5):
the check that delivery within the process is synchronous, the environment, local time
zone and ROS clock the nodes are built under, the deferred publishing of the nodes'
latched state, and dropping the QoS event handlers nobody needs in a closed sim."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from typing import Any


class SimError(RuntimeError):
    """The sim cannot guarantee a deterministic run (or the graph misbehaved)."""



@contextlib.contextmanager
def environment(**values: str | None) -> Iterator[None]:
    """Set (or, with None, unset) environment variables for the block."""
    old = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def local_time_zone(tz: str) -> Iterator[None]:
    """The process's local time zone is `tz` for the block ("" = leave it)."""
    if not tz:
        yield
        return
    try:
        with environment(TZ=tz):
            time.tzset()
            yield
    finally:
        time.tzset()


@contextlib.contextmanager
def ros_time_starts_at(t_ns: int) -> Iterator[None]:
    """Nodes built in the block see ROS time `t_ns` from their first line on.

    rclpy's TimeSource starts every sim clock at 0 ("not set") until the first /clock
    message is spun in, but our nodes read the clock in their constructors (the engine's
    boot time, the identity core's timers). This wraps TimeSource.attach_clock for the
    block so a new clock starts at `t_ns` instead of 0.
    """
    from rclpy.clock_type import ClockType  # noqa: PLC0415
    from rclpy.time import Time  # noqa: PLC0415
    from rclpy.time_source import TimeSource  # noqa: PLC0415

    original = TimeSource.attach_clock

    def attach_clock(self: Any, clock: Any) -> None:
        if self._last_time_set.nanoseconds == 0:
            self._last_time_set = Time(nanoseconds=t_ns, clock_type=ClockType.ROS_TIME)
        original(self, clock)

    TimeSource.attach_clock = attach_clock  # type: ignore[method-assign]
    try:
        yield
    finally:
        TimeSource.attach_clock = original  # type: ignore[method-assign]


@contextlib.contextmanager
def deferred_publishes(prefix: str) -> Iterator[list[tuple[Any, Any]]]:
    """Hold back what is published on topics under `prefix` in the block (the nodes
    publish their latched state in their constructors) and hand it to the caller.

    Published later, once every node and tap exists, each value reaches every
    subscription live, inside publish(). Published at once, it would reach the nodes
    built afterwards as a latched value, which Fast DDS delivers on its own thread at
    no fixed moment: taken as it comes, it lands at a different point of the event
    sequence on every run (seen: the identity state arriving 3 s of sim time late).
    """
    from rclpy.publisher import Publisher  # noqa: PLC0415

    held: list[tuple[Any, Any]] = []
    original = Publisher.publish

    def publish(self: Any, msg: Any) -> None:
        if self.topic_name.startswith(prefix):
            held.append((self, msg))
        else:
            original(self, msg)

    Publisher.publish = publish  # type: ignore[method-assign]
    try:
        yield held
    finally:
        Publisher.publish = original  # type: ignore[method-assign]


def check_synchronous_delivery(node: Any) -> None:
    """Raise SimError unless a message published in this process is readable at once
    (the determinism of the sim rests on it; see the module docstring)."""
    from std_msgs.msg import Empty  # noqa: PLC0415

    from buddy_personality.nodes.common import qos  # noqa: PLC0415
    from buddy_personality.nodes.common.rclpy_internals import new_wait_set  # noqa: PLC0415

    topic = "_sim_delivery_check"
    sub = node.create_subscription(Empty, topic, lambda _m: None, qos.EVENTS)
    pub = node.create_publisher(Empty, topic, qos.EVENTS)
    try:
        if pub.get_subscription_count() < 1:
            raise SimError("publisher and subscription of one process did not match at "
                           "once: intra-process delivery is off")
        for _ in range(3):
            pub.publish(Empty())
            ws = new_wait_set((1, 0, 0, 0, 0, 0), node.context.handle)
            ws.clear_entities()
            with sub.handle:
                ws.add_subscription(sub.handle)
                ws.wait(0)
                ready = sub.handle.pointer in ws.get_ready_entities("subscription")
                sub.handle.take_message(Empty, False)
            if not ready:
                raise SimError("a message was not readable right after publish(): "
                               "delivery is asynchronous, so the sim cannot be "
                               "deterministic (RMW_IMPLEMENTATION must be rmw_fastrtps_cpp)")
    finally:
        node.destroy_publisher(pub)
        node.destroy_subscription(sub)


def drop_qos_event_handlers(node: Any) -> None:
    """Stop waiting on the QoS event handlers rclpy gives every publisher and
    subscription (they only log incompatible QoS, which a closed sim with the graph's
    own profiles cannot have). The executor rebuilds its wait set for every pass, and
    these ~190 handlers made up most of that cost."""
    from rclpy.event_handler import EventHandler  # noqa: PLC0415

    for waitable in list(node.waitables):
        if isinstance(waitable, EventHandler):
            node.remove_waitable(waitable)
