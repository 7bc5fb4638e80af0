"""face_driver node over real DDS (DESIGN §4.4), with the simulated board on a real
pseudo-terminal (or in-process for port `sim`)."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import pytest
from diagnostic_msgs.msg import DiagnosticArray
from rclpy.parameter import Parameter
from std_msgs.msg import Bool

from buddy_msgs.msg import (
    ButtonEvent,
    ConversationPhase,
    FaceState,
    Gesture,
    PersonalitySnapshot,
    SystemEvent,
    TouchEvent,
)
from buddy_personality.face.codec import FrameDecoder, parse_packet
from buddy_personality.face.protocol import PacketType, SetState
from buddy_personality.face.sim_board import SimulatedBoard
from buddy_personality.face.sim_pty import PtyBoardRunner
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.face_driver_node import FaceDriverNode

pytestmark = pytest.mark.ros


class BoardSpy:
    """The board end of a pty; remembers when each SET_STATE arrived."""

    def __init__(self, tmp_path: Path, v1_only: bool = False) -> None:
        self._decoder = FrameDecoder()
        self.set_states: list[tuple[float, bytes]] = []
        self.runner = PtyBoardRunner(SimulatedBoard(v1_only=v1_only, now=time.monotonic()),
                                     link_path=str(tmp_path / "face0"), on_rx=self._on_rx)

    def _on_rx(self, data: bytes, at: float) -> None:
        for body in self._decoder.feed(data):
            if body[0] == PacketType.SET_STATE:
                self.set_states.append((at, body))

    @property
    def face(self):
        return self.runner.board.face

    def close(self) -> None:
        self.runner.close()


@pytest.fixture
def board(tmp_path: Path):
    spy = BoardSpy(tmp_path)
    yield spy
    spy.close()


def start(ros, port: str, **params) -> FaceDriverNode:
    overrides = [Parameter("port", value=port),
                 Parameter("backoff_initial_s", value=0.1)]
    overrides += [Parameter(k, value=v) for k, v in params.items()]
    return ros.add(FaceDriverNode(**ros.node_kwargs(parameter_overrides=overrides)))


def snapshot(mood: str, intensity: float, active: bool = False) -> PersonalitySnapshot:
    return PersonalitySnapshot(mood=mood, intensity=intensity, conversation_active=active)


def test_autostart_with_the_in_process_sim_board(ros) -> None:
    node = start(ros, "sim")
    states = ros.collect(FaceState, "face/state", qos.LATCHED)
    assert ros.spin_until(lambda: states and states[-1].connected, timeout=5)
    s = states[-1]
    assert (s.protocol_version, s.port, s.backstop_active) == (2, "sim", True)
    assert (s.mood, s.intensity) == ("neutral", pytest.approx(0.2))  # no snapshot yet
    snaps = ros.publisher(PersonalitySnapshot, "personality/snapshot", qos.LATCHED)
    snaps.publish(snapshot("happy", 0.8))
    face = node.sim_device.board.face
    assert ros.spin_until(lambda: face.mood_id == 1 and face.intensity == 204)


def test_snapshot_on_dds_becomes_the_right_set_state_bytes(ros, board) -> None:
    start(ros, board.runner.path)
    states = ros.collect(FaceState, "face/state", qos.LATCHED)
    assert ros.spin_until(lambda: states and states[-1].protocol_version == 2)
    snaps = ros.publisher(PersonalitySnapshot, "personality/snapshot", qos.LATCHED)
    snaps.publish(snapshot("curious", 0.5))
    assert ros.spin_until(lambda: board.face.mood_id == 3)
    body = board.set_states[-1][1]
    # A v1 envelope on the v2 link (face-protocol.md "What Buddy's driver does"): type
    # 0x20, seq u8, then mood 3 (curious), intensity round(0.5 * 255) = 128, gaze 0, 0
    # (IDLE), brightness 255.
    assert body[0] == 0x20 and len(body) == 2 + 5
    assert body[2:] == bytes([3, 128, 0, 0, 255])
    assert parse_packet(body, 1).payload == SetState(3, 128, 0, 0, 255)
    assert ros.spin_until(lambda: states[-1].mood == "curious"
                          and not states[-1].backstop_active)


def test_keepalive_at_least_once_a_second_without_spam(ros, board) -> None:
    start(ros, board.runner.path, stale_after_s=60.0)
    snaps = ros.publisher(PersonalitySnapshot, "personality/snapshot", qos.LATCHED)
    snaps.publish(snapshot("love", 0.6))
    assert ros.spin_until(lambda: board.face.mood_id == 9)
    first = len(board.set_states)
    assert ros.spin_until(lambda: len(board.set_states) >= first + 3, timeout=4.0)
    times = [t for t, _ in board.set_states[first - 1:]]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    # DESIGN §4.4: at least once a second (slack for the pty and for this process, in
    # which the node spins, starved on a loaded machine: erratum 22's margin) ...
    assert max(gaps) <= 1.0 + 0.3
    # ... and an unchanged face is not resent every 20 ms tick.
    assert min(gaps) >= 0.8


def test_stale_snapshot_starts_the_backstop_after_3_s_and_recovers(ros, board) -> None:
    start(ros, board.runner.path)
    states = ros.collect(FaceState, "face/state", qos.LATCHED)
    snaps = ros.publisher(PersonalitySnapshot, "personality/snapshot", qos.LATCHED)
    snaps.publish(snapshot("excited", 0.9))
    assert ros.spin_until(lambda: board.face.mood_id == 2)
    sent_at = board.set_states[-1][0]
    assert ros.spin_until(lambda: board.face.mood_id == 0, timeout=5.0)
    backstop_at = next(t for t, b in board.set_states if t > sent_at and b[-5] == 0)
    # spec 002 §11.3: stale after 3000 ms, then NEUTRAL at 0.2 (51 on the wire). Both
    # are the board's arrival stamps, each up to one read of its pty (10 ms) late; the
    # node spins in this test's process, which a loaded machine starves (erratum 22's
    # margin, 0.5 s; the tight figure is benchmarks/face_latency.py's).
    assert 3.0 - 0.02 <= backstop_at - sent_at <= 3.0 + 0.5
    assert board.face.intensity == 51
    assert ros.spin_until(lambda: states[-1].backstop_active)
    snaps.publish(snapshot("silly", 0.6))
    assert ros.spin_until(lambda: board.face.mood_id == 10)
    assert ros.spin_until(lambda: not states[-1].backstop_active)


def test_unplug_and_replug_reconnects_on_v2_and_restores_the_face(ros, board) -> None:
    start(ros, board.runner.path)
    states = ros.collect(FaceState, "face/state", qos.LATCHED)
    diags = ros.collect(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)
    snaps = ros.publisher(PersonalitySnapshot, "personality/snapshot", qos.LATCHED)
    phases = ros.publisher(ConversationPhase, "conversation/phase", qos.LATCHED)
    phases.publish(ConversationPhase(phase=ConversationPhase.SPEAKING))
    snaps.publish(snapshot("happy", 0.7, active=True))
    assert ros.spin_until(lambda: board.face.mood_id == 1 and board.face.conv_state == 5)
    board.runner.unplug()
    assert ros.spin_until(lambda: states and not states[-1].connected, timeout=5)
    assert ros.spin_until(lambda: any(
        "not connected" in s.message for d in diags for s in d.status
        if s.name.endswith("face_driver")), timeout=3)
    board.runner.plug()  # the board restarts on v1 with a blank face
    assert ros.spin_until(lambda: states[-1].connected and states[-1].protocol_version == 2,
                          timeout=5)
    snaps.publish(snapshot("happy", 0.7, active=True))
    assert ros.spin_until(lambda: board.face.mood_id == 1 and board.face.conv_state == 5)
    assert board.runner.board.version == 2

    def reconnects() -> int:
        for d in reversed(diags):
            for s in d.status:
                values = {kv.key: kv.value for kv in s.values}
                if "reconnects" in values:
                    return int(values["reconnects"])
        return 0

    assert ros.spin_until(lambda: reconnects() == 1, timeout=3)


def test_v1_only_firmware(ros, tmp_path: Path) -> None:
    board = BoardSpy(tmp_path, v1_only=True)
    try:
        start(ros, board.runner.path, negotiation_timeout_s=0.2)
        states = ros.collect(FaceState, "face/state", qos.LATCHED)
        assert ros.spin_until(lambda: states and states[-1].connected)
        assert states[-1].protocol_version == 1
        snaps = ros.publisher(PersonalitySnapshot, "personality/snapshot", qos.LATCHED)
        snaps.publish(snapshot("sleepy", 1.0))
        assert ros.spin_until(lambda: board.face.mood_id == 8)
        body = board.set_states[-1][1]
        assert body == bytes([0x20, body[1], 8, 255, 0, 0, 255])  # v1: type, seq u8, data
    finally:
        board.close()


def test_buttons_and_touches_become_topics(ros, board) -> None:
    start(ros, board.runner.path)
    buttons = ros.collect(ButtonEvent, "face/button")
    touches = ros.collect(TouchEvent, "face/touch")
    states = ros.collect(FaceState, "face/state", qos.LATCHED)
    assert ros.spin_until(lambda: states and states[-1].connected)
    board.runner.button(ButtonEvent.BUTTON_PTT, ButtonEvent.CLICK, 1)
    board.runner.touch(TouchEvent.DRAG, 120, 340)
    assert ros.spin_until(lambda: buttons and touches)
    b, t = buttons[0], touches[0]
    assert (b.button_id, b.event_type, b.state) == (0, 3, 1)
    assert (t.event_type, t.x, t.y) == (2, 120, 340)


def test_phase_talking_gesture_and_system_are_forwarded(ros, board) -> None:
    start(ros, board.runner.path)
    states = ros.collect(FaceState, "face/state", qos.LATCHED)
    assert ros.spin_until(lambda: states and states[-1].connected)
    ros.publisher(ConversationPhase, "conversation/phase", qos.LATCHED).publish(
        ConversationPhase(phase=ConversationPhase.THINKING))
    ros.publisher(Bool, "tts/speaking").publish(Bool(data=True))
    ros.publisher(Gesture, "face/gesture").publish(Gesture(gesture_id=Gesture.NOD))
    ros.publisher(SystemEvent, "system/events").publish(
        SystemEvent(kind=SystemEvent.LOW_BATTERY, battery_pct=20.0))
    face = board.face
    assert ros.spin_until(lambda: face.conv_state == 4 and face.talking
                          and face.system_mode == 3
                          and any(r.type_id == 0x21 and r.payload.gesture_id == 10
                                  for r in board.runner.board.received))
    assert face.mood_id == 11  # spec 002 §11.1: THINKING face during THINKING
    assert face.system_param == 51  # 20 % of 255
    assert face.flags == 0x1E       # THINKING: no idle wander, no sparkle (upstream)


def test_missing_port_never_crashes_and_is_reported(ros, tmp_path: Path) -> None:
    node = start(ros, str(tmp_path / "nothing-here"))
    states = ros.collect(FaceState, "face/state", qos.LATCHED)
    diags = ros.collect(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)
    assert ros.spin_until(lambda: diags and states, timeout=3)
    assert not states[-1].connected and states[-1].protocol_version == 0
    assert node.core.link.counters.open_failures >= 1
    assert "does not exist" in node.core.link.last_error


def test_autostart_false_waits_for_lifecycle_transitions(ros, board) -> None:
    node = start(ros, board.runner.path, autostart=False)
    ros.spin_for(0.3)
    assert node.core is None and board.set_states == []
    node.trigger_configure()
    assert node.core is not None and node.core.link.connected
    ros.spin_for(0.2)
    assert board.set_states == []  # configured, not active: the face is not driven
    node.trigger_activate()
    assert ros.spin_until(lambda: board.set_states)


def test_bad_snapshots_are_refused_and_counted(ros) -> None:
    node = start(ros, "sim")
    snaps = ros.publisher(PersonalitySnapshot, "personality/snapshot", qos.LATCHED)
    snaps.publish(snapshot("grumpy", 0.5))
    assert ros.spin_until(lambda: node._rejections.counts["snapshot"] == 1)
    assert node.sim_device.board.face.mood_id == 0


def test_a_board_that_never_answers_is_reported_and_retried(ros, tmp_path: Path) -> None:
    runner = PtyBoardRunner(SimulatedBoard(mute=True, now=time.monotonic()),
                            link_path=str(tmp_path / "face0"))
    try:
        node = start(ros, runner.path, negotiation_timeout_s=0.1, silence_timeout_s=0.5)
        states = ros.collect(FaceState, "face/state", qos.LATCHED)
        link = node.core.link
        # No ACK: v1 assumed (old firmware); no frame at all: lost, reopened, again.
        assert ros.spin_until(lambda: link.counters.silence_timeouts >= 2, timeout=5)
        assert link.counters.negotiation_timeouts >= 2 and link.counters.reconnects >= 1
        assert "no frame from the board" in link.last_error
        assert ros.spin_until(lambda: states and not states[-1].connected, timeout=3)
    finally:
        runner.close()
