"""The deployed face driver on a pseudo-terminal, with the firmware-like board emulator
at the other end (issue 14, issue 20): `face_driver_node` runs as its own process (its
own executor, as a robot runs it), the board emulator runs in a thread of the test
process and records every frame as the board read it, with its arrival time, and the
test publishes snapshots, phases and speech from the test process, i.e. from another
process than the driver's.

What the board showed is computed from what it received, by the firmware's rules
(face-protocol.md "How the firmware behaves"), so a test asks "did the mouth move" and
not "did the driver send what it meant to".
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buddy_personality.face.codec import Packet
from buddy_personality.face.protocol import PacketType
from buddy_personality.face.sim_board import TALKING_TIMEOUT_S, SimulatedBoard
from buddy_personality.face.sim_pty import PtyBoardRunner


@dataclass(slots=True, frozen=True)
class Received:
    at: float
    packet: Packet


class FaceExecutableRig:
    """Board emulator + `face_driver_node` process (+ the `ros` harness to publish)."""

    def __init__(self, ros: Any, node_process: Callable[..., Any], tmp_path: Path,
                 board_options: dict[str, Any] | None = None, **params: object) -> None:
        board_options = board_options or {}
        self.ros = ros
        self.board = SimulatedBoard(now=time.monotonic(), **board_options)
        self.runner = PtyBoardRunner(self.board, link_path=str(tmp_path / "face0"))
        self.namespace = f"{ros.namespace}_face"
        ros_args = ["-p", f"port:={self.runner.path}", "-r", f"__ns:={self.namespace}"]
        for key, value in params.items():
            ros_args += ["-p", f"{key}:={value}"]
        self.proc = node_process("face_driver_node", ros_args=ros_args)
        self.resets: list[float] = []     # MCU resets done by the test

    def reset_board(self) -> float:
        """An MCU reset with the USB port kept open; returns when it happened."""
        self.runner.reset()
        self.resets.append(time.monotonic())
        return self.resets[-1]

    def topic(self, name: str) -> str:
        return f"{self.namespace}/{name}"

    def received(self) -> list[Received]:
        with self.runner.lock:
            return [Received(at, p) for p, at in zip(self.board.received,
                                                     self.board.received_at, strict=True)]

    def of_type(self, type_id: int, since: float = 0.0) -> list[Received]:
        return [r for r in self.received() if r.packet.type_id == type_id and r.at >= since]

    def wait_until(self, predicate: Callable[[], bool], timeout: float = 20.0) -> bool:
        return self.ros.spin_until(predicate, timeout=timeout)

    def wait_connected(self, timeout: float = 30.0) -> None:
        """Until the driver negotiated v2 and drives the face."""
        ok = self.wait_until(lambda: self.board.version == 2 and bool(
            self.of_type(PacketType.SET_STATE)), timeout)
        assert ok, f"face driver did not come up:\n{self.proc.output()}"

    def talking_fraction(self, start: float, end: float, step: float = 0.005) -> float:
        """The share of [start, end) during which the board showed talking: the last
        SET_TALKING said 1 at most 450 ms before (the firmware's timeout) and no
        reset came between (a reset forgets it)."""
        frames = [(r.at, r.packet.payload.talking != 0)
                  for r in self.of_type(PacketType.SET_TALKING)]
        shown = total = 0
        t = start
        while t < end:
            reset = max((r for r in self.resets if r <= t), default=float("-inf"))
            last = next((f for f in reversed(frames) if reset <= f[0] <= t), None)
            shown += int(last is not None and last[1] and t - last[0] <= TALKING_TIMEOUT_S)
            total += 1
            t += step
        return shown / total

    def talking_stopped_at(self, after: float) -> float | None:
        """When the board stopped showing talking after `after`: a SET_TALKING(0), or
        450 ms after the last SET_TALKING(1), whichever came first."""
        frames = [(r.at, r.packet.payload.talking != 0)
                  for r in self.of_type(PacketType.SET_TALKING)]
        last_on = max((t for t, on in frames if on and t <= after), default=None)
        for t, on in frames:
            if t < after:
                continue
            if last_on is not None and t - last_on > TALKING_TIMEOUT_S:
                return last_on + TALKING_TIMEOUT_S
            if not on:
                return t
            last_on = t
        return None if last_on is None else last_on + TALKING_TIMEOUT_S

    def close(self) -> None:
        self.proc.stop()
        self.runner.close()


def gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in itertools.pairwise(times)]
