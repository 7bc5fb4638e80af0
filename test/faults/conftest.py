"""Fixtures of the fault suite (issue 14): module-scoped, so the processes of one fault
group are started once and shared by its cases (the whole suite has ~90 s of `make
test`'s 10 minutes).

- `mros`: a `RosHarness` (test/support/ros_harness.py) for a whole module;
- `mproc`: starts node executables like `node_process` (test/support/processes.py), for a
  whole module, logs under the module's own temporary directory;
- `Diagnostics`: the newest /diagnostics values of each node, by status name;
- `ProcStat`: CPU and RSS of a process from /proc.
"""

from __future__ import annotations

import itertools
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import rclpy
from diagnostic_msgs.msg import DiagnosticArray
from rclpy.context import Context
from support.processes import NodeProcess, starting_processes
from support.ros_harness import RosHarness

from buddy_personality.nodes.common import qos

_counter = itertools.count(1)


@pytest.fixture(scope="module")
def mros() -> Iterator[RosHarness]:
    context = Context()
    rclpy.init(context=context)
    harness = RosHarness(context, f"/fault{os.getpid()}_{next(_counter)}")
    try:
        yield harness
    finally:
        harness.close()
        rclpy.try_shutdown(context=context)


@pytest.fixture(scope="module")
def module_dir(tmp_path_factory: pytest.TempPathFactory, request) -> Path:
    return tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])


@pytest.fixture(scope="module")
def mproc(module_dir: Path) -> Iterator[Callable[..., NodeProcess]]:
    """Node executables shared by a module's cases (support/processes.py)."""
    with starting_processes(module_dir) as start:
        yield start


class Diagnostics:
    """The newest key/values per diagnostic status name (e.g. `ns/personality`)."""

    def __init__(self, ros: RosHarness) -> None:
        self.latest: dict[str, dict[str, str]] = {}
        self.messages: dict[str, str] = {}
        self.levels: dict[str, bytes] = {}   # diagnostic_msgs/DiagnosticStatus level
        ros.probe.create_subscription(DiagnosticArray, "/diagnostics", self._on,
                                      qos.DIAGNOSTICS)

    def _on(self, msg: DiagnosticArray) -> None:
        for st in msg.status:
            self.latest[st.name] = {kv.key: kv.value for kv in st.values}
            self.messages[st.name] = st.message
            self.levels[st.name] = st.level

    def of(self, name: str) -> dict[str, str]:
        return self.latest.get(name.lstrip("/"), {})

    def number(self, name: str, key: str) -> float:
        value = self.of(name).get(key)
        return float(value) if value not in (None, "") else 0.0


def log_has(proc: NodeProcess, pattern: str) -> bool:
    return re.search(pattern, proc.output()) is not None


class ProcStat:
    """CPU seconds and RSS of one process, read from /proc (Linux)."""

    TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def cpu_s(self) -> float:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.TICK

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def cpu_share(self, ros: RosHarness, seconds: float) -> float:
        """Share of one core used over `seconds` (spinning `ros` meanwhile)."""
        c0, t0 = self.cpu_s(), time.monotonic()
        ros.spin_for(seconds)
        return (self.cpu_s() - c0) / (time.monotonic() - t0)
