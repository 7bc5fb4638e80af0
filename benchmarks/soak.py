"""Soak: `buddy run` for a long wall-clock stretch (stdout not a terminal, so no live view;
stdin lines are the child) with children talking every
few minutes, an LLM server that fails a tenth of its requests, and a face board on a
pseudo-terminal that is unplugged and plugged back twice (issue 14).

    .venv/bin/python benchmarks/soak.py [--json] [--minutes 30] [--talk-every-s 180]

Measured on the `buddy run` process (all nodes in one process, LeanExecutor): RSS growth
after warm-up (target < 5 MB), open file descriptors and threads (constant), and whether
every child line spoken inside a session got a spoken reply (`tts/say`). The fake LLM
server (tools/fakes, 127.0.0.1) drops every tenth request without an answer; the board is
face/sim_pty.py's simulated board under one symlink path, as a USB device keeps its name.
Everything stays on this machine; the run stops by itself after --minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from procstat import VENV_BIN, confined_env, memory, stop

REPO = Path(__file__).resolve().parents[1]
RSS_GROWTH_TARGET_MB = 5.0
CONVERSATION = ["hey buddy", "i saw a big dog today", "can you tell me a joke",
                "i like the colour blue", "bye buddy"]


def params_file(state: Path) -> Path:
    import yaml

    data = yaml.safe_load((REPO / "config" / "robot.yaml").read_text())
    for name, values in data.items():
        params = values.get("ros__parameters", {})
        for key, value in list(params.items()):
            if isinstance(value, str) and value.startswith("~/.local/share/buddy/"):
                params[key] = str(state / Path(value).name)
        if name == "/**/parent_dashboard":
            params["port"] = 0
    path = state / "params.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def start_failing_server() -> object:
    """The fake LLM server, dropping every tenth request (the connection closes unanswered)."""
    from buddy_personality.tools.fakes.fake_llm_server import FakeLlmServer

    class FailingServer(FakeLlmServer):
        count = 0
        dropped = 0

        def _content_for(self, request: dict) -> str:   # type: ignore[override]
            FailingServer.count += 1
            if FailingServer.count % 10 == 0:
                FailingServer.dropped += 1
                raise ConnectionAbortedError("soak: scripted failure")
            return super()._content_for(request)

    return FailingServer(keep_alive=True).start()


class Probe:
    """Counts child lines said inside a session and Buddy's spoken replies, over DDS."""

    def __init__(self) -> None:
        import rclpy
        from rclpy.context import Context
        from rclpy.executors import SingleThreadedExecutor

        from buddy_msgs.msg import Say, Utterance
        from buddy_personality.nodes.common import qos

        self.context = Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node("soak_probe", context=self.context)
        self.utterances: list[float] = []
        self.says: list[float] = []
        self.node.create_subscription(Utterance, "/buddy/speech/utterance",
                                      lambda _m: self.utterances.append(time.monotonic()),
                                      qos.of("/buddy/speech/utterance"))
        self.node.create_subscription(Say, "/buddy/tts/say",
                                      lambda _m: self.says.append(time.monotonic()),
                                      qos.of("/buddy/tts/say"))
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.running = True
        self.thread = threading.Thread(target=self._spin, daemon=True)
        self.thread.start()

    def _spin(self) -> None:
        while self.running:
            self.executor.spin_once(timeout_sec=0.1)

    def close(self) -> None:
        import rclpy

        self.running = False
        self.thread.join(2)
        self.executor.shutdown()
        self.node.destroy_node()
        rclpy.try_shutdown(context=self.context)


def fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--talk-every-s", type=float, default=180.0)
    parser.add_argument("--warmup-s", type=float, default=120.0)
    parser.add_argument("--line-gap-s", type=float, default=6.0)
    ns = parser.parse_args()
    from buddy_personality.face.sim_pty import PtyBoardRunner

    env = confined_env(domain_id=1 + os.getpid() % 100)
    os.environ.update({k: v for k, v in env.items() if k.startswith(("ROS_", "FASTDDS", "RMW"))})
    state = Path(tempfile.mkdtemp(prefix="buddy-soak-"))
    server = start_failing_server()
    board = PtyBoardRunner(link_path=str(state / "buddy-face"))
    argv = [str(VENV_BIN / "buddy"), "run", "--params", str(params_file(state)),
            "--port", board.path, "--llm-url", server.url]  # type: ignore[attr-defined]
    log = (state / "run.log").open("w")
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=log,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    probe = Probe()
    duration = ns.minutes * 60.0
    start = time.monotonic()
    unplugs = [start + duration * 0.35, start + duration * 0.7]
    samples: list[dict[str, float]] = []
    conversations = 0
    lines_in_session: list[float] = []
    next_talk = start + 20.0
    try:
        while time.monotonic() - start < duration:
            now = time.monotonic()
            if proc.poll() is not None:
                raise RuntimeError(f"buddy run exited with {proc.returncode} (log: {state})")
            if unplugs and now >= unplugs[0]:
                unplugs.pop(0)
                board.unplug()
                time.sleep(2.0)
                board.plug()
            if now >= next_talk:
                conversations += 1
                for line in CONVERSATION:
                    assert proc.stdin is not None
                    proc.stdin.write(line + "\n")
                    proc.stdin.flush()
                    # a bare wake phrase opens the session (Buddy listens, says nothing);
                    # a goodbye ends it: every line between gets a spoken answer
                    if line not in ("hey buddy", "bye buddy"):
                        lines_in_session.append(time.monotonic())
                    time.sleep(ns.line_gap_s)
                next_talk = start + conversations * ns.talk_every_s + 20.0
            if not samples or now - samples[-1]["t"] >= 10.0:
                mem = memory(proc.pid)
                samples.append({"t": now - start, "rss_mb": mem.rss_kb / 1024.0,
                                "fds": fds(proc.pid), "threads": threads(proc.pid)})
            time.sleep(0.5)
        time.sleep(ns.line_gap_s)
    finally:
        probe.close()
        stop(proc)
        board.close()
        server.stop()  # type: ignore[attr-defined]
    after = [s for s in samples if s["t"] >= ns.warmup_s] or samples
    rss_growth = after[-1]["rss_mb"] - min(s["rss_mb"] for s in after[:3])
    # every child line inside a session gets a reply before the next one
    answered = sum(1 for t in lines_in_session
                   if any(t < s <= t + ns.line_gap_s for s in probe.says))
    result = {
        "process": "buddy run, stdin as the child (all nodes in one process, LeanExecutor)",
        "minutes": ns.minutes, "conversations": conversations,
        "llm_requests": type(server).count, "llm_requests_dropped": type(server).dropped,
        "board_unplugs": 2,
        "rss_mb_after_warmup": round(after[0]["rss_mb"], 1),
        "rss_mb_end": round(samples[-1]["rss_mb"], 1),
        "rss_growth_mb": round(rss_growth, 2), "rss_target_mb": RSS_GROWTH_TARGET_MB,
        "fds": sorted({int(s["fds"]) for s in after}),
        "threads": sorted({int(s["threads"]) for s in after}),
        "child_lines_in_sessions": len(lines_in_session), "answered": answered,
        "every_turn_answered": answered == len(lines_in_session),
        "rss_median_mb": round(statistics.median(s["rss_mb"] for s in after), 1),
        "meets_target": rss_growth < RSS_GROWTH_TARGET_MB
        and len({int(s["fds"]) for s in after}) <= 2 and answered == len(lines_in_session),
        "log": str(state / "run.log"),
    }
    print(json.dumps(result) if ns.json else json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
