"""Ctrl-C in the terminal running `ros2 launch buddy_personality robot.launch.py`, 5 times:
SIGINT reaches the whole process group (launch and every node at once), and when launch's
stdin is not a terminal launch sends each node a second SIGINT of its own. Every node must
exit 0 on its own, without launch escalating to SIGTERM or SIGKILL, and nothing of the
group may be left (BRIEF: `main()` of a node exits 0 on Ctrl-C; issue 18 saw -2 in 4 of 14
runs and one node hang until SIGKILL).

DESIGN erratum 22: the suite runs 5 launches; how fast a stop is (issue 18's 2 s) and the
rare Fast DDS teardown deadlock (1 stop in hundreds) are measured by
benchmarks/ctrl_c_stress.py, whose figures go in the notes. The bound here is a hang
(support/ctrl_c.STOP_S), not a speed target.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path

import pytest
from support.ctrl_c import bad_runs, describe, one_run
from support.launching import require_launch_tools

pytestmark = [pytest.mark.launch, pytest.mark.process, pytest.mark.slow]

RUNS = int(os.environ.get("BUDDY_CTRL_C_RUNS", "5"))


def test_ctrl_c_to_the_process_group_stops_every_node_with_exit_0(tmp_path: Path) -> None:
    require_launch_tools()
    rng = random.Random(18)
    runs = [one_run(i, tmp_path, rng) for i in range(RUNS)]
    node_codes = Counter(code for r in runs for code in r["ended"].values())
    print(f"{RUNS} Ctrl-C runs: node exit codes {dict(node_codes)}, ros2 launch exit codes "
          f"{dict(Counter(r['launch'] for r in runs))}, "
          f"slowest stop {max(r['took'] for r in runs):.2f} s")
    assert {r["terminal"] for r in runs} == {True, False}   # both ways a Ctrl-C arrives
    bad = bad_runs(runs)
    assert not bad, describe(bad)
