"""face_driver lifecycle node (DESIGN §4.4). Skeleton: parameters, autostart,
diagnostics."""

from __future__ import annotations

from typing import Any

from rclpy.lifecycle import LifecycleNode, LifecycleState, TransitionCallbackReturn

from buddy_personality.nodes.common.diagnostics import DiagnosticsPublisher, Health
from buddy_personality.nodes.common.parameters import ParamSpec, declare_parameters
from buddy_personality.nodes.common.runtime import run_node

PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("autostart", True, "configure and activate on start, so ros2 run works alone",
              read_only=True),
    ParamSpec("port", "sim", "serial port path, 'auto' to find the board, 'sim' for an "
              "in-process simulated board"),
    ParamSpec("baud", 115200, "serial baud rate (USB CDC ignores it)", min=1200, max=4000000),
    ParamSpec("tick_hz", 50.0, "face tick rate", min=1.0, max=200.0, read_only=True),
    ParamSpec("stale_after_s", 3.0, "snapshot age that starts the backstop (spec 002 §11.3)",
              min=0.1, max=60.0),
    ParamSpec("keepalive_s", 1.0, "SET_STATE at least this often", min=0.05, max=10.0),
)


class FaceDriverNode(LifecycleNode):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("face_driver", **node_kwargs)
        self.params = declare_parameters(self, PARAMETERS)
        self._state_label = "unconfigured"
        self._diagnostics = DiagnosticsPublisher(
            self, lambda: Health(message=f"skeleton, {self._state_label}")
        )
        if self.params["autostart"]:
            self.trigger_configure()
            self.trigger_activate()

    def on_configure(self, state: LifecycleState) -> TransitionCallbackReturn:
        self._state_label = "inactive"
        return TransitionCallbackReturn.SUCCESS

    def on_activate(self, state: LifecycleState) -> TransitionCallbackReturn:
        self._state_label = "active"
        return super().on_activate(state)

    def on_deactivate(self, state: LifecycleState) -> TransitionCallbackReturn:
        self._state_label = "inactive"
        return super().on_deactivate(state)

    def on_cleanup(self, state: LifecycleState) -> TransitionCallbackReturn:
        self._state_label = "unconfigured"
        return TransitionCallbackReturn.SUCCESS


def main(args: list[str] | None = None) -> int:
    return run_node(FaceDriverNode, args)
