"""`buddy face-sim` entry point and its typed commands."""

from __future__ import annotations

import time

from buddy_personality.face.codec import FrameDecoder, encode_frame, parse_packet
from buddy_personality.face.protocol import ButtonEvent, SetProtocolVersion
from buddy_personality.face.sim_board import SimulatedBoard
from buddy_personality.face.sim_pty import PtyBoardRunner
from buddy_personality.tools.fakes import face_sim


def test_main_runs_for_a_duration_and_prints_the_port(capsys) -> None:
    assert face_sim.main(["--duration", "0.2", "--plain"]) == 0
    out = capsys.readouterr().out
    port_line = next(line for line in out.splitlines() if line.startswith("PORT "))
    assert port_line.startswith("PORT /dev/pts/")


def test_commands_press_buttons_and_replug() -> None:
    runner = PtyBoardRunner(SimulatedBoard(now=time.monotonic()))
    try:
        with runner.lock:
            runner.board.receive(encode_frame(SetProtocolVersion(2), 0, 1), time.monotonic())
        assert face_sim._handle("p\n", runner)
        with runner.lock:   # the PTT tap goes out with the next 50 ms status cycle
            out = runner.board.poll(time.monotonic() + 0.06)
        events = [parse_packet(b, 2).payload for b in FrameDecoder().feed(out)]
        assert ButtonEvent(0, 2, 1, 0) in events   # PTT, TOGGLE (face-protocol.md)
        assert face_sim._handle("r", runner)
        assert runner.board.version == 1  # restarted
        assert "v1" in str(face_sim.face_table(runner).columns[1]._cells)
        assert not face_sim._handle("q", runner)
    finally:
        runner.close()
