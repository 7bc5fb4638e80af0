"""ROS domain ids for the test processes (DESIGN §5: each test process on a domain of its
own, away from 0, so no test meets another's graph or a real robot's).

With pytest-xdist (`make test` runs two workers) each worker owns a block of ids: worker
k of n gets [1 + k*size, k*size + size] with size = 100 // n, its own domain inside it,
and every extra graph a test starts (the Ctrl-C runs, the launch/`buddy run` parity
check) on `sibling_domain(...)`: another id of the same block, never the worker's own and
never another worker's. Without xdist the block is 1..100, as before.
"""

from __future__ import annotations

import os

MAX_DOMAINS = 100   # ids 1..100 (Fast DDS's default port mapping allows up to 101)


def _block() -> tuple[int, int]:
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or "1")
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(name.removeprefix("gw")) if name.startswith("gw") else 0
    size = MAX_DOMAINS // max(1, workers)
    return 1 + index * size, size


BLOCK_START, BLOCK_SIZE = _block()
# the process id spreads runs of the suite on one machine over the block
DOMAIN_ID = BLOCK_START + os.getpid() % BLOCK_SIZE


def sibling_domain(offset: int) -> int:
    """A domain of this worker's block other than its own, `offset` steps along (wraps)."""
    step = 1 + offset % (BLOCK_SIZE - 1)
    return BLOCK_START + (DOMAIN_ID - BLOCK_START + step) % BLOCK_SIZE
