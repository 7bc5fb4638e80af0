"""Driver core against the simulated board, on explicit time (DESIGN §4.4)."""

from __future__ import annotations

import itertools

from buddy_personality.face.codec import FrameDecoder, parse_packet
from buddy_personality.face.driver import (
    SYS_CRITICAL_BATTERY,
    SYS_FAULT_CLEARED,
    SYS_FAULT_RAISED,
    SYS_LOW_BATTERY,
    DriverConfig,
    FaceDriverCore,
    system_mode_for,
)
from buddy_personality.face.link import LinkConfig, LinkManager
from buddy_personality.face.protocol import (
    ButtonEvent,
    ConvState,
    PacketType,
    SetState,
    SystemMode,
    TouchEvent,
)
from buddy_personality.face.sim_board import SimulatedBoard
from buddy_personality.face.testing import BoardPort

TICK = 0.02  # 50 Hz


class Rig:
    def __init__(self, board: SimulatedBoard | None = None, **link_config) -> None:
        self.board = board or SimulatedBoard(now=0.0)
        self.ports: list[BoardPort] = []
        self.missing = False
        self.now = 0.0
        self.link = LinkManager(self._open, LinkConfig(**link_config))
        self.core = FaceDriverCore(self.link, config=DriverConfig(keepalive_period_s=0.9))

    def _open(self) -> BoardPort:
        if self.missing:
            raise FileNotFoundError("gone")
        port = BoardPort(self.board)
        port.now = self.now
        self.ports.append(port)
        return port

    def at(self, now: float) -> None:
        self.now = now
        for port in self.ports:
            port.now = now

    def run(self, until: float):
        outputs = []
        while self.now < until - 1e-9:
            self.at(round(self.now + TICK, 6))
            outputs.append(self.core.tick(self.now))
        return outputs

    def set_states(self) -> list[tuple[float, SetState]]:
        return [(at, p.payload) for p, at in zip(self.board.received, self.board.received_at,
                                                 strict=True)
                if p.type_id == PacketType.SET_STATE]


def started(board: SimulatedBoard | None = None, **cfg) -> Rig:
    rig = Rig(board, **cfg)
    rig.core.tick(0.0)
    rig.core.activate(0.0)
    return rig


def test_snapshot_becomes_set_state_at_once_without_waiting_for_a_tick() -> None:
    rig = started()
    rig.run(0.1)
    rig.at(0.105)
    rig.core.on_snapshot("happy", 0.5, 0.105)
    t, state = rig.set_states()[-1]
    assert t == 0.105
    assert state == SetState(mood_id=1, intensity=128, gaze_x=0, gaze_y=0, brightness=255)
    assert (rig.board.face.mood_id, rig.board.face.intensity) == (1, 128)


def test_keepalive_at_least_once_per_second_and_no_spam() -> None:
    rig = started()
    rig.core.on_snapshot("curious", 0.4, 0.0)
    for k in range(1, 11):  # a fresh snapshot every second keeps the backstop away
        rig.run(float(k))
        rig.core.on_snapshot("curious", 0.4, rig.now)
    times = [t for t, _ in rig.set_states()]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert max(gaps) <= 1.0
    assert len(times) <= 13  # about one per 0.9 s, not one per tick or snapshot


def test_stale_snapshot_triggers_the_backstop_after_3_s_and_clears_on_recovery() -> None:
    rig = started()
    rig.core.on_snapshot("excited", 0.9, 0.0)
    rig.run(3.0)
    assert rig.board.face.mood_id == 2  # still the snapshot at 3.0 s
    rig.run(3.04)
    assert (rig.board.face.mood_id, rig.board.face.intensity) == (0, 51)  # NEUTRAL 0.2
    assert rig.core.shown.backstop_active
    rig.at(5.0)
    rig.core.on_snapshot("love", 0.6, 5.0)
    assert (rig.board.face.mood_id, rig.board.face.intensity) == (9, 153)
    assert not rig.core.shown.backstop_active


def test_phase_talking_gesture_and_system_are_forwarded() -> None:
    rig = started()
    rig.core.on_phase(int(ConvState.THINKING), 0.0)
    assert rig.board.face.conv_state == 4
    assert rig.board.face.mood_id == 11  # §11.1 THINKING face
    rig.core.on_talking(True, 0.1)
    assert rig.board.face.talking and rig.board.face.energy > 0
    rig.at(0.2)
    assert rig.core.on_gesture(10, 0, 0.2)
    rig.board.poll(rig.board._boot_at + 3.8)   # gestures play once the boot animation ends
    assert rig.board.face.gesture == 10
    rig.core.on_system_event(SYS_LOW_BATTERY, 15.0, 0.3)
    assert (rig.board.face.system_mode, rig.board.face.system_param) == (3, 38)
    assert not rig.core.on_gesture(13, 0, 0.4)  # no such gesture: rejected, counted
    assert rig.core.counters.rejected_inputs == {"gesture": 1}


def test_system_event_mapping() -> None:
    assert system_mode_for(SYS_CRITICAL_BATTERY, 5.0) == (int(SystemMode.LOW_BATTERY), 13)
    assert system_mode_for(SYS_LOW_BATTERY, -1.0) == (int(SystemMode.LOW_BATTERY), 0)
    assert system_mode_for(SYS_FAULT_RAISED, -1.0) == (int(SystemMode.ERROR_DISPLAY), 0)
    assert system_mode_for(SYS_FAULT_CLEARED, -1.0) == (int(SystemMode.NONE), 0)
    assert system_mode_for(5, -1.0) is None  # SERVER_ONLINE: nothing on the face


def test_buttons_and_touches_come_back_from_the_tick() -> None:
    rig = started()
    # The firmware sends input events with its next 50 ms status cycle.
    rig.ports[-1].inbox += rig.board.button(0, 0, 1, 0.0) + rig.board.touch(2, 100, 200, 0.0)
    rig.at(0.06)
    out = rig.core.tick(0.06)
    assert out.buttons == [ButtonEvent(0, 0, 1, 0)]
    assert out.touches == [TouchEvent(2, 100, 200)]


def test_replug_restores_the_whole_state_on_a_renegotiated_link() -> None:
    rig = started(backoff_initial_s=0.5)
    rig.core.on_phase(int(ConvState.SPEAKING), 0.0)
    rig.core.on_talking(True, 0.0)
    rig.core.on_snapshot("silly", 0.7, 0.0)
    rig.run(1.5)
    # Unplug: writes fail; the board restarts on v1 when plugged back.
    rig.ports[-1].fail_writes = True
    rig.ports[-1].read_error = "read failed: [Errno 5] Input/output error"
    rig.missing = True
    rig.run(2.5)
    assert not rig.link.connected
    rig.board.reset(2.5)
    rig.missing = False
    rig.core.on_snapshot("silly", 0.7, 2.5)
    rig.run(4.0)
    assert rig.link.connected and rig.link.version == 2
    face = rig.board.face
    assert (face.mood_id, face.conv_state, face.talking) == (10, 5, True)
    assert rig.link.counters.reconnects == 1


def test_v1_only_firmware_gets_v1_set_state() -> None:
    rig = started(SimulatedBoard(v1_only=True, now=0.0))
    rig.run(0.6)
    assert rig.link.version == 1
    rig.core.on_snapshot("sad", 0.5, 0.6)
    assert rig.board.face.mood_id == 4
    last = rig.board.received[-1]
    assert last.version == 1 and last.t_src_us is None


def test_face_commands_go_in_v1_envelopes_on_a_v2_link() -> None:
    # face-protocol.md "What Buddy's driver does": every face command in a v1 envelope
    # in either mode; only TIME_SYNC_REQ in the negotiated one.
    rig = started()
    rig.core.on_phase(int(ConvState.SPEAKING), 0.0)
    rig.core.on_talking(True, 0.0)
    rig.core.on_snapshot("happy", 0.5, 0.0)
    rig.run(1.5)
    assert rig.link.version == 2
    kinds = {p.type_id: p.version for p in rig.board.received}
    assert kinds[PacketType.TIME_SYNC_REQ] == 2
    assert {v for k, v in kinds.items() if k not in (PacketType.TIME_SYNC_REQ,)} == {1}


def test_nothing_is_sent_before_activate() -> None:
    rig = Rig()
    rig.core.tick(0.0)
    rig.core.on_snapshot("happy", 1.0, 0.0)
    rig.run(2.0)
    assert rig.set_states() == []
    rig.core.activate(2.0)
    assert rig.set_states()[-1][1].mood_id == 1


def test_bad_inputs_are_rejected_and_counted() -> None:
    rig = started()
    assert not rig.core.on_snapshot("grumpy", 0.5, 0.0)
    assert not rig.core.on_ai_emotion("happy", float("inf"), 0.0)
    assert not rig.core.on_phase(42, 0.0)
    assert rig.core.counters.rejected_inputs == {"snapshot": 1, "ai_emotion": 1, "phase": 1}
    diag = rig.core.diagnostics(0.0)
    assert diag["rejected_snapshot"] == "1" and diag["link_state"] == "CONNECTED"


def test_wire_bytes_of_set_state_match_the_protocol() -> None:
    rig = started()
    start = len(rig.ports[-1].written)
    rig.at(1.0)
    rig.core.on_snapshot("thinking", 1.0, 1.0)
    bodies = FrameDecoder().feed(bytes(rig.ports[-1].written[start:]))
    (body,) = [b for b in bodies if b[0] == 0x20]
    # v1 envelope: type, seq u8, then mood 11, intensity 255, gaze from THINKING? no:
    # the phase is IDLE, so gaze (0, 0), brightness 255.
    assert len(body) == 2 + 5 and body[2:] == bytes([11, 255, 0, 0, 255])
    assert parse_packet(body, 1).payload == SetState(11, 255, 0, 0, 255)
