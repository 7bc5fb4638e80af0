"""`buddy face-sim` entry point and its typed commands."""

from __future__ import annotations

import time

from buddy_personality.face.codec import encode_frame
from buddy_personality.face.protocol import SetProtocolVersion
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
        sent = runner.board.counters.frames_tx
        assert face_sim._handle("p\n", runner)
        assert runner.board.counters.frames_tx == sent + 1
        assert face_sim._handle("r", runner)
        assert runner.board.version == 1  # restarted
        assert "v1" in str(face_sim.face_table(runner).columns[1]._cells)
        assert not face_sim._handle("q", runner)
    finally:
        runner.close()
