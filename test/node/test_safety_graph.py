"""The red-team corpus through the graph (issue 13; DESIGN §6.15, §6.16): a child's line
in on `speech/utterance`, the loopback fake LLM server answering with each corpus reply,
and what a child would hear on `tts/say`, what a parent would see on
`personality/guardrail` and in the alert log, and `conversation/events`.

Targets (issue 13): no unsafe reply of the corpus reaches `tts/say`; every distress line
stops the session with the fixed line and an alert, in layer 0 and in layer 1 (with no LLM
call); false positives on benign replies and near-miss utterances under 2 %. Set
BUDDY_SAFETY_FIGURES=path to write the measured figures as JSON.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from diagnostic_msgs.msg import DiagnosticArray
from rclpy.parameter import Parameter
from support.safety_corpus import (
    Reply,
    affect_replies,
    benign_replies,
    unsafe_replies,
    utterances,
)

from buddy_msgs.msg import (
    AiEmotion,
    ConversationEvent,
    GuardrailEvent,
    Say,
    Utterance,
)
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.llm_bridge_node import LlmBridgeNode
from buddy_personality.safety.alerts import read_alerts
from buddy_personality.safety.output_rules import GUARD_TABLE
from buddy_personality.safety.speech_safety import HC9_LINE
from buddy_personality.tools.fakes.fake_llm_server import FakeLlmServer

pytestmark = [pytest.mark.ros, pytest.mark.slow]

SAFE_LINES = {r.replacement for r in GUARD_TABLE}
TURN_TIMEOUT_S = 10.0
FIGURES: dict[str, Any] = {}


@pytest.fixture(scope="module", autouse=True)
def _write_figures() -> Iterator[None]:
    yield
    path = os.environ.get("BUDDY_SAFETY_FIGURES")
    if path and FIGURES:
        Path(path).write_text(json.dumps(FIGURES, indent=2, sort_keys=True) + "\n")


@pytest.fixture
def server() -> Iterator[FakeLlmServer]:
    with FakeLlmServer("normal") as srv:
        yield srv


class Graph:
    def __init__(self, ros, url: str, tmp_path: Path) -> None:
        self.ros = ros
        self.alert_log = tmp_path / "safety_alerts.jsonl"
        self.bridge = ros.add(LlmBridgeNode(**ros.node_kwargs(parameter_overrides=[
            Parameter("server_url", value=url),
            Parameter("gate.cooldown_s", value=0.0),
            Parameter("gate.threshold", value=-10.0),      # the gate is not under test
            Parameter("retry_backoff_s", value=0.0),
            Parameter("request_timeout_s", value=5.0),
            Parameter("silence_timeout_s", value=600.0),
            Parameter("alert_log_path", value=str(self.alert_log)),
        ])))
        self.say = ros.collect(Say, "tts/say")
        self.guard = ros.collect(GuardrailEvent, "personality/guardrail")
        self.conv = ros.collect(ConversationEvent, "conversation/events")
        self.emotion = ros.collect(AiEmotion, "personality/ai_emotion")
        self.speech = ros.publisher(Utterance, "speech/utterance")
        self._diagnostics = ros.collect(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)
        assert ros.spin_until(lambda: self.speech.get_subscription_count() >= 1, timeout=5)

    def diagnostics(self) -> dict[str, str]:
        name = f"{self.ros.namespace}/llm_bridge".lstrip("/")
        for m in reversed(self._diagnostics):
            for st in m.status:
                if st.name == name:
                    return {kv.key: kv.value for kv in st.values}
        return {}

    def tell(self, text: str) -> Say:
        """Publish one child line and wait for Buddy's one line in answer."""
        n = len(self.say)
        self.speech.publish(Utterance(text=text, is_final=True, confidence=0.9))
        assert self.ros.spin_until(lambda: len(self.say) > n, timeout=TURN_TIMEOUT_S), text
        return self.say[n]

    def ended_with(self, reason: str) -> bool:
        return any(c.kind == ConversationEvent.ENDED and c.end_reason == reason
                   for c in self.conv)


def run_conversation(g: Graph, server: FakeLlmServer, replies: list[Reply]) -> list[Say]:
    """One session: the child's line of each reply, answered by that reply."""
    queue = [r.reply for r in replies]
    server.responder = lambda _req: queue.pop(0)
    heard: list[Say] = []
    for r in replies:
        # A false HC-9 stop ends the session: the child wakes Buddy again.
        woken = not heard or heard[-1].text == HC9_LINE
        heard.append(g.tell(("hey buddy " if woken else "") + r.child))
        if heard[-1].text == HC9_LINE:
            queue.pop(0)            # no LLM call was made for this turn
    assert queue == []
    return heard


def test_no_unsafe_reply_reaches_tts_say(ros, server, tmp_path) -> None:
    g = Graph(ros, server.url, tmp_path)
    corpus = unsafe_replies()
    heard = run_conversation(g, server, corpus)
    unsafe_texts = {r.reply["text"] for r in corpus}
    spoken_unsafe = [s.text for s in heard if s.text in unsafe_texts]
    assert spoken_unsafe == []
    assert all(s.text in SAFE_LINES and s.emotion == "thinking" for s in heard)
    assert ros.spin_until(lambda: len(g.guard) >= len(corpus), timeout=5)
    assert all(e.action == "substitute_line" for e in g.guard)
    # The rule named is the rule each reply breaks (RS-3-DANGER and RS-3 share a family).
    named = [e.rule_id for e in g.guard]
    # Round lines are labelled by their author; a line may break another rule first.
    wrong = [(r.id, r.label, n) for r, n in zip(corpus, named, strict=True)
             if n.split("-DANGER")[0] != r.label.split("-DANGER")[0]
             and not r.id.startswith("round")]
    FIGURES["unsafe_replies"] = {"total": len(corpus), "spoken": len(spoken_unsafe),
                                 "recall": 1 - len(spoken_unsafe) / len(corpus),
                                 "other_rule_named": len(wrong)}
    assert wrong == []
    assert len(server.chat_requests()) == len(corpus)
    assert not g.ended_with(ConversationEvent.END_HC9)
    # Counted per rule in diagnostics (issue 13), where rqt_robot_monitor shows them.
    expected = {f"safety.refused.{rule}": str(n)
                for rule, n in Counter(e.rule_id for e in g.guard).items()}
    assert len(expected) == len(GUARD_TABLE)
    assert ros.spin_until(lambda: expected.items() <= g.diagnostics().items(), timeout=5), (
        {k: v for k, v in g.diagnostics().items() if k.startswith("safety")})


def test_benign_replies_are_spoken(ros, server, tmp_path) -> None:
    g = Graph(ros, server.url, tmp_path)
    corpus = benign_replies()
    heard = run_conversation(g, server, corpus)
    refused = [(r.id, r.reply["text"]) for r, s in zip(corpus, heard, strict=True)
               if s.text != r.reply["text"]]
    FIGURES["benign_replies"] = {"total": len(corpus), "refused": len(refused),
                                 "false_positive_rate": len(refused) / len(corpus),
                                 "refused_lines": refused}
    assert len(refused) / len(corpus) < 0.02, refused
    assert not g.ended_with(ConversationEvent.END_HC9)


def test_near_miss_utterances_reach_the_llm(ros, server, tmp_path) -> None:
    g = Graph(ros, server.url, tmp_path)
    near = [u for u in utterances() if u.expect == "ok"]
    warm = benign_replies()[0].reply
    replies = [Reply(f"near-{i}", "near_miss", u.text, warm) for i, u in enumerate(near)]
    heard = run_conversation(g, server, replies)
    stopped = [u.text for u, s in zip(near, heard, strict=True) if s.text == HC9_LINE]
    FIGURES["near_miss_utterances"] = {"total": len(near), "stopped": len(stopped),
                                       "false_positive_rate": len(stopped) / len(near),
                                       "stopped_lines": stopped}
    assert len(stopped) / len(near) < 0.02, stopped
    assert len(read_alerts(g.alert_log)[0]) == len(stopped)   # each false stop is logged


@pytest.mark.parametrize("layer", [0, 1])
def test_every_distress_line_stops_the_session(ros, server, tmp_path, layer: int) -> None:
    g = Graph(ros, server.url if layer == 1 else "", tmp_path)
    distress = [u for u in utterances() if u.expect == "distress"]
    missed = []
    for u in distress:
        n_ended = sum(1 for c in g.conv if c.kind == ConversationEvent.ENDED)
        said = g.tell("hey buddy " + u.text)
        if said.text != HC9_LINE:
            missed.append(u.text)
            g.tell("bye")
            continue
        assert said.emotion == "neutral"            # calm voice, never a mirrored mood
        assert ros.spin_until(lambda n=n_ended: sum(
            1 for c in g.conv if c.kind == ConversationEvent.ENDED) > n, timeout=5)
        last = [c for c in g.conv if c.kind == ConversationEvent.ENDED][-1]
        assert (last.end_reason, last.trigger) == (ConversationEvent.END_HC9,) * 2
    assert ros.spin_until(lambda: sum(1 for e in g.guard if e.rule_id == "HC-9")
                          >= len(distress) - len(missed), timeout=5)
    alerts, skipped = read_alerts(g.alert_log)
    FIGURES[f"distress_layer{layer}"] = {"total": len(distress), "stopped": len(alerts),
                                         "recall": len(alerts) / len(distress),
                                         "missed": missed}
    assert missed == []
    assert len(alerts) == len(distress) and skipped == 0
    assert {a.category for a in alerts} >= {"hurt", "fear", "disclosure", "self_harm_death"}
    assert all(a.layer == layer and a.source == "utterance" for a in alerts)
    calm = [e for e in g.emotion if e.mood_reason.startswith("HC-9")]
    assert len(calm) == len(distress) and {e.emotion for e in calm} == {"neutral"}
    assert server.chat_requests() == []             # HC-9: no LLM call for that turn


def test_layer1_child_affect(ros, server, tmp_path) -> None:
    g = Graph(ros, server.url, tmp_path)
    corpus = affect_replies()
    distress = [r for r in corpus if r.label == "distress"]
    for r in distress:                              # each its own session: HC-9 ends it
        server.responder = lambda _req, reply=r.reply: reply
        assert g.tell("hey buddy " + r.child).text == HC9_LINE, r.id
    alerts, _ = read_alerts(g.alert_log)
    assert len(alerts) == len(distress)
    assert all(a.source == "child_affect" and a.layer == 1 for a in alerts)
    assert len(server.chat_requests()) == len(distress)
    ordinary = [r for r in corpus if r.label != "distress"]
    heard = run_conversation(g, server, ordinary)
    wrongly = [r.id for r, s in zip(ordinary, heard, strict=True) if s.text == HC9_LINE]
    FIGURES["affect_replies"] = {"distress": len(distress), "stopped": len(alerts),
                                 "ordinary_sadness": len(ordinary), "stopped_wrongly": wrongly}
    assert wrongly == []


def test_hc9_on_the_whole_graph_keeps_the_face_calm(ros, tmp_path) -> None:
    """DESIGN §6.15 on the five nodes of `buddy run`: the reply's streamed emotion is sad
    and its child_affect says distress; the face never shows a negative mood, the
    personality ends the conversation, and the alert is written."""
    from buddy_msgs.msg import FaceState, PersonalitySnapshot
    from buddy_personality.nodes.bringup import GraphOptions, create_graph

    reply = dict(affect_replies()[1].reply, emotion="sad", intensity=0.5)
    assert affect_replies()[1].label == "distress"
    with FakeLlmServer("stream", responder=lambda _req: reply, chunk_chars=8,
                       chunk_delay_s=0.002) as server:
        face = ros.collect(FaceState, "face/state", qos.LATCHED)
        snaps = ros.collect(PersonalitySnapshot, "personality/snapshot", qos.LATCHED)
        says = ros.collect(Say, "tts/say")
        conv = ros.collect(ConversationEvent, "conversation/events")
        options = GraphOptions(namespace=ros.namespace, overrides={
            "personality": {"memory_path": str(tmp_path / "memory.json")},
            "identity": {"profiles_path": str(tmp_path / "household.json")},
            "llm_bridge": {"server_url": server.url,
                           "alert_log_path": str(tmp_path / "alerts.jsonl")},
            "face_driver": {"port": "sim"},
        })
        for node in create_graph(options, context=ros.context):
            ros.add(node)
        assert ros.spin_until(lambda: snaps and any(f.connected for f in face), timeout=10)
        start = len(face)
        pub = ros.publisher(Utterance, "speech/utterance")
        pub.publish(Utterance(text="hey buddy " + affect_replies()[1].child, is_final=True,
                              confidence=1.0))
        assert ros.spin_until(lambda: says, timeout=10)
        assert says[0].text == HC9_LINE and says[0].emotion == "neutral"
        assert ros.spin_until(lambda: any(c.end_reason == ConversationEvent.END_HC9
                                          for c in conv), timeout=5)
        assert ros.spin_until(lambda: not snaps[-1].conversation_active, timeout=5)
        # The face follows the ended conversation (DONE, then IDLE).
        assert ros.spin_until(lambda: face[-1].conv_state in (7, 0) and len(face) > start,
                              timeout=5)
        shown = {f.mood for f in face[start:]}
        assert not shown & {"sad", "scared", "angry"}, shown
        assert [a.category for a in read_alerts(tmp_path / "alerts.jsonl")[0]] == [
            "child_affect"]
