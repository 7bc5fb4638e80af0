"""The whole graph in one process (what `buddy run` does): the five nodes under one
namespace, each publishing /diagnostics; a bad parameter change is refused with a reason."""

from __future__ import annotations

import pytest
from diagnostic_msgs.msg import DiagnosticArray
from rclpy.parameter import Parameter

from buddy_personality.nodes.bringup import NODE_CLASSES, GraphOptions, create_graph
from buddy_personality.nodes.common import qos

pytestmark = pytest.mark.ros


@pytest.fixture
def graph(ros, tmp_path):
    options = GraphOptions(
        namespace=ros.namespace,
        overrides={
            "personality": {"memory_path": str(tmp_path / "memory.json")},
            "identity": {"profiles_path": str(tmp_path / "household.json")},
        },
    )
    nodes = create_graph(options, context=ros.context)
    for node in nodes:
        ros.add(node)
    return nodes


def test_all_five_nodes_appear_and_report_diagnostics(ros, graph) -> None:
    diagnostics = ros.collect(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)
    expected = {f"{ros.namespace}/{name}" for name in NODE_CLASSES}
    assert ros.spin_until(lambda: expected <= ros.node_names(), timeout=10)
    names = {s.lstrip("/") for s in expected}
    assert ros.spin_until(
        lambda: names <= {s.name for m in diagnostics for s in m.status}, timeout=5
    )


@pytest.mark.parametrize(
    ("node", "param", "reason_contains"),
    [
        ("personality", Parameter("axes.energy", value=0.9), "read-only"),
        ("governor", Parameter("max_steps", value=-5), ""),
        ("face_driver", Parameter("keepalive_s", value=float("nan")), ""),
        ("llm_bridge", Parameter("request_timeout_s", value="soon"), ""),
    ],
)
def test_bad_parameter_change_is_refused(ros, graph, node, param, reason_contains) -> None:
    results = ros.set_parameters(f"{ros.namespace}/{node}", [param])
    assert not results[0].successful
    assert results[0].reason
    assert reason_contains.lower() in results[0].reason.lower()
