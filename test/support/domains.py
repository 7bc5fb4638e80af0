"""ROS domain ids for the test processes (DESIGN §5: each test process on a domain of its
own, away from 0, so no test meets another's graph or a real robot's).

With pytest-xdist (`make test` runs three workers) each worker owns a block of ids: worker
k of n gets [1 + k*size, k*size + size] with size = 100 // n, its own domain inside it,
and every extra graph a test starts (the Ctrl-C runs, the launch/`buddy run` parity
check) on `sibling_domain(...)`: another id of the same block, never the worker's own and
never another worker's. Without xdist the block is 1..100, as before.

Each test file moves to the next id of the block (`module_domain`, conftest's autouse
fixture): a graph a file leaves behind in a bad state (a process that outlived its test, a
killed participant's shared-memory port) cannot reach the next file's graph. In one CI run
every graph test of one worker after a certain point heard nothing from the processes it
started (5 files, 30-60 s each), while the other worker's passed; the files after that point
now start on a domain the file before them did not use.
"""

from __future__ import annotations

import os

MAX_DOMAINS = 100   # ids 1..100 (Fast DDS's default port mapping allows up to 101)


_held_block_locks: list[object] = []   # the open lock file of this worker's block (kept)


def _free_block_index(workers: int) -> int | None:
    """The first block no live worker of this run holds, locked for this process.

    xdist names the worker that replaces a crashed one gw<n> with n >= workers (a crashed
    gw1 once gave gw9 ids 451-500, out of range, and every later worker crashed at start);
    the kernel drops a dead worker's flock, so its replacement takes over its block."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        return None
    import fcntl
    import tempfile
    for index in range(workers):
        path = os.path.join(tempfile.gettempdir(), f"buddy-test-{run}-domains-{index}.lock")
        handle = open(path, "a")  # noqa: SIM115 (held for the life of the process)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            continue
        _held_block_locks.append(handle)
        return index
    return None


def _inherited_block(owner: str) -> int | None:
    """The block a test's own subprocess inherits from its worker: `index@owner`, taken
    only from the same owner. pytest's main process imports this module too (conftest)
    before xdist starts the workers, which inherit its environment: read without the
    owner, its "0" put every worker on block 0 (two workers' files met on one domain
    whenever their places in the block came round to the same id: a second llm_bridge on
    the live recording's domain, another test's "hey buddy, hello" in its bag)."""
    value = os.environ.get("BUDDY_TEST_DOMAIN_BLOCK", "")
    index, _, tag = value.partition("@")
    return int(index) if tag == owner and index.isdigit() else None


def _block() -> tuple[int, int]:
    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or "1"))
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    owner = os.environ.get("PYTEST_XDIST_WORKER", "main")
    index = _inherited_block(owner)
    if index is None:
        index = _free_block_index(workers) if "PYTEST_XDIST_WORKER" in os.environ else None
        if index is None:
            index = int(name.removeprefix("gw")) if name.startswith("gw") else 0
            index %= workers
        os.environ["BUDDY_TEST_DOMAIN_BLOCK"] = f"{index}@{owner}"
    size = MAX_DOMAINS // workers
    return 1 + index * size, size


BLOCK_START, BLOCK_SIZE = _block()
# the process id spreads runs of the suite on one machine over the block
DOMAIN_ID = BLOCK_START + os.getpid() % BLOCK_SIZE


def module_domain(index: int) -> int:
    """The domain of the `index`-th test file this process runs (0: its own DOMAIN_ID)."""
    return BLOCK_START + (DOMAIN_ID - BLOCK_START + index) % BLOCK_SIZE


def current_domain() -> int:
    """The domain the running test file is on (the environment its processes inherit)."""
    return int(os.environ.get("ROS_DOMAIN_ID", DOMAIN_ID))


def sibling_domain(offset: int) -> int:
    """A domain of this worker's block other than the current file's, `offset` steps along
    (wraps)."""
    step = 1 + offset % (BLOCK_SIZE - 1)
    return BLOCK_START + (current_domain() - BLOCK_START + step) % BLOCK_SIZE
