"""SimGraph (tools/sim/sim_graph.py): the five nodes under sim time, stepped and settled
deterministically (DESIGN §1.6)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ros

from buddy_msgs.msg import SystemEvent, Utterance  # noqa: E402
from buddy_personality.tools.bags.bagio import deserialize  # noqa: E402
from buddy_personality.tools.sim.scenarios.responders import DINOSAUR_TALK, start_llm  # noqa: E402
from buddy_personality.tools.sim.sim_graph import SimGraph, SimSetup, relative  # noqa: E402

START = 1_772_438_400.0  # 2026-03-02 08:00 UTC


def on(graph: SimGraph, topic: str) -> list:
    return [(c.t_ns * 1e-9 - START, deserialize(c.type_name, c.data))
            for c in graph.captures if relative(c.topic) == topic]


def test_every_node_starts_at_the_setup_time_and_follows_the_steps() -> None:
    with SimGraph(SimSetup(start_s=START)) as g:
        snaps = on(g, "personality/snapshot")
        assert snaps and snaps[0][0] == 0.0
        assert snaps[0][1].header.stamp.sec == int(START)  # built at sim time, not 0
        g.advance_to(START + 5.0)
        t, last = on(g, "personality/snapshot")[-1]
        assert t == 5.0 and last.header.stamp.sec == int(START) + 5
        assert on(g, "governor/state")[-1][0] == 5.0  # 1 Hz timers on the ROS clock
        with pytest.raises(ValueError, match="cannot go back"):
            g.advance_to(START + 4.0)
        with pytest.raises(KeyError, match="not an input topic"):
            g.publish("tts/say", Utterance())


def run_conversation() -> SimGraph:
    server = start_llm("scripted:dinosaur_talk")
    try:
        g = SimGraph(SimSetup(start_s=START, llm="scripted:dinosaur_talk"), llm_url=server.url)
        with g:
            g.publish("system/events", SystemEvent(kind=SystemEvent.BOOT, battery_pct=-1.0))
            g.advance_to(START + 2.0)  # the bridge's first probe finds the server
            g.publish("speech/utterance", Utterance(text="hey buddy, do you like dinosaurs?",
                                                    is_final=True, confidence=0.9))
            g.advance_to(START + 3.0)
        return g
    finally:
        server.stop()


def test_an_llm_reply_lands_in_the_same_sim_instant_as_the_utterance() -> None:
    """The settle waits for the bridge's worker: the call takes no sim time."""
    g = run_conversation()
    (t_say, say), = on(g, "tts/say")
    assert (t_say, say.text) == (2.0, DINOSAUR_TALK[0]["text"])
    sources = {(t, m.source) for t, m in on(g, "personality/ai_emotion")}
    assert sources >= {(2.0, 0), (2.0, 1)}  # INLINE while streaming, then HYBRID
    assert [m.kind for _t, m in on(g, "system/events")] == [SystemEvent.BOOT,
                                                             SystemEvent.SERVER_ONLINE]


def test_the_same_inputs_give_the_same_outputs_byte_for_byte() -> None:
    """Except the face state (its link runs on the steady clock by design) and the
    server URL in SERVER_ONLINE (a new loopback port each run)."""
    def outputs(g: SimGraph) -> list[tuple[str, int, bytes]]:
        return [(c.topic, c.t_ns, c.data) for c in g.captures
                if relative(c.topic) not in ("face/state", "system/events")]

    first, second = outputs(run_conversation()), outputs(run_conversation())
    assert len(first) > 30
    assert first == second


def test_a_replay_leaves_the_dashboard_out_and_its_port_to_the_running_graph(
        monkeypatch) -> None:
    """Issue 30 item 4: a replay next to a running graph must not fight it for the parent
    page's port (robot.yaml parent_dashboard.port, 8080): the dashboard publishes nothing
    a replay compares (spec 004: it is the parent's window on the graph), so the sim
    graph does not build it and no TCP port is opened."""
    import socket

    binds: list[object] = []
    real_bind = socket.socket.bind

    def bind(self: socket.socket, address: object) -> None:
        if self.type == socket.SOCK_STREAM:
            binds.append(address)
        real_bind(self, address)

    monkeypatch.setattr(socket.socket, "bind", bind)
    with SimGraph(SimSetup(start_s=START)) as g:
        names = {n.get_name() for n in g.nodes}
        g.advance_to(START + 2.0)
    assert "parent_dashboard" not in names
    assert {"personality", "llm_bridge", "identity"} <= names
    assert binds == []
