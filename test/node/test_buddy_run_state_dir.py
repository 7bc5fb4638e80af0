"""Issue 31 item 3: two `buddy run` on one machine (same domain, same state dir) both
answered every line and wrote the same state files. Now the second one is refused with
one clear line and exit status 2, naming the first one's pid; after a SIGKILL of the
first (no clean-up of its lock file), a new one starts."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytestmark = [pytest.mark.ros, pytest.mark.process]

BUDDY = Path(sys.prefix) / "bin" / "buddy"
RUNNING = "nodes running under"


class Run:
    """`buddy run --headless` with its output read line by line (waits on lines, not time)."""

    def __init__(self, state: Path, *extra: str) -> None:
        self.popen = subprocess.Popen(
            [str(BUDDY), "run", "--headless", "--no-dashboard", "--state-dir", str(state),
             *extra], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, env=dict(os.environ))
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_for(self, text: str, timeout: float = 60.0) -> bool:
        while True:
            line = self.lines.get(timeout=timeout)
            if line is None:
                return False
            self.seen.append(line)
            if text in line:
                return True

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
        self.popen.wait()


def test_a_second_buddy_run_on_the_same_state_dir_is_refused_and_a_killed_ones_is_taken_over(
        tmp_path: Path) -> None:
    state = tmp_path / "state"
    first = Run(state)
    try:
        assert first.wait_for(RUNNING), first.seen
        second = subprocess.run(
            [str(BUDDY), "run", "--headless", "--no-dashboard", "--state-dir", str(state),
             "--duration", "30"], capture_output=True, text=True, timeout=60,
            env=dict(os.environ), check=False)
        assert second.returncode == 2, second.stdout + second.stderr
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1, second.stderr            # one line, no traceback
        assert f"pid {first.popen.pid}" in lines[0] and "in use" in lines[0], lines
        assert RUNNING not in second.stdout               # no graph was started
        os.kill(first.popen.pid, signal.SIGKILL)          # its lock file stays behind
        first.popen.wait()
        third = Run(state, "--duration", "3")
        try:
            assert third.wait_for(RUNNING), third.seen
            assert third.popen.wait(timeout=60) == 0
        finally:
            third.kill()
    finally:
        first.kill()
