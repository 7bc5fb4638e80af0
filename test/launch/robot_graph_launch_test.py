"""launch_testing test of robot.launch.py: all the nodes come up under /buddy, publish
/diagnostics (DESIGN §7: one status per node), and shut down cleanly (exit 0).

Run it as `launch_test test/launch/robot_graph_launch_test.py`. `make test` runs it that
way (test_launch_testing.py) whenever launch_testing is importable: from
../shared/ros2-jazzy in the venv, or from a sourced ROS 2 install. pytest itself never
collects this file (test/launch/conftest.py): launch_testing's pytest plugin is switched
off in pyproject.toml, because the Jazzy one breaks under pytest 9.
"""

from __future__ import annotations

import time
import unittest
from pathlib import Path

import launch_testing.actions
import launch_testing.asserts
import pytest
import rclpy
from diagnostic_msgs.msg import DiagnosticArray
from launch.launch_description_sources import PythonLaunchDescriptionSource

import launch
from buddy_personality.dds_confinement import confine_dds

LAUNCH_FILE = Path(__file__).resolve().parents[2] / "launch" / "robot.launch.py"
NODES = ("personality", "governor", "identity", "llm_bridge", "face_driver", "tts", "asr",
         "parent_dashboard")
COME_UP_S = 40.0  # eight Python processes starting on a loaded 2-core machine


@pytest.mark.launch_test
def generate_test_description() -> launch.LaunchDescription:
    confine_dds()  # keeps the ROS_DOMAIN_ID the caller chose (test_launch_testing.py)
    robot = launch.actions.IncludeLaunchDescription(
        PythonLaunchDescriptionSource(str(LAUNCH_FILE)))
    return launch.LaunchDescription([robot, launch_testing.actions.ReadyToTest()])


class TestGraphComesUp(unittest.TestCase):
    def test_nodes_and_diagnostics(self, proc_output) -> None:
        rclpy.init()
        node = rclpy.create_node("launch_probe")
        seen: set[str] = set()
        node.create_subscription(
            DiagnosticArray, "/diagnostics",
            lambda m: seen.update(s.name for s in m.status), 10)
        try:
            deadline = time.monotonic() + COME_UP_S
            expected = {f"buddy/{n}" for n in NODES}
            expected_names = {f"/buddy/{n}" for n in NODES}

            def names() -> set[str]:
                return {f"{ns.rstrip('/')}/{n}"
                        for n, ns in node.get_node_names_and_namespaces()}

            # A node's diagnostics can reach the probe before the graph has its name (the
            # name travels on ros_discovery_info, its own topic): wait for both.
            while time.monotonic() < deadline and not (expected <= seen
                                                       and expected_names <= names()):
                rclpy.spin_once(node, timeout_sec=0.1)
            self.assertLessEqual(expected, seen)
            self.assertLessEqual(expected_names, names())
        finally:
            node.destroy_node()
            rclpy.shutdown()


@launch_testing.post_shutdown_test()
class TestShutdown(unittest.TestCase):
    def test_exit_codes(self, proc_info) -> None:
        # launch stops the nodes with SIGINT: every one exits 0 (BRIEF: main() exits 0)
        launch_testing.asserts.assertExitCodes(proc_info)
