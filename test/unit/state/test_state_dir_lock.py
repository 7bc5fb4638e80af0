"""One graph per state directory (issue 31 item 3; buddy_personality/state_dir_lock.py).
Two graphs on one machine both answered every line and wrote the same state files. The
owner holds an flock on `<dir>/.buddy.lock`; another process is refused with the owner's
pid; a holder killed with SIGKILL releases it, so the next graph takes it over."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from buddy_personality.nodes.state_files import (
    STATE_FILES,
    claim_state_dirs,
    state_dirs_in_params,
)
from buddy_personality.state_dir_lock import StateDirBusy, hold_state_dir, release_state_dir

HOLDER = """
import sys
from pathlib import Path
from buddy_personality.state_dir_lock import hold_state_dir
hold_state_dir(Path(sys.argv[1]), "buddy run")
print("held", flush=True)
sys.stdin.read()          # until the test closes stdin or kills us
"""
ROOT = Path(__file__).resolve().parents[3]


@contextmanager
def holder(folder: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the lock (it says so once it does)."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def test_a_second_owner_is_refused_with_the_first_ones_pid(tmp_path: Path) -> None:
    with holder(tmp_path) as first:
        with pytest.raises(StateDirBusy) as refused:
            hold_state_dir(tmp_path, "buddy run")
        message = str(refused.value)
        assert f"pid {first.pid}" in message and "buddy run" in message
        assert str(tmp_path.resolve()) in message and "\n" not in message


def test_a_lock_of_a_sigkilled_owner_is_taken_over(tmp_path: Path) -> None:
    with holder(tmp_path) as first:
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
        # the lock file is still there, with the dead owner's pid: a stale lock
        assert (tmp_path / ".buddy.lock").read_text().startswith(str(first.pid))
        try:
            hold_state_dir(tmp_path, "buddy run")
            assert (tmp_path / ".buddy.lock").read_text().split()[0] == str(os.getpid())
        finally:
            release_state_dir(tmp_path)


def test_one_process_may_ask_twice(tmp_path: Path) -> None:
    try:
        assert hold_state_dir(tmp_path, "buddy run") == hold_state_dir(tmp_path, "again")
    finally:
        release_state_dir(tmp_path)


def test_the_state_dirs_of_a_parameter_file(tmp_path: Path) -> None:
    params = tmp_path / "p.yaml"
    params.write_text(f"""
/**/personality:
  ros__parameters:
    memory_path: "{tmp_path}/a/m.json"
    usage_path: ""
/**/identity:
  ros__parameters:
    profiles_path: "{tmp_path}/b/h.json"
""")
    dirs = state_dirs_in_params(params)
    assert (tmp_path / "a").resolve() in dirs and (tmp_path / "b").resolve() in dirs
    assert Path("~/.local/share/buddy").expanduser().resolve() in dirs  # rows not set


def test_the_launch_refuses_a_state_dir_another_graph_holds(tmp_path: Path) -> None:
    """launch/robot.launch.py: the launch process is the launched graph's owner."""
    pytest.importorskip("launch")
    from launch import LaunchContext

    spec = importlib.util.spec_from_file_location("robot_launch",
                                                  ROOT / "launch" / "robot.launch.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    params = tmp_path / "p.yaml"
    state = tmp_path / "state"
    params.write_text("\n".join(      # every state file in `state`, none in the real home
        f"/**/{node}:\n  ros__parameters:\n" + "".join(
            f"    {param}: \"{state}/{name}\"\n" for param, name in files.items())
        for node, files in STATE_FILES.items()))
    context = LaunchContext()
    context.launch_configurations["params_file"] = str(params)
    with holder(state) as first, pytest.raises(
            RuntimeError, match=f"in use by another Buddy graph \\(pid {first.pid}"):
        module._own_state_dirs(context)
    assert claim_state_dirs(state, params, "test") is None      # free again once it died
    release_state_dir(state)
