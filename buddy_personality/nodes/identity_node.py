"""identity node (DESIGN §4.3). Skeleton: parameters and diagnostics."""

from __future__ import annotations

from typing import Any

from rclpy.node import Node

from buddy_personality.nodes.common.diagnostics import DiagnosticsPublisher, Health
from buddy_personality.nodes.common.parameters import ParamSpec, declare_parameters
from buddy_personality.nodes.common.runtime import run_node

PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("profiles_path", "~/.local/share/buddy/household.json",
              "household profiles JSON store (spec 004)", read_only=True),
    ParamSpec("tick_hz", 1.0, "rate of the timeout tick", min=0.1, max=50.0, read_only=True),
)


class IdentityNode(Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("identity", **node_kwargs)
        self.params = declare_parameters(self, PARAMETERS)
        self._diagnostics = DiagnosticsPublisher(self, lambda: Health(message="skeleton"))


def main(args: list[str] | None = None) -> int:
    return run_node(IdentityNode, args)
