"""launch_testing test of robot.launch.py: all the nodes come up under /buddy, publish
/diagnostics, and shut down cleanly (exit 0).

Runs on a full ROS 2 install (`launch_test test/launch/test_robot_launch.py`, or pytest
with launch_testing's plugin). Skipped where launch_testing is not importable (the PyPI
wheels have no launch packages); test/node/test_graph_in_process.py and
test_node_executables.py exercise the same graph and executables there.
"""

from __future__ import annotations

import os
import time
import unittest
from pathlib import Path

import pytest

pytest.importorskip(
    "launch_testing", reason="launch_testing is not installed (no PyPI wheel; needs a ROS 2 "
    "Jazzy install): the same graph is tested in test/node/")
pytest.importorskip("launch_ros", reason="launch_ros is not installed")

import launch_testing.actions
import launch_testing.asserts
import rclpy
from diagnostic_msgs.msg import DiagnosticArray
from launch.launch_description_sources import PythonLaunchDescriptionSource

import launch
from buddy_personality.dds_confinement import confine_dds

LAUNCH_FILE = Path(__file__).resolve().parents[2] / "launch" / "robot.launch.py"
NODES = ("personality", "governor", "identity", "llm_bridge", "face_driver", "tts", "asr")


@pytest.mark.launch_test
def generate_test_description():
    confine_dds(domain_id=1 + os.getpid() % 100)
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
            deadline = time.monotonic() + 20
            expected = {f"buddy/{n}" for n in NODES}
            while time.monotonic() < deadline and not expected <= seen:
                rclpy.spin_once(node, timeout_sec=0.1)
            self.assertLessEqual(expected, seen)
            names = {f"{ns.rstrip('/')}/{n}" for n, ns in node.get_node_names_and_namespaces()}
            self.assertLessEqual({f"/buddy/{n}" for n in NODES}, names)
        finally:
            node.destroy_node()
            rclpy.shutdown()


@launch_testing.post_shutdown_test()
class TestShutdown(unittest.TestCase):
    def test_exit_codes(self, proc_info) -> None:
        launch_testing.asserts.assertExitCodes(proc_info)
