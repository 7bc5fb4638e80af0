"""`config/robot.yaml` and the nodes' ParamSpec tables agree (issue 28 item 4: parameters
from one source). robot.yaml is the reference list a person edits and `ros2 launch` loads
(DESIGN §2: "config/ robot.yaml (all node parameters)"); each node's `PARAMETERS` table is
what the node declares, with its range and description. A parameter missing from the file,
a name the node does not declare, a value ROS would type differently (an int where the spec
is a double: `ros2 launch` then refuses it with InvalidParameterTypeException), or a value
outside the spec's range or choices is a failure here, not at a robot's start-up.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[3]
ROBOT_YAML = REPO / "config" / "robot.yaml"

# node name (the robot.yaml section) -> the module holding its PARAMETERS table
NODE_MODULES = {
    "personality": "buddy_personality.nodes.personality_node",
    "governor": "buddy_personality.nodes.governor_node",
    "identity": "buddy_personality.nodes.identity_node",
    "llm_bridge": "buddy_personality.nodes.llm_bridge_node",
    "face_driver": "buddy_personality.nodes.face_driver_node",
    "tts": "buddy_personality.nodes.tts_node",
    "asr": "buddy_personality.nodes.asr_node",
    "parent_dashboard": "buddy_personality.nodes.parent_dashboard_node",
}


def sections() -> dict[str, dict[str, Any]]:
    data = yaml.safe_load(ROBOT_YAML.read_text())
    out: dict[str, dict[str, Any]] = {}
    for key, body in data.items():
        name = key.rsplit("/", 1)[-1]
        out[name] = body["ros__parameters"]
    return out


def specs(node: str) -> dict[str, Any]:
    module = importlib.import_module(NODE_MODULES[node])
    return {spec.name: spec for spec in module.PARAMETERS}


def test_every_node_of_the_graph_has_a_section() -> None:
    from buddy_personality.nodes.bringup import NODE_CLASSES
    assert set(NODE_MODULES) == set(NODE_CLASSES)
    assert set(sections()) == set(NODE_CLASSES)


@pytest.mark.parametrize("node", sorted(NODE_MODULES))
def test_the_file_names_exactly_the_declared_parameters(node: str) -> None:
    in_file = set(sections()[node])
    declared = set(specs(node))
    missing, unknown = sorted(declared - in_file), sorted(in_file - declared)
    assert not missing, f"{node}: declared but missing from robot.yaml: {missing}"
    assert not unknown, f"{node}: in robot.yaml but not declared by the node: {unknown}"


def ros_type(value: Any) -> type:
    """The type ROS gives a YAML value (bool before int: a bool is an int in Python)."""
    for kind in (bool, int, float, str):
        if isinstance(value, kind):
            return kind
    return type(value)


@pytest.mark.parametrize("node", sorted(NODE_MODULES))
def test_each_value_has_the_declared_type_and_range(node: str) -> None:
    declared = specs(node)
    for name, value in sections()[node].items():
        spec = declared.get(name)
        if spec is None:
            continue   # reported by the test above
        assert ros_type(value) is ros_type(spec.default), (
            f"{node}.{name}: robot.yaml has {value!r} ({ros_type(value).__name__}), the "
            f"node declares {ros_type(spec.default).__name__} (write doubles as 0.0)")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if spec.min is not None:
                assert value >= spec.min, f"{node}.{name}={value} below {spec.min}"
            if spec.max is not None:
                assert value <= spec.max, f"{node}.{name}={value} above {spec.max}"
        if spec.choices:
            assert value in spec.choices, f"{node}.{name}={value!r} not in {spec.choices}"
