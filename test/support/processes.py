"""Fixture `node_process`: start node executables as separate processes (as `ros2 run`
would, from <prefix>/lib/buddy_personality/) and stop them with signals."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

LIB_DIR = Path(sys.prefix) / "lib" / "buddy_personality"


@dataclass(slots=True)
class NodeProcess:
    popen: subprocess.Popen[str]
    log_path: Path
    argv: list[str] = field(default_factory=list)

    def signal(self, signum: int) -> None:
        self.popen.send_signal(signum)

    def wait(self, timeout: float = 10.0) -> int:
        return self.popen.wait(timeout=timeout)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGINT)
            try:
                self.popen.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=5)


def executable(name: str) -> Path:
    path = LIB_DIR / name
    if not path.exists():
        pytest.fail(f"{path} is missing: run `make setup` (it links the console scripts there)")
    return path


@contextlib.contextmanager
def starting_processes(log_dir: Path) -> Iterator[Callable[..., NodeProcess]]:
    """`start(name, ros_args=(...))` runs executable `name` with `--ros-args ros_args`,
    its output in `log_dir`; every process started is stopped on exit."""
    started: list[NodeProcess] = []

    def start(name: str, ros_args: Sequence[str] = (), args: Sequence[str] = ()) -> NodeProcess:
        argv = [str(executable(name)), *args]
        if ros_args:
            argv += ["--ros-args", *ros_args]
        log_path = log_dir / f"{name}-{len(started)}.log"
        log = log_path.open("w")
        popen = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, text=True,
                                 env=dict(os.environ), start_new_session=True)
        proc = NodeProcess(popen, log_path, argv)
        started.append(proc)
        return proc

    try:
        yield start
    finally:
        for proc in started:
            proc.stop()


@pytest.fixture
def node_process(tmp_path: Path) -> Iterator[Callable[..., NodeProcess]]:
    """Node executables for one test (test/faults/conftest.py has the per-module one)."""
    with starting_processes(tmp_path) as start:
        yield start
