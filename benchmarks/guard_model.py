"""What the guard model adds to utterance -> first spoken word (issue 27, DESIGN erratum 23),
measured on the `llm_bridge_node` executable the robot runs.

    .venv/bin/python benchmarks/guard_model.py [--json] [--turns N] [--guard-latency S]

Target: with the guard on, the first line reaches `tts/say` within the guard's own time
+ under 20 ms of what it takes without a guard (sentence by sentence: the guard's time
is added to the first sentence only).

Setup: the installed `llm_bridge_node`, `--params-file config/robot.yaml`, cognition
cooldown 0, HOME in a temporary directory; the loopback fake server (this process's
thread) answers as the chat model (a two-sentence reply, at once) and as the guard
model (`guard_model` = its fake guard: "safe" after `--guard-latency` seconds). A probe
node publishes the child's lines and stamps each first `tts/say`. Two runs of `--turns`
turns each: without a guard, then with it.

What is timed, per turn, on `time.monotonic()` (system-wide, so the server's stamps
compare): `after_llm` = first `tts/say` - the chat answer's last byte (server side);
`guard_own` = the first sentence's guard request, from the server reading it to its
last byte (the guard model's own time); `added` = after_llm(with guard) - guard_own -
median after_llm(without guard): the bridge's own cost of asking the guard (worker
hand-off, HTTP on loopback, parsing, the executor wake) beyond the guard's time.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from end_to_end import open_free_domain
from procstat import REPO, VENV_BIN, confined_env, start, stop

from buddy_personality.tools.fakes.fake_llm_server import (
    DEFAULT_ANSWER,
    FAKE_GUARD_MODEL,
    FakeLlmServer,
)

TARGET_ADDED_MS = 20.0
NAMESPACE = "/buddy"
REPLY_TIMEOUT_S = 8.0
REPLY = "Ooh, stars are giant balls of hot gas. The Sun is a star too!"
FIRST = "Ooh, stars are giant balls of hot gas."


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return round(s[min(len(s) - 1, int(len(s) * q))], 2) if s else float("nan")


def one_run(turns: int, guard: bool, guard_latency_s: float) -> dict[str, Any]:
    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node

    from buddy_msgs.msg import Say, Utterance
    from buddy_personality.nodes.common import qos

    tmp = Path(tempfile.mkdtemp(prefix="buddy-guard-bench-"))
    (tmp / "home").mkdir()
    server = FakeLlmServer("normal", responder=lambda _r: dict(DEFAULT_ANSWER, text=REPLY))
    server.guard_latency_s = guard_latency_s
    server.start()
    context, domain_id = open_free_domain(random.Random())
    env = confined_env(domain_id)
    env["HOME"] = str(tmp / "home")
    argv = [str(VENV_BIN / "llm_bridge_node"), "--ros-args",
            "--params-file", str(REPO / "config" / "robot.yaml"),
            "-r", f"__ns:={NAMESPACE}", "-p", f"server_url:={server.url}",
            "-p", "gate.cooldown_s:=0.0", "-p", "silence_timeout_s:=3600.0"]
    if guard:   # robot.yaml's guard_model is empty: no guard
        argv += ["-p", f"guard_model:={FAKE_GUARD_MODEL}"]
    proc = start(argv, env, tmp / "llm_bridge.log")
    node = Node("guard_bench_probe", namespace=NAMESPACE, context=context)
    says: queue.SimpleQueue[tuple[float, str]] = queue.SimpleQueue()
    node.create_subscription(Say, "tts/say", lambda m: says.put((time.monotonic(), m.text)),
                             qos.of("tts/say"))
    pub = node.create_publisher(Utterance, "speech/utterance", qos.of("speech/utterance"))
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(node)
    spin = threading.Thread(target=executor.spin, daemon=True)
    spin.start()
    after_llm: list[float] = []
    guard_own: list[float] = []
    first_texts: set[str] = set()
    timeouts = 0
    try:
        deadline = time.monotonic() + 30
        while pub.get_subscription_count() < 1:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"llm_bridge_node did not come up (log: {tmp})")
            time.sleep(0.05)
        time.sleep(0.5)
        for i in range(turns):
            n_chat = len(server.request_timings())
            text = ("hey buddy " if i == 0 else "") + "tell me about the stars please"
            pub.publish(Utterance(text=text, is_final=True, confidence=1.0))
            try:
                at, said = says.get(timeout=REPLY_TIMEOUT_S)
            except queue.Empty:
                timeouts += 1
                continue
            first_texts.add(said)
            time.sleep(0.3 if guard else 0.05)   # the rest of the reply, then drain
            while True:
                try:
                    says.get_nowait()
                except queue.Empty:
                    break
            chat = server.wait_for_timings(n_chat + 1, 2.0)[n_chat:]
            if not chat:
                continue
            llm_done = chat[0].finished_at
            after_llm.append((at - llm_done) * 1000)
            if guard:
                with server._lock:   # the first sentence's check of this turn
                    pairs = list(zip(server.guard_requests, server.guard_timings,
                                     strict=True))
                own = [t.duration_s for r, t in pairs if t.received_at >= llm_done
                       and any(m.get("content") == FIRST for m in r.get("messages", [])
                               if m.get("role") == "assistant")]
                if own:
                    guard_own.append(own[0] * 1000)
    finally:
        executor.shutdown()
        spin.join(timeout=2)
        node.destroy_node()
        rclpy.try_shutdown(context=context)
        stop(proc)
        server.stop()
    return {"after_llm_ms": after_llm, "guard_own_ms": guard_own, "timeouts": timeouts,
            "first_lines": sorted(first_texts), "logs": str(tmp)}


def run(turns: int, guard_latency_s: float) -> dict[str, Any]:
    base = one_run(turns, False, guard_latency_s)
    guarded = one_run(turns, True, guard_latency_s)
    base_p50 = pct(base["after_llm_ms"], 0.5)
    added = [a - g - base_p50 for a, g in zip(guarded["after_llm_ms"], guarded["guard_own_ms"],
                                               strict=False)]
    p50 = pct(added, 0.5)
    return {
        "benchmark": "guard_model",
        "measured": "llm_bridge_node executable, params config/robot.yaml, loopback fake "
                    "chat model and fake guard (127.0.0.1)",
        "what": "utterance -> first tts/say: what the guard adds beyond its own time",
        "turns": turns,
        "guard_latency_s": guard_latency_s,
        "without_guard_after_llm_ms": {"p50": base_p50, "p90": pct(base["after_llm_ms"], 0.9),
                                       "max": pct(base["after_llm_ms"], 1.0)},
        "with_guard_after_llm_ms": {q: pct(guarded["after_llm_ms"], v) for q, v in
                                    (("p50", 0.5), ("p90", 0.9), ("max", 1.0))},
        "guard_own_ms": {q: pct(guarded["guard_own_ms"], v) for q, v in
                         (("p50", 0.5), ("p90", 0.9), ("max", 1.0))},
        "added_beyond_guard_ms": {"p50": p50, "p90": pct(added, 0.9),
                                  "max": pct(added, 1.0)},
        "first_line_with_guard": guarded["first_lines"],
        "target_added_ms": TARGET_ADDED_MS,
        "pass": p50 < TARGET_ADDED_MS and not guarded["timeouts"],
        "timeouts": {"without": base["timeouts"], "with": guarded["timeouts"]},
        "load_average_1m": round(os.getloadavg()[0], 2),
        "note": "shared 2-core machine; percentiles include preemption by other processes",
        "logs": [base["logs"], guarded["logs"]],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--turns", type=int, default=40, help="turns per run")
    ap.add_argument("--guard-latency", type=float, default=0.1,
                    help="the fake guard's time per verdict (s)")
    ns = ap.parse_args(argv)
    result = run(ns.turns, ns.guard_latency)
    print(json.dumps(result) if ns.json else json.dumps(result, indent=2))
    return 0 if result["pass"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
