"""`ros2 launch buddy_personality robot.launch.py`, the robot's own start command, run
exactly as typed (by package name, found through the ament index of the install), then
stopped the way a person stops it: Ctrl-C in the terminal, i.e. SIGINT to the whole
process group. And `buddy run` starts the same graph as the launch file.

README "Watching the graph" and "On a Raspberry Pi" rely on these; DESIGN §7 (the graph
as processes under /buddy; one process under `buddy run`); BRIEF: `main()` of a node exits
0 on Ctrl-C.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rclpy
from rclpy.context import Context
from rclpy.parameter import parameter_value_to_python
from rclpy.parameter_client import AsyncParameterClient
from support.domains import sibling_domain
from support.launching import (
    UNKNOWN_EXIT,
    Launched,
    exit_codes,
    process_env,
    require_launch_tools,
    ros2_command,
)
from support.ros_harness import RosHarness

from buddy_msgs.msg import Say, Utterance
from buddy_personality.nodes.bringup import NAMESPACE, NODE_CLASSES
from buddy_personality.nodes.common import qos

pytestmark = [pytest.mark.launch, pytest.mark.process, pytest.mark.slow]

COME_UP_S = 60.0   # five Python processes starting on a loaded 2-core machine
REPLY_S = 20.0
STOP_S = 15.0      # a bound for the test; a clean stop takes about a second
# every node the graph has (bringup's table is the one list; the launch file must match)
EXPECTED_NODES = {f"/{NAMESPACE}/{name}" for name in NODE_CLASSES}
def assert_clean_stop(run: Launched, started_at: float) -> float:
    """Every process launch started exited 0 after SIGINT alone, launch too, and no
    process of the group is left. Returns how long the stop took."""
    code = run.wait(STOP_S)
    took = time.monotonic() - started_at
    output = run.output()
    assert code is not None, f"ros2 launch still running {STOP_S} s after Ctrl-C:\n{output}"
    started, ended = exit_codes(output)
    assert started, output
    assert set(ended) == started, output
    assert all(c in (0, UNKNOWN_EXIT) for c in ended.values()), output  # REAPED_EARLY
    # launch escalates to SIGTERM after 5 s and SIGKILL after 10 s: never needed here
    assert "SIGTERM" not in output and "SIGKILL" not in output, output
    assert code == 0, output
    assert run.survivors() == [], output
    return took


@pytest.fixture(scope="module")
def probe() -> Iterator[RosHarness]:
    context = Context()
    rclpy.init(context=context)
    harness = RosHarness(context, "/launch_probe")
    try:
        yield harness
    finally:
        harness.close()
        rclpy.try_shutdown(context=context)


def buddy_nodes(probe: RosHarness) -> set[str]:
    return {n for n in probe.node_names() if n.startswith(f"/{NAMESPACE}/")}


def all_parameters(probe: RosHarness, node: str) -> dict[str, Any]:
    """Every parameter of a running node and its value, through its parameter services."""
    client = AsyncParameterClient(probe.probe, node)
    assert probe.spin_until(client.services_are_ready, 20), f"{node}: no parameter services"
    listed = probe.ask(client.list_parameters, f"{node}: list_parameters", 20)
    names = sorted(listed.result.names)
    got = probe.ask(lambda: client.get_parameters(names), f"{node}: get_parameters", 20)
    return {n: parameter_value_to_python(v)
            for n, v in zip(names, got.values, strict=True)}


def graph_parameters(probe: RosHarness) -> dict[str, dict[str, Any]]:
    return {node: all_parameters(probe, node) for node in sorted(buddy_nodes(probe))}


@pytest.fixture(scope="module")
def robot(probe: RosHarness, tmp_path_factory) -> Iterator[dict[str, Any]]:
    """The graph started with `ros2 launch buddy_personality robot.launch.py`, once for
    this module's tests (starting it costs ~10 s of CPU), in a process group of its own."""
    require_launch_tools()
    home = tmp_path_factory.mktemp("launch-home")
    log = home / "ros2-launch.log"
    with log.open("wb") as out:

        popen = subprocess.Popen(
            [ros2_command(), "launch", "buddy_personality", "robot.launch.py"],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, env=process_env(home), cwd=home)
    run = Launched(popen, log)
    try:
        up = probe.spin_until(lambda: buddy_nodes(probe) >= EXPECTED_NODES
                              or popen.poll() is not None, COME_UP_S)
        yield {"run": run, "up": up and popen.poll() is None}
    finally:
        if popen.poll() is None:
            run.kill()


def test_the_whole_graph_comes_up_by_package_name(robot, probe) -> None:
    assert robot["up"], f"nodes seen: {buddy_nodes(probe)}\n{robot['run'].output()}"
    assert buddy_nodes(probe) == EXPECTED_NODES


def test_a_typed_utterance_gets_a_spoken_reply(robot, probe) -> None:
    """Layer 0 (no LLM server configured) answers a child's line that starts with the wake
    phrase on tts/say (DESIGN §3), as a line typed in `buddy run` does."""
    assert robot["up"], robot["run"].output()
    says = probe.collect(Say, f"/{NAMESPACE}/tts/say")
    pub = probe.publisher(Utterance, f"/{NAMESPACE}/speech/utterance", qos.EVENTS,
                          timeout=20)
    pub.publish(Utterance(text="hey buddy, do you like dinosaurs?",
                          is_final=True, confidence=1.0))
    assert probe.spin_until(lambda: bool(says), REPLY_S), (
        f"no reply on tts/say within {REPLY_S} s\n{robot['run'].output()[-4000:]}")
    assert says[0].text.strip()


def test_launch_and_buddy_run_start_the_same_nodes_with_the_same_parameters(
        robot, probe, tmp_path: Path) -> None:
    """DESIGN §7: `buddy run` is the same graph in one process. Compared on the running
    graphs, so a node or parameter added to one and not the other shows up here."""
    assert robot["up"], robot["run"].output()
    launched = graph_parameters(probe)

    # buddy run on a domain of its own, so its nodes do not meet the launched ones
    env = process_env(tmp_path)
    domain = sibling_domain(25)
    env["ROS_DOMAIN_ID"] = str(domain)
    other = Context()
    rclpy.init(context=other, domain_id=domain)
    harness = RosHarness(other, "/parity_probe")

    log = tmp_path / "buddy-run.log"
    with log.open("wb") as out:
        # --speak: the robot speaks by default (tts backend espeak); `buddy run` on a
        # desktop only when asked (DESIGN §4.7), and is otherwise the same graph
        popen = subprocess.Popen([str(Path(sys.prefix) / "bin" / "buddy"), "run", "--headless",
                                  "--speak"],
                                 stdout=out, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, start_new_session=True,
                                 env=env, cwd=tmp_path)
    run = Launched(popen, log)
    try:
        assert harness.spin_until(lambda: buddy_nodes(harness) >= EXPECTED_NODES
                                  or popen.poll() is not None, COME_UP_S), run.output()
        in_one_process = graph_parameters(harness)
        run.ctrl_c()
        assert run.wait(STOP_S) == 0, run.output()
    finally:
        if popen.poll() is None:
            run.kill()
        harness.close()
        rclpy.try_shutdown(context=other)

    assert sorted(in_one_process) == sorted(launched)
    for node, params in launched.items():
        assert in_one_process[node] == params, node


def test_ctrl_c_stops_every_node_with_exit_code_0(robot) -> None:
    assert robot["up"], robot["run"].output()
    run = robot["run"]
    pressed = time.monotonic()
    run.ctrl_c()
    took = assert_clean_stop(run, pressed)
    print(f"ros2 launch stopped {took:.2f} s after Ctrl-C")
