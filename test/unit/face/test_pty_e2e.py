"""End to end over a real pseudo-terminal: the driver core with pyserial and its
reader thread on one side, the simulated board on the other (core level; the DDS
version lives in test/node/test_face_driver_node.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from buddy_personality.face.codec import FrameDecoder, encode_frame, parse_packet
from buddy_personality.face.driver import FaceDriverCore
from buddy_personality.face.link import LinkConfig, LinkManager
from buddy_personality.face.protocol import ButtonEvent, PacketType, SetState
from buddy_personality.face.sim_board import SimulatedBoard
from buddy_personality.face.sim_pty import PtyBoardRunner
from buddy_personality.face.transport import SerialTransport, ThreadedPort


class Driver:
    """The node's job without ROS: tick the core at 50 Hz on (optionally skewed) time."""

    def __init__(self, path: str) -> None:
        self.skew = 0.0
        self.link = LinkManager(
            lambda: ThreadedPort(SerialTransport(path)),
            LinkConfig(backoff_initial_s=0.1, negotiation_timeout_s=0.3),
        )
        self.core = FaceDriverCore(self.link)
        self.buttons: list[ButtonEvent] = []

    def now(self) -> float:
        return time.monotonic() + self.skew

    def run_until(self, condition: Callable[[], bool], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.buttons += self.core.tick(self.now()).buttons
            if condition():
                return
            time.sleep(0.02)
        raise AssertionError("condition not reached in time")

    def close(self) -> None:
        self.link.close()


@pytest.fixture
def rig(tmp_path: Path):
    runner = PtyBoardRunner(SimulatedBoard(now=time.monotonic()),
                            link_path=str(tmp_path / "face0"))
    driver = Driver(runner.path)
    yield runner, driver
    driver.close()
    runner.close()


def set_state_bodies(runner: PtyBoardRunner, version: int) -> list[bytes]:
    bodies = FrameDecoder().feed(bytes(runner.raw_rx))
    return [b for b in bodies if b[0] == PacketType.SET_STATE and len(b) > 5 + 8 * (version - 1)]


def test_snapshot_becomes_the_right_set_state_bytes(rig) -> None:
    runner, driver = rig
    driver.run_until(lambda: driver.link.connected)
    assert driver.link.version == 2
    driver.core.activate(driver.now())
    driver.core.on_snapshot("surprised", 0.6, driver.now())
    wanted = SetState(mood_id=7, intensity=153, gaze_x=0, gaze_y=0, brightness=255)
    driver.run_until(lambda: runner.board.face.mood_id == 7)
    # The exact bytes on the wire: a v1 envelope on the v2 link (face-protocol.md "What
    # Buddy's driver does"): type, seq u8, then 07 99 00 00 FF.
    body = set_state_bodies(runner, 1)[-1]
    assert len(body) == 2 + 5 and body[2:] == bytes([0x07, 0x99, 0x00, 0x00, 0xFF])
    assert parse_packet(body, 1).payload == wanted


def test_keepalive_cadence_over_the_pty(rig) -> None:
    runner, driver = rig
    driver.run_until(lambda: driver.link.connected)
    driver.core.activate(driver.now())
    driver.core.on_snapshot("happy", 0.5, driver.now())
    start = runner.board.counters.set_state_rx
    t0 = time.monotonic()
    driver.run_until(lambda: runner.board.counters.set_state_rx >= start + 2, timeout=3.0)
    # Two keepalives of an unchanged face arrive within ~1.8 s, not one per tick.
    assert time.monotonic() - t0 < 2.2
    assert runner.board.counters.set_state_rx <= start + 3


def test_stale_snapshot_backstop_and_recovery(rig) -> None:
    runner, driver = rig
    driver.run_until(lambda: driver.link.connected)
    driver.core.activate(driver.now())
    driver.core.on_snapshot("excited", 0.8, driver.now())
    driver.run_until(lambda: runner.board.face.mood_id == 2)
    driver.skew += 3.1  # the core's clock moves on 3.1 s: the snapshot is now stale
    driver.run_until(lambda: runner.board.face.mood_id == 0)
    assert runner.board.face.intensity == 51  # NEUTRAL at 0.2 (spec 002 §11.3)
    driver.core.on_snapshot("love", 0.8, driver.now())
    driver.run_until(lambda: runner.board.face.mood_id == 9)


def test_unplug_and_replug_renegotiates_and_restores_the_face(rig) -> None:
    runner, driver = rig
    driver.run_until(lambda: driver.link.connected)
    driver.core.activate(driver.now())
    driver.core.on_snapshot("silly", 0.7, driver.now())
    driver.run_until(lambda: runner.board.face.mood_id == 10)
    runner.unplug()
    driver.run_until(lambda: not driver.link.connected)
    assert "read failed" in driver.link.last_error or "write failed" in driver.link.last_error
    runner.plug()  # board restarts on v1, blank face
    assert runner.board.version == 1 and runner.board.face.mood_id == 0
    driver.core.on_snapshot("silly", 0.7, driver.now())
    driver.run_until(lambda: driver.link.connected and runner.board.face.mood_id == 10)
    assert driver.link.version == 2 and runner.board.version == 2
    assert driver.link.counters.reconnects == 1


def test_v1_only_firmware_over_the_pty(tmp_path: Path) -> None:
    runner = PtyBoardRunner(SimulatedBoard(v1_only=True, now=time.monotonic()))
    driver = Driver(runner.path)
    try:
        driver.run_until(lambda: driver.link.connected)
        assert driver.link.version == 1
        driver.core.activate(driver.now())
        driver.core.on_snapshot("sad", 0.5, driver.now())
        driver.run_until(lambda: runner.board.face.mood_id == 4)
        body = set_state_bodies(runner, 1)[-1]
        assert len(body) == 2 + 5 and body[2:] == bytes([4, 128, 0, 0, 255])
    finally:
        driver.close()
        runner.close()


def test_buttons_garbage_and_truncated_frames(rig) -> None:
    runner, driver = rig
    driver.run_until(lambda: driver.link.connected)
    truncated = encode_frame(ButtonEvent(0, 3, 1), 7, 2, 0)[:3]
    runner.send(b"\xde\xad\xbe\xef\x00" + truncated + b"\x00")
    runner.button(0, 3, 1)   # the board sends it with its next status cycle
    driver.run_until(lambda: driver.buttons == [ButtonEvent(0, 3, 1, 0)])
    assert driver.link.counters.drops.total() >= 2
    assert driver.link.connected


def test_missing_port_at_start_then_board_appears(tmp_path: Path) -> None:
    path = str(tmp_path / "face0")
    driver = Driver(path)
    try:
        driver.run_until(lambda: driver.link.counters.open_failures >= 2)
        assert not driver.link.connected
        runner = PtyBoardRunner(SimulatedBoard(now=time.monotonic()), link_path=path)
        try:
            driver.run_until(lambda: driver.link.connected)
        finally:
            runner.close()
    finally:
        driver.close()
