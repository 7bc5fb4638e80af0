"""Issue 31 item 3: two `buddy run` on one machine (same domain, same state dir) both
answered every line and wrote the same state files. Now the second one is refused with
one clear line and exit status 2, naming the first one's pid; after a SIGKILL of the
first (no clean-up of its lock file), a new one starts."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
from support.buddy_run import BUDDY, RUNNING, HeadlessRun

pytestmark = [pytest.mark.ros, pytest.mark.process]


def test_a_second_buddy_run_on_the_same_state_dir_is_refused_and_a_killed_ones_is_taken_over(
        tmp_path: Path) -> None:
    state = tmp_path / "state"
    first = HeadlessRun(state)
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
        third = HeadlessRun(state)
        try:
            assert third.wait_for(RUNNING), third.seen
            assert third.ctrl_c() == 0, third.seen   # it ran, and stops cleanly
        finally:
            third.kill()
    finally:
        first.kill()
