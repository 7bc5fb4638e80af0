"""1 Hz /diagnostics for rqt_robot_monitor (DESIGN §5): one DiagnosticStatus per node."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from rclpy.node import Node

from buddy_personality.nodes.common import qos

OK = DiagnosticStatus.OK
WARN = DiagnosticStatus.WARN
ERROR = DiagnosticStatus.ERROR


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
        self._hardware_id = hardware_id
        self._pub = node.create_publisher(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)
        self._timer = node.create_timer(period_s, self.publish)

    def publish(self) -> None:
        health = self._collect()
        status = DiagnosticStatus(
            level=health.level,
            name=self._name,
            message=health.message,
            hardware_id=self._hardware_id,
            values=[KeyValue(key=str(k), value=str(v)) for k, v in health.values.items()],
        )
        msg = DiagnosticArray(status=[status])
        msg.header.stamp = self._node.get_clock().now().to_msg()
        self._pub.publish(msg)

    def destroy(self) -> None:
        self._node.destroy_timer(self._timer)
        self._node.destroy_publisher(self._pub)
