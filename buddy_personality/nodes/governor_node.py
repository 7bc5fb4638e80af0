"""governor node (DESIGN §4.2). Skeleton: parameters and diagnostics."""

from __future__ import annotations

from typing import Any

from rclpy.node import Node

from buddy_personality.nodes.common.diagnostics import DiagnosticsPublisher, Health
from buddy_personality.nodes.common.parameters import ParamSpec, declare_parameters
from buddy_personality.nodes.common.runtime import run_node

PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("profile", "balanced", "named coefficient profile",
              choices=("balanced", "conservative", "aggressive"), read_only=True),
    ParamSpec("max_steps", 100, "EXTERNAL halt after this many steps (spec 001 §5)",
              min=1, max=100000),
    ParamSpec("publish_hz", 1.0, "rate of the latched state republish", min=0.1, max=50.0,
              read_only=True),
)


class GovernorNode(Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("governor", **node_kwargs)
        self.params = declare_parameters(self, PARAMETERS)
        self._diagnostics = DiagnosticsPublisher(self, lambda: Health(message="skeleton"))


def main(args: list[str] | None = None) -> int:
    return run_node(GovernorNode, args)
