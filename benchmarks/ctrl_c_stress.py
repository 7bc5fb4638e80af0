"""Ctrl-C stress of the launched graph (DESIGN erratum 22: the long stress is a benchmark,
not a test): `ros2 launch buddy_personality robot.launch.py` started and stopped with a
terminal's Ctrl-C (SIGINT to the whole process group) `--runs` times, half with a terminal
as stdin, half with a pipe (launch then sends each node a second SIGINT).

    .venv/bin/python benchmarks/ctrl_c_stress.py [--json] [--runs 100]

Measured: the launched processes (`ros2 launch` and one process per node, each spinning
`make_executor`'s executor through `run_node`). Reported: the stop time from Ctrl-C to
launch's exit (median, p95, max; issue 18's target: every node within 2 s, none past
2.5 s), the nodes' exit codes, runs where a node was cut short by the DDS teardown bound
(runtime.bound_dds_teardown prints "Timeout": the Fast DDS 2.14 deadlock,
eProsima/Fast-DDS#6502, 1 stop in ~160 under load before it was bounded), and every run
that failed the Ctrl-C test's own criteria. Every process is confined (LOCALHOST range, the
loopback profile, a domain of its own) and the run ends by itself.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "test")]

from buddy_personality.dds_confinement import confine_dds  # noqa: E402

TARGET_S = 2.0     # issue 18: every node exits within 2 s of a terminal's Ctrl-C
HARD_S = 2.5       # and no stop takes 2.5 s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    env = dict(os.environ)
    confine_dds(env, domain_id=int(env.get("ROS_DOMAIN_ID", "0") or 0) or 42)
    os.environ.update(env)
    os.environ.setdefault("AMENT_PREFIX_PATH", sys.prefix)
    from support.ctrl_c import bad_runs, one_run
    from support.launching import missing_launch_tools
    reason = missing_launch_tools()
    if reason:
        print(json.dumps({"error": reason}) if args.json else reason)
        return 2
    rng = random.Random(18)
    runs = []
    with tempfile.TemporaryDirectory(prefix="buddy-ctrl-c-") as tmp:
        for index in range(args.runs):
            run = one_run(index, Path(tmp), rng)
            run["cut_short"] = run["output"].count("Timeout")
            runs.append(run)
            if not args.json:
                print(f"run {index}: {run['took']:.2f} s, launch {run['launch']}", flush=True)
    took = sorted(r["took"] for r in runs)
    result = {
        "benchmark": "ctrl_c_stress",
        "measured": "ros2 launch buddy_personality robot.launch.py: one process per node, "
                    "each run_node's executor (nodes/common/executor.make_executor)",
        "runs": args.runs,
        "stop_s_median": round(statistics.median(took), 3),
        "stop_s_p95": round(took[min(len(took) - 1, int(0.95 * len(took)))], 3),
        "stop_s_max": round(took[-1], 3),
        "node_exit_codes": {str(k): v for k, v in
                            Counter(c for r in runs for c in r["ended"].values()).items()},
        "node_stops": sum(len(r["ended"]) for r in runs),
        "runs_with_a_cut_short_teardown": sum(1 for r in runs if r["cut_short"]),
        "failed_runs": [r["index"] for r in bad_runs(runs)],
        "target_s": TARGET_S,
        "meets_target": statistics.median(took) < TARGET_S and took[-1] < HARD_S
                        and not bad_runs(runs),
        "load_average_1min": os.getloadavg()[0],
    }
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
