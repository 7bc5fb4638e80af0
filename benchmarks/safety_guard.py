"""The output guard's cost per spoken line (issue 13, DESIGN §6.16), measured inside the
`llm_bridge_node` executable the robot runs (robot.launch.py starts it as its own process,
on the project's lean single-threaded executor, `nodes/common/executor.py`).

    .venv/bin/python benchmarks/safety_guard.py [--json] [--lines N]

Target: p99 of the time the guard adds before a line is published under 1 ms.

Setup: the installed `llm_bridge_node` with `--params-file config/robot.yaml` (so the
guard, the tables and the node are exactly what the robot runs), the cognition cooldown
set to 0 so lines come fast, HOME in a temporary directory (the HC-9 alert log goes
there); the fake OpenAI-compatible server (loopback, in this process's thread) answers
every request with the next reply of the red-team corpus (test/data/safety/: unsafe and
benign replies interleaved, so refused and spoken lines are both timed); a probe node
here publishes the child's lines and waits for each `tts/say`.

What is timed: in the node, `time.perf_counter()` around `BridgeCore.screen(step)` for
every Step that carries a line (the whole chokepoint: normalising, every rule, building
the safe line, the event and the thinking intent), published on `/diagnostics` as
`safety.screen_us_p50/p99/max` over the last 4096 lines; the target is on this wall time.
`time.thread_time()` around the same call gives `guard_cpu_us`: the CPU the guard itself
used, without the time the thread waited for a core. The benchmark reads both after the
last line, and also times the turn end to end (utterance -> `tts/say`) for context.
On a shared machine the wall-time percentiles include preemption by other processes.
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
from itertools import cycle
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from end_to_end import open_free_domain
from procstat import REPO, VENV_BIN, confined_env, start, stop

from buddy_personality.tools.fakes.fake_llm_server import FakeLlmServer

TARGET_P99_US = 1000.0
NAMESPACE = "/buddy"
DATA = REPO / "test" / "data" / "safety"
REPLY_TIMEOUT_S = 5.0


# Text-only rounds timed too (issue 27): their lines are longer, several sentences, and
# the rules by concept read a line sentence by sentence. Rounds 7 and 8 were tuned on
# (their headers say so); a round still held out (round 9 on) is never read here.
TIMED_ROUNDS = ("round1", "round2", "round3", "round4", "round5", "round6", "round7",
                "round8")


def _wrapped(text: str) -> dict[str, Any]:
    return {"reply": {"inner_thought": "Answer the child simply.", "emotion": "happy",
                      "intensity": 0.5, "mood_reason": "talking with the child",
                      "emotional_arc": "stable", "child_affect": "neutral", "text": text,
                      "gestures": [], "memory_tags": []}}


def corpus() -> list[dict[str, Any]]:
    """Unsafe and benign corpus entries interleaved (one unsafe after two benign)."""
    def load(name: str) -> list[dict[str, Any]]:
        return [d for d in (json.loads(x) for x in (DATA / name).read_text().splitlines()
                            if x.strip()) if "note" not in d]
    unsafe, benign = load("unsafe_replies.jsonl"), load("benign_replies.jsonl")
    for r in TIMED_ROUNDS:
        rows = load(f"{r}/replies.jsonl")
        unsafe += [_wrapped(d["text"]) for d in rows if d["expect"] == "refuse"]
        benign += [_wrapped(d["text"]) for d in rows if d["expect"] == "speak"]
    out: list[dict[str, Any]] = []
    u = iter(unsafe)
    for i, b in enumerate(benign):
        out.append(b)
        if i % 2 == 1:
            out.append(next(u, b))
    return out


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * q))]


def run(lines: int, cold: bool = False) -> dict[str, Any]:
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node

    from buddy_msgs.msg import Say, Utterance
    from buddy_personality.nodes.common import qos

    entries = corpus()
    script = cycle(entries)
    tmp = Path(tempfile.mkdtemp(prefix="buddy-safety-bench-"))
    (tmp / "home").mkdir()
    server = FakeLlmServer("normal", responder=lambda _req: next(script)["reply"]).start()
    context, domain_id = open_free_domain(random.Random())
    env = confined_env(domain_id)
    env["HOME"] = str(tmp / "home")
    argv = [str(VENV_BIN / "llm_bridge_node"), "--ros-args",
            "--params-file", str(REPO / "config" / "robot.yaml"),
            "-r", f"__ns:={NAMESPACE}", "-p", f"server_url:={server.url}",
            "-p", "gate.cooldown_s:=0.0", "-p", "silence_timeout_s:=3600.0"]
    proc = start(argv, env, tmp / "llm_bridge.log")

    node = Node("safety_bench_probe", namespace=NAMESPACE, context=context)
    says: queue.SimpleQueue[tuple[float, str]] = queue.SimpleQueue()
    diag: dict[str, str] = {}
    node.create_subscription(Say, "tts/say", lambda m: says.put((time.monotonic(), m.text)),
                             qos.of("tts/say"))

    def on_diag(msg: DiagnosticArray) -> None:
        for s in msg.status:
            if s.name.endswith("llm_bridge"):
                diag.clear()
                diag.update({kv.key: kv.value for kv in s.values})

    node.create_subscription(DiagnosticArray, "/diagnostics", on_diag, qos.of("/diagnostics"))
    pub = node.create_publisher(Utterance, "speech/utterance", qos.of("speech/utterance"))
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(node)
    spin = threading.Thread(target=executor.spin, daemon=True)
    spin.start()
    turn_ms: list[float] = []
    timeouts = 0
    try:
        # a loaded 2-core machine (other suites) can take over 30 s to start the node
        deadline = time.monotonic() + 120
        while pub.get_subscription_count() < 1:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"llm_bridge_node did not come up (log: {tmp})")
            time.sleep(0.05)
        time.sleep(0.5)
        # As the robot runs after its start-up (issue 27): the rules' regexes compile on
        # first use, and the node compiles the rest warm_safety_rules_after_s (robot.yaml:
        # 30 s) after start, off the turn's path. --cold times the lines before that.
        warm_wait_s = 0.0
        if not cold:
            t_warm = time.monotonic()
            while diag.get("safety.rules_warm") != "True":
                if proc.poll() is not None or time.monotonic() > deadline + 120:
                    raise RuntimeError(f"llm_bridge_node never warmed its rules (log: {tmp})")
                time.sleep(0.2)
            warm_wait_s = time.monotonic() - t_warm
        for i in range(lines):
            text = ("hey buddy " if i == 0 else "") + "tell me something please"
            t0 = time.monotonic()
            pub.publish(Utterance(text=text, is_final=True, confidence=1.0))
            try:
                at, _ = says.get(timeout=REPLY_TIMEOUT_S)
                turn_ms.append((at - t0) * 1000)
            except queue.Empty:
                timeouts += 1
        deadline = time.monotonic() + 5
        while int(diag.get("safety.screened_steps", "0")) < lines - timeouts:
            if time.monotonic() > deadline:
                break
            time.sleep(0.1)
        values = dict(diag)
    finally:
        executor.shutdown()
        spin.join(timeout=2)
        node.destroy_node()
        rclpy.try_shutdown(context=context)
        stop(proc)
        server.stop()
    p99 = float(values.get("safety.screen_us_p99", "nan"))
    return {
        "benchmark": "safety_guard",
        "measured": "llm_bridge_node executable (one process, nodes/common/executor.py "
                    "lean single-threaded executor), params config/robot.yaml",
        "what": "time BridgeCore.screen adds before a Step's line is published",
        "rules": "cold (compiled on first use, before the node's warm-up)" if cold else
                 "warm (after the node compiled them, warm_safety_rules_after_s)",
        "waited_for_warm_s": round(warm_wait_s, 1),
        "lines_requested": lines,
        "lines_screened": int(values.get("safety.screened_steps", "0")),
        "lines_refused": int(values.get("safety.lines_refused", "0")),
        "refused_per_rule": {k.removeprefix("safety.refused."): int(v)
                             for k, v in values.items() if k.startswith("safety.refused.")},
        "guard_us": {"p50": float(values.get("safety.screen_us_p50", "nan")), "p99": p99,
                     "max": float(values.get("safety.screen_us_max", "nan"))},
        "guard_cpu_us": {q: float(values.get(f"safety.screen_cpu_us_{q}", "nan"))
                         for q in ("p50", "p99", "max")},
        "target_p99_us": TARGET_P99_US,
        "pass": p99 < TARGET_P99_US,
        "turn_ms_for_context": {"p50": round(percentile(turn_ms, 0.5), 2),
                                "p99": round(percentile(turn_ms, 0.99), 2)} if turn_ms else {},
        "reply_timeouts": timeouts,
        "load_average_1m": round(os.getloadavg()[0], 2),
        "note": "shared 2-core machine; wall-time percentiles include preemption",
        "logs": str(tmp),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--lines", type=int, default=600, help="lines to screen")
    ap.add_argument("--cold", action="store_true", help="time the lines right after start, "
                    "before the node compiled its rules (first-use cost)")
    ns = ap.parse_args(argv)
    result = run(ns.lines, ns.cold)
    if ns.json:
        print(json.dumps(result))
    else:
        print(json.dumps(result, indent=2))
    return 0 if result["pass"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
