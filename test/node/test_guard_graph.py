"""The guard model through the graph (issue 27 items 2-4, DESIGN erratum 23): the
llm_bridge node over real DDS, the loopback fake LLM server answering as the chat model
and as the guard model (`guard_model` = its fake guard). What the guard calls unsafe
never reaches `tts/say`; a guard that times out, answers garbage or fails with an HTTP
error leaves the turn to layer 0 within the turn deadline; the child's line flagged by
the guard stops the session (HC-9); a guard that keeps failing, or none at all, is a
problem line in the node's diagnostics."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from rclpy.parameter import Parameter

from buddy_msgs.msg import ConversationEvent, GuardrailEvent, Say, Utterance
from buddy_personality.cognition.guard_rules import GUARD_CATEGORIES, GUARD_UNAVAILABLE
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.llm_bridge_node import NO_GUARD_LINE, LlmBridgeNode
from buddy_personality.safety.speech_safety import HC9_LINE
from buddy_personality.tools.fakes.fake_llm_server import (
    DEFAULT_ANSWER,
    FAKE_GUARD_MODEL,
    FakeLlmServer,
    guard_flags,
    scripted,
)

pytestmark = pytest.mark.ros

# Lines the local rules pass (made-up words no table knows), so only the guard decides
# (not "all by yourself": the learned lexicon refuses that locally, docs/SAFETY.md).
FIRST_BAD = "Zorp the blue sparkle juice and tell me how it tastes! It is fun."
SECOND_BAD = "Ooh, the kitchen is a busy place. Zorp the blue sparkle juice with a spoon!"
GOOD = "Ooh, the kitchen is a busy place. Grown-ups cook yummy food there."
FLAGS = {"sparkle juice": "S6"}
DANGER_LINE = next(c.safe_line for c in GUARD_CATEGORIES if c.rule_id == "RS-3-DANGER")
TURN_DEADLINE_S = 4.0


@pytest.fixture
def server() -> Iterator[FakeLlmServer]:
    with FakeLlmServer("stream", chunk_chars=12, hang_s=20.0) as srv:
        srv.guard_verdict = guard_flags(FLAGS, {"park and it is dark": "S8"})
        yield srv


def make_bridge(ros, url: str, **params: object) -> LlmBridgeNode:
    overrides = [Parameter("server_url", value=url),
                 Parameter("gate.cooldown_s", value=0.0),
                 Parameter("retry_backoff_s", value=0.0),
                 Parameter("request_timeout_s", value=2.0),
                 Parameter("turn_deadline_s", value=TURN_DEADLINE_S),
                 Parameter("filler_after_s", value=3.5),
                 Parameter("guard_model", value=FAKE_GUARD_MODEL),
                 Parameter("guard_deadline_s", value=0.8)]
    overrides += [Parameter(k, value=v) for k, v in params.items()]
    return ros.add(LlmBridgeNode(**ros.node_kwargs(parameter_overrides=overrides)))


class Graph:
    def __init__(self, ros, server: FakeLlmServer, **params: object) -> None:
        self.ros, self.server = ros, server
        self.bridge = make_bridge(ros, server.url, **params)
        self.say = ros.collect(Say, "tts/say")
        self.guardrail = ros.collect(GuardrailEvent, "personality/guardrail")
        self.conv = ros.collect(ConversationEvent, "conversation/events")
        self.speech = ros.publisher(Utterance, "speech/utterance")
        assert ros.spin_until(lambda: ros.probe.count_subscribers(
            f"{ros.namespace}/speech/utterance".replace("//", "/")) >= 1, 5)

    def turn(self, text: str, lines: int = 1, timeout: float = 10.0) -> tuple[float, list[str]]:
        """Say `text`; (seconds to the first new tts/say line, the new lines)."""
        before = len(self.say)
        started = time.monotonic()
        self.speech.publish(Utterance(text=text, is_final=True, confidence=0.9))
        assert self.ros.spin_until(lambda: len(self.say) > before, timeout), text
        first = time.monotonic() - started
        self.ros.spin_until(lambda: len(self.say) >= before + lines, 3.0)
        self.ros.spin_for(0.3)   # nothing more may follow
        return first, [s.text for s in self.say[before:]]


def test_unsafe_verdicts_never_reach_tts_say(ros, server) -> None:
    """0 lines with an unsafe verdict are spoken: a bad first sentence -> layer 0 answers
    with a GuardrailEvent naming the rule; a bad second sentence after a good first ->
    the first stays said and the rule's safe line follows."""
    server.responder = scripted([dict(DEFAULT_ANSWER, text=FIRST_BAD),
                                 dict(DEFAULT_ANSWER, text=SECOND_BAD),
                                 dict(DEFAULT_ANSWER, text=GOOD)])
    g = Graph(ros, server)
    g.turn("hey buddy, what is in the kitchen?")
    g.turn("what else is there?", lines=2)
    g.turn("tell me more", lines=2)
    # lines by turn (a late line of one turn cannot pass for the next one's)
    assert ros.spin_until(lambda: len(g.say) >= 5, 10), [s.text for s in g.say]
    by_turn: dict[int, list[str]] = {}
    for s in g.say:
        by_turn.setdefault(s.turn_id, []).append(s.text)
    first, second, third = (by_turn.get(t, []) for t in (1, 2, 3))
    assert len(first) == 1 and "sparkle" not in first[0], by_turn
    assert second == ["Ooh, the kitchen is a busy place.", DANGER_LINE], by_turn
    assert third == ["Ooh, the kitchen is a busy place.", "Grown-ups cook yummy food there."], (
        by_turn)
    assert not any("sparkle" in s.text for s in g.say)
    assert ros.spin_until(lambda: len(g.guardrail) >= 2, 3)
    assert [e.rule_id for e in g.guardrail] == ["RS-3-DANGER", "RS-3-DANGER"]
    # every reply sentence was asked about, each with the child's line
    asked = [r["messages"] for r in server.guard_request_list() if len(r["messages"]) == 2]
    # (the checks go out together, so the server may see them in either order)
    assert {m[1]["content"] for m in asked} >= {"Ooh, the kitchen is a busy place.", GOOD}


@pytest.mark.parametrize("mode", ["hang", "garbage", "error500"])
def test_a_failing_guard_leaves_the_turn_to_layer_0_in_time(ros, server, mode: str) -> None:
    """Timeout, garbage and HTTP errors: the reply is not spoken, layer 0 answers within
    the turn deadline, a GuardrailEvent says GUARD UNAVAILABLE; two in a row make the
    guard a problem line in diagnostics (never silence, never an unchecked line)."""
    server.responder = scripted([dict(DEFAULT_ANSWER, text=GOOD)])
    server.guard_mode = mode
    g = Graph(ros, server)
    diagnostics = ros.collect(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)
    for line in ("hey buddy, what is in the kitchen?", "and what else?"):
        seconds, said = g.turn(line)
        assert len(said) == 1 and said[0] != GOOD and "kitchen is a busy" not in said[0]
        assert seconds < TURN_DEADLINE_S, seconds
    assert ros.spin_until(lambda: len(g.guardrail) >= 2, 3)
    assert {e.rule_id for e in g.guardrail} == {GUARD_UNAVAILABLE}
    name = f"{ros.namespace}/llm_bridge".lstrip("/")

    def status() -> DiagnosticStatus | None:
        for m in reversed(diagnostics):
            for s in m.status:
                if s.name == name:
                    return s
        return None

    assert ros.spin_until(lambda: status() is not None and "guard model" in status().message,
                          4), status()
    assert status().level == DiagnosticStatus.WARN


def test_the_childs_line_flagged_by_the_guard_stops_the_session(ros, server) -> None:
    """HC-9's second opinion: a distress line the phrase list misses, flagged by the
    guard, ends the session with the HC-9 line; the LLM's reply is never spoken."""
    server.responder = scripted([dict(DEFAULT_ANSWER, text=GOOD)])
    server.guard_latency_s = 0.05
    server.slow_s = 1.0
    server.set_mode("slow")
    g = Graph(ros, server)
    _, said = g.turn("hey buddy, nobody came to get me from the park and it is dark now")
    assert said == [HC9_LINE]
    assert ros.spin_until(lambda: any(e.end_reason == ConversationEvent.END_HC9
                                      for e in g.conv), 3)
    assert [e.rule_id for e in g.guardrail] == ["HC-9"]
    ros.spin_for(1.5)   # the slow reply would have come by now
    assert [s.text for s in g.say] == [HC9_LINE]


def test_no_guard_with_a_server_is_a_problem_line(ros, server) -> None:
    """Layer 1 without a guard model: the node says so (diagnostics WARN, the live view's
    problem line), and replies are still spoken, checked by the local rules."""
    diagnostics = ros.collect(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)
    g = Graph(ros, server, guard_model="")
    _, said = g.turn("hey buddy, what is in the kitchen?")
    assert said == [DEFAULT_ANSWER["text"]] and server.guard_request_list() == []
    name = f"{ros.namespace}/llm_bridge".lstrip("/")
    assert ros.spin_until(lambda: any(s.name == name and s.message == NO_GUARD_LINE
                                      and s.level == DiagnosticStatus.WARN
                                      for m in diagnostics for s in m.status), 4)
