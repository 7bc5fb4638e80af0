"""Parent dashboard benchmark: face/state change to the face redrawn in Chromium, page
load time, and the graph's idle CPU with the dashboard on and one page open against off.

    .venv/bin/python benchmarks/dashboard.py [--json] [--turns 20] [--idle-seconds 30]

What is timed is what a robot runs: `buddy run` (stdout not a terminal, so no live view;
typed lines on stdin) (all nodes in one process on
its LeanExecutor, the dashboard's uvicorn on its own thread) with the simulated face
board, and the system's Chromium (headless) driven by Playwright on 127.0.0.1. Turns are
typed lines on `buddy run`'s stdin (layer 0: no LLM server). The latency is each
face/state message's header stamp (the face driver's clock, wall time) to the wall time
at which the page drew that face (window.BuddyFace.history); face states that the page
never drew because a newer one came within its 20 ms push interval are counted, not timed.
Targets (issue 16): p99 < 250 ms; idle CPU with a page open within 0.5 % of one core of
the figure without the dashboard.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from importlib import metadata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from procstat import VENV_BIN, confined_env, cpu_seconds, stop

REPO = Path(__file__).resolve().parents[1]
PIN = "4711"
P99_TARGET_MS = 250.0
CPU_DELTA_TARGET = 0.5
LINES = ["hey buddy", "i like dinosaurs", "tell me a joke", "my dog is sick",
         "i love you buddy", "what is your favourite colour", "i drew a dragon", "bye buddy"]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-default-apps", "--disable-extensions"]


def params_file(state: Path, dashboard_port: int) -> Path:
    """robot.yaml with every state path in `state` and the page on a free port."""
    import yaml

    data = yaml.safe_load((REPO / "config" / "robot.yaml").read_text())
    def node(name: str) -> dict:
        return data[f"/**/{name}"]["ros__parameters"]
    node("personality")["memory_path"] = str(state / "memory.json")
    node("identity")["profiles_path"] = str(state / "household.json")
    d = node("parent_dashboard")
    d.update(port=dashboard_port, sessions_path=str(state / "sessions.json"),
             alerts_path=str(state / "alerts.jsonl"), acks_path=str(state / "acks.json"),
             profiles_path=str(state / "household.json"))
    path = state / "params.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def household_with_pin(path: Path) -> None:
    from buddy_personality.identity.parent_pin import hash_pin

    path.write_text(json.dumps({
        "schema_version": 1,
        "profiles": [{"user_id": "mum", "name": "Mum", "role": "parent"},
                     {"user_id": "leo", "name": "Leo", "role": "child"}],
        "parent_pin": hash_pin(PIN).to_json(),
    }))


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Graph:
    """`buddy run --headless` with stdin for typed lines and stdout read for its URL."""

    def __init__(self, env: dict[str, str], params: Path, dashboard: bool, log: Path) -> None:
        argv = [str(VENV_BIN / "buddy"), "run", "--params", str(params)]
        if not dashboard:
            argv.append("--no-dashboard")
        self.proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, start_new_session=True)
        self.url = ""
        self.started = threading.Event()
        self.log = log.open("w")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.log.write(line)
            self.log.flush()
            if m := re.search(r"parent page on (http://\S+)", line):
                self.url = m.group(1)
            if "nodes running" in line:
                threading.Timer(1.0, self.started.set).start()

    def say(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def stop(self) -> None:
        stop(self.proc)


class FaceProbe:
    """face/state over DDS in a context of its own, spun on a thread."""

    def __init__(self) -> None:
        import rclpy
        from rclpy.context import Context
        from rclpy.executors import SingleThreadedExecutor

        from buddy_msgs.msg import FaceState
        from buddy_personality.nodes.common import qos

        self.context = Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node("dashboard_bench_probe", context=self.context)
        self.states: list[tuple[float, tuple[str, bool, int]]] = []
        self._shown: tuple[str, bool, int] | None = None
        self.node.create_subscription(FaceState, "/buddy/face/state", self._on_face,
                                      qos.of("/buddy/face/state"))
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.running = True
        self.thread = threading.Thread(target=self._spin, daemon=True)
        self.thread.start()

    def _on_face(self, m: Any) -> None:
        """Face *changes* only: the driver also republishes an unchanged face/state once a
        second, which the page has nothing to redraw for; timing those matched them to the
        next draw of the same face, up to a second later (the p99 of ~1 s measured before)."""
        key = (m.mood, m.talking, m.conv_state)
        if self._shown is None:
            # The first message is the face already on the page (latched, or a republish):
            # not a change, so the page has nothing to draw for it. Timing it matched it to
            # the next draw of the same face, up to a second later (a 994 ms "p99").
            self._shown = key
            return
        if key == self._shown:
            return
        self._shown = key
        self.states.append((m.header.stamp.sec + m.header.stamp.nanosec * 1e-9, key))

    def _spin(self) -> None:
        while self.running:
            self.executor.spin_once(timeout_sec=0.05)

    def close(self) -> None:
        import rclpy

        self.running = False
        self.thread.join(2)
        self.executor.shutdown()
        self.node.destroy_node()
        rclpy.try_shutdown(context=self.context)


CONV = ("idle", "attention", "listening", "ptt", "thinking", "speaking", "error", "done")


def latencies(states: list[tuple[float, tuple[str, bool, int]]],
              draws: list[dict]) -> tuple[list[float], int]:
    """Each face state that the page drew: its stamp to the first draw of the same face."""
    out: list[float] = []
    missed = 0
    for i, (stamp, (mood, talking, conv)) in enumerate(states):
        stamp_ms = stamp * 1000.0
        # the next face state's stamp bounds the match: a later draw belongs to it
        until = states[i + 1][0] * 1000.0 if i + 1 < len(states) else float("inf")
        key = (mood, talking, CONV[conv] if conv < len(CONV) else "idle")
        hit = next((d["wall_ms"] for d in draws
                    if stamp_ms - 2.0 <= d["wall_ms"] <= until + 250.0
                    and (d["mood"], d["talking"], d["conv"]) == key), None)
        if hit is None:
            missed += 1
        else:
            out.append(max(0.0, hit - stamp_ms))
    return out, missed


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure_cpu(pid: int, seconds: float) -> float:
    c0, t0 = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return round(100.0 * (cpu_seconds(pid) - c0) / (time.monotonic() - t0), 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--turns", type=int, default=24, help="typed lines (8 per session)")
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    ns = parser.parse_args()

    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("dashboard benchmark: no chromium (apt-get install chromium)", file=sys.stderr)
        return 2
    env = confined_env(domain_id=1 + os.getpid() % 100)
    os.environ.update({k: v for k, v in env.items() if k.startswith(("ROS_", "FASTDDS", "RMW"))})
    state = Path(tempfile.mkdtemp(prefix="buddy-dash-bench-"))
    household_with_pin(state / "household.json")
    params = params_file(state, free_port())
    result: dict[str, object] = {
        "process": "buddy run, stdin as the child (all nodes in one process, LeanExecutor; "
                   "the dashboard's uvicorn on its own thread)",
        "browser": f"{chromium} headless, Playwright {metadata.version('playwright')}",
        "load_average_1m_before": round(os.getloadavg()[0], 2),
    }

    graph = Graph(env, params, dashboard=True, log=state / "run-on.log")
    probe = None
    try:
        if not graph.started.wait(60) or not graph.url:
            raise RuntimeError(f"buddy run did not start its page (log: {state})")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True,
                                        args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            t0 = time.perf_counter()
            page.goto(graph.url)
            page.wait_for_selector("#login:not([hidden])")
            login_shown_ms = (time.perf_counter() - t0) * 1000
            page.fill("#pin", PIN)
            t1 = time.perf_counter()
            page.click("#login-form button[type=submit]")
            page.wait_for_selector("#panels:not([hidden])")
            page.wait_for_selector("#face[data-mood]")
            panels_ms = (time.perf_counter() - t1) * 1000
            nav = page.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0])")
            nav = json.loads(nav)
            result["page_load_ms"] = {
                "dom_content_loaded": round(nav["domContentLoadedEventEnd"], 1),
                "load_event": round(nav["loadEventEnd"], 1),
                "login_form_shown": round(login_shown_ms, 1),
                "login_to_panels_drawn": round(panels_ms, 1),
            }
            time.sleep(ns.warmup)
            result["idle_cpu_percent_dashboard_on_page_open"] = measure_cpu(
                graph.proc.pid, ns.idle_seconds)

            probe = FaceProbe()
            time.sleep(1.0)
            for i in range(ns.turns):
                graph.say(LINES[i % len(LINES)])
                time.sleep(2.5)
            time.sleep(2.0)
            draws = page.evaluate("window.BuddyFace.history.slice()")
            browser.close()
        states = list(probe.states)
        lat, missed = latencies(states, draws)
        if not lat:
            raise RuntimeError("no face change was drawn")
        result["face_change_to_redraw_ms"] = {
            "samples": len(lat), "face_states": len(states), "not_drawn_superseded": missed,
            "median": round(statistics.median(lat), 1), "p99": round(percentile(lat, 0.99), 1),
            "max": round(max(lat), 1), "target_p99": P99_TARGET_MS,
            "meets_target": percentile(lat, 0.99) < P99_TARGET_MS,
        }
    finally:
        if probe is not None:
            probe.close()
        graph.stop()

    off = Graph(env, params, dashboard=False, log=state / "run-off.log")
    try:
        if not off.started.wait(60):
            raise RuntimeError("buddy run --no-dashboard did not start")
        time.sleep(ns.warmup)
        result["idle_cpu_percent_dashboard_off"] = measure_cpu(off.proc.pid, ns.idle_seconds)
    finally:
        off.stop()
    delta = round(float(result["idle_cpu_percent_dashboard_on_page_open"])  # type: ignore[arg-type]
                  - float(result["idle_cpu_percent_dashboard_off"]), 2)  # type: ignore[arg-type]
    result["idle_cpu_delta_percent"] = delta
    result["idle_cpu_meets_target"] = delta <= CPU_DELTA_TARGET
    result["idle_window_s"] = ns.idle_seconds
    result["load_average_1m_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(result) if ns.json else json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
