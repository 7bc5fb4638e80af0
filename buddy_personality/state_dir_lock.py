"""One graph per state directory (issue 31 item 3). ROS-free.

Two graphs on one machine (a second `buddy run`, or a `buddy run` beside a `ros2 launch`)
both answered every line and wrote the same state files. The process that runs a graph
holds an exclusive `fcntl.flock` on `<state dir>/.buddy.lock` for as long as it lives:
`buddy run` for its one process, the `ros2 launch` process for the launched nodes (it
outlives them and is the graph's owner; launch/robot.launch.py). The kernel releases a
flock when its holder dies, even by SIGKILL, so a stale lock is taken over by the next
graph without anyone deleting a file; the pid inside is only for the refusal's message.

Within one process a directory is locked once (a second `hold` is a no-op), so a graph
whose parts each ask for the lock works in one process as in many.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

LOCK_NAME = ".buddy.lock"

_held: dict[Path, int] = {}   # state dir -> the open lock file's descriptor


class StateDirBusy(RuntimeError):
    """Another live process owns the state directory."""

    def __init__(self, state_dir: Path, owner: str) -> None:
        self.state_dir = state_dir
        self.owner = owner
        super().__init__(
            f"the state directory {state_dir} is in use by another Buddy graph ({owner}); "
            "stop it first, or give this one its own --state-dir")


@dataclass(slots=True, frozen=True)
class Holder:
    """Who holds a lock, as written in the lock file."""

    pid: int
    what: str

    def line(self) -> str:
        return f"{self.pid} {self.what}\n"


def hold_state_dir(state_dir: Path, what: str) -> Path:
    """Take (or keep) this process's exclusive lock on `state_dir` (created if missing);
    returns the lock file. Raises StateDirBusy when another live process holds it, with
    that process's pid and name in the message; OSError when the folder is unusable."""
    folder = state_dir.expanduser().resolve()
    if folder in _held:
        return folder / LOCK_NAME
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        owner = _describe_owner(fd)
        os.close(fd)
        raise StateDirBusy(folder, owner) from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, Holder(os.getpid(), what).line().encode(), 0)
    _held[folder] = fd
    return path


def release_state_dir(state_dir: Path) -> None:
    """Give the lock up before the process ends (tests; the kernel does it at exit)."""
    fd = _held.pop(state_dir.expanduser().resolve(), None)
    if fd is not None:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)   # closing the only descriptor releases the flock


def _describe_owner(fd: int) -> str:
    try:
        text = os.pread(fd, 256, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    pid, _, what = text.partition(" ")
    if not pid.isdigit():
        return "pid unknown"
    return f"pid {pid}" + (f", {what}" if what else "")
