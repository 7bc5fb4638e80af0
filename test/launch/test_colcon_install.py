"""The Pi's path, in CI: `colcon build --symlink-install` of buddy_personality into a
temporary workspace (colcon from PyPI, on top of the venv as a Pi builds on top of
/opt/ros/jazzy), then Buddy started from that install the way buddy.service starts it
(deploy/buddy-launch: source install/setup.bash, `ros2 launch buddy_personality
robot.launch.py`), and stopped with Ctrl-C (README "On a Raspberry Pi").

DESIGN erratum 22: the build runs over the `buddy_msgs` that `make setup` already built into
the venv prefix (an underlay, as a Pi's workspace may have its interfaces in another
workspace): compiling buddy_msgs a second time took two of the suite's minutes and tests
nothing the set-up's rosidl build does not (the Pi's README command still names both base
paths; colcon resolves buddy_msgs from whichever it finds).

The colcon tools live in .venv/colcon-tools (installed by `make setup`), on PYTHONPATH for
the build only: colcon needs setuptools < 80 (`setup.py develop`), as Ubuntu 24.04's apt
has, while the venv keeps its own.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import rclpy
from rclpy.context import Context
from support.launching import (
    STARTED,
    UNKNOWN_EXIT,
    Launched,
    exit_codes,
    missing_launch_tools,
    process_env,
)
from support.ros_harness import RosHarness

from buddy_personality.nodes.bringup import NAMESPACE, NODE_CLASSES

pytestmark = [pytest.mark.launch, pytest.mark.process, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
VENV = Path(sys.prefix)
COLCON_TOOLS = VENV / "colcon-tools"
BUILD_TIMEOUT_S = 900.0   # a bound; about 2 min on 2 idle cores
COME_UP_S = 60.0
STOP_S = 15.0
EXPECTED_NODES = {f"/{NAMESPACE}/{name}" for name in NODE_CLASSES}


def colcon_env(base: dict[str, str]) -> dict[str, str]:
    """The build environment of a Pi's shell after `source /opt/ros/jazzy/setup.bash`
    and `source .venv/bin/activate`, with the venv as the ROS underlay."""
    env = dict(base)
    env.update(
        PYTHONPATH=str(COLCON_TOOLS), VIRTUAL_ENV=str(VENV),
        PATH=f"{VENV / 'bin'}:{env.get('PATH', '')}",
        AMENT_PREFIX_PATH=str(VENV), CMAKE_PREFIX_PATH=str(VENV),
        LD_LIBRARY_PATH=f"{VENV / 'lib'}:{env.get('LD_LIBRARY_PATH', '')}",
        MAKEFLAGS="-j2",  # colcon adds -l<cores> otherwise: one job at a time under load
    )
    return env


def test_colcon_symlink_install_builds_and_launches_from_its_setup_bash(tmp_path: Path) -> None:
    reason = missing_launch_tools()
    if reason:
        pytest.skip(reason)
    if not (COLCON_TOOLS / "colcon_core").is_dir():
        pytest.skip(f"colcon is not installed in {COLCON_TOOLS} (make setup installs it)")
    ws = tmp_path / "ws"
    ws.mkdir()
    base = process_env(tmp_path / "home")
    build = [sys.executable, "-m", "colcon", "--log-base", str(ws / "log"), "build",
             "--symlink-install", "--base-paths", str(REPO),
             "--build-base", str(ws / "build"), "--install-base", str(ws / "install"),
             "--event-handlers", "console_direct-",
             "--cmake-args", "-DBUILD_TESTING=OFF", "-DCMAKE_BUILD_TYPE=Debug"]
    started = time.monotonic()
    try:
        done = subprocess.run(build, env=colcon_env(base), cwd=ws, capture_output=True,
                              text=True, timeout=BUILD_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"colcon build still running after {BUILD_TIMEOUT_S} s:\n{exc.stdout}")
    took = time.monotonic() - started
    assert done.returncode == 0, (done.stdout + done.stderr)[-6000:]
    assert "Finished <<< buddy_personality" in done.stdout, done.stdout
    assert "buddy_msgs" not in {p.name for p in (ws / "install").iterdir()}  # the underlay's
    print(f"colcon build of buddy_personality over the venv's buddy_msgs: {took:.0f} s")

    install = ws / "install"
    share = install / "buddy_personality" / "share" / "buddy_personality"
    # --symlink-install: the launch file and config are links to the source
    assert (share / "launch" / "robot.launch.py").resolve() == REPO / "launch" / "robot.launch.py"
    assert (share / "config" / "robot.yaml").resolve() == REPO / "config" / "robot.yaml"
    lib = install / "buddy_personality" / "lib" / "buddy_personality"
    assert {f"{n}_node" for n in NODE_CLASSES} <= {p.name for p in lib.iterdir()}

    # started as buddy.service starts it (ROS_SETUP empty: the venv is the ROS install here)
    # BUDDY_AUDIO=none: no sound card here, and the service's own PulseAudio with the echo
    # canceller (deploy/buddy.pa, erratum 24) is a robot's; what is under test is the build
    env = dict(base, BUDDY_WS=str(ws), ROS_SETUP="", BUDDY_VENV=str(VENV),
               BUDDY_FACE_PORT="sim", AMENT_PREFIX_PATH=str(VENV), BUDDY_AUDIO="none")
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    domain = int(env["ROS_DOMAIN_ID"])
    context = Context()
    rclpy.init(context=context, domain_id=domain)
    probe = RosHarness(context, "/colcon_probe")
    log = tmp_path / "buddy-launch.log"
    with log.open("wb") as out:
        popen = subprocess.Popen([str(REPO / "deploy" / "buddy-launch")], stdout=out,
                                 stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 start_new_session=True, env=env, cwd=tmp_path)
    run = Launched(popen, log)
    try:
        assert probe.spin_until(
            lambda: probe.node_names() >= EXPECTED_NODES or popen.poll() is not None,
            COME_UP_S), run.output()
        assert popen.poll() is None, run.output()
        # the nodes run from the workspace's install, not from the venv's
        started_pids = [int(m["pid"]) for m in STARTED.finditer(run.output())]
        cmdlines = [Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
                    for pid in started_pids if Path(f"/proc/{pid}").exists()]
        assert cmdlines and all(str(lib) in c for c in cmdlines), cmdlines
        run.ctrl_c()
        code = run.wait(STOP_S)
        started_procs, ended = exit_codes(run.output())
        assert code == 0, run.output()
        assert set(ended) == started_procs, run.output()
        assert all(c in (0, UNKNOWN_EXIT) for c in ended.values()), run.output()
        assert run.survivors() == [], run.output()
    finally:
        if popen.poll() is None:
            run.kill()
        probe.close()
        rclpy.try_shutdown(context=context)

