"""Shared pytest fixtures (issue 2 test harness).

(a) pure core tests need nothing from here but `rng`;
(b) `ros`: nodes spun in-process over real DDS, on a fresh rclpy context per test;
(c) `node_process`: node executables started as processes and observed over DDS.

DDS is confined before rclpy loads: loopback and shared memory only, the LOCALHOST
discovery range, and a ROS_DOMAIN_ID of this test process's own (DESIGN §5).
"""

from __future__ import annotations

import atexit
import itertools
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

# One domain per test process, away from 0 (the default every other ROS user is on);
# one block of domains per xdist worker (support/domains.py).
from support.domains import DOMAIN_ID, module_domain

from buddy_personality.dds_confinement import confine_dds

confine_dds(domain_id=DOMAIN_ID)
os.environ.setdefault("AMENT_PREFIX_PATH", sys.prefix)

# A HOME of this test process's own: a `buddy run` or node a test starts without a state
# directory of its own writes under ~/.local/share/buddy, which would be the engineer's real
# household and memories, and which one graph at a time may own (issue 31 item 3,
# state_dir_lock.py): two xdist workers' `buddy run`s there would refuse each other.
_test_home = Path(tempfile.mkdtemp(prefix="buddy-test-home-"))
os.environ["HOME"] = str(_test_home)
atexit.register(shutil.rmtree, _test_home, ignore_errors=True)
# ...but one cache of derived safety patterns for every process of the run (safety/
# pattern_cache.py): the tests give most node processes a HOME of their own, and each would
# derive the guard's ~1,500 patterns again (about 1.2 s of CPU per llm_bridge start).
os.environ.setdefault("BUDDY_CACHE_DIR", str(Path(__file__).resolve().parents[1] / "build"
                                             / "cache"))
os.environ.setdefault("RCUTILS_COLORIZED_OUTPUT", "0")

REPO = Path(__file__).resolve().parents[1]

pytest_plugins = ["support.ros_harness", "support.processes", "support.speech"]


# The fast loop, `make test ARGS="-m 'not slow'"` (issue 28 item 5, DESIGN erratum 22):
# a test that brings up nodes over DDS, starts processes or replays a graph (these
# directories) is slow by kind. A unit module is slow only by measurement (over ~20 s
# alone); none is since the safety tables compile their regexes on first use (the seven
# bridge and sim modules listed here took 78-128 s each, 7 s per bridge built; all seven
# together now take 27 s). A module marked `slow` in its own file stays so wherever it lives.
SLOW_DIRS = frozenset({"node", "launch", "faults", "replay", "browser"})
SLOW_UNIT_MODULES: frozenset[str] = frozenset()

TEST_DIR = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects (pytest's own hook runs after)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        try:
            rel = item.path.resolve().relative_to(TEST_DIR).as_posix()
        except ValueError:
            continue
        if rel.split("/", 1)[0] in SLOW_DIRS or rel in SLOW_UNIT_MODULES:
            item.add_marker(pytest.mark.slow)


def _graph_state() -> str:
    """What a graph test's failure says of the machine: this process's domain, descriptors
    and threads, shared memory, and the ROS processes alive (a graph left behind?)."""
    lines = [f"ROS_DOMAIN_ID={os.environ.get('ROS_DOMAIN_ID')} (worker process {os.getpid()})",
             f"open descriptors: {len(os.listdir('/proc/self/fd'))}, "
             f"threads: {len(os.listdir('/proc/self/task'))}"]
    if os.path.isdir("/dev/shm"):
        usage = shutil.disk_usage("/dev/shm")
        segments = sum(1 for name in os.listdir("/dev/shm") if "fastrtps" in name)
        lines.append(f"/dev/shm: {usage.free // 2**20} MiB free of {usage.total // 2**20}, "
                     f"{segments} Fast DDS files")
    for pid in sorted(filter(str.isdigit, os.listdir("/proc")), key=int):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        command = " ".join(a.decode(errors="replace") for a in argv if a)
        if "buddy" in command and "pytest" not in command:
            lines.append(f"alive: {pid} {command[:160]}")
    return "\n".join(lines)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report = yield
    if report.failed and item.get_closest_marker("slow") is not None:
        try:
            report.sections.append(("graph state at the failure", _graph_state()))
        except OSError as exc:   # a diagnostic must never hide the failure itself
            report.sections.append(("graph state at the failure", f"unreadable: {exc}"))
    return report


_files_run = itertools.count()


@pytest.fixture(scope="module", autouse=True)
def ros_domain_of_this_file() -> Iterator[int]:
    """Each test file on the next domain of this worker's block (support/domains.py): what
    one file's graph leaves behind never meets the next file's. Module-scoped, so a graph a
    file shares between its tests is on the domain of all of them; autouse fixtures are set
    up before the others of their scope, so every graph of the file is started on it."""
    domain = module_domain(next(_files_run))
    previous = os.environ.get("ROS_DOMAIN_ID")
    os.environ["ROS_DOMAIN_ID"] = str(domain)
    try:
        yield domain
    finally:
        if previous is None:
            os.environ.pop("ROS_DOMAIN_ID", None)
        else:
            os.environ["ROS_DOMAIN_ID"] = previous


@pytest.fixture
def rng() -> random.Random:
    """A seeded RNG, as every core takes one (DESIGN §1)."""
    return random.Random(1234)


@pytest.fixture
def repo() -> Path:
    return REPO
