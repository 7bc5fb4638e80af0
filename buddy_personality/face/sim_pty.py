"""The simulated board served on a pseudo-terminal (used by `buddy face-sim`, the
end-to-end tests and the latency benchmark).

A background thread reads the pty master, feeds the `SimulatedBoard` and writes its
answers back; the driver connects to `path` like to a USB serial device. `replug()`
unplugs (the driver's port fails with EIO), restarts the board on v1 and plugs a new
pty in under the same symlink.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable

from buddy_personality.face.sim_board import SimulatedBoard
from buddy_personality.face.transport import PtyBoardEndpoint


class PtyBoardRunner:
    def __init__(
        self,
        board: SimulatedBoard | None = None,
        link_path: str | None = None,
        on_rx: Callable[[bytes, float], None] | None = None,
    ) -> None:
        self.board = board or SimulatedBoard(now=time.monotonic())
        self.endpoint = PtyBoardEndpoint(link_path)
        self.on_rx = on_rx  # called on the runner thread with (bytes, arrival time)
        self.lock = threading.RLock()  # guards the board (the CLI view reads it)
        self.raw_rx = bytearray()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="face-sim pty", daemon=True)
        self._thread.start()

    @property
    def path(self) -> str:
        return self.endpoint.path

    def _run(self) -> None:
        while not self._stop.is_set():
            with self.lock:
                transport = self.endpoint.transport
            if transport is None:  # unplugged
                time.sleep(0.01)
                continue
            try:
                data = transport.read(0.01)
            except OSError:
                # No driver has the slave open (or we are being unplugged): keep waiting.
                time.sleep(0.01)
                continue
            now = time.monotonic()
            if data and self.on_rx is not None:
                self.on_rx(data, now)
            with self.lock:
                if data:
                    self.raw_rx += data
                    out = self.board.receive(data, now)
                else:
                    out = b""
                out += self.board.poll(now)
            if out:
                self.send(out)

    def send(self, data: bytes) -> None:
        """Bytes to the driver (board output, or injected garbage)."""
        with self.lock:
            transport = self.endpoint.transport
            if transport is None:
                return
            # Nobody listening (buffer full): the bytes are lost, as on real USB.
            with contextlib.suppress(OSError):
                transport.write(data)

    def button(self, button_id: int, event_type: int, state: int = 1) -> None:
        with self.lock:
            out = self.board.button(button_id, event_type, state, time.monotonic())
        self.send(out)

    def touch(self, event_type: int, x: int, y: int) -> None:
        with self.lock:
            out = self.board.touch(event_type, x, y, time.monotonic())
        self.send(out)

    def unplug(self) -> None:
        with self.lock:
            self.endpoint.unplug()

    def plug(self) -> None:
        """Plug back in: the board restarts on v1 (face-protocol.md step 3)."""
        with self.lock:
            self.board.reset(time.monotonic())
            self.endpoint.plug()

    def reset(self) -> None:
        """An MCU reset with the USB port kept open: back on v1, everything forgotten,
        the driver's port stays usable (face-protocol.md "How the firmware behaves")."""
        with self.lock:
            self.board.reset(time.monotonic())

    def replug(self) -> None:
        self.unplug()
        self.plug()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=1.0)
        self.endpoint.close()
