"""One Ctrl-C run of `ros2 launch buddy_personality robot.launch.py`, shared by the Ctrl-C
test (test/launch/test_ctrl_c.py: 5 runs, every node exits 0 and nothing is left) and the
stress benchmark (benchmarks/ctrl_c_stress.py: hundreds of runs, the stop times and the rare
Fast DDS teardown deadlock's count; DESIGN erratum 22 moved the long stress out of the suite).

Half the runs give launch a pseudo-terminal as stdin (a person's terminal: launch leaves
the SIGINT to the terminal), half a pipe (a script or CI: launch sends each node a second
SIGINT of its own).
"""

from __future__ import annotations

import os
import pty
import random
import subprocess
import time
from pathlib import Path

import rclpy
from rclpy.context import Context

from buddy_personality.nodes.bringup import NAMESPACE, NODE_CLASSES
from support.domains import sibling_domain
from support.launching import (
    UNKNOWN_EXIT,
    Launched,
    exit_codes,
    process_env,
    ros2_command,
)
from support.ros_harness import RosHarness

COME_UP_S = 60.0
STOP_S = 15.0          # how long we wait before calling a run hung
EXPECTED_NODES = {f"/{NAMESPACE}/{name}" for name in NODE_CLASSES}


def one_run(index: int, tmp_path: Path, rng: random.Random) -> dict:
    """Launch, wait until every node is in the graph, hold a moment, Ctrl-C, collect."""
    env = process_env(tmp_path / f"home-{index}")
    domain = sibling_domain(3 * index)  # a fresh graph each run
    env["ROS_DOMAIN_ID"] = str(domain)
    on_terminal = index % 2 == 0
    primary, secondary = pty.openpty() if on_terminal else (None, None)
    log = tmp_path / f"launch-{index}.log"
    context = Context()
    rclpy.init(context=context, domain_id=domain)
    probe = RosHarness(context, f"/ctrl_c_{index}")
    try:
        with log.open("wb") as out:
            popen = subprocess.Popen(
                [ros2_command(), "launch", "buddy_personality", "robot.launch.py"],
                stdout=out, stderr=subprocess.STDOUT,
                stdin=secondary if on_terminal else subprocess.PIPE,
                start_new_session=True, env=env, cwd=tmp_path)
        run = Launched(popen, log)
        try:
            up = probe.spin_until(
                lambda: probe.node_names() >= EXPECTED_NODES or popen.poll() is not None,
                COME_UP_S)
            assert up and popen.poll() is None, f"run {index}: graph not up\n{run.output()}"
            probe.spin_for(rng.uniform(0.0, 0.5))  # Ctrl-C at a different moment each run
            pressed = time.monotonic()
            run.ctrl_c()
            code = run.wait(STOP_S)
            took = time.monotonic() - pressed
            output = run.output()
            started, ended = exit_codes(output)
            return {"index": index, "terminal": on_terminal, "launch": code, "took": took,
                    "started": started, "ended": ended, "survivors": run.survivors(),
                    "escalated": "SIGTERM" in output or "SIGKILL" in output,
                    "output": output}
        finally:
            if popen.poll() is None:
                run.kill()
            if popen.stdin is not None:
                popen.stdin.close()
    finally:
        probe.close()
        rclpy.try_shutdown(context=context)
        for fd in (primary, secondary):
            if fd is not None:
                os.close(fd)



def bad_runs(runs: list[dict]) -> list[dict]:
    """Runs where launch or a node did not stop cleanly on its own: a non-zero code that
    launch knows, escalation to SIGTERM/SIGKILL, a survivor, or a node that never started
    or never ended. A node launch reaped while signalling it (launching.REAPED_EARLY) has
    an unknown code: it had stopped on the terminal's SIGINT alone."""
    return [r for r in runs
            if r["launch"] != 0 or r["escalated"] or r["survivors"]
            or set(r["ended"]) != r["started"]
            or any(code not in (0, UNKNOWN_EXIT) for code in r["ended"].values())
            or len(r["started"]) != len(EXPECTED_NODES)]


def describe(runs: list[dict]) -> str:
    return "\n\n".join(
        f"run {r['index']} ({'terminal' if r['terminal'] else 'pipe'}): launch "
        f"{r['launch']}, nodes {r['ended']}, survivors {r['survivors']}\n"
        f"{r['output'][-3000:]}" for r in runs[:3])
