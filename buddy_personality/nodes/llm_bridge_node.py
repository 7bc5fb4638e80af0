"""llm_bridge node (DESIGN §4.5). Skeleton: parameters and diagnostics."""

from __future__ import annotations

from typing import Any

from rclpy.node import Node

from buddy_personality.nodes.common.diagnostics import DiagnosticsPublisher, Health
from buddy_personality.nodes.common.parameters import ParamSpec, declare_parameters
from buddy_personality.nodes.common.runtime import run_node

PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("server_url", "", "OpenAI-compatible server base URL; empty = layer 0"),
    ParamSpec("model", "Qwen/Qwen3-8B-Instruct-AWQ", "model name (spec 002 §12.1)"),
    ParamSpec("request_timeout_s", 8.0, "timeout of one LLM request", min=0.1, max=120.0),
    ParamSpec("wake_phrase", "hey buddy", "utterance prefix that starts a session"),
    ParamSpec("silence_timeout_s", 30.0, "end the session after this much silence",
              min=1.0, max=3600.0),
)


class LlmBridgeNode(Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("llm_bridge", **node_kwargs)
        self.params = declare_parameters(self, PARAMETERS)
        self._diagnostics = DiagnosticsPublisher(self, lambda: Health(message="skeleton"))


def main(args: list[str] | None = None) -> int:
    return run_node(LlmBridgeNode, args)
