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


BUDDY = Path(sys.prefix) / "bin" / "buddy"


class TypedBuddyRun:
    """`buddy run ARGS` with stdin a pipe and stdout not a terminal: no live view, and each
    line written to stdin is a child's utterance (what `make run` does with typed lines).
    Killed on exit if it is still running."""

    def __init__(self, *args: str) -> None:
        self.popen = subprocess.Popen([str(BUDDY), "run", *args], stdin=subprocess.PIPE,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      text=True, env=dict(os.environ))

    def say(self, line: str) -> None:
        assert self.popen.stdin is not None
        self.popen.stdin.write(line + "\n")
        self.popen.stdin.flush()

    def say_until(self, line: str, heard: Callable[[float], bool], tries: int = 10) -> None:
        """Discovery is not symmetric: our side may match before `buddy run`'s, and an
        utterance (volatile) sent before both did is lost; so say it until `heard(1.0)`
        (a wait of up to a second) is true."""
        for _ in range(tries):
            self.say(line)
            if heard(1.0):
                return

    def ctrl_c(self, timeout: float = 20.0) -> int:
        self.popen.send_signal(signal.SIGINT)
        return self.popen.wait(timeout=timeout)

    def __enter__(self) -> TypedBuddyRun:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait()
