"""Issue 14 fault suite, topics and node death, in the five-process layout (personality,
governor, identity, face_driver on its simulated board, llm_bridge with no server: the
graph `robot.launch.py` runs), one set of processes for the module.

DESIGN §5 Bad input: "NaN, infinities and out-of-range numbers are clamped or rejected
at the node boundary, unknown enum values and emotion names are rejected, oversize
strings are truncated; each rejection is logged once per cause and counted in
diagnostics." DESIGN §1.5: never crash. spec 002 §11.3 (DESIGN §4.4): a snapshot older
than 3000 ms puts the face in its backstop. DESIGN §4.1: the node restores its state.

Per-field rejection rules are unit-tested in test/unit (personality test_engine*.py,
governor, identity, face); the SIGKILLed bridge is test_llm_bridge_killed.py.
"""

from __future__ import annotations

import math
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from std_msgs.msg import Float32

from buddy_msgs.msg import (
    AiEmotion,
    ButtonEvent,
    ConsentEvent,
    ConsentState,
    ConversationEvent,
    ConversationPhase,
    FaceState,
    Gesture,
    GovernorSignal,
    GovernorState,
    GuardrailEvent,
    IdentityEvent,
    IdentityState,
    LlmProfile,
    MemoryExtract,
    PersonalitySnapshot,
    Say,
    SystemEvent,
    Utterance,
)
from buddy_personality.nodes.common import qos

from .conftest import Diagnostics, ProcStat, log_has

pytestmark = [pytest.mark.ros, pytest.mark.process, pytest.mark.slow, pytest.mark.fault]

NODES = ("personality", "governor", "identity", "face_driver", "llm_bridge")
LATCHED_TOPICS = {"conversation/phase", "identity/state", "consent/state",
                  "personality/snapshot", "personality/llm_profile", "governor/state"}
# Every inbound topic of the five nodes with a buddy_msgs type (DESIGN §3), and the
# std_msgs number the face takes (tts/energy).
INBOUND: list[tuple[str, type]] = [
    ("personality/ai_emotion", AiEmotion), ("conversation/events", ConversationEvent),
    ("conversation/phase", ConversationPhase), ("system/events", SystemEvent),
    ("face/button", ButtonEvent), ("memory/extract", MemoryExtract),
    ("identity/state", IdentityState), ("consent/state", ConsentState),
    ("governor/signal", GovernorSignal), ("identity/events", IdentityEvent),
    ("consent/events", ConsentEvent), ("personality/snapshot", PersonalitySnapshot),
    ("face/gesture", Gesture), ("tts/say", Say), ("speech/utterance", Utterance),
    ("personality/llm_profile", LlmProfile), ("personality/guardrail", GuardrailEvent),
    ("governor/state", GovernorState), ("tts/energy", Float32),
]
INT_MAX = {"uint8": 255, "octet": 255, "int8": 127, "uint16": 65535, "int16": 32767,
           "uint32": 2**32 - 1, "int32": 2**31 - 1, "uint64": 2**64 - 1, "int64": 2**63 - 1}
MB = "x" * (1 << 20)


def filled(msg_type: type, number: float, text: str) -> Any:
    """A message with every float `number`, every integer at its maximum (unknown enum
    values), every string `text`, and one element in each nested sequence."""
    msg = msg_type()
    for name, typ in msg_type.get_fields_and_field_types().items():
        if name == "header":
            continue
        if typ in ("float", "double"):
            setattr(msg, name, number)
        elif typ in INT_MAX:
            setattr(msg, name, INT_MAX[typ])
        elif typ == "string":
            setattr(msg, name, text)
        elif typ.startswith("sequence<buddy_msgs/"):
            inner = getattr(__import__("buddy_msgs.msg", fromlist=["x"]),
                            typ.split("/")[-1].rstrip(">"))
            setattr(msg, name, [filled(inner, number, text)])
        elif typ.startswith("sequence<string"):
            setattr(msg, name, [text])
    return msg


@dataclass
class Graph:
    ros: Any
    ns: str
    procs: dict[str, Any]
    diag: Diagnostics
    snaps: list[PersonalitySnapshot]
    faces: list[tuple[float, FaceState]]
    pubs: dict[str, Any]
    state_dir: Path

    def status(self, node: str) -> str:
        return f"{self.ns}/{node}".lstrip("/")

    def value(self, node: str, key: str) -> float:
        return self.diag.number(self.status(node), key)

    def rejected(self, node: str) -> float:
        prefix = "signals.rejected" if node == "governor" else "rejected"
        return self.value(node, f"{prefix}.total")

    def fresh(self) -> None:
        for node in NODES:
            self.diag.latest.pop(self.status(node), None)
        assert self.ros.spin_until(lambda: all(self.diag.of(self.status(n)) for n in NODES),
                                   5)

    def alive(self) -> None:
        for node, proc in self.procs.items():
            assert proc.popen.poll() is None, f"{node} died:\n{proc.output()[-3000:]}"

    def real_snaps(self) -> list[PersonalitySnapshot]:
        """Snapshots of the personality node (the test's own carry a zero stamp)."""
        return [s for s in self.snaps if s.header.stamp.sec > 0]


def start_personality(mproc, ns: str, state_dir: Path) -> Any:
    return mproc("personality_node", ros_args=[
        "-r", f"__ns:={ns}", "-p", f"memory_path:={state_dir / 'personality_memory.json'}",
        "-p", f"usage_path:={state_dir / 'personality_usage.json'}"])


@pytest.fixture(scope="module")
def graph(mros, mproc, module_dir: Path) -> Iterator[Graph]:
    ns = f"{mros.namespace}_g"
    state = module_dir / "state"
    state.mkdir()
    diag = Diagnostics(mros)
    snaps = mros.collect(PersonalitySnapshot, f"{ns}/personality/snapshot", qos.LATCHED)
    faces: list[tuple[float, FaceState]] = []
    mros.probe.create_subscription(FaceState, f"{ns}/face/state",
                                   lambda m: faces.append((time.monotonic(), m)), qos.LATCHED)
    procs = {
        "personality": start_personality(mproc, ns, state),
        "governor": mproc("governor_node", ros_args=["-r", f"__ns:={ns}"]),
        "identity": mproc("identity_node", ros_args=[
            "-r", f"__ns:={ns}", "-p", f"profiles_path:={state / 'household.json'}"]),
        "face_driver": mproc("face_driver_node", ros_args=["-r", f"__ns:={ns}",
                                                           "-p", "port:=sim"]),
        "llm_bridge": mproc("llm_bridge_node", ros_args=[
            "-r", f"__ns:={ns}", "-p", "server_url:=''", "-p", "alert_log_path:=''",
            "-p", f"household_path:={state / 'household.json'}",
            "-p", "silence_timeout_s:=300.0"]),
    }
    g = Graph(mros, ns, procs, diag, snaps, faces, {}, state)
    assert mros.spin_until(lambda: all(diag.of(g.status(n)) for n in NODES), 60), \
        {n: p.output()[-1500:] for n, p in procs.items()}
    for topic, msg_type in INBOUND:
        g.pubs[topic] = mros.publisher(msg_type, f"{ns}/{topic}",
                                       qos.LATCHED if topic in LATCHED_TOPICS else qos.EVENTS,
                                       timeout=20)
    yield g


def affect_is_sane(g: Graph) -> None:
    snaps = g.real_snaps()
    assert snaps
    for s in snaps:
        for v in (s.valence, s.arousal, s.tonic_valence, s.tonic_arousal):
            assert math.isfinite(v) and -1.0 <= v <= 1.0, s
        assert math.isfinite(s.intensity) and 0.0 <= s.intensity <= 1.0, s


def test_nan_inf_out_of_range_unknown_enums_and_1_mb_strings_in_every_inbound_type(
        graph: Graph) -> None:
    g = graph
    g.fresh()
    before = {n: g.rejected(n) for n in NODES}
    sent = 0
    for number in (math.nan, math.inf, -math.inf, 1e9, -1e9):
        for topic, msg_type in INBOUND:
            g.pubs[topic].publish(filled(msg_type, number, "no_such_value"))
            sent += 1
        g.ros.spin_for(0.05)
    for topic, msg_type in INBOUND:                  # 1 MB in every string field
        g.pubs[topic].publish(filled(msg_type, 0.5, MB))
        sent += 1
        g.ros.spin_for(0.02)
    g.ros.spin_for(0.5)
    g.alive()
    g.fresh()
    grew = {n: g.rejected(n) - before[n] for n in NODES}
    print(f"\n{sent} bad messages on {len(INBOUND)} topics; rejections counted: {grew}")
    for node in NODES:
        assert grew[node] > 0, (node, g.diag.of(g.status(node)))
        assert log_has(g.procs[node], r"rejected input \("), node
    affect_is_sane(g)
    # the engine's own state in its diagnostics, too
    for key in ("valence", "arousal", "tonic_valence", "tonic_arousal", "intensity"):
        assert math.isfinite(g.value("personality", key)), key


def test_duplicate_and_out_of_order_conversation_events(graph: Graph) -> None:
    """A duplicate STARTED is refused (RS-1: the clock starts once); a duplicate ENDED
    and the ENDED of a session that is not running end nothing and are counted; a
    STARTED that arrives after its own ENDED opens no session (issue 14: it used to
    start a session nobody runs, its time counted against RS-2)."""
    g = graph
    pub = g.pubs["conversation/events"]
    g.fresh()
    before = g.rejected("personality")

    def event(kind: int, sid: str) -> None:
        pub.publish(ConversationEvent(kind=kind, session_id=sid, trigger="wake_word"))
        g.ros.spin_for(0.1)

    def active() -> bool:
        return g.real_snaps()[-1].conversation_active

    event(ConversationEvent.STARTED, "fault-a")
    event(ConversationEvent.STARTED, "fault-a")       # duplicate
    assert g.ros.spin_until(active, 2)
    event(ConversationEvent.ENDED, "fault-zzz")        # not running
    assert active()
    event(ConversationEvent.ENDED, "fault-a")
    event(ConversationEvent.ENDED, "fault-a")          # duplicate
    assert g.ros.spin_until(lambda: not active(), 2)
    event(ConversationEvent.ENDED, "fault-b")          # out of order: its end first ...
    event(ConversationEvent.STARTED, "fault-b")        # ... then its start
    g.ros.spin_for(1.2)
    assert not active()
    g.fresh()
    counted = g.rejected("personality") - before
    print(f"\n7 odd conversation events: {counted:.0f} counted as rejected")
    assert counted >= 5
    assert log_has(g.procs["personality"], r"stale_start|stale_end")
    g.alive()
    affect_is_sane(g)


def test_ten_thousand_utterances_in_ten_seconds_then_back_to_idle(graph: Graph) -> None:
    g = graph
    stats = {n: ProcStat(p.popen.pid) for n, p in g.procs.items()}
    rss0 = {n: s.rss_mb() for n, s in stats.items()}
    c0 = {n: s.cpu_s() for n, s in stats.items()}
    t0 = time.monotonic()
    g.ros.spin_for(1.5)
    idle = sum(s.cpu_s() - c0[n] for n, s in stats.items()) / (time.monotonic() - t0)
    speech = g.pubs["speech/utterance"]
    start = time.monotonic()
    speech.publish(Utterance(text="hey buddy", is_final=True, confidence=0.9))
    for i in range(100):
        for j in range(100):
            speech.publish(Utterance(text=f"i like dinosaurs {i * 100 + j}", is_final=True,
                                     confidence=0.9))
        g.ros.spin_until(lambda i=i: time.monotonic() - start >= (i + 1) * 0.1, 0.2)
    flood_s = time.monotonic() - start
    c1 = {n: s.cpu_s() for n, s in stats.items()}
    busy = sum(c1[n] - c0[n] for n in stats) / (time.monotonic() - t0)

    def cpu_now() -> float:
        a = {n: s.cpu_s() for n, s in stats.items()}
        t = time.monotonic()
        g.ros.spin_for(1.0)
        return sum(s.cpu_s() - a[n] for n, s in stats.items()) / (time.monotonic() - t)

    settle = time.monotonic()
    after = cpu_now()
    while after > idle + 0.15 and time.monotonic() - settle < 12:
        after = cpu_now()
    rss1 = {n: s.rss_mb() for n, s in stats.items()}
    print(f"\n10,000 utterances in {flood_s:.1f} s; CPU of the five (share of one core): "
          f"idle {idle:.3f}, during {busy:.2f}, after {after:.3f} "
          f"({time.monotonic() - settle:.1f} s to settle); RSS MB before/after "
          + ", ".join(f"{n} {rss0[n]:.0f}/{rss1[n]:.0f}" for n in NODES))
    g.alive()
    # How long the flood took is this probe's own publishing speed on a loaded machine, not
    # the graph's behaviour: printed, not bounded (erratum 22: no speed limits here). The
    # behaviour is the graph back to idle after it (a backstop of 12 s above) and alive.
    assert after <= idle + 0.15
    for n in NODES:
        assert rss1[n] - rss0[n] < 40, n
    affect_is_sane(g)
    # the graph still answers a child
    said = g.ros.collect(Say, f"{g.ns}/tts/say")
    g.ros.spin_for(0.3)
    speech.publish(Utterance(text="hey buddy do you like cats", is_final=True,
                             confidence=0.9))
    assert g.ros.spin_until(lambda: said, 5)


def test_personality_killed_for_10_s_face_backstop_then_restored(graph: Graph,
                                                                 mproc) -> None:
    """spec 002 §11.3: snapshot older than 3000 ms: backstop; back when snapshots come
    again. DESIGN §4.1: the restarted node resumes its state (the running session and
    the RS-2 daily counter, from its state files)."""
    g = graph
    pers = g.procs["personality"]
    pub = g.pubs["conversation/events"]
    pub.publish(ConversationEvent(kind=ConversationEvent.STARTED, session_id="fault-kill",
                                  trigger="wake_word"))
    assert g.ros.spin_until(lambda: g.real_snaps()[-1].conversation_active
                            and g.real_snaps()[-1].header.stamp.sec > 0, 3)
    g.ros.spin_for(1.0)
    g.fresh()
    daily_before = g.value("personality", "daily_conversation_s")
    assert g.ros.spin_until(lambda: g.faces and not g.faces[-1][1].backstop_active, 3)
    pers.signal(signal.SIGKILL)
    pers.wait(timeout=5)
    killed = time.monotonic()
    assert g.ros.spin_until(lambda: g.faces[-1][1].backstop_active, 5)
    backstop_at = next(t for t, f in g.faces if t >= killed and f.backstop_active) - killed
    print(f"\npersonality SIGKILLed: face backstop after {backstop_at:.2f} s")
    # the last snapshot was up to 1 s (the 1 Hz tick) before the kill
    assert 2.0 <= backstop_at <= 3.5
    # (the backstop shows NEUTRAL at 0.2 or the last raw AI emotion within its caps:
    # the face policy's rule, unit-tested in test/unit/face)
    g.ros.spin_until(lambda: time.monotonic() - killed >= 10.0, 11)
    for node in ("governor", "identity", "face_driver", "llm_bridge"):
        assert g.procs[node].popen.poll() is None, node
    count = len(g.real_snaps())
    restarted = time.monotonic()
    g.procs["personality"] = start_personality(mproc, g.ns, g.state_dir)
    assert g.ros.spin_until(lambda: len(g.real_snaps()) > count, 30), \
        g.procs["personality"].output()
    # The face driver discovers the new personality participant on its own, not when this
    # probe did: ~3 s after the restart here, and seen taking more than 3 s longer than
    # the probe under a loaded fresh-clone run. The backstop must end with the first fresh
    # snapshot the driver gets (policy.py), so a bound of seconds, not the probe's moment.
    assert g.ros.spin_until(lambda: not g.faces[-1][1].backstop_active, 10)
    back = next(t for t, f in g.faces if t >= restarted and not f.backstop_active)
    print(f"personality restarted: first snapshot and face back after "
          f"{back - restarted:.2f} s")
    assert g.real_snaps()[-1].conversation_active          # the session resumed
    g.fresh()
    assert g.value("personality", "daily_conversation_s") >= daily_before
    assert log_has(g.procs["personality"], r"restart: ")
    affect_is_sane(g)
