"""Byte transports to the face board, and the reader thread that keeps serial reads
off the ROS executor thread.

- `SerialTransport`: a real port through pyserial (also used on pseudo-terminals).
- `FdTransport`: a raw file descriptor, e.g. the master side of a pty (board side).
- `PtyBoardEndpoint`: a pseudo-terminal (os.openpty) whose slave path the driver
  opens like a USB serial device; optionally exposed through a stable symlink so an
  "unplug / replug" (new pty) keeps the same path, like /dev/serial/by-id/.
- `ThreadedPort`: runs a background reader thread over any transport; the link
  manager polls it without blocking (`take`, `error`) and writes on the caller's thread.
- `find_board_port`: the `auto` port heuristic.

Every transport raises OSError (pyserial's SerialException is one) when the device
is gone; callers treat that as link loss.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import tty
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import serial
from serial.tools import list_ports

READ_CHUNK = 4096


class Transport(Protocol):
    name: str

    def read(self, timeout: float) -> bytes:
        """Bytes available within `timeout` s (b"" if none); OSError if gone."""
        ...

    def write(self, data: bytes) -> None:
        """Write all of `data`; OSError if the device is gone or stuck."""
        ...

    def close(self) -> None: ...


class PortNotFound(OSError):
    """`auto` found no face board (or the named port does not exist)."""


class SerialTransport:
    """A serial port through pyserial. The USB CDC link ignores the baud rate."""

    def __init__(self, path: str, baud: int = 115200, write_timeout_s: float = 0.5) -> None:
        self.name = path
        if not Path(path).exists():
            raise PortNotFound(f"serial port {path} does not exist")
        # exclusive: a second driver on the same board would interleave frames.
        self._serial = serial.Serial(
            port=path, baudrate=baud, timeout=0.05, write_timeout=write_timeout_s,
            exclusive=True,
        )
        # cancel(): a byte on this pipe ends a read at once, so the reader thread can
        # sleep in select for a long time and still stop without delay
        self._cancel_r, self._cancel_w = os.pipe()
        os.set_blocking(self._cancel_w, False)

    def read(self, timeout: float) -> bytes:
        # One select and one read for whatever has arrived. pyserial's read(in_waiting
        # or 1) took each 20 Hz FACE_STATUS in two reads (its first byte, then the
        # rest), and its timeout bookkeeping cost more than the frame: the reader
        # thread was a quarter of the idle robot's CPU (issue 14).
        fd = self._serial.fileno()
        ready, _, _ = select.select([fd, self._cancel_r], [], [], timeout)
        if fd not in ready:
            return b""
        try:
            data = os.read(fd, READ_CHUNK)   # the port is non-blocking (pyserial opens it so)
        except (BlockingIOError, InterruptedError):
            return b""
        if not data:
            # what pyserial reports too: readable with no data is a device that went away
            raise OSError(f"{self.name}: readable but no data (device unplugged?)")
        return data

    def write(self, data: bytes) -> None:
        try:
            written = self._serial.write(data)
        except serial.SerialTimeoutException as exc:
            raise OSError(f"write to {self.name} timed out") from exc
        if written != len(data):
            raise OSError(f"short write to {self.name}: {written} of {len(data)} bytes")

    def cancel(self) -> None:
        """End a read in progress (and every later one) at once; called from another
        thread before close()."""
        with contextlib.suppress(OSError):
            os.write(self._cancel_w, b"x")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._serial.close()
        for fd in (self._cancel_r, self._cancel_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._cancel_r = self._cancel_w = -1


class FdTransport:
    """A raw, already open file descriptor (the board side of a pty)."""

    def __init__(self, fd: int, name: str = "fd") -> None:
        self.name = name
        self._fd = fd
        self._closed = False

    def read(self, timeout: float) -> bytes:
        if self._closed:
            raise OSError(f"{self.name} is closed")
        ready, _, _ = select.select([self._fd], [], [], timeout)
        if not ready:
            return b""
        data = os.read(self._fd, READ_CHUNK)  # EIO when the other side has gone
        if not data:
            raise OSError(f"{self.name}: end of file")
        return data

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self._fd, view)
            view = view[n:]

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            with contextlib.suppress(OSError):
                os.close(self._fd)


class PtyBoardEndpoint:
    """The board's end of a pseudo-terminal; the driver opens `path` with pyserial.

    `unplug()` closes the pty (the driver's reads fail with EIO, as when USB goes);
    `plug()` opens a fresh pty and, if `link_path` is set, points the symlink at it so
    the driver finds the board again under the same name.
    """

    def __init__(self, link_path: str | None = None) -> None:
        self.link_path = link_path
        self.transport: FdTransport | None = None
        self._slave_fd: int | None = None
        self.slave_name = ""
        self.plug()

    @property
    def path(self) -> str:
        return self.link_path or self.slave_name

    def plug(self) -> None:
        self.unplug()
        master, slave = os.openpty()
        # Non-blocking writes: with no driver reading, a full pty buffer must drop the
        # board's bytes (as USB would) instead of blocking the board forever.
        os.set_blocking(master, False)
        # Raw mode at once: no echo of the board's bytes back to it, no newline mangling.
        tty.setraw(slave)
        self._slave_fd = slave  # held so the master never reads EIO while nobody listens
        self.slave_name = os.ttyname(slave)
        self.transport = FdTransport(master, name=f"pty master ({self.slave_name})")
        if self.link_path:
            tmp = f"{self.link_path}.tmp"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            os.symlink(self.slave_name, tmp)
            os.replace(tmp, self.link_path)

    def unplug(self) -> None:
        if self.transport is not None:
            self.transport.close()
            self.transport = None
        if self._slave_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._slave_fd)
            self._slave_fd = None
        if self.link_path:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.link_path)

    def close(self) -> None:
        self.unplug()


class ThreadedPort:
    """A transport with a background reader thread.

    Reads never happen on the caller's (ROS executor) thread: the reader appends to a
    buffer that `take()` empties without blocking. A read error stops the thread and
    is reported by `error`. `on_data(data)` (optional) is called from the reader thread
    with the new bytes after they are buffered, and once with b"" when a read fails,
    e.g. to wake an executor that is not polling (either way `take()` or `error` then
    has something to report).
    """

    def __init__(
        self,
        transport: Transport,
        read_timeout_s: float | None = None,
        on_data: Callable[[bytes], None] | None = None,
    ) -> None:
        self.transport = transport
        self.name = transport.name
        # A transport that can cancel a read lets the reader sleep until bytes come; a
        # 50 ms timeout raced the board's 50 ms FACE_STATUS and doubled the reader's
        # wake-ups (issue 14). Without cancel, the timeout bounds how long close() waits.
        self._cancel = getattr(transport, "cancel", None)
        if read_timeout_s is None:
            read_timeout_s = 1.0 if self._cancel is not None else 0.05
        self._read_timeout_s = read_timeout_s
        self._on_data = on_data
        self._lock = threading.Lock()
        self._buffer = bytearray()
        self._error: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name=f"face-reader {transport.name}", daemon=True
        )
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.transport.read(self._read_timeout_s)
            except Exception as exc:  # any failure of the device ends this port
                if not self._stop.is_set():
                    with self._lock:
                        self._error = f"read failed: {exc}"
                    if self._on_data is not None:
                        self._on_data(b"")
                return
            if data:
                with self._lock:
                    self._buffer += data
                if self._on_data is not None:
                    self._on_data(data)

    def take(self) -> bytes:
        with self._lock:
            data = bytes(self._buffer)
            self._buffer.clear()
        return data

    @property
    def error(self) -> str | None:
        with self._lock:
            return self._error

    def write(self, data: bytes) -> None:
        self.transport.write(data)

    def close(self) -> None:
        """Stop the reader and close the device. Called on the executor thread when the
        link drops, so it must not stall the face: a transport that can cancel its read
        (SerialTransport) ends it at once; otherwise the wait is bounded by the reader's
        read timeout (it checks the stop flag after each read)."""
        self._stop.set()
        if self._cancel is not None:
            self._cancel()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=2 * self._read_timeout_s)
        self.transport.close()


# --- `auto`: find the face board --------------------------------------------------------

ESPRESSIF_VID = 0x303A  # ESP32-S3 native USB (USB-Serial-JTAG 0x1001, TinyUSB CDC)
# USB-UART bridges used on ESP32 dev boards: CP210x, CH340, CH343, FTDI.
BRIDGE_IDS = frozenset({(0x10C4, 0xEA60), (0x1A86, 0x7523), (0x1A86, 0x55D3),
                        (0x0403, 0x6001)})
NAME_HINTS = ("buddy", "face", "esp32", "espressif")


@dataclass(slots=True, frozen=True)
class PortCandidate:
    device: str
    vid: int | None = None
    pid: int | None = None
    description: str = ""
    manufacturer: str = ""
    product: str = ""


def rank_port(port: PortCandidate) -> int | None:
    """Lower is better; None = not a face board candidate.

    0: Espressif's USB VID (the ESP32-S3 native USB CDC the face firmware uses);
    1: description/manufacturer/product names Buddy, face, ESP32 or Espressif;
    2: a USB-UART bridge chip common on ESP32 boards (CP210x, CH34x, FTDI).
    Anything else (Bluetooth, on-board UARTs like /dev/ttyAMA0) is never chosen.
    """
    if port.vid == ESPRESSIF_VID:
        return 0
    text = f"{port.description} {port.manufacturer} {port.product}".lower()
    if any(hint in text for hint in NAME_HINTS):
        return 1
    if port.vid is not None and (port.vid, port.pid) in BRIDGE_IDS:
        return 2
    return None


def choose_port(ports: Iterable[PortCandidate]) -> str:
    """The best-ranked candidate; ties go to the lowest device path (stable choice)."""
    ranked = sorted(
        (rank, port.device) for port in ports if (rank := rank_port(port)) is not None
    )
    if not ranked:
        raise PortNotFound("no face board found (no Espressif, ESP32 or USB-UART device)")
    return ranked[0][1]


def find_board_port() -> str:
    """The `auto` port: scan USB serial devices with pyserial's list_ports."""
    return choose_port(
        PortCandidate(
            device=p.device, vid=p.vid, pid=p.pid, description=p.description or "",
            manufacturer=p.manufacturer or "", product=p.product or "",
        )
        for p in list_ports.comports()
    )
