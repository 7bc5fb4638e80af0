"""A simulated face board: the MCU side of face-protocol.md, so Buddy runs and is
tested without hardware.

`SimulatedBoard` is the deterministic core (takes `now`): bytes from the host in,
bytes to the host out. It boots on v1, switches to v2 on SET_PROTOCOL_VERSION(2)
(answering in the new envelope), and goes back to v1 on `reset()` (a replug). With
`v1_only` it behaves like old firmware that ignores SET_PROTOCOL_VERSION; with `mute`
it never sends anything (a board that never answers). It sends HEARTBEAT every
`heartbeat_period_s`, FACE_STATUS when its visible state changes, and BUTTON / TOUCH
events on demand.

`SimBoardDevice` is the in-process "USB device" for port `sim`: `open()` gives a
transport to the board, `unplug()` / `replug()` make open transports fail the way a
vanished serial device does.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from buddy_personality.face.codec import (
    DropCounters,
    DropReason,
    FrameDecoder,
    Packet,
    encode_frame,
)
from buddy_personality.face.codec import parse_packet as _parse
from buddy_personality.face.protocol import (
    HEARTBEAT_COUNTERS,
    NO_GESTURE,
    ButtonEvent,
    FaceStatus,
    GestureCmd,
    Heartbeat,
    MalformedPayload,
    PacketType,
    ProtocolVersionAck,
    SetConvState,
    SetFlags,
    SetProtocolVersion,
    SetState,
    SetSystem,
    SetTalking,
    StatusFlag,
    TimeSyncReq,
    TimeSyncResp,
    TouchEvent,
)

DEFAULT_GESTURE_MS = 600  # how long the simulated firmware plays a gesture by default


@dataclass(slots=True)
class BoardFace:
    """What the simulated face shows (for tests and the `buddy face-sim` view)."""

    mood_id: int = 0
    intensity: int = 0
    gaze_x: int = 0
    gaze_y: int = 0
    brightness: int = 255
    conv_state: int = 0
    talking: bool = False
    energy: int = 0
    system_mode: int = 0
    system_param: int = 0
    flags: int = 0
    gesture: int = NO_GESTURE
    gesture_until: float = 0.0


@dataclass(slots=True)
class BoardCounters:
    frames_rx: int = 0
    frames_tx: int = 0
    malformed: int = 0
    set_state_rx: int = 0
    drops: DropCounters = field(default_factory=DropCounters)


class SimulatedBoard:
    def __init__(
        self,
        v1_only: bool = False,
        mute: bool = False,
        heartbeat_period_s: float = 1.0,
        now: float = 0.0,
    ) -> None:
        self.v1_only = v1_only
        self.mute = mute
        self.heartbeat_period_s = heartbeat_period_s
        self.received: list[Packet] = []  # every host packet, for tests
        self.reset(now)

    def reset(self, now: float) -> None:
        """Power-on / replug: back on v1 with a blank face (face-protocol.md)."""
        self.version = 1
        self.face = BoardFace()
        self.counters = BoardCounters()
        self._decoder = FrameDecoder(self.counters.drops)
        self._seq = 0
        self._boot_at = now
        self._next_heartbeat = now + self.heartbeat_period_s
        # FACE_STATUS reports changes; the blank boot face is not news.
        self._last_status: tuple[int, int, int, int] | None = (0, NO_GESTURE, 0, 0)
        self._cmd_seq_last_applied = 0
        self._t_state_applied_us = 0

    # --- host -> board -------------------------------------------------------------------

    def receive(self, data: bytes, now: float) -> bytes:
        """Feed bytes from the host; return the board's answer bytes."""
        out = bytearray()
        for body in self._decoder.feed(data):
            # SET_PROTOCOL_VERSION always comes in a v1 envelope (face-protocol.md).
            version = 1 if body[0] == PacketType.SET_PROTOCOL_VERSION else self.version
            try:
                packet = _parse(body, version)
            except MalformedPayload:
                self.counters.malformed += 1
                continue
            self.counters.frames_rx += 1
            self.received.append(packet)
            out += self._apply(packet, now)
        out += self._status_if_changed(now)
        return bytes(out)

    def _apply(self, packet: Packet, now: float) -> bytes:
        payload = packet.payload
        face = self.face
        if isinstance(payload, SetProtocolVersion):
            if self.v1_only or payload.version not in (1, 2):
                return b""  # old firmware: unknown packet, ignored
            self.version = payload.version  # switch first: the ACK uses the new envelope
            return self._send(ProtocolVersionAck(payload.version), now)
        if isinstance(payload, SetState):
            face.mood_id, face.intensity = payload.mood_id, payload.intensity
            face.gaze_x, face.gaze_y = payload.gaze_x, payload.gaze_y
            face.brightness = payload.brightness
            self.counters.set_state_rx += 1
            self._cmd_seq_last_applied = packet.seq
            self._t_state_applied_us = self._uptime_us(now) & 0xFFFFFFFF
        elif isinstance(payload, GestureCmd):
            face.gesture = payload.gesture_id
            duration_ms = payload.duration_ms or DEFAULT_GESTURE_MS
            face.gesture_until = now + duration_ms / 1000.0
        elif isinstance(payload, SetSystem):
            face.system_mode, face.system_param = payload.mode, payload.param
        elif isinstance(payload, SetTalking):
            face.talking, face.energy = bool(payload.talking), payload.energy
        elif isinstance(payload, SetFlags):
            face.flags = payload.flags
        elif isinstance(payload, SetConvState):
            face.conv_state = payload.conv_state
        elif isinstance(payload, TimeSyncReq):
            return self._send(TimeSyncResp(payload.ping_seq, self._uptime_us(now)), now)
        return b""

    # --- board -> host -------------------------------------------------------------------

    def poll(self, now: float) -> bytes:
        """Periodic output: gesture end, FACE_STATUS on change, HEARTBEAT."""
        out = bytearray()
        if self.face.gesture != NO_GESTURE and now >= self.face.gesture_until:
            self.face.gesture = NO_GESTURE
        out += self._status_if_changed(now)
        if now >= self._next_heartbeat:
            self._next_heartbeat = now + self.heartbeat_period_s
            counters = [0] * HEARTBEAT_COUNTERS
            counters[0] = int((now - self._boot_at) * 1000) & 0xFFFFFFFF  # uptime_ms
            counters[1] = self.counters.frames_tx & 0xFFFFFFFF
            counters[2] = self.counters.frames_rx & 0xFFFFFFFF
            counters[3] = self.counters.drops.counts[DropReason.BAD_CRC]
            out += self._send(Heartbeat(tuple(counters), usb_dtr=1, usb_rts=1), now)
        return bytes(out)

    def button(self, button_id: int, event_type: int, state: int, now: float) -> bytes:
        return self._send(ButtonEvent(button_id, event_type, state), now)

    def touch(self, event_type: int, x: int, y: int, now: float) -> bytes:
        return self._send(TouchEvent(event_type, x, y), now)

    def status_flags(self) -> int:
        return StatusFlag.TALKING if self.face.talking else 0

    def _status_if_changed(self, now: float) -> bytes:
        status = (self.face.mood_id, self.face.gesture, self.face.system_mode,
                  self.status_flags())
        if status == self._last_status:
            return b""
        self._last_status = status
        if self.version == 2:
            payload = FaceStatus(*status, self._cmd_seq_last_applied, self._t_state_applied_us)
        else:
            payload = FaceStatus(*status)
        return self._send(payload, now)

    def _uptime_us(self, now: float) -> int:
        return max(0, int((now - self._boot_at) * 1e6))

    def _send(self, payload: object, now: float) -> bytes:
        if self.mute:
            return b""
        frame = encode_frame(payload, self._seq, self.version, self._uptime_us(now))
        self._seq += 1
        self.counters.frames_tx += 1
        return frame


class SimBoardDevice:
    """The in-process simulated board as a pluggable device (driver port `sim`).

    Thread-safe: the driver's reader thread reads while the executor thread writes.
    Time comes from time.monotonic() here (this is the I/O edge, not a core).
    """

    def __init__(self, board: SimulatedBoard | None = None) -> None:
        self.board = board or SimulatedBoard(now=time.monotonic())
        self.plugged = True
        self._generation = 0
        self._cond = threading.Condition()
        self._outbox = bytearray()

    def open(self) -> SimBoardTransport:
        with self._cond:
            if not self.plugged:
                raise FileNotFoundError("simulated face board is unplugged")
            self._outbox.clear()
            return SimBoardTransport(self, self._generation)

    def unplug(self) -> None:
        with self._cond:
            self.plugged = False
            self._generation += 1
            self._cond.notify_all()

    def replug(self) -> None:
        """USB re-enumeration: the board restarts (on v1)."""
        with self._cond:
            self.board.reset(time.monotonic())
            self.plugged = True
            self._generation += 1
            self._outbox.clear()
            self._cond.notify_all()

    def inject(self, data: bytes) -> None:
        """Bytes from the board to the host (e.g. a button press, or garbage)."""
        with self._cond:
            self._outbox += data
            self._cond.notify_all()

    def press_button(self, button_id: int, event_type: int, state: int = 1) -> None:
        with self._cond:
            self._outbox += self.board.button(button_id, event_type, state, time.monotonic())
            self._cond.notify_all()

    def touch(self, event_type: int, x: int, y: int) -> None:
        with self._cond:
            self._outbox += self.board.touch(event_type, x, y, time.monotonic())
            self._cond.notify_all()

    # used by SimBoardTransport
    def _check(self, generation: int) -> None:
        if generation != self._generation or not self.plugged:
            raise OSError("simulated face board went away")

    def _write(self, generation: int, data: bytes) -> None:
        with self._cond:
            self._check(generation)
            answer = self.board.receive(data, time.monotonic())
            if answer:
                self._outbox += answer
                self._cond.notify_all()

    def _read(self, generation: int, timeout: float) -> bytes:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                self._check(generation)
                self._outbox += self.board.poll(time.monotonic())
                if self._outbox:
                    data = bytes(self._outbox)
                    self._outbox.clear()
                    return data
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return b""
                self._cond.wait(min(remaining, 0.05))


class SimBoardTransport:
    """A transport opened on a SimBoardDevice; fails once the device goes away."""

    def __init__(self, device: SimBoardDevice, generation: int) -> None:
        self.name = "sim"
        self._device = device
        self._generation = generation
        self._closed = False

    def read(self, timeout: float) -> bytes:
        if self._closed:
            raise OSError("sim transport closed")
        return self._device._read(self._generation, timeout)

    def write(self, data: bytes) -> None:
        if self._closed:
            raise OSError("sim transport closed")
        self._device._write(self._generation, data)

    def close(self) -> None:
        self._closed = True
