"""End-to-end latency: a child's utterance on `speech/utterance` to Buddy's answer on
`tts/say` and to the face's SET_STATE, against the fake LLM server, with Buddy's own
overhead (total minus the server's time for that request). One JSON object with --json.

    .venv/bin/python benchmarks/end_to_end.py [--json] [--utterances N]

Target (issue 8): Buddy's overhead under 20 ms at p99, for both the answer and the face.

Setup (four processes; all stamps are CLOCK_MONOTONIC, which is system-wide, and each is
taken in a process that does little else, so it does not wait for that process's GIL):
- the graph as `buddy run --headless --llm-url URL --port LINK` runs it: one process,
  all five nodes on one executor, parameters from config/robot.yaml; HOME points at a
  temporary directory, so the memory, household and RS-2 usage files start empty and
  nothing of the user's is touched;
- the fake OpenAI-compatible server (`FakeLlmServer`, loopback only, streamed answers)
  in a process of its own (this script with --server-process): it stamps when it had
  each request (request line and headers read) and when it finished answering (last
  byte flushed);
- the face board simulated on a pseudo-terminal in a process of its own (this script
  with --board-process), decoding every frame with the face codec and stamping arrival;
- this process: a probe node that publishes the utterances and stamps each `tts/say`
  as it arrives.
DDS is confined (loopback profile, LOCALHOST discovery) to a domain where no other node
was seen (other Buddy graphs on the machine would answer our utterances too).

What is timed, per utterance (t0 = just before publishing it):
- (a) say: t0 -> the reply's `tts/say` received by the probe.
- (b) face: t0 -> the first SET_STATE after the SET_CONV_STATE(SPEAKING) of that turn.
  Why that frame: while THINKING the face shows the attentive THINKING face whatever
  the engine says (spec 002 §11.1), so the reply first becomes visible when the bridge
  switches the phase to SPEAKING and the driver sends the engine's current mood, which
  by then holds the reply's INLINE emotion (published while the answer was still
  streaming). The driver sends that SET_STATE right after the SET_CONV_STATE, in the
  same callback. How many of those frames show the reply's emotion itself is reported
  (`reply_emotion_shown`): the engine's guardrails and budget may change it.
- the server's time for that request: received -> finished (above).
Overhead = total - server time: the DDS hops, the bridge's turn, the hand-off to its
worker thread, HTTP, parsing and validating the stream's tail, the hand-off back, the
personality engine and the face driver. `before_server_ms` and `after_server_ms` split it.

The fake server: streamed (the bridge streams in production), `--chunk-chars` characters
per server-sent event every `--chunk-delay-ms` (defaults 8 and 5 ms: ~45 events, about
a quarter of a second per answer), in HTTP/1.1 chunks on a kept-alive connection as
vLLM serves them (`--no-keep-alive`: a new connection per answer), answering with the
demo echo responder's text and always the same feeling (happy, to a happy child) so
that the INLINE, HYBRID and POST intents agree and the engine's mood settles.

How the child talks (the spec's limits respected, as a real child would):
- A session starts with the wake phrase ("hey buddy, ...", the first turn in the same
  utterance) and ends after `--turns-per-session` turns with "bye bye"; the next
  utterance starts a new session, as a child who comes back would. A new session is a
  new governor episode (`governor/reset`), so the governor's budgets (100 steps, 20
  non-progress steps) never run out; RS-1 (900 s a session) and RS-2 (2700 s a day,
  fresh usage file) are far away.
- The personality engine's transition budget (spec 000 / DESIGN §4.1: 6 projected mood
  transitions per 60 s): each session start costs two (THINKING at the start, then
  back to the reply's mood), the steady replies none, so sessions of 40 turns (~45 s)
  keep any 60 s window at four or fewer. The BUDGET guardrail events and mood changes
  seen are reported.
- Utterances are paced by the bridge's cognition cooldown (spec 003 §3.4: 1 s between
  calls, otherwise no call at all): the next utterance goes out once the reply has
  arrived and at least cooldown + 50 ms after the previous one, plus a random 0-100 ms
  so it lands at a random phase of the nodes' timers (face driver, 10 Hz bridge tick, 1 Hz
personality tick). Buddy
  may still be "speaking" (its estimated speech time): the child talks over it, which
  the bridge handles as a new turn.
The first `--warmup` utterances (first HTTP connection, first validation) are not
counted; their figures are reported apart.

Percentiles are nearest-rank: p99 of n samples is the ceil(0.99 n)-th smallest (with the
default ~87 samples, the largest). Other processes share the cores: the 1-minute load
average before and after, the graph's CPU wait per turn (Linux schedstat: time its
threads were runnable but not running) and the worst turns with theirs are reported;
repeat runs and compare.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import queue
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from procstat import VENV_BIN, confined_env, start, stop

from buddy_personality.dds_confinement import confine_dds

# DDS confinement before rclpy loads: loopback profile, LOCALHOST range. The domain is
# chosen later among those where nobody is seen (`open_free_domain`).
confine_dds()

TARGET_OVERHEAD_P99_MS = 20.0
NAMESPACE = "/buddy"
COOLDOWN_S = 1.0          # llm_bridge gate.cooldown_s (spec 003 §3.4), robot.yaml default
PACE_MARGIN_S = 0.05
REPLY_TIMEOUT_S = 5.0
QUESTIONS = (
    "do you like dinosaurs?", "what is your favourite colour?", "can you count to five?",
    "I built a tower with blocks", "why is the sky blue?", "my cat is called Pickles",
    "do you want to play a game?", "I had pancakes for breakfast",
    "what sound does a cow make?", "tell me a story about a dragon",
)
REPLY_EMOTION = "happy"
GOODBYE = "bye bye"
WAKE = "hey buddy, "
SET_STATE, SET_CONV_STATE = 0x20, 0x25   # face-protocol.md packet types
CONV_SPEAKING = 5


def percentile(values: list[float], q: float) -> float:
    """Nearest rank: the ceil(q/100 * n)-th smallest value."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100.0 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summary(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"median": None, "p99": None, "max": None, "min": None}
    return {
        "median": round(statistics.median(values), 3),
        "p99": round(percentile(values, 99), 3),
        "max": round(max(values), 3),
        "min": round(min(values), 3),
    }


# --- helper processes -------------------------------------------------------------------

def board_process(record_file: str, link_path: str) -> int:
    """The simulated board on a pty: records [kind, value, value2, arrival] for every
    SET_STATE and SET_CONV_STATE until stdin closes, then writes them as JSON."""
    from buddy_personality.face.codec import FrameDecoder, parse_packet
    from buddy_personality.face.protocol import SetConvState, SetState
    from buddy_personality.face.sim_board import SimulatedBoard
    from buddy_personality.face.sim_pty import PtyBoardRunner

    decoder = FrameDecoder()
    records: list[tuple[str, int, int, float]] = []

    def on_rx(data: bytes, at: float) -> None:
        for body in decoder.feed(data):
            if body[0] not in (SET_STATE, SET_CONV_STATE):
                continue
            # v2 envelope headers are 13 bytes, v1 2: a v2 SET_STATE / SET_CONV_STATE
            # body is at least 14 bytes, a v1 one at most 7.
            payload = parse_packet(body, 2 if len(body) >= 13 else 1).payload
            if isinstance(payload, SetState):
                records.append(("state", payload.mood_id, payload.intensity, at))
            elif isinstance(payload, SetConvState):
                records.append(("conv", payload.conv_state, 0, at))

    runner = PtyBoardRunner(SimulatedBoard(now=time.monotonic()), link_path=link_path,
                            on_rx=on_rx)
    print(runner.path, flush=True)
    sys.stdin.read()
    runner.close()
    Path(record_file).write_text(json.dumps(records))
    return 0


def steady_responder(request: dict[str, Any]) -> dict[str, Any]:
    """The demo echo answer (mentions the child's words) with one feeling throughout:
    happy, to a happy child, so the INLINE, HYBRID and POST intents agree and the
    engine's mood settles instead of spending its transition budget on every turn."""
    from buddy_personality.tools.fakes.fake_llm_server import echo_responder

    answer = echo_responder(request)
    answer.update(emotion=REPLY_EMOTION, child_affect="positive",
                  mood_reason="the child is telling me something fun")
    return answer


def server_process(record_file: str, chunk_chars: int, chunk_delay_s: float,
                   keep_alive: bool) -> int:
    """The fake LLM server: prints its URL, serves until stdin closes, then writes one
    {received_at, finished_at, status, chunks, user_text} per chat request as JSON."""
    from buddy_personality.tools.fakes.fake_llm_server import FakeLlmServer

    server = FakeLlmServer("stream", steady_responder, chunk_chars=chunk_chars,
                           chunk_delay_s=chunk_delay_s, keep_alive=keep_alive).start()
    print(server.url, flush=True)
    sys.stdin.read()
    server.stop()
    out = []
    for t in server.request_timings():
        body = server.requests[t.request_index] if t.request_index is not None else {}
        users = [m for m in body.get("messages", []) if m.get("role") == "user"]
        out.append({"received_at": t.received_at, "finished_at": t.finished_at,
                    "status": t.status, "chunks": t.chunks,
                    "user_text": str(users[-1].get("content", "")) if users else ""})
    Path(record_file).write_text(json.dumps(out))
    return 0


class Helper:
    """This script as a helper process: its first stdout line is its address; closing
    its stdin makes it write its records and exit."""

    def __init__(self, args: list[str]) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.address = self.proc.stdout.readline().strip()
        if not self.address:
            raise RuntimeError(f"helper {args[0]} did not start")

    def finish(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


# --- the child's side -------------------------------------------------------------------

def run_delay_s(pid: int) -> float:
    """Time the process's threads have spent runnable but waiting for a CPU (Linux
    schedstat): other processes on the shared cores, not Buddy's own work."""
    total = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        try:
            total += int(stat.read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue   # a thread that just ended
    return total / 1e9


@dataclass(slots=True)
class Turn:
    index: int
    text: str
    session_start: bool
    sent_at: float
    say_at: float | None = None
    cpu_wait_s: float = 0.0   # the graph's run delay from t0 to 30 ms after the answer


@dataclass(slots=True)
class Probe:
    """The child's side over DDS: publishes utterances, collects what comes back."""

    node: Any
    publisher: Any
    inbox: queue.SimpleQueue[tuple[str, float, Any]] = field(default_factory=queue.SimpleQueue)
    guardrails: list[str] = field(default_factory=list)
    in_session: bool = False
    unexpected_ends: list[str] = field(default_factory=list)
    mood_changes: list[tuple[float, str, str, str]] = field(default_factory=list)


def make_probe(context: Any) -> Probe:
    from rclpy.node import Node

    from buddy_msgs.msg import ConversationEvent, GuardrailEvent, MoodChanged, Say, Utterance
    from buddy_personality.nodes.common import qos

    node = Node("end_to_end_probe", namespace=NAMESPACE, context=context)
    probe = Probe(node, node.create_publisher(Utterance, "speech/utterance",
                                              qos.of("speech/utterance")))

    def on_say(msg: Say) -> None:
        probe.inbox.put(("say", time.monotonic(), msg))

    def on_conv(msg: ConversationEvent) -> None:
        probe.in_session = msg.kind == ConversationEvent.STARTED
        if msg.kind == ConversationEvent.ENDED and msg.trigger != ConversationEvent.END_GOODBYE:
            probe.unexpected_ends.append(msg.trigger)
        probe.inbox.put(("conv", time.monotonic(), msg))

    def on_guardrail(msg: GuardrailEvent) -> None:
        probe.guardrails.append(msg.rule_id)

    def on_mood(msg: MoodChanged) -> None:
        probe.mood_changes.append((time.monotonic(), msg.prev, msg.next, msg.cause))

    node.create_subscription(Say, "tts/say", on_say, qos.of("tts/say"))
    node.create_subscription(ConversationEvent, "conversation/events", on_conv,
                             qos.of("conversation/events"))
    node.create_subscription(GuardrailEvent, "personality/guardrail", on_guardrail,
                             qos.of("personality/guardrail"))
    node.create_subscription(MoodChanged, "personality/mood_changed", on_mood,
                             qos.of("personality/mood_changed"))
    return probe


def publish_utterance(probe: Probe, text: str) -> float:
    from buddy_msgs.msg import Utterance

    msg = Utterance(text=text, is_final=True, confidence=1.0)
    t = time.monotonic()
    probe.publisher.publish(msg)
    return t


def wait_for(probe: Probe, kind: str, after: float, timeout: float) -> tuple[float, Any] | None:
    """The first inbox item of `kind` received at or after `after`."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        try:
            k, at, msg = probe.inbox.get(timeout=left)
        except queue.Empty:
            return None
        if k == kind and at >= after:
            return at, msg


def open_free_domain(rng: random.Random, look_s: float = 1.5) -> tuple[Any, int]:
    """An rclpy context on a DDS domain where no other node shows up within `look_s`.
    Other helpers' tests and benchmarks run graphs under /buddy on domains of their
    own; sharing one would mix their answers with ours."""
    import rclpy
    from rclpy.context import Context

    candidates = rng.sample(range(1, 101), 100)
    for domain_id in candidates[:10]:
        context = Context()
        rclpy.init(context=context, domain_id=domain_id)
        node = rclpy.create_node("end_to_end_domain_check", context=context)
        time.sleep(look_s)
        others = [n for n, _ns in node.get_node_names_and_namespaces()
                  if n != "end_to_end_domain_check"]
        node.destroy_node()
        if not others:
            return context, domain_id
        rclpy.try_shutdown(context=context)
    raise RuntimeError("no free DDS domain found (10 tried)")


def wait_ready(probe: Probe, graph: subprocess.Popen, timeout: float = 30.0) -> None:
    """The bridge listens, answers can reach us, and the face driver is configured (the
    last node created; its face/state publisher exists from configure on)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and graph.poll() is None:
        if (probe.publisher.get_subscription_count() >= 1
                and probe.node.count_publishers(f"{NAMESPACE}/tts/say") >= 1
                and probe.node.count_publishers(f"{NAMESPACE}/face/state") >= 1):
            break
        time.sleep(0.05)
    else:
        raise RuntimeError("the graph did not come up (buddy run exited, or no subscriber "
                           "on speech/utterance, no tts/say or face/state publisher)")
    if probe.node.count_publishers(f"{NAMESPACE}/tts/say") > 1:
        raise RuntimeError("another Buddy graph joined this DDS domain; run again")


def converse(probe: Probe, count: int, turns_per_session: int, rng: random.Random,
             graph_pid: int) -> list[Turn]:
    """Talk to Buddy as described in the module docstring; one Turn per utterance."""
    turns: list[Turn] = []
    last_sent = -math.inf
    in_session_turns = 0
    for i in range(count):
        if in_session_turns >= turns_per_session and probe.in_session:
            t_bye = publish_utterance(probe, GOODBYE)
            wait_for(probe, "conv", t_bye, REPLY_TIMEOUT_S)
            in_session_turns = 0
        # in_session follows the conversation events: a session that ended under us
        # (governor HALT, RS-1 / RS-2) makes the next utterance wake Buddy again.
        session_start = not probe.in_session
        question = QUESTIONS[i % len(QUESTIONS)]
        text = WAKE + question if session_start else question
        pace_until = last_sent + COOLDOWN_S + PACE_MARGIN_S + rng.uniform(0.0, 0.1)
        time.sleep(max(0.0, pace_until - time.monotonic()))
        while not probe.inbox.empty():   # nothing older may pass for this turn's answer
            probe.inbox.get_nowait()
        waited = run_delay_s(graph_pid)
        turn = Turn(i, text, session_start, publish_utterance(probe, text))
        last_sent = turn.sent_at
        got = wait_for(probe, "say", turn.sent_at, REPLY_TIMEOUT_S)
        if got is not None:
            turn.say_at = got[0]
            time.sleep(max(0.0, turn.say_at + 0.03 - time.monotonic()))  # face frame
        turn.cpu_wait_s = run_delay_s(graph_pid) - waited
        in_session_turns = 1 if session_start else in_session_turns + 1
        turns.append(turn)
    return turns


def run(count: int, warmup: int, turns_per_session: int, chunk_chars: int,
        chunk_delay_s: float, keep_alive: bool, seed: int) -> dict[str, Any]:
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    from buddy_personality.face.protocol import MOOD_NAMES

    context, domain_id = open_free_domain(random.Random())
    tmp = Path(tempfile.mkdtemp(prefix="buddy-e2e-"))
    (tmp / "home").mkdir()
    board = Helper(["--board-process", str(tmp / "board.json"), str(tmp / "face0")])
    server = Helper(["--server-process", str(tmp / "server.json"), str(chunk_chars),
                     str(chunk_delay_s), str(int(keep_alive))])
    env = confined_env(domain_id)
    env["HOME"] = str(tmp / "home")
    graph = start([str(VENV_BIN / "buddy"), "run", "--headless", "--llm-url", server.address,
                   "--port", board.address], env, tmp / "run.log")
    executor = SingleThreadedExecutor(context=context)
    probe = make_probe(context)
    executor.add_node(probe.node)
    spin = threading.Thread(target=executor.spin, name="probe-executor", daemon=True)
    spin.start()
    turns: list[Turn] = []
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    try:
        wait_ready(probe, graph)
        time.sleep(1.0)  # latched state (governor, identity, snapshot) reaches the bridge
        turns = converse(probe, count, turns_per_session, random.Random(seed), graph.pid)
        time.sleep(0.3)  # the last frames reach the board
    finally:
        elapsed = time.monotonic() - started
        executor.shutdown()
        spin.join(timeout=2.0)
        probe.node.destroy_node()
        rclpy.try_shutdown(context=context)
        stop(graph)
        board.finish()
        server.finish()
    records = json.loads((tmp / "board.json").read_text())
    requests = json.loads((tmp / "server.json").read_text())
    # Everything measured, for a closer look (e.g. a turn without its SET_STATE).
    (tmp / "turns.json").write_text(json.dumps({
        "turns": [[t.index, t.text, t.sent_at, t.say_at, t.cpu_wait_s] for t in turns],
        "mood_changes": probe.mood_changes,
    }))
    result = analyse(turns, records, requests, warmup, MOOD_NAMES)
    result.update({
        "sessions": sum(t.session_start for t in turns),
        "turns_per_session": turns_per_session,
        "unexpected_session_ends": probe.unexpected_ends,
        "budget_guardrail_events": probe.guardrails.count("BUDGET"),
        "mood_changes": len(probe.mood_changes),
        "load_average_1m": {"before": round(load_before, 2),
                            "after": round(os.getloadavg()[0], 2)},
        "wall_time_s": round(elapsed, 1),
        "server": {"mode": "stream", "responder": "echo_responder, always happy",
                   "chunk_chars": chunk_chars, "chunk_delay_s": chunk_delay_s,
                   "keep_alive": keep_alive},
        "dds_domain": domain_id,
        "logs": str(tmp),
    })
    return result


# --- figures ----------------------------------------------------------------------------

def analyse(turns: list[Turn], records: list[list[Any]], requests: list[dict[str, Any]],
            warmup: int, mood_names: dict[int, str]) -> dict[str, Any]:
    """Match every turn with its server request and its SPEAKING face; compute figures."""
    series: dict[str, list[float]] = {k: [] for k in (
        "server", "before", "say_total", "say_over", "say_after",
        "face_total", "face_over", "face_after", "cpu_wait")}
    warm: list[dict[str, float]] = []
    counted: list[dict[str, float]] = []   # per counted turn, for the worst ones
    missed = {"say": 0, "server_request": 0, "face": 0}
    shown_reply = 0
    for n, turn in enumerate(turns):
        t_next = turns[n + 1].sent_at if n + 1 < len(turns) else math.inf
        if turn.say_at is None:
            missed["say"] += 1
            continue
        # The one chat request of this turn: the bridge sent it after the utterance and
        # the server finished it before the answer could be spoken.
        mine = [r for r in requests if turn.sent_at <= r["received_at"] <= turn.say_at]
        if len(mine) != 1 or mine[0]["user_text"] != turn.text.removeprefix(WAKE):
            missed["server_request"] += 1
            continue
        received_at, finished_at = mine[0]["received_at"], mine[0]["finished_at"]
        server_ms = (finished_at - received_at) * 1000.0
        # The SPEAKING conv state of this turn, then the next SET_STATE.
        speaking = next((r for r in records if r[0] == "conv" and r[1] == CONV_SPEAKING
                         and turn.sent_at <= r[3] < t_next), None)
        face = None if speaking is None else next(
            (r for r in records if r[0] == "state" and speaking[3] <= r[3] < t_next), None)
        say_ms = (turn.say_at - turn.sent_at) * 1000.0
        face_ms = None if face is None else (face[3] - turn.sent_at) * 1000.0
        if n < warmup:
            figures = {"say_ms": say_ms, "server_ms": server_ms}
            if face_ms is not None:
                figures["face_ms"] = face_ms
            warm.append({k: round(v, 3) for k, v in figures.items()})
            continue
        series["server"].append(server_ms)
        series["before"].append((received_at - turn.sent_at) * 1000.0)
        series["say_total"].append(say_ms)
        series["say_over"].append(say_ms - server_ms)
        series["say_after"].append((turn.say_at - finished_at) * 1000.0)
        series["cpu_wait"].append(turn.cpu_wait_s * 1000.0)
        counted.append({"turn": turn.index, "say_overhead_ms": say_ms - server_ms,
                        "before_server_ms": series["before"][-1],
                        "graph_cpu_wait_ms": turn.cpu_wait_s * 1000.0})
        if face is None or face_ms is None:
            missed["face"] += 1
            continue
        series["face_total"].append(face_ms)
        series["face_over"].append(face_ms - server_ms)
        series["face_after"].append((face[3] - finished_at) * 1000.0)
        counted[-1]["face_overhead_ms"] = face_ms - server_ms
        shown_reply += int(mood_names.get(face[1]) == REPLY_EMOTION)
    result: dict[str, Any] = {
        "benchmark": "end_to_end",
        "graph": "buddy run --headless (one process, every node), face board on a pty",
        "process": "buddy run --headless --llm-url URL --port LINK",
        "executor": ("LeanExecutor (nodes/common/executor.py): one thread for every node but "
                     "the face driver, which spins its own"),
        "utterances": len(turns),
        "warmup_excluded": min(warmup, len(turns)),
        "samples": len(series["say_total"]),
        "missed": missed,
        "server_ms": summary(series["server"]),
        # Where the overhead is: before the server has the request (shared by both)...
        "before_server_ms": summary(series["before"]),
        "say": {"event": "tts/say received",
                "total_ms": summary(series["say_total"]),
                "overhead_ms": summary(series["say_over"]),
                "after_server_ms": summary(series["say_after"])},  # ... and after it
        "face": {"event": "first SET_STATE after SET_CONV_STATE(SPEAKING)",
                 "samples": len(series["face_total"]),
                 "total_ms": summary(series["face_total"]),
                 "overhead_ms": summary(series["face_over"]),
                 "after_server_ms": summary(series["face_after"]),
                 "reply_emotion": REPLY_EMOTION, "reply_emotion_shown": shown_reply},
        # The machine's share, for reading the figures: the time the graph's threads
        # spent runnable but waiting for a CPU during each turn (utterance to 30 ms after
        # the answer, ~0.3 s, streaming included), summed over threads.
        "graph_cpu_wait_ms": summary(series["cpu_wait"]),
        # The turns that set the p99, with the graph's CPU wait in each: a turn that
        # waited far longer than the median for a CPU was slowed by the machine.
        "worst_turns": [{k: v if k == "turn" else round(v, 3) for k, v in t.items()}
                        for t in sorted(counted, key=lambda t: -max(
                            t["say_overhead_ms"], t.get("face_overhead_ms", 0.0)))[:3]],
        "warmup": warm,
        "target_overhead_p99_ms": TARGET_OVERHEAD_P99_MS,
    }
    p99s = [result["say"]["overhead_ms"]["p99"], result["face"]["overhead_ms"]["p99"]]
    result["meets_target"] = (
        all(p is not None and p < TARGET_OVERHEAD_P99_MS for p in p99s)
        and missed["say"] == 0 and missed["face"] == 0
    )
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="End-to-end latency: a child's utterance to tts/say and to the face's "
        "SET_STATE, and Buddy's overhead net of the LLM server's time (target: p99 < 20 ms).")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--utterances", type=int, default=90,
                        help="utterances to send (default 90: about 2 minutes)")
    parser.add_argument("--warmup", type=int, default=3,
                        help="first utterances not counted")
    parser.add_argument("--turns-per-session", type=int, default=40)
    parser.add_argument("--chunk-chars", type=int, default=8,
                        help="fake server: characters per streamed event")
    parser.add_argument("--chunk-delay-ms", type=float, default=5.0,
                        help="fake server: pause after each streamed event")
    parser.add_argument("--keep-alive", action=argparse.BooleanOptionalAction, default=True,
                        help="fake server: streams in HTTP/1.1 chunks on a connection that "
                        "stays open, as vLLM serves them (default); --no-keep-alive closes "
                        "the connection after each answer")
    parser.add_argument("--seed", type=int, default=1)
    # internal: the helper processes
    parser.add_argument("--board-process", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--server-process", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.board_process:
        return board_process(*args.board_process)
    if args.server_process:
        record_file, chunk_chars, chunk_delay_s, keep_alive = args.server_process
        return server_process(record_file, int(chunk_chars), float(chunk_delay_s),
                              keep_alive == "1")
    result = run(args.utterances, args.warmup, args.turns_per_session, args.chunk_chars,
                 args.chunk_delay_ms / 1000.0, args.keep_alive, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        for key in ("say", "face"):
            part = result[key]
            print(f"{key:>4} ({part['event']}): total median {part['total_ms']['median']} ms, "
                  f"p99 {part['total_ms']['p99']} ms; overhead median "
                  f"{part['overhead_ms']['median']} ms, p99 {part['overhead_ms']['p99']} ms")
        print(f"server median {result['server_ms']['median']} ms; samples "
              f"{result['samples']}, missed {result['missed']}; "
              f"meets_target={result['meets_target']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
