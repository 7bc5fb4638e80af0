"""The simulated board as a device (firmware behaviour: test_firmware_emulator.py)
and the `auto` port heuristic."""

from __future__ import annotations

import pytest

from buddy_personality.face.codec import FrameDecoder, encode_frame, parse_packet
from buddy_personality.face.protocol import (
    SetProtocolVersion,
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


def test_v1_only_board_ignores_negotiation() -> None:
    board = SimulatedBoard(v1_only=True, now=0.0)
    assert board.receive(encode_frame(SetProtocolVersion(2), 0, 1), 0.1) == b""
    assert board.version == 1


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
