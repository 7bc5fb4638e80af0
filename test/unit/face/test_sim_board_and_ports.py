"""The simulated board's MCU behaviour and the `auto` port heuristic."""

from __future__ import annotations

import pytest

from buddy_personality.face.codec import FrameDecoder, encode_frame, parse_packet
from buddy_personality.face.protocol import (
    FaceStatus,
    Heartbeat,
    ProtocolVersionAck,
    SetProtocolVersion,
    SetState,
    TimeSyncReq,
    TimeSyncResp,
)
from buddy_personality.face.sim_board import SimBoardDevice, SimulatedBoard
from buddy_personality.face.transport import (
    PortCandidate,
    PortNotFound,
    choose_port,
    rank_port,
)


def packets(data: bytes, version: int) -> list:
    return [parse_packet(b, version).payload for b in FrameDecoder().feed(data)]


def test_board_boots_on_v1_and_acks_v2_in_a_v2_envelope() -> None:
    board = SimulatedBoard(now=0.0)
    out = board.receive(encode_frame(SetProtocolVersion(2), 0, 1), 0.1)
    (ack,) = FrameDecoder().feed(out)
    assert len(ack) == 13 + 1  # v2 header + version byte
    assert parse_packet(ack, 2).payload == ProtocolVersionAck(2)
    # Then SET_STATE in v2 is applied and FACE_STATUS v2 reports the applied seq.
    out = board.receive(encode_frame(SetState(5, 100), 41, 2, 0), 0.2)
    (status,) = packets(out, 2)
    assert status == FaceStatus(5, 0xFF, 0, 0, cmd_seq_last_applied=41,
                                t_state_applied_us=200_000)


def test_v1_only_board_ignores_negotiation() -> None:
    board = SimulatedBoard(v1_only=True, now=0.0)
    assert board.receive(encode_frame(SetProtocolVersion(2), 0, 1), 0.1) == b""
    assert board.version == 1


def test_heartbeat_every_second_with_uptime_and_time_sync() -> None:
    board = SimulatedBoard(now=10.0)
    assert board.poll(10.5) == b""
    (hb,) = packets(board.poll(11.0), 1)
    assert isinstance(hb, Heartbeat) and hb.uptime_ms == 1000
    (resp,) = packets(board.receive(encode_frame(TimeSyncReq(7), 1, 1), 12.0), 1)
    assert resp == TimeSyncResp(7, 2_000_000)


def test_reset_goes_back_to_v1_and_mute_board_says_nothing() -> None:
    board = SimulatedBoard(now=0.0)
    board.receive(encode_frame(SetProtocolVersion(2), 0, 1), 0.0)
    board.reset(1.0)
    assert board.version == 1 and board.face.mood_id == 0
    mute = SimulatedBoard(mute=True, now=0.0)
    assert mute.receive(encode_frame(SetProtocolVersion(2), 0, 1), 0.0) == b""
    assert mute.poll(5.0) == b""


def test_sim_device_unplug_fails_open_transports_and_replug_restarts() -> None:
    device = SimBoardDevice()
    transport = device.open()
    transport.write(encode_frame(SetProtocolVersion(2), 0, 1))
    assert device.board.version == 2
    device.unplug()
    with pytest.raises(OSError):
        transport.read(0.0)
    with pytest.raises(FileNotFoundError):
        device.open()
    device.replug()
    assert device.board.version == 1
    with pytest.raises(OSError):
        transport.write(b"\x00")  # the old handle stays dead
    assert device.open().read(0.0) == b""


def test_auto_port_prefers_espressif_then_names_then_bridges() -> None:
    ports = [
        PortCandidate("/dev/ttyAMA0", description="ttyAMA0"),
        PortCandidate("/dev/ttyUSB0", vid=0x10C4, pid=0xEA60, description="CP2102"),
        PortCandidate("/dev/ttyACM1", vid=0x2341, pid=0x0043, product="Buddy Face"),
        PortCandidate("/dev/ttyACM3", vid=0x303A, pid=0x1001, description="USB JTAG"),
        PortCandidate("/dev/ttyACM2", vid=0x303A, pid=0x4001, description="TinyUSB"),
    ]
    assert choose_port(ports) == "/dev/ttyACM2"  # Espressif VID; lowest path wins ties
    assert choose_port(ports[:3]) == "/dev/ttyACM1"
    assert choose_port(ports[:2]) == "/dev/ttyUSB0"
    assert rank_port(ports[0]) is None
    with pytest.raises(PortNotFound):
        choose_port(ports[:1])
