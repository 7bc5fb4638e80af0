"""`buddy run --headless` as a process whose output is read line by line, so a test waits
on the lines it needs (the graph is up, a start-up problem was logged), not on a fixed
`--duration` (DESIGN erratum 22)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

BUDDY = Path(sys.prefix) / "bin" / "buddy"
RUNNING = "nodes running under"   # buddy run's line once its graph is up


class HeadlessRun:
    """`buddy run --headless --no-dashboard --state-dir STATE EXTRA...`, stdout and stderr
    read together on a thread."""

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
        """Read lines until one holds `text` (True) or the output ends (False); raises
        queue.Empty when no line came for `timeout` seconds."""
        while True:
            line = self.lines.get(timeout=timeout)
            if line is None:
                return False
            self.seen.append(line)
            if text in line:
                return True

    def output(self) -> str:
        return "\n".join(self.seen)

    def ctrl_c(self, timeout: float = 20.0) -> int:
        """SIGINT, as Ctrl-C in its terminal: the exit status."""
        self.popen.send_signal(signal.SIGINT)
        return self.popen.wait(timeout=timeout)

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
        self.popen.wait()
