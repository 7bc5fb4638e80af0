"""The suite's ROS domains (test/support/domains.py, DESIGN §5: each test process on a
domain of its own): every xdist worker owns a block of ids no other worker uses, and a
test's own subprocess stays in its worker's block.

pytest's main process imports the module too (the root conftest) before xdist starts the
workers, and the workers inherit its environment: its block must not become theirs (it
did: every worker was on block 0, and two workers' files met on one domain whenever their
places in the block came round to the same id)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parents[1]
PROBE = ("import os; from support import domains; "
         "print(domains.BLOCK_START, domains.BLOCK_SIZE, os.environ['BUDDY_TEST_DOMAIN_BLOCK'])")


def _import_domains(env: dict[str, str]) -> tuple[int, int, str]:
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("PYTEST_XDIST_", "BUDDY_TEST_DOMAIN_BLOCK"))}
    out = subprocess.run([sys.executable, "-c", PROBE], env={**base, **env,
                         "PYTHONPATH": str(TEST_DIR)}, capture_output=True, text=True,
                         check=True, timeout=60).stdout.split()
    return int(out[0]), int(out[1]), out[2]


def test_a_worker_does_not_take_the_main_process_block_and_its_subprocess_keeps_its_own() -> None:
    run = uuid.uuid4().hex
    xdist = {"PYTEST_XDIST_WORKER_COUNT": "2", "PYTEST_XDIST_TESTRUNUID": run}
    _, _, main_block = _import_domains(xdist)               # pytest's main process
    lock = Path(tempfile.gettempdir()) / f"buddy-test-{run}-domains-0.lock"
    with lock.open("a") as held:                            # worker gw0 holds block 0
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        start, size, gw1_block = _import_domains(
            {**xdist, "PYTEST_XDIST_WORKER": "gw1", "BUDDY_TEST_DOMAIN_BLOCK": main_block})
        assert (start, size) == (51, 50)                    # block 1, not the main's 0
        # a process a test of gw1 starts inherits gw1's environment: the same block,
        # although gw1 (not it) holds that block's lock
        assert _import_domains({**xdist, "PYTEST_XDIST_WORKER": "gw1",
                                "BUDDY_TEST_DOMAIN_BLOCK": gw1_block})[:2] == (51, 50)
    lock.unlink(missing_ok=True)
    (lock.parent / f"buddy-test-{run}-domains-1.lock").unlink(missing_ok=True)
