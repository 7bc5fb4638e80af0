"""Test doubles and reference implementations written straight from face-protocol.md,
used by the face tests as independent oracles (not used by the driver itself)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from buddy_personality.face.link import LinkManager
    from buddy_personality.face.sim_board import SimulatedBoard


def crc_bit_loop(data: bytes) -> int:
    """The document's CRC definition, literally: poly 0x1021, init 0xFFFF, MSB-first
    bit loop, no reflection, no final XOR."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


class BoardPort:
    """A fake open port wired straight to a SimulatedBoard, on explicit time.

    Host writes reach the board at `self.now`; the board's answers wait in a buffer
    for `take()`. `fail_reads` / `fail_writes` simulate a vanished device.
    """

    def __init__(self, board, name: str = "fake") -> None:  # board: SimulatedBoard
        self.board = board
        self.name = name
        self.now = 0.0
        self.inbox = bytearray()
        self.written = bytearray()
        self.fail_writes = False
        self.read_error: str | None = None
        self.closed = False

    def take(self) -> bytes:
        self.inbox += self.board.poll(self.now)
        data = bytes(self.inbox)
        self.inbox.clear()
        return data

    @property
    def error(self) -> str | None:
        return self.read_error

    def write(self, data: bytes) -> None:
        if self.fail_writes:
            raise OSError("device gone")
        self.written += data
        self.inbox += self.board.receive(data, self.now)

    def close(self) -> None:
        self.closed = True


class PortOpener:
    """Opens BoardPorts on one simulated board, for LinkManager tests; `missing` makes
    opening fail like a device that is gone. `now` is handed to every port it opened."""

    def __init__(self, board: SimulatedBoard) -> None:
        self.board = board
        self.missing = False
        self.ports: list[BoardPort] = []
        self.attempts: list[float] = []
        self.now = 0.0

    def __call__(self) -> BoardPort:
        self.attempts.append(self.now)
        if self.missing:
            raise FileNotFoundError("/dev/ttyACM0 does not exist")
        port = BoardPort(self.board)
        port.now = self.now
        self.ports.append(port)
        return port

    def poll(self, link: LinkManager, now: float) -> Any:
        """Advance the opener's and its ports' time to `now`, then poll the link."""
        self.now = now
        for port in self.ports:
            port.now = now
        return link.poll(now)
