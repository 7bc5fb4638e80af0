"""CPU a node process spends starting (DESIGN erratum 22: the suite starts hundreds of node
processes, and their start-up is most of its CPU), and CPU to build the bridge's safety
tables in a fresh interpreter (7.2 s before their regexes were compiled on first use).

    .venv/bin/python benchmarks/node_startup.py [--json] [--repeat 3]

Each installed node executable is started alone in its own namespace and its CPU (user +
system, from /proc) is read once its node is in the graph: imports, rclpy init, the DDS
participant and the node's construction. The median of `--repeat` starts is reported.
No target: the figures go in issue 28's note, next to the suite's time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from procstat import VENV_BIN, confined_env, cpu_seconds, start, stop, wait_for_nodes

NODES = ("personality", "governor", "identity", "llm_bridge", "face_driver", "tts", "asr",
         "parent_dashboard")   # bringup.NODE_CLASSES, without importing every node here

SAFETY_BUILD = (
    "import time\n"
    "from buddy_personality.safety.speech_safety import SpeechSafety\n"
    "t = time.process_time(); SpeechSafety(); first = time.process_time() - t\n"
    "t = time.process_time(); SpeechSafety(); print(first, time.process_time() - t)\n"
)


def start_cpu(name: str, env: dict[str, str], logs: Path, index: int) -> float:
    ns = f"/bench{os.getpid()}_{index}"
    proc = start([str(VENV_BIN / f"{name}_node"), "--ros-args", "-r", f"__ns:={ns}"], env,
                 logs / f"{name}-{index}.log")
    try:
        wait_for_nodes({f"{ns}/{name}"}, env, timeout=60.0)
        return cpu_seconds(proc.pid)
    finally:
        stop(proc)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    ns = parser.parse_args()
    env = confined_env(domain_id=1 + os.getpid() % 100)
    logs = Path(tempfile.mkdtemp(prefix="buddy-bench-"))
    env["HOME"] = str(logs)   # a node's default state files stay out of the real home
    per_node = {}
    for name in NODES:
        runs = [start_cpu(name, env, logs, i) for i in range(ns.repeat)]
        per_node[name] = round(statistics.median(runs), 2)
    out = subprocess.run([sys.executable, "-c", SAFETY_BUILD], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    result = {
        "process": ("each installed node executable started alone; CPU (user + system) "
                    "when its node is in the graph, median of the starts"),
        "repeat": ns.repeat,
        "start_cpu_s": per_node,
        "start_cpu_sum_s": round(sum(per_node.values()), 2),
        "speech_safety_build_cpu_s": {"first": round(float(out[0]), 3),
                                      "second_in_process": round(float(out[1]), 3)},
        "load_1min": round(os.getloadavg()[0], 2),
    }
    if ns.json:
        print(json.dumps(result))
    else:
        for name, cpu in per_node.items():
            print(f"{name:17s} {cpu:5.2f} s CPU to start")
        print(f"sum {result['start_cpu_sum_s']} s; SpeechSafety build "
              f"{result['speech_safety_build_cpu_s']}; load {result['load_1min']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
