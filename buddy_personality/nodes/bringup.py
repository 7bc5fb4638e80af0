"""The whole graph in one process (DESIGN §7): the same node classes, names, namespace and
parameter file as robot.launch.py, on one executor."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rclpy.node import Node
from rclpy.parameter import Parameter

from buddy_personality.nodes.asr_node import AsrNode
from buddy_personality.nodes.face_driver_node import FaceDriverNode
from buddy_personality.nodes.governor_node import GovernorNode
from buddy_personality.nodes.identity_node import IdentityNode
from buddy_personality.nodes.llm_bridge_node import LlmBridgeNode
from buddy_personality.nodes.parent_dashboard_node import ParentDashboardNode
from buddy_personality.nodes.personality_node import PersonalityNode
from buddy_personality.nodes.tts_node import TtsNode

NAMESPACE = "buddy"

# name -> class; the order is the start order (the engine first, so its latched snapshot
# is there when the face driver starts).
NODE_CLASSES: dict[str, Callable[..., Node]] = {
    "personality": PersonalityNode,
    "governor": GovernorNode,
    "identity": IdentityNode,
    "llm_bridge": LlmBridgeNode,
    "face_driver": FaceDriverNode,
    # Speech (DESIGN §4.7): silent and deaf unless configured (tts backend, asr server_url).
    "tts": TtsNode,
    "asr": AsrNode,
    "parent_dashboard": ParentDashboardNode,
}


def default_params_file() -> Path:
    """config/robot.yaml: the source tree (editable install), else the installed share
    (a colcon build on the robot)."""
    source = Path(__file__).resolve().parents[2] / "config" / "robot.yaml"
    if source.is_file():
        return source
    from ament_index_python.packages import get_package_share_directory  # noqa: PLC0415

    return Path(get_package_share_directory("buddy_personality")) / "config" / "robot.yaml"


@dataclass(slots=True)
class GraphOptions:
    """Per-node parameter overrides on top of the parameter file."""

    overrides: dict[str, dict[str, Any]] = field(default_factory=dict)
    namespace: str = NAMESPACE
    without: frozenset[str] = frozenset()   # node names left out (e.g. parent_dashboard)


def create_graph(options: GraphOptions | None = None, **node_kwargs: Any) -> list[Node]:
    """Instantiate the nodes of NODE_CLASSES. Parameters from a file come through the context's
    arguments (`--ros-args --params-file robot.yaml` given to rclpy.init)."""
    options = options or GraphOptions()
    nodes: list[Node] = []
    for name, cls in NODE_CLASSES.items():
        if name in options.without:
            continue
        overrides = [Parameter(k, value=v) for k, v in options.overrides.get(name, {}).items()]
        nodes.append(cls(namespace=options.namespace, parameter_overrides=overrides,
                         **node_kwargs))
    return nodes
