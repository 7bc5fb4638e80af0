"""Resident memory of `buddy run --headless` (the whole graph in one process) against the
five nodes as separate processes (issue 8). Target: all-in-one under half the sum.

    .venv/bin/python benchmarks/bringup_memory.py [--json] [--settle 5]

Reports RSS (what `top` shows) and PSS (shared pages split between processes, the
fairer figure for several processes that share the same libraries).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from procstat import NODE_EXECUTABLES, VENV_BIN, confined_env, memory, settle, start, stop
from procstat import wait_for_nodes as wait_nodes

TARGET_RATIO = 0.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds to run before measuring")
    ns = parser.parse_args()
    env = confined_env(domain_id=1 + os.getpid() % 100)
    logs = Path(tempfile.mkdtemp(prefix="buddy-bench-"))
    params = ["--ros-args", "-r", "__ns:=/bench"]

    allinone = start([str(VENV_BIN / "buddy"), "run", "--headless"], env, logs / "run.log")
    try:
        wait_nodes({f"/buddy/{n.removesuffix('_node')}" for n in NODE_EXECUTABLES}, env)
        settle(ns.settle)
        one = memory(allinone.pid)
    finally:
        stop(allinone)

    procs = [start([str(VENV_BIN / exe), *params], env, logs / f"{exe}.log")
             for exe in NODE_EXECUTABLES]
    try:
        wait_nodes({f"/bench/{n.removesuffix('_node')}" for n in NODE_EXECUTABLES}, env)
        settle(ns.settle)
        separate = {exe: memory(p.pid) for exe, p in zip(NODE_EXECUTABLES, procs, strict=True)}
    finally:
        for p in procs:
            stop(p)

    rss_sum = sum(m.rss_kb for m in separate.values())
    pss_sum = sum(m.pss_kb for m in separate.values())
    result = {
        "process": ("`buddy run --headless` (all nodes in one process, LeanExecutor) against "
                    "each node's installed executable as its own process (run_node's "
                    "LeanExecutor), same parameter file"),
        "all_in_one_rss_mb": round(one.rss_kb / 1024, 1),
        "all_in_one_pss_mb": round(one.pss_kb / 1024, 1),
        "separate_rss_sum_mb": round(rss_sum / 1024, 1),
        "separate_pss_sum_mb": round(pss_sum / 1024, 1),
        "separate_rss_mb": {k: round(m.rss_kb / 1024, 1) for k, m in separate.items()},
        "rss_ratio": round(one.rss_kb / rss_sum, 3),
        "pss_ratio": round(one.pss_kb / pss_sum, 3),
        "target_ratio": TARGET_RATIO,
    }
    result["meets_target"] = result["rss_ratio"] < TARGET_RATIO
    if ns.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:>22}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
