"""personality node (DESIGN §4.1). Skeleton: parameters and diagnostics."""

from __future__ import annotations

from typing import Any

from rclpy.node import Node

from buddy_personality.nodes.common.diagnostics import DiagnosticsPublisher, Health
from buddy_personality.nodes.common.parameters import ParamSpec, declare_parameters
from buddy_personality.nodes.common.runtime import run_node

AXIS_DEFAULTS = {  # spec 002 §1.1 canonical axis positions (PE-4: fixed)
    "energy": 0.40,
    "reactivity": 0.50,
    "initiative": 0.30,
    "vulnerability": 0.35,
    "predictability": 0.75,
}

PARAMETERS: tuple[ParamSpec, ...] = (
    *(
        ParamSpec(f"axes.{axis}", value, f"{axis} axis position (spec 002 §1.1); fixed at "
                  "runtime (PE-4)", min=0.0, max=1.0, read_only=True)
        for axis, value in AXIS_DEFAULTS.items()
    ),
    ParamSpec("guardrails.negative_duration_caps", True, "spec 002 §9.1 duration caps"),
    ParamSpec("guardrails.negative_intensity_caps", True, "spec 002 §9.1 intensity caps"),
    ParamSpec("guardrails.context_gate", True, "spec 002 §9.2 context gate (HC-10)"),
    ParamSpec("guardrails.session_time_limit_s", 900.0, "RS-1 session limit, seconds",
              min=0.0, max=86400.0),
    ParamSpec("guardrails.daily_time_limit_s", 2700.0, "RS-2 daily limit, seconds",
              min=0.0, max=86400.0),
    ParamSpec("guardrails.memory_consent_required", True, "RS-5 consent gate for memory"),
    ParamSpec("memory_path", "~/.local/share/buddy/personality_memory.json",
              "JSON memory store (spec 002 §8.4)", read_only=True),
    ParamSpec("memory_consent", False, "parental consent flag for memory (RS-5)"),
    ParamSpec("seed", 0, "seed of the engine's RNG (noise, jitter)", min=0, max=2**31 - 1,
              read_only=True),
    ParamSpec("tick_hz", 1.0, "engine tick rate (spec 002 §10, PE-10)", min=0.1, max=50.0,
              read_only=True),
    ParamSpec("dev_mode", False, "enables set_guardrail and override_affect", read_only=True),
)


class PersonalityNode(Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("personality", **node_kwargs)
        self.params = declare_parameters(self, PARAMETERS)
        self._diagnostics = DiagnosticsPublisher(self, lambda: Health(message="skeleton"))


def main(args: list[str] | None = None) -> int:
    return run_node(PersonalityNode, args)
