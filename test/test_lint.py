"""ruff runs as part of the test suite: the whole tree stays lint-clean."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.prefix) / "bin" / "ruff")
    if not Path(ruff).exists():
        pytest.fail("ruff is not installed: run `make setup`")
    result = subprocess.run([ruff, "check", "--no-cache", str(REPO)], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
