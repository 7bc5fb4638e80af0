"""Issue 14 fault suite, LLM server: what a home server does wrong, through the deployed
`llm_bridge_node` process (one process for the whole module, its cases in one session)
and the fake server of buddy_personality/tools/fakes/fake_llm_server.py.

DESIGN §1.5: "Degrade silently, never crash. With no server Buddy runs on rules alone
(layer 0) ... bad input gets a clear log line, a counter in diagnostics, and is dropped".
DESIGN §4.5: "repeated failure switches to layer 0 and announces SERVER_OFFLINE";
spec 002 §10 RS-9: the child gets an answer (a filler at 2.5 s, layer 0 by 7 s).
Each case prints the time from the child's utterance to the spoken reply.

Stalls before headers, trickling and hanging streams are issue 19's
test_llm_bridge_server_stalls.py; the bridge killed mid-session is
test_llm_bridge_killed.py; field-by-field validation is unit-tested in
test/unit/cognition (test_schema*.py). Here: the real process, its log and /diagnostics.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from diagnostic_msgs.msg import DiagnosticStatus

from buddy_msgs.msg import AiEmotion, Say, SystemEvent, Utterance
from buddy_personality.cognition.schema import MAX_TEXT_CHARS
from buddy_personality.cognition.turn_deadline import FILLER_LINES
from buddy_personality.cognition.vocabulary import MOOD_SET
from buddy_personality.tools.fakes.fake_llm_server import DEFAULT_ANSWER, FakeLlmServer

from .conftest import Diagnostics, log_has

pytestmark = [pytest.mark.ros, pytest.mark.process, pytest.mark.slow, pytest.mark.fault]

LLM_TEXT = DEFAULT_ANSWER["text"]
FILLER_AT_S = 2.5   # the bridge's filler_after_s default: every reply here must beat it


@dataclass
class Bridge:
    ros: Any
    proc: Any
    server: FakeLlmServer
    diag: Diagnostics
    said: list[tuple[float, Say]]
    emotions: list[tuple[float, AiEmotion]]
    system: list[tuple[float, SystemEvent]]
    speech: Any
    status: str

    def value(self, key: str) -> float:
        return self.diag.number(self.status, key)

    def fresh_diag(self) -> dict[str, str]:
        """Diagnostics published after now (1 Hz)."""
        self.diag.latest.pop(self.status, None)
        assert self.ros.spin_until(lambda: self.diag.of(self.status), timeout=3)
        return self.diag.of(self.status)

    def turn(self, text: str, timeout: float = 12.0) -> tuple[float, str]:
        """Say `text`; the seconds until Buddy's reply (fillers skipped) and the reply."""
        t0 = time.monotonic()
        self.speech.publish(Utterance(text=text, is_final=True, confidence=0.9))
        ok = self.ros.spin_until(lambda: any(
            t >= t0 and s.text not in FILLER_LINES for t, s in self.said), timeout)
        assert ok, f"no reply to {text!r}\n{self.proc.output()[-3000:]}"
        t, say = next((t, s) for t, s in self.said if t >= t0 and s.text not in FILLER_LINES)
        return t - t0, say.text


@pytest.fixture(scope="module")
def bridge(mros, mproc) -> Iterator[Bridge]:
    ns = f"{mros.namespace}_llm"
    diag = Diagnostics(mros)
    said: list[tuple[float, Say]] = []
    emotions: list[tuple[float, AiEmotion]] = []
    system: list[tuple[float, SystemEvent]] = []
    mros.probe.create_subscription(Say, f"{ns}/tts/say",
                                   lambda m: said.append((time.monotonic(), m)), 50)
    mros.probe.create_subscription(AiEmotion, f"{ns}/personality/ai_emotion",
                                   lambda m: emotions.append((time.monotonic(), m)), 50)
    mros.probe.create_subscription(SystemEvent, f"{ns}/system/events",
                                   lambda m: system.append((time.monotonic(), m)), 50)
    with FakeLlmServer("normal", keep_alive=True) as server:
        proc = mproc("llm_bridge_node", ros_args=[
            "-r", f"__ns:={ns}", "-p", f"server_url:={server.url}",
            "-p", "gate.cooldown_s:=0.0", "-p", "probe_interval_s:=0.5",
            "-p", "speech_rate_wps:=10.0", "-p", "silence_timeout_s:=300.0",
            "-p", "household_path:=''", "-p", "alert_log_path:=''"])
        speech = mros.publisher(Utterance, f"{ns}/speech/utterance", timeout=30)
        b = Bridge(mros, proc, server, diag, said, emotions, system, speech,
                   f"{ns}/llm_bridge".lstrip("/"))
        # the start-up probe answers: layer 1
        assert mros.spin_until(lambda: b.diag.of(b.status).get("layer") == "1", 15), \
            proc.output()
        seconds, reply = b.turn("hey buddy, hello!")
        assert reply == LLM_TEXT, reply
        print(f"\nnormal server: reply after {seconds:.2f} s")
        yield b
        assert proc.popen.poll() is None, "the bridge died during the LLM faults"


# --- transport faults: a reply from layer 0 (or after the Retry-After), never silence ---

TRANSPORT = {
    # name: (server mode, extra server settings, reply expected from the LLM, log line)
    "http_500": ("error500", {}, False, r"LLM call failed \(.*HTTP 500"),
    "http_429_retry_after": ("throttle", {"retry_after_s": 1.0, "throttle_count": 1}, True,
                             r"LLM answered after 1 failed attempt.*HTTP 429"),
    "http_503_retry_after": ("throttle", {"retry_after_s": 1.0, "throttle_count": 1,
                                          "throttle_status": 503}, True,
                             r"LLM answered after 1 failed attempt.*HTTP 503"),
    "stream_cut_mid_json": ("cut", {}, False, r"LLM call failed \("),
}


@pytest.mark.parametrize("case", list(TRANSPORT))
def test_transport_fault_gets_a_reply_a_log_line_and_a_counter(bridge: Bridge,
                                                               case: str) -> None:
    mode, settings, from_llm, log_line = TRANSPORT[case]
    bridge.server.reset(mode)
    for key, value in settings.items():
        setattr(bridge.server, key, value)
    failed_before = bridge.value("failed_attempts")
    seconds, reply = bridge.turn("hey buddy, why is the sky blue?")
    print(f"\n{case}: reply after {seconds:.2f} s: {reply!r}")
    assert seconds < FILLER_AT_S
    assert (reply == LLM_TEXT) is from_llm
    if case in ("http_429_retry_after", "http_503_retry_after"):
        assert seconds >= 1.0        # Retry-After honoured (within the turn deadline)
        assert len(bridge.server.chat_requests()) == 2
    assert bridge.ros.spin_until(lambda: log_has(bridge.proc, log_line), 3), \
        bridge.proc.output()[-3000:]
    assert bridge.ros.spin_until(
        lambda: bridge.value("failed_attempts") > failed_before, 3)
    bridge.server.reset("normal")


# --- schema-breaking JSON: the child hears a bounded, guarded line; numbers stay in range --

def answer(**changes: Any) -> dict[str, Any]:
    a = dict(DEFAULT_ANSWER)
    for key, value in changes.items():
        if value is None:
            a.pop(key, None)
        else:
            a[key] = value
    return a


LONG_TEXT = "I love building towers with you. " * 620      # ~20 kB
SCHEMA = {
    # name: (answer, reply expected from the LLM, log line)
    "unknown_emotion": (answer(emotion="furious"), True,
                        r"dropped emotion: not one of the 13 canonical moods"),
    "intensity_7": (answer(intensity=7), True, r"dropped intensity: missing or outside"),
    "text_20_kB": (answer(text=LONG_TEXT), True, r"dropped text: shortened"),
    "extra_fields": (answer(secret_mode=True, numbers=[1, 2, 3]), True,
                     r"dropped unknown field 'numbers' ignored"),
    "missing_fields": (answer(text=None, emotion=None, intensity=None), False,
                       r"LLM call failed \(.*no usable text"),
}


@pytest.mark.parametrize("case", list(SCHEMA))
def test_schema_breaking_answer_is_bounded_logged_and_counted(bridge: Bridge,
                                                             case: str) -> None:
    doc, from_llm, log_line = SCHEMA[case]
    bridge.server.reset("normal", responder=lambda _req: doc)
    dropped_before = bridge.value("dropped_parts")
    failures_before = bridge.value("call_failures")
    t0 = time.monotonic()
    seconds, reply = bridge.turn("hey buddy, what do you like?")
    print(f"\n{case}: reply after {seconds:.2f} s ({len(reply)} chars)")
    assert seconds < FILLER_AT_S
    assert len(reply) <= MAX_TEXT_CHARS
    if from_llm:
        assert reply.startswith("Ooh" if case != "text_20_kB" else "I love building")
    else:
        assert reply != LLM_TEXT
    # what reaches the personality engine is a canonical mood at an intensity in [0, 1]
    assert bridge.ros.spin_until(lambda: any(t >= t0 for t, _ in bridge.emotions), 2)
    bridge.ros.spin_for(0.1)
    for m in (m for t, m in bridge.emotions if t >= t0):
        assert m.emotion in MOOD_SET and math.isfinite(m.intensity)
        assert 0.0 <= m.intensity <= 1.0
    assert bridge.ros.spin_until(lambda: log_has(bridge.proc, log_line), 3), \
        bridge.proc.output()[-3000:]
    counter = "dropped_parts" if from_llm else "call_failures"
    before = dropped_before if from_llm else failures_before
    assert bridge.ros.spin_until(lambda: bridge.value(counter) > before, 3)
    bridge.server.reset("normal")


# --- hung requests never hold the bridge (issue 19) ------------------------------------

def test_hung_requests_are_cancelled_and_a_new_session_does_not_wait(bridge: Bridge) -> None:
    """Issue 19: "Two hung requests take both bridge workers: every later session gets no
    reply, and diagnostics still say OK." Two turns against a server that accepts and
    never answers: each child hears layer 0 by the turn deadline, diagnostics leave OK,
    and once the server answers again a new session gets the LLM's reply at once: the hung
    requests were cancelled at their deadline, nothing waits behind them."""
    bridge.server.reset("hang")
    bridge.server.hang_s = 120.0
    for line in ("hey buddy, why do cats purr?", "hey buddy, where does the sun sleep?"):
        seconds, reply = bridge.turn(line, timeout=15.0)
        print(f"\nhung server: reply after {seconds:.2f} s: {reply!r}")
        assert reply != LLM_TEXT and seconds <= 9.0   # layer 0 by the turn deadline
    status = bridge.status
    assert bridge.ros.spin_until(
        lambda: bridge.diag.levels.get(status, DiagnosticStatus.OK) != DiagnosticStatus.OK,
        5), bridge.diag.messages.get(status)
    print(f"diagnostics while hung: {bridge.diag.messages.get(status)!r}")
    bridge.turn("bye buddy")
    bridge.server.reset("normal")
    # two failed turns took the bridge to layer 0; its probe brings layer 1 back (a fresh
    # diagnostics message: the one held may predate the fall)
    deadline = time.monotonic() + 15.0
    while bridge.fresh_diag().get("layer") != "1":
        assert time.monotonic() < deadline, bridge.proc.output()[-3000:]
    seconds, reply = bridge.turn("hey buddy, why is the sky blue?")
    print(f"new session after the hung ones: reply after {seconds:.2f} s")
    assert reply == LLM_TEXT and seconds < FILLER_AT_S, bridge.proc.output()[-3000:]


# --- the server gone mid-session, and back --------------------------------------------

def test_server_gone_mid_session_then_back_returns_to_layer_1_by_itself(
        bridge: Bridge) -> None:
    """DESIGN §4.5: repeated failure switches to layer 0 and announces SERVER_OFFLINE;
    while offline a probe runs every `probe_interval_s` and the first success brings
    layer 1 back (SERVER_ONLINE) with no one doing anything."""
    server = bridge.server
    port = server.port
    bridge.server.reset("normal")
    bridge.turn("hey buddy, tell me about cats")   # a success: the failure count is 0
    server.stop()
    gone = time.monotonic()
    times = []
    for text in ("what do cats eat?", "do cats like water?", "can cats swim?"):
        seconds, reply = bridge.turn(text)
        times.append(seconds)
        assert reply != LLM_TEXT
    print(f"\nserver gone: layer 0 replies after {', '.join(f'{s:.2f}' for s in times)} s")
    assert max(times) < FILLER_AT_S
    assert bridge.ros.spin_until(lambda: any(
        t >= gone and e.kind == SystemEvent.SERVER_OFFLINE for t, e in bridge.system), 3)
    assert bridge.fresh_diag().get("layer") == "0"
    assert log_has(bridge.proc, r"layer 0: falling back to rule-based answers")
    # the server comes back on the same address
    back_server = FakeLlmServer("normal", keep_alive=True, port=port).start()
    bridge.server = back_server
    try:
        back = time.monotonic()
        assert bridge.ros.spin_until(lambda: any(
            t >= back and e.kind == SystemEvent.SERVER_ONLINE for t, e in bridge.system), 5)
        online_at = next(t for t, e in bridge.system
                         if t >= back and e.kind == SystemEvent.SERVER_ONLINE)
        print(f"server back: layer 1 after {online_at - back:.2f} s (probe every 0.5 s)")
        assert log_has(bridge.proc, r"layer 1: the LLM server answers again")
        seconds, reply = bridge.turn("hey buddy, are you back?")
        print(f"server back: reply after {seconds:.2f} s")
        assert reply == LLM_TEXT
        assert bridge.fresh_diag().get("layer") == "1"
    finally:
        back_server.stop()
