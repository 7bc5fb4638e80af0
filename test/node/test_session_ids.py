"""Session ids across a restarted LLM bridge, with the real personality node over DDS
(issue 31 item 2; spec 002 §9.3 RS-1/RS-2 count every session's talk).

Ids came from the bridge's seeded RNG: every bridge process started with the same first
id, so after the bridge alone restarted the personality refused the new STARTED as an
already-ended session and the whole session ran uncounted.
"""

from __future__ import annotations

import pytest
from rclpy.parameter import Parameter
from std_srvs.srv import Trigger

from buddy_msgs.msg import ConversationEvent, PersonalitySnapshot, Utterance
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.llm_bridge_node import LlmBridgeNode
from buddy_personality.nodes.personality_node import PersonalityNode

pytestmark = pytest.mark.ros


def make_personality(ros, tmp_path) -> PersonalityNode:
    return ros.add(PersonalityNode(**ros.node_kwargs(parameter_overrides=[
        Parameter("memory_path", value=str(tmp_path / "memory.json")),
        Parameter("usage_path", value=str(tmp_path / "usage.json")),
        Parameter("state_path", value=str(tmp_path / "state.json")),
    ])))


def make_bridge(ros) -> LlmBridgeNode:
    """A bridge process as the launch starts it: same parameters (same seed) every time."""
    return ros.add(LlmBridgeNode(**ros.node_kwargs(parameter_overrides=[
        Parameter("server_url", value=""), Parameter("gate.cooldown_s", value=0.0)])))


def stop_bridge(ros, bridge: LlmBridgeNode) -> None:
    """The bridge process ends (its node leaves the graph); nothing else restarts."""
    ros.executor.remove_node(bridge)
    ros._nodes.remove(bridge)
    bridge.destroy_node()


def start_session(ros, conv: list[ConversationEvent]) -> ConversationEvent:
    """Say the wake phrase until the bridge starts a session; its STARTED event."""
    speech = ros.probe.create_publisher(Utterance, "speech/utterance", qos.EVENTS)
    before = len(conv)

    def started() -> bool:
        return any(e.kind == ConversationEvent.STARTED for e in conv[before:])

    for _ in range(20):
        speech.publish(Utterance(text="hey buddy hi", is_final=True, confidence=0.9))
        if ros.spin_until(started, timeout=0.5):
            break
    ros.probe.destroy_publisher(speech)
    assert started()
    return next(e for e in conv[before:] if e.kind == ConversationEvent.STARTED)


def assert_counted(ros, personality: PersonalityNode, snaps: list[PersonalitySnapshot],
                   session_id: str) -> None:
    """The personality runs this session (not refused) and its talk reaches RS-2's
    daily counter."""
    engine = personality.engine
    assert ros.spin_until(lambda: engine.conversation_active
                          and engine.session_id == session_id, timeout=5), (
        engine.session_id, engine.stats.rejected_inputs)
    daily = engine.usage.daily_s
    assert ros.spin_until(lambda: engine.usage.daily_s >= daily + 1.5, timeout=6)
    assert ros.spin_until(lambda: snaps and snaps[-1].conversation_active, timeout=3)


def test_a_restarted_bridge_starts_a_new_id_and_its_session_is_counted(ros, tmp_path) -> None:
    personality = make_personality(ros, tmp_path)
    snaps = ros.collect(PersonalitySnapshot, "personality/snapshot", qos.LATCHED)
    conv = ros.collect(ConversationEvent, "conversation/events")
    first = make_bridge(ros)
    one = start_session(ros, conv)
    assert_counted(ros, personality, snaps, one.session_id)
    assert ros.call(Trigger, "llm_bridge/end_conversation", Trigger.Request()).success
    assert ros.spin_until(lambda: not personality.engine.conversation_active, timeout=5)
    stop_bridge(ros, first)

    make_bridge(ros)  # the bridge alone restarts
    two = start_session(ros, conv)
    assert two.session_id != one.session_id
    assert_counted(ros, personality, snaps, two.session_id)


def test_a_bridge_restarted_mid_session_has_its_new_session_counted(ros, tmp_path) -> None:
    """The bridge died mid-session (no ENDED) and came back at once: the new session is
    counted whether the personality still holds the old one or has ended it."""
    personality = make_personality(ros, tmp_path)
    snaps = ros.collect(PersonalitySnapshot, "personality/snapshot", qos.LATCHED)
    conv = ros.collect(ConversationEvent, "conversation/events")
    first = make_bridge(ros)
    one = start_session(ros, conv)
    assert_counted(ros, personality, snaps, one.session_id)
    stop_bridge(ros, first)

    make_bridge(ros)
    two = start_session(ros, conv)
    assert two.session_id != one.session_id
    assert_counted(ros, personality, snaps, two.session_id)
