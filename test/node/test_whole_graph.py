"""The five nodes together in one process, as `buddy run` starts them (issue 8): a child's
utterance crosses the whole graph. In layer 0 (no server) and with the scripted fake
LLM server (loopback only), the bridge opens a session, the personality node sees it,
the governor starts an episode, Buddy answers on tts/say with the personality's mood as
the prosody tag (spec 002 §11.5), and the face driver shows the phase."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from buddy_msgs.msg import (
    ConversationEvent,
    ConversationPhase,
    FaceState,
    GovernorState,
    PersonalitySnapshot,
    Say,
    Utterance,
)
from buddy_personality.nodes.bringup import GraphOptions, create_graph
from buddy_personality.nodes.common import qos
from buddy_personality.tools.fakes.fake_llm_server import FakeLlmServer

pytestmark = pytest.mark.ros

CANONICAL_MOODS = {"neutral", "happy", "excited", "curious", "sad", "scared", "angry",
                   "surprised", "sleepy", "love", "silly", "thinking", "confused"}


@pytest.fixture
def server() -> Iterator[FakeLlmServer]:
    with FakeLlmServer("stream", chunk_chars=8, chunk_delay_s=0.001) as srv:
        yield srv


def start_graph(ros, tmp_path, server_url: str) -> None:
    options = GraphOptions(namespace=ros.namespace, overrides={
        "personality": {"memory_path": str(tmp_path / "memory.json")},
        "identity": {"profiles_path": str(tmp_path / "household.json")},
        "llm_bridge": {"server_url": server_url,
                       "household_path": str(tmp_path / "household.json")},
        "face_driver": {"port": "sim"},
    })
    for node in create_graph(options, context=ros.context):
        ros.add(node)


@pytest.mark.parametrize("layer", ["rules", "llm"])
def test_an_utterance_crosses_the_whole_graph(ros, tmp_path, request, layer) -> None:
    url = request.getfixturevalue("server").url if layer == "llm" else ""
    snapshots = ros.collect(PersonalitySnapshot, "personality/snapshot", qos.LATCHED)
    conv = ros.collect(ConversationEvent, "conversation/events")
    phases = ros.collect(ConversationPhase, "conversation/phase", qos.LATCHED)
    says = ros.collect(Say, "tts/say")
    governor = ros.collect(GovernorState, "governor/state", qos.LATCHED)
    face = ros.collect(FaceState, "face/state", qos.LATCHED)
    start_graph(ros, tmp_path, url)
    assert ros.spin_until(lambda: snapshots and governor, timeout=10)
    episode_before = governor[-1].episode_id

    pub = ros.publisher(Utterance, "speech/utterance")
    pub.publish(Utterance(text="hey buddy, do you like dinosaurs?", is_final=True,
                          confidence=1.0))

    assert ros.spin_until(lambda: says, timeout=10), "Buddy did not answer"
    assert says[0].text.strip()
    assert says[0].emotion in CANONICAL_MOODS
    assert any(e.kind == ConversationEvent.STARTED for e in conv)
    assert ros.spin_until(lambda: any(s.conversation_active for s in snapshots), timeout=5)
    assert ros.spin_until(lambda: governor[-1].episode_id > episode_before, timeout=5)
    seen_phases = [p.phase for p in phases]
    assert ConversationPhase.THINKING in seen_phases or layer == "rules"
    assert ConversationPhase.SPEAKING in seen_phases
    assert ros.spin_until(lambda: any(f.connected for f in face), timeout=5)
