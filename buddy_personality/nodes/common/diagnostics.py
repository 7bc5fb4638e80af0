"""1 Hz /diagnostics for rqt_robot_monitor (DESIGN §5): one DiagnosticStatus per node."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from rclpy.node import Node

from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.isolation import CallbackFaults, callback_faults

OK = DiagnosticStatus.OK
WARN = DiagnosticStatus.WARN
ERROR = DiagnosticStatus.ERROR
MAX_KEPT_KEYS = 256


@dataclass(slots=True)
class Health:
    """What a node reports: a level, a one-line message and its counters."""

    level: int = OK
    message: str = "ok"
    values: Mapping[str, object] = field(default_factory=dict)


class DiagnosticsPublisher:
    """Publishes `collect()` on /diagnostics every `period_s` (node clock)."""

    def __init__(
        self,
        node: Node,
        collect: Callable[[], Health],
        period_s: float = 1.0,
        hardware_id: str = "buddy",
    ) -> None:
        self._node = node
        self._collect = collect
        self._name = f"{node.get_namespace().rstrip('/')}/{node.get_name()}".lstrip("/")
        self._pub = node.create_publisher(DiagnosticArray, "/diagnostics", qos.of("/diagnostics"))
        # One message kept and refilled: a node's keys hardly change, and building ~20
        # KeyValue messages a second per node was a visible part of the idle robot's CPU
        # (issue 14). publish() serialises at once, so reusing the objects is safe.
        self._status = DiagnosticStatus(name=self._name, hardware_id=hardware_id)
        self._msg = DiagnosticArray(status=[self._status])
        self._pairs: dict[str, KeyValue] = {}
        self._timer = node.create_timer(period_s, self.publish)

    def seconds_to_next(self) -> float | None:
        """How long until the next publish (None if the timer is cancelled): the 1 Hz
        phase that align_periodic_timers puts every node's timers on."""
        ns = self._timer.time_until_next_call()
        return None if ns is None else ns / 1e9

    def publish(self) -> None:
        health = self._collect()
        faults = callback_faults(self._node)
        if faults is not None:   # callbacks that raised (isolation.py, issue 31 item 1)
            health = _with_faults(health, faults)
        if len(self._pairs) > MAX_KEPT_KEYS:     # keys that come and go: start afresh
            self._pairs.clear()
        values = []
        for k, v in health.values.items():
            key = str(k)
            pair = self._pairs.get(key)
            if pair is None:
                pair = self._pairs[key] = KeyValue(key=key)
            pair.value = str(v)
            values.append(pair)
        status = self._status
        status.level = health.level
        status.message = health.message
        status.values = values
        self._msg.header.stamp = self._node.get_clock().now().to_msg()
        self._pub.publish(self._msg)

    def destroy(self) -> None:
        self._node.destroy_timer(self._timer)
        self._node.destroy_publisher(self._pub)


def _with_faults(health: Health, faults: CallbackFaults) -> Health:
    """`health` plus the node's callback exceptions; WARN while new ones come."""
    values = {**health.values, **faults.as_values()}
    level, message = health.level, health.message
    fresh = faults.total - faults.reported
    faults.reported = faults.total
    if fresh > 0 and level < WARN:
        level, message = WARN, f"{message}; {fresh} callback errors ({faults.last})"
    return Health(level, message, values)
