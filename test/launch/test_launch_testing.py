"""Every launch_testing file under test/launch (`*_launch_test.py`) runs with `launch_test`,
as a ROS engineer runs it, inside `make test` whenever launch_testing is importable.

Why not launch_testing's pytest plugin: the Jazzy plugin (3.4.3) fails to register under
pytest 9 (`pytest_pycollect_makemodule(path, ...)`, an argument pytest 9 removed), and it
imports every test module up front; pyproject.toml switches it off (`-p no:launch_testing
-p no:launch_ros`) so `make test` behaves the same with and without it installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.launching import process_env, require_launch_tools

pytestmark = [pytest.mark.launch, pytest.mark.process, pytest.mark.slow]

HERE = Path(__file__).resolve().parent
LAUNCH_TESTS = sorted(HERE.glob("*_launch_test.py"))
TIMEOUT_S = 150.0  # bounded: launch_test stops its processes itself well before this


@pytest.mark.parametrize("launch_test", LAUNCH_TESTS, ids=lambda p: p.name)
def test_launch_testing_file_passes(launch_test: Path, tmp_path: Path) -> None:
    require_launch_tools()
    argv = [sys.executable, "-c",
            "import sys; from launch_testing.launch_test import main; sys.exit(main())",
            str(launch_test), "--junit-xml", str(tmp_path / "launch_test.xml")]
    try:
        done = subprocess.run(argv, env=process_env(tmp_path), cwd=tmp_path,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"launch_test {launch_test.name} still running after {TIMEOUT_S} s:\n"
                    f"{exc.stdout}")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-6000:]
    # launch_test prints the count of each phase; a file with no test would pass silently
    assert "Ran 0 tests" not in output, output[-3000:]
