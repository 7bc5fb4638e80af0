"""CPU use of the idle graph (`buddy run --headless`, nobody talking) over a window,
as a percentage of one core (issue 8). Target: under 5 %.

    .venv/bin/python benchmarks/idle_cpu.py [--json] [--seconds 60]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from procstat import NODE_EXECUTABLES, VENV_BIN, confined_env, cpu_seconds, start, stop
from procstat import wait_for_nodes as wait_nodes

TARGET_PERCENT = 5.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    ns = parser.parse_args()
    env = confined_env(domain_id=1 + os.getpid() % 100)
    log = Path(tempfile.mkdtemp(prefix="buddy-bench-")) / "run.log"
    proc = start([str(VENV_BIN / "buddy"), "run", "--headless"], env, log)
    try:
        wait_nodes({f"/buddy/{n.removesuffix('_node')}" for n in NODE_EXECUTABLES}, env)
        time.sleep(ns.warmup)
        cpu0, t0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(ns.seconds)
        cpu1, t1 = cpu_seconds(proc.pid), time.monotonic()
    finally:
        stop(proc)
    percent = 100.0 * (cpu1 - cpu0) / (t1 - t0)
    result = {
        "window_s": round(t1 - t0, 1),
        "cpu_percent_of_one_core": round(percent, 2),
        "target_percent": TARGET_PERCENT,
        "meets_target": percent < TARGET_PERCENT,
    }
    print(json.dumps(result) if ns.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
