"""Issue 19 attack: the first governor signal of every session after the first was
refused, because the bridge published it before the governor reset of its session was
answered. DESIGN §4.2: one episode governs one session; every signal of the session
must reach that episode."""

from __future__ import annotations

import pytest
from diagnostic_msgs.msg import DiagnosticArray
from rclpy.parameter import Parameter

from buddy_msgs.msg import ConversationEvent, GovernorSignal, GovernorState, Utterance
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.governor_node import GovernorNode
from buddy_personality.nodes.llm_bridge_node import LlmBridgeNode

pytestmark = [pytest.mark.ros, pytest.mark.attack]


def test_every_signal_of_a_three_session_run_is_accepted(ros) -> None:
    ros.add(GovernorNode(**ros.node_kwargs()))
    bridge = ros.add(LlmBridgeNode(**ros.node_kwargs(parameter_overrides=[
        Parameter("server_url", value=""), Parameter("gate.cooldown_s", value=0.0)])))
    conv = ros.collect(ConversationEvent, "conversation/events")
    signals = ros.collect(GovernorSignal, "governor/signal")
    states = ros.collect(GovernorState, "governor/state", qos.LATCHED)
    diagnostics = ros.collect(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)
    speech = ros.publisher(Utterance, "speech/utterance")
    assert ros.spin_until(bridge._reset_client.service_is_ready, timeout=5)

    for n in range(3):
        sent = len(signals)
        speech.publish(Utterance(text="hey buddy tell me about dinosaurs", is_final=True,
                                 confidence=0.9))
        assert ros.spin_until(lambda s=sent: len(signals) > s, timeout=5)
        speech.publish(Utterance(text="what do they eat", is_final=True, confidence=0.9))
        assert ros.spin_until(lambda s=sent: len(signals) > s + 1, timeout=5)
        speech.publish(Utterance(text="bye bye", is_final=True, confidence=0.9))
        assert ros.spin_until(lambda k=2 * n + 2: len(conv) == k, timeout=5)
    assert len({c.session_id for c in conv}) == 3 and len(signals) == 6

    def governor_values() -> dict[str, str]:
        for m in reversed(diagnostics):
            for st in m.status:
                if st.name.endswith("/governor"):
                    return {kv.key: kv.value for kv in st.values}
        return {}

    assert ros.spin_until(lambda: governor_values().get("signals.accepted") == "6", timeout=5)
    assert governor_values()["signals.rejected.total"] == "0"
    assert states[-1].step == 2 and states[-1].session_id == conv[-1].session_id
