"""Snapshot-to-face latency and keepalive gaps of what a robot runs (issue 14): the
`face_driver_node` executable, and `buddy run` (the whole graph in one process), each
driving the firmware-like board emulator on a pseudo-terminal, with snapshots published
from this (another) process. One JSON object with --json.

Three processes per target, so no clock or GIL is shared with what is measured:
- the target: `lib/buddy_personality/face_driver_node --ros-args -p port:=<pty>` (its own
  executor: `make_executor()`, LeanExecutor), or `buddy run --headless --port <pty>`;
- the board emulator (`SimulatedBoard` behind `PtyBoardRunner`: FACE_STATUS at 20 Hz,
  HEARTBEAT at 1 Hz, the 450 ms talking timeout) in a subprocess of this script, which
  stamps every frame it reads with CLOCK_MONOTONIC (system-wide, so comparable);
- this process, publishing snapshots over DDS (confined: loopback profile, LOCALHOST,
  own domain) and, for the frame rates, conversation phase and tts/speaking.

The run alternates bursts of snapshots (each a distinct mood and intensity, at a random
phase of the driver's tick) with quiet spells of 3.5-5 s, so the keepalive (DESIGN §4.4:
at least once a second) and the spec 002 §11.3 backstop (after 3000 ms) are exercised
all along, as in issue 14's report. About half the bursts come while Buddy speaks
(SPEAKING phase, tts/speaking true), so the latency is also measured with issue 20's
talking refresh running (`latency_ms_while_speaking`). Then 5 s idle and 5 s speaking give
the frames per second the driver sends in each.

Which process and executor were measured is in the JSON: the executor is read from the
target's own /diagnostics (`executor` value of face_driver).

Targets (issue 14): p99.9 < 5 ms, max < 20 ms, longest keepalive gap < 1.1 s. This
machine is shared: the load average at the start and end is in the JSON.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from buddy_personality.dds_confinement import confine_dds

DOMAIN_ID = 60 + os.getpid() % 40
confine_dds(domain_id=DOMAIN_ID)

TARGETS_MS = {"p99_9": 5.0, "max": 20.0}
TARGET_GAP_S = 1.1
MOODS = ("happy", "curious", "love", "silly", "excited", "sleepy", "surprised")
LIB = Path(sys.prefix) / "lib" / "buddy_personality"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


# --- the board process ------------------------------------------------------------------


def board_process(record_file: str, link_path: str) -> int:
    """The emulator in its own process; writes every frame's (type, payload bytes,
    arrival) when stdin closes."""
    from buddy_personality.face.codec import FrameDecoder
    from buddy_personality.face.sim_board import SimulatedBoard
    from buddy_personality.face.sim_pty import PtyBoardRunner

    decoder = FrameDecoder()
    frames: list[tuple[int, str, float]] = []

    def on_rx(data: bytes, at: float) -> None:
        for body in decoder.feed(data):
            frames.append((body[0], body.hex(), at))

    runner = PtyBoardRunner(SimulatedBoard(now=time.monotonic()), link_path=link_path,
                            on_rx=on_rx)
    print(runner.path, flush=True)
    sys.stdin.read()
    runner.close()
    Path(record_file).write_text(json.dumps(frames))
    return 0


# --- one target ---------------------------------------------------------------------------


def start_target(kind: str, port: str, log: Path) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ)
    if kind == "executable":
        argv = [str(LIB / "face_driver_node"), "--ros-args", "-p", f"port:={port}",
                "-r", "__ns:=/bench"]
        namespace = "/bench"
    else:
        argv = [str(Path(sys.prefix) / "bin" / "buddy"), "run", "--headless", "--port", port]
        namespace = "/buddy"
    proc = subprocess.Popen(argv, stdout=log.open("w"), stderr=subprocess.STDOUT, env=env,
                            start_new_session=True)
    return proc, namespace


def measure(kind: str, duration_s: float, seed: int) -> dict:
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from std_msgs.msg import Bool

    from buddy_msgs.msg import ConversationPhase, PersonalitySnapshot
    from buddy_personality.face.protocol import MOOD_IDS, PacketType
    from buddy_personality.nodes.common import qos

    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix=f"face-bench-{kind}-"))
    record = tmp / "frames.json"
    board = subprocess.Popen([sys.executable, __file__, "--board-process", str(record),
                              str(tmp / "face0")], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert board.stdout is not None and board.stdin is not None
    board.stdout.readline()   # the board is up (its pty path, linked at face0)
    proc, ns = start_target(kind, str(tmp / "face0"), tmp / "target.log")
    rclpy.init()
    node = Node("face_bench", namespace=ns)
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    snaps = node.create_publisher(PersonalitySnapshot, "personality/snapshot",
                                  qos.of("personality/snapshot"))
    phases = node.create_publisher(ConversationPhase, "conversation/phase",
                                   qos.of("conversation/phase"))
    speaking = node.create_publisher(Bool, "tts/speaking", qos.of("tts/speaking"))
    executors: set[str] = set()
    late_ms: list[float] = []     # the driver's own view: its tick lateness per second

    def on_diag(msg: DiagnosticArray) -> None:
        for status in msg.status:
            if status.name.endswith("face_driver"):
                values = {kv.key: kv.value for kv in status.values}
                if "executor" in values:
                    executors.add(values["executor"])
                if "tick_late_max_ms" in values:
                    late_ms.append(float(values["tick_late_max_ms"]))

    node.create_subscription(DiagnosticArray, "/diagnostics", on_diag, qos.of("/diagnostics"))

    def spin_for(seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            executor.spin_once(timeout_sec=min(left, 0.05))

    sent: list[tuple[int, int, float]] = []
    sent_talking: set[int] = set()   # indices of `sent` published while Buddy spoke
    load_start = os.getloadavg()[0]
    try:
        deadline = time.monotonic() + 60
        while snaps.get_subscription_count() < 1 or not executors:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"{kind} did not come up: "
                                   f"{(tmp / 'target.log').read_text()[-2000:]}")
            spin_for(0.1)
        spin_for(1.0)
        start = time.monotonic()
        key: tuple[int, int] | None = None
        while time.monotonic() - start < duration_s:
            # Every other burst on average Buddy is speaking: the driver then refreshes
            # SET_TALKING every 100 ms (issue 20), and snapshots must still be on time.
            talking = rng.random() < 0.5
            if talking:
                phases.publish(ConversationPhase(phase=ConversationPhase.SPEAKING))
                speaking.publish(Bool(data=True))
            burst_end = time.monotonic() + rng.uniform(2.0, 6.0)
            while time.monotonic() < burst_end:
                mood = rng.choice(MOODS)
                intensity = rng.randrange(40, 256)
                if (MOOD_IDS[mood], intensity) == key:
                    intensity = 40 + (intensity + 1) % 216
                key = (MOOD_IDS[mood], intensity)
                t = time.monotonic()
                snaps.publish(PersonalitySnapshot(mood=mood, intensity=intensity / 255.0))
                sent.append((key[0], key[1], t))
                if talking:
                    sent_talking.add(len(sent) - 1)
                spin_for(rng.uniform(0.05, 0.25))
            if talking:
                speaking.publish(Bool(data=False))
                phases.publish(ConversationPhase(phase=ConversationPhase.IDLE))
            spin_for(rng.uniform(3.5, 5.0))     # quiet: keepalives and the backstop
        measured_until = time.monotonic()
        # frames per second: idle, then speaking
        spin_for(2.0)
        idle = (time.monotonic(), time.monotonic() + 5.0)
        spin_for(5.0)
        phases.publish(ConversationPhase(phase=ConversationPhase.SPEAKING))
        speaking.publish(Bool(data=True))
        spin_for(0.5)
        talk = (time.monotonic(), time.monotonic() + 5.0)
        spin_for(5.0)
        speaking.publish(Bool(data=False))
        phases.publish(ConversationPhase(phase=ConversationPhase.IDLE))
        spin_for(1.0)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        board.stdin.close()
        board.wait(timeout=30)
    frames = [(t, bytes.fromhex(h), at) for t, h, at in json.loads(record.read_text())]
    states = [(body[-5], body[-4], at) for t, body, at in frames
              if t == PacketType.SET_STATE]
    latencies, superseded, lost = match_latencies(sent, states)
    talking_lat, _s, _l = match_latencies(sent, states, only=sent_talking)
    in_run = [at for _m, _k, at in states if sent[0][2] <= at <= measured_until]
    gaps = [b - a for a, b in itertools.pairwise(in_run)]

    def rate(window: tuple[float, float]) -> dict[str, float]:
        inside = [t for t, _b, at in frames if window[0] <= at < window[1]]
        seconds = window[1] - window[0]
        by_type: dict[str, float] = {}
        for type_id in sorted(set(inside)):
            name = PacketType(type_id).name if type_id in PacketType._value2member_map_ \
                else hex(type_id)
            by_type[name] = round(inside.count(type_id) / seconds, 2)
        return {"total": round(len(inside) / seconds, 2), "by_type": by_type}

    result = {
        "target": kind,
        "process": ("lib/buddy_personality/face_driver_node (the installed executable, "
                    "as `ros2 run` starts it)" if kind == "executable" else
                    "buddy run --headless (every node of the graph in one process)"),
        "executor": sorted(executors),
        "duration_s": round(measured_until - start, 1),
        "snapshots": len(latencies),
        "superseded": superseded,
        "lost": lost,
        "latency_ms": {
            "median": round(statistics.median(latencies), 3),
            "p99": round(percentile(latencies, 99), 3),
            "p99_9": round(percentile(latencies, 99.9), 3),
            "max": round(max(latencies), 3),
        },
        "latency_ms_while_speaking": {
            "snapshots": len(talking_lat),
            "median": round(statistics.median(talking_lat), 3) if talking_lat else None,
            "p99": round(percentile(talking_lat, 99), 3) if talking_lat else None,
            "p99_9": round(percentile(talking_lat, 99.9), 3) if talking_lat else None,
            "max": round(max(talking_lat), 3) if talking_lat else None,
        },
        "longest_keepalive_gap_s": round(max(gaps), 3),
        # from the driver's /diagnostics: its latest tick past its deadline, per second
        "driver_tick_late_max_ms": round(max(late_ms, default=0.0), 1),
        "frames_per_s": {"idle": rate(idle), "speaking": rate(talk)},
        "load_average_1m": {"start": round(load_start, 2),
                            "end": round(os.getloadavg()[0], 2)},
    }
    result["pass"] = (lost == 0 and result["latency_ms"]["p99_9"] < TARGETS_MS["p99_9"]
                      and result["latency_ms"]["max"] < TARGETS_MS["max"]
                      and result["longest_keepalive_gap_s"] < TARGET_GAP_S)
    return result


def match_latencies(sent: list[tuple[int, int, float]],
                    arrived: list[tuple[int, int, float]],
                    only: set[int] | None = None) -> tuple[list[float], int, int]:
    """For each sent (mood, intensity, t), the first arrival of that key at or after t.
    Snapshots are latched (depth 1): one replaced by the next before the driver took it
    is `superseded` (only the newer is shown, which is right); any other miss is lost.
    `only`: the indices of `sent` to count (default all)."""
    latencies: list[float] = []
    hits: list[bool] = []
    for i, (mood, intensity, t) in enumerate(sent):
        if only is not None and i not in only:
            continue
        t_next = sent[i + 1][2] if i + 1 < len(sent) else float("inf")
        hit = next((at for m, k, at in arrived
                    if (m, k) == (mood, intensity) and t <= at < t_next + 0.5), None)
        hits.append(hit is not None)
        if hit is not None:
            latencies.append((hit - t) * 1000.0)
    superseded = sum(1 for i, ok in enumerate(hits)
                     if not ok and i + 1 < len(hits) and hits[i + 1])
    return latencies, superseded, hits.count(False) - superseded


def run_target_in_subprocess(kind: str, duration_s: float, seed: int) -> dict:
    """Each target in a fresh process of this script (one rclpy context each)."""
    out = subprocess.run([sys.executable, __file__, "--one", kind, "--duration",
                          str(duration_s), "--seed", str(seed)], capture_output=True,
                         text=True, timeout=duration_s + 300, check=False)
    if out.returncode != 0:
        return {"target": kind, "error": out.stderr[-3000:]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--duration", type=float, default=60.0,
                        help="seconds of snapshots and quiet spells per target "
                             "(issue 14 asks for >= 600)")
    parser.add_argument("--targets", default="executable,buddy-run",
                        help="comma-separated: executable, buddy-run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--board-process", nargs=2, metavar=("RECORD_FILE", "LINK"),
                        help=argparse.SUPPRESS)  # internal: the board subprocess
    args = parser.parse_args(argv)
    if args.board_process:
        return board_process(*args.board_process)
    if args.one:
        print(json.dumps(measure(args.one, args.duration, args.seed)))
        return 0
    results = [run_target_in_subprocess(kind.strip(), args.duration, args.seed)
               for kind in args.targets.split(",") if kind.strip()]
    summary = {
        "benchmark": "face_latency",
        "what": "PersonalitySnapshot published (other process) -> SET_STATE read by the "
                "board emulator on the pty; SET_STATE gaps; frames per second",
        "targets_ms": TARGETS_MS,
        "target_longest_gap_s": TARGET_GAP_S,
        "results": results,
        "pass": all(r.get("pass", False) for r in results),
        "note": "shared 2-core machine: timing figures are noisy under load",
    }
    if args.json:
        print(json.dumps(summary))
    else:
        for r in results:
            if "error" in r:
                print(f"{r['target']}: error\n{r['error']}")
                continue
            lat = r["latency_ms"]
            print(f"{r['target']} ({', '.join(r['executor'])}): {r['snapshots']} snapshots, "
                  f"median {lat['median']} ms, p99 {lat['p99']} ms, p99.9 {lat['p99_9']} ms, "
                  f"max {lat['max']} ms; longest gap {r['longest_keepalive_gap_s']} s; "
                  f"frames/s idle {r['frames_per_s']['idle']['total']}, speaking "
                  f"{r['frames_per_s']['speaking']['total']}; pass={r['pass']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
