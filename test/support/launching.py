"""Helpers of the tests under test/launch: whether the ROS 2 launch tools are here, the
environment of a launched process, and `Launched`, a command (`ros2 launch ...`) started
in a process group of its own, as a terminal starts it, so a test can press Ctrl-C the
way a person does (SIGINT to the whole group).

The launch tools (launch, launch_ros, launch_testing, ros2cli) have no PyPI wheels:
`make setup` installs them from ../shared/ros2-jazzy when that folder exists, and a Pi
has them from apt. Where they are missing these tests skip and say so.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# launch's own log lines (launch/actions/execute_local.py) for each process it runs
STARTED = re.compile(r"\[(?P<proc>[\w.-]+)\]: process started with pid \[(?P<pid>\d+)\]")
FINISHED = re.compile(r"\[(?P<proc>[\w.-]+)\]: process has (?P<how>finished cleanly|died) "
                      r"\[pid (?P<pid>\d+)(?:, exit code (?P<code>-?\d+))?")


# asyncio's child watcher when the exit status was taken by someone else: launch's own
# SIGINT goes through subprocess.Popen.send_signal, which polls (waitpid WNOHANG) first
# and so reaps a node that had just exited on the terminal's Ctrl-C; the watcher then
# reports 255 for it (CPython asyncio/unix_events.py). The node's own code is unknown.
REAPED_EARLY = re.compile(r"child process pid (?P<pid>\d+) exit status already read")
UNKNOWN_EXIT = None


def exit_codes(output: str) -> tuple[set[str], dict[str, int | None]]:
    """The processes launch started, and the exit code of each that ended (its log);
    UNKNOWN_EXIT (None) where launch could not know it (REAPED_EARLY)."""
    started = {m["proc"] for m in STARTED.finditer(output)}
    reaped = {m["pid"] for m in REAPED_EARLY.finditer(output)}
    ended: dict[str, int | None] = {}
    for m in FINISHED.finditer(output):
        if m["how"] == "finished cleanly":
            ended[m["proc"]] = 0
        elif m["pid"] in reaped and m["code"] == "255":
            ended[m["proc"]] = UNKNOWN_EXIT
        else:
            ended[m["proc"]] = int(m["code"] or -999)
    return started, ended


LAUNCH_MODULES = ("launch", "launch_ros", "launch_testing", "ros2cli", "ros2launch")


def missing_launch_tools() -> str | None:
    """Why the launch tools cannot be used here, or None when they can."""
    absent = []
    for module in LAUNCH_MODULES:
        try:
            importlib.import_module(module)
        except ImportError:
            absent.append(module)
    if absent:
        return (f"ROS 2 launch tools not importable ({', '.join(absent)}): no PyPI wheels; "
                "`make setup` installs them from ../shared/ros2-jazzy when it exists, a Pi "
                "from apt (README)")
    if ros2_command() is None:
        return "no `ros2` command in the venv or on PATH"
    return None


def require_launch_tools() -> None:
    reason = missing_launch_tools()
    if reason:
        pytest.skip(reason)


def ros2_command() -> str | None:
    """The `ros2` a user would type: the venv's wrapper first, else a sourced install's."""
    return shutil.which("ros2", path=os.pathsep.join(
        [str(Path(sys.prefix) / "bin"), os.environ.get("PATH", "")]))


def process_env(home: Path) -> dict[str, str]:
    """The test's confined DDS environment (conftest.py), with HOME and the ROS log
    directory in the test's temporary directory so no state or log file lands in the
    real home (the nodes keep their memory under ~/.local/share/buddy)."""
    env = dict(os.environ)
    env.update(HOME=str(home), ROS_LOG_DIR=str(home / "ros-log"), PYTHONUNBUFFERED="1",
               RCUTILS_COLORIZED_OUTPUT="0")
    env.setdefault("AMENT_PREFIX_PATH", sys.prefix)
    return env


@dataclass(slots=True)
class Launched:
    """A command running in a process group of its own, as a terminal runs it."""

    popen: subprocess.Popen[bytes]
    log_path: Path
    argv: list[str] = field(default_factory=list)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def ctrl_c(self) -> None:
        """What Ctrl-C in a terminal does: SIGINT to every process of the foreground group."""
        os.killpg(self.popen.pid, signal.SIGINT)

    def wait(self, timeout: float) -> int | None:
        try:
            return self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def survivors(self) -> list[int]:
        """Processes of the group still alive (nodes the launch left behind)."""
        return group_members(self.popen.pid)

    def kill(self) -> None:
        """Last resort after a failed test: nothing of the group survives it."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)


def group_members(pgid: int) -> list[int]:
    """Pids of the live processes in process group `pgid` (from /proc)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        # after the command name: state, ppid, pgrp, ...; a zombie is not running code
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(stat.parent.name))
    return members
