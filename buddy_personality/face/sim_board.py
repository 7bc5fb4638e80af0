"""A simulated face board that behaves like the real `esp32-face` firmware
(face-protocol.md, "How the firmware behaves"), so Buddy runs and is tested without
hardware, and a test fails where the real board would look wrong.

`SimulatedBoard` is the deterministic core (takes `now`): bytes from the host in, bytes
to the host out. What it copies from the firmware, one rule per constant below:

- boots on v1; SET_PROTOCOL_VERSION 1 or 2 switches (others get no ACK), the ACK in the
  new envelope; `reset()` (an MCU reset) goes back to v1 and restarts uptime and the
  board's sequence at 0; nothing is stored across a reset;
- in v1 mode every frame is parsed as v1, so a v2 frame passes the CRC and is misread,
  its payload taken from the v2 header bytes; in v2 mode frames shorter than 15 decoded
  bytes are still parsed as v1 (so v1-envelope commands work in both modes);
- SET_TALKING times out 450 ms after the last one (any SET_TALKING refreshes it);
- moods 0-11 only: a higher mood id leaves the previous mood, while intensity, gaze and
  brightness of the same packet are applied;
- GESTURE ids 0-12 (others dropped), duration 0 = default else at least 80 ms, a queue
  of 15 that drops the oldest; SET_SYSTEM modes 0-5, SET_FLAGS masked to bits 0-6 (boot
  default 0x3F), SET_CONV_STATE 0-7 (others show nothing); boot brightness 200;
- FACE_STATUS every 50 ms and HEARTBEAT every 1 s from boot; touch and button events go
  out with the next status cycle, only the latest of a cycle;
- a boot animation of 3.7 s suppresses mood, talking and gesture rendering (commands are
  latched meanwhile); so does a system mode other than NONE.

Where the document is silent (chosen here, so tests can rely on it): FACE_STATUS reports
the latched mood and the talking flag of the latched talking state (its 450 ms timeout
applied) also during the boot animation; there are no automatic blinks.

With `v1_only` it behaves like older firmware that ignores SET_PROTOCOL_VERSION; with
`mute` it never sends anything (a board that never answers).

`SimBoardDevice` is the in-process "USB device" for port `sim`: `open()` gives a
transport to the board, `unplug()` / `replug()` make open transports fail the way a
vanished serial device does, and `reset()` restarts the MCU with the port kept open.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field

from buddy_personality.face.codec import (
    CRC_LEN,
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
    ProtocolVersionAck,
    SetConvState,
    SetFlags,
    SetProtocolVersion,
    SetState,
    SetSystem,
    SetTalking,
    StatusFlag,
    SystemMode,
    TimeSyncReq,
    TimeSyncResp,
    TouchEvent,
)

# face-protocol.md "How the firmware behaves"
TALKING_TIMEOUT_S = 0.450       # talking animation ends this long after the last SET_TALKING
STATUS_PERIOD_S = 0.050         # FACE_STATUS from boot
HEARTBEAT_PERIOD_S = 1.0        # HEARTBEAT from boot
BOOT_ANIMATION_S = 3.7          # suppresses mood, talking and gesture rendering
FRAME_PERIOD_S = 0.033          # latched channels are sampled once per drawn frame
MAX_MOOD_ID = 11                # 12 (CONFUSED) and above leave the previous mood
MAX_GESTURE_ID = 12
GESTURE_QUEUE = 15              # drops the oldest
MIN_GESTURE_MS = 80
DEFAULT_GESTURE_MS = 600        # the firmware's per-gesture defaults; one value here
MAX_SYSTEM_MODE = 5
MAX_CONV_STATE = 7
FLAGS_MASK = 0x7F
BOOT_FLAGS = 0x3F
BOOT_BRIGHTNESS = 200
V1_BELOW_DECODED = 15           # decoded frames shorter than this are parsed as v1


@dataclass(slots=True)
class BoardFace:
    """The board's latched state (what it would draw once nothing suppresses it)."""

    mood_id: int = 0
    intensity: int = 0
    gaze_x: int = 0
    gaze_y: int = 0
    brightness: int = BOOT_BRIGHTNESS
    conv_state: int = 0
    talking: bool = False        # the last SET_TALKING's flag (see SimulatedBoard.talking_at)
    energy: int = 0
    talking_refreshed_at: float = float("-inf")
    system_mode: int = 0
    system_param: int = 0
    flags: int = BOOT_FLAGS
    gesture: int = NO_GESTURE    # the gesture playing now
    gesture_until: float = 0.0


@dataclass(slots=True)
class BoardCounters:
    frames_rx: int = 0
    frames_tx: int = 0
    malformed: int = 0
    set_state_rx: int = 0
    ignored_moods: int = 0       # SET_STATE mood ids the firmware cannot show
    dropped_gestures: int = 0    # invalid ids, or the oldest of a full queue
    resets: int = 0
    drops: DropCounters = field(default_factory=DropCounters)


class SimulatedBoard:
    def __init__(
        self,
        v1_only: bool = False,
        mute: bool = False,
        heartbeat_period_s: float = HEARTBEAT_PERIOD_S,
        status_period_s: float = STATUS_PERIOD_S,
        now: float = 0.0,
    ) -> None:
        self.v1_only = v1_only
        self.mute = mute
        self.heartbeat_period_s = heartbeat_period_s
        self.status_period_s = status_period_s
        self.received: list[Packet] = []       # every host packet as the board read it
        self.received_at: list[float] = []     # ... and when
        self.gestures_played: list[tuple[int, float]] = []   # (gesture id, start time)
        self._boot(now)
        self.counters.resets = 0

    # --- power ---------------------------------------------------------------------------

    def reset(self, now: float) -> None:
        """An MCU reset (reset button, brown-out, USB re-enumeration): back on v1 with the
        boot face; uptime and the board's sequence start again at 0."""
        resets = self.counters.resets + 1
        self._boot(now)
        self.counters.resets = resets

    def _boot(self, now: float) -> None:
        self.version = 1
        self._now = now
        self.face = BoardFace()
        self.counters = BoardCounters()
        self._decoder = FrameDecoder(self.counters.drops)
        self._seq = 0
        self._boot_at = now
        self._heartbeats = 0     # sent since boot (the schedule is boot + n * period)
        self._statuses = 0
        self._next_heartbeat = now + self.heartbeat_period_s
        self._next_status = now + self.status_period_s
        self._next_frame = now
        self._gestures: deque[tuple[int, float]] = deque()
        self._pending_input: list[object] = []   # latest touch / button of this cycle
        self._cmd_seq_last_applied = 0
        self._t_state_applied_us = 0

    def booting(self, now: float) -> bool:
        """The boot animation is playing (mood, talking and gestures not drawn)."""
        return now - self._boot_at < BOOT_ANIMATION_S

    def uptime_ms(self, now: float) -> int:
        return round((now - self._boot_at) * 1000) & 0xFFFFFFFF

    # --- what the face shows -----------------------------------------------------------

    def talking_at(self, now: float) -> bool:
        """The talking state: the last SET_TALKING said 1, no more than 450 ms ago."""
        face = self.face
        return face.talking and now - face.talking_refreshed_at <= TALKING_TIMEOUT_S

    def shows_talking(self, now: float) -> bool:
        """The mouth moves on the screen now (not during boot or a system mode)."""
        return (self.talking_at(now) and not self.booting(now)
                and self.face.system_mode == SystemMode.NONE)

    def shown_mood(self, now: float) -> int | None:
        """The mood drawn now; None while the boot animation or a system mode hides it."""
        if self.booting(now) or self.face.system_mode != SystemMode.NONE:
            return None
        return self.face.mood_id

    # --- host -> board -------------------------------------------------------------------

    def receive(self, data: bytes, now: float) -> bytes:
        """Feed bytes from the host; return the board's answer bytes."""
        self._advance(now)
        out = bytearray()
        for body in self._decoder.feed(data):
            version = self.envelope_for(len(body) + CRC_LEN)
            try:
                packet = _parse(body, version)
            except MalformedPayload:
                self.counters.malformed += 1  # shorter than expected: ignored
                continue
            self.counters.frames_rx += 1
            self.received.append(packet)
            self.received_at.append(now)
            out += self._apply(packet, now)
        return bytes(out)

    def envelope_for(self, decoded_len: int) -> int:
        """How the firmware reads a frame of this decoded length (CRC included)."""
        if self.version == 2 and decoded_len >= V1_BELOW_DECODED:
            return 2
        return 1

    def _apply(self, packet: Packet, now: float) -> bytes:
        payload = packet.payload
        face = self.face
        if isinstance(payload, SetProtocolVersion):
            if self.v1_only or payload.version not in (1, 2):
                return b""  # old firmware / unknown version: no ACK
            self.version = payload.version  # switch first: the ACK uses the new envelope
            return self._send(ProtocolVersionAck(payload.version), now)
        # v2 FACE_STATUS: the last received non-handshake frame (low byte for v1 frames)
        self._cmd_seq_last_applied = packet.seq & (0xFF if packet.version == 1 else 0xFFFFFFFF)
        if isinstance(payload, SetState):
            if payload.mood_id <= MAX_MOOD_ID:
                face.mood_id = payload.mood_id
            else:
                self.counters.ignored_moods += 1
            face.intensity = payload.intensity
            face.gaze_x, face.gaze_y = payload.gaze_x, payload.gaze_y
            face.brightness = payload.brightness
            self.counters.set_state_rx += 1
        elif isinstance(payload, GestureCmd):
            self._queue_gesture(payload, now)
        elif isinstance(payload, SetSystem):
            if payload.mode <= MAX_SYSTEM_MODE:
                face.system_mode, face.system_param = payload.mode, payload.param
        elif isinstance(payload, SetTalking):
            face.talking, face.energy = payload.talking != 0, payload.energy
            face.talking_refreshed_at = now
        elif isinstance(payload, SetFlags):
            face.flags = payload.flags & FLAGS_MASK
        elif isinstance(payload, SetConvState):
            face.conv_state = payload.conv_state  # above 7: shows nothing
        elif isinstance(payload, TimeSyncReq):
            return self._send(TimeSyncResp(payload.ping_seq, self._uptime_us(now)), now)
        return b""

    def _queue_gesture(self, cmd: GestureCmd, now: float) -> None:
        if cmd.gesture_id > MAX_GESTURE_ID:
            self.counters.dropped_gestures += 1
            return
        duration_ms = DEFAULT_GESTURE_MS if cmd.duration_ms == 0 else max(
            MIN_GESTURE_MS, cmd.duration_ms)
        if len(self._gestures) >= GESTURE_QUEUE:
            self._gestures.popleft()
            self.counters.dropped_gestures += 1
        self._gestures.append((cmd.gesture_id, duration_ms / 1000.0))
        self._advance(now)

    # --- board -> host -------------------------------------------------------------------

    def poll(self, now: float) -> bytes:
        """Periodic output: FACE_STATUS every 50 ms (with the latest input event of the
        cycle), HEARTBEAT every second."""
        self._advance(now)
        out = bytearray()
        if now + 1e-9 >= self._next_status:
            # one status per call even if late (the firmware's loop does not catch up)
            self._statuses = max(self._statuses + 1,
                                 int((now - self._boot_at) / self.status_period_s + 1e-6))
            self._next_status = self._boot_at + (self._statuses + 1) * self.status_period_s
            for event in self._pending_input:
                out += self._send(event, now)
            self._pending_input.clear()
            out += self._send(self.status(), now)
        if now + 1e-9 >= self._next_heartbeat:
            self._heartbeats = max(self._heartbeats + 1,
                                   int((now - self._boot_at) / self.heartbeat_period_s + 1e-6))
            self._next_heartbeat = self._boot_at + (self._heartbeats + 1) * self.heartbeat_period_s
            counters = [0] * HEARTBEAT_COUNTERS
            counters[0] = self.uptime_ms(now)
            counters[1] = self.counters.frames_tx & 0xFFFFFFFF
            counters[2] = self.counters.frames_rx & 0xFFFFFFFF
            counters[3] = self.counters.drops.counts[DropReason.BAD_CRC]
            out += self._send(Heartbeat(tuple(counters), usb_dtr=1, usb_rts=1), now)
        return bytes(out)

    def next_output_at(self) -> float:
        """When `poll` has something to send next (for runners that sleep)."""
        return min(self._next_status, self._next_heartbeat)

    def status(self) -> FaceStatus:
        face = self.face
        flags = StatusFlag.TALKING if self.talking_at(self._now) else 0
        if self.version == 2:
            return FaceStatus(face.mood_id, face.gesture, face.system_mode, int(flags),
                              self._cmd_seq_last_applied, self._t_state_applied_us)
        return FaceStatus(face.mood_id, face.gesture, face.system_mode, int(flags))

    def button(self, button_id: int, event_type: int, state: int, now: float) -> bytes:
        """A button event: sent with the next status cycle, only the latest of a cycle
        (a PTT tap arrives as TOGGLE, an ACTION tap as CLICK)."""
        self._queue_input(ButtonEvent(button_id, event_type, state), now)
        return self.poll(now)

    def touch(self, event_type: int, x: int, y: int, now: float) -> bytes:
        self._queue_input(TouchEvent(event_type, x, y), now)
        return self.poll(now)

    def _queue_input(self, event: object, now: float) -> None:
        self._pending_input = [e for e in self._pending_input if type(e) is not type(event)]
        self._pending_input.append(event)

    def status_flags(self) -> int:
        return int(StatusFlag.TALKING) if self.talking_at(self._now) else 0

    def _advance(self, now: float) -> None:
        """Move the board's clock: gestures play from the queue, frames are drawn."""
        self._now = now
        face = self.face
        paused = self.booting(now) or face.system_mode != SystemMode.NONE
        if face.gesture != NO_GESTURE and now >= face.gesture_until:
            face.gesture = NO_GESTURE
        if face.gesture == NO_GESTURE and self._gestures and not paused:
            face.gesture, duration = self._gestures.popleft()
            face.gesture_until = now + duration
            self.gestures_played.append((face.gesture, now))
        if now >= self._next_frame:
            self._next_frame = now + FRAME_PERIOD_S
            self._t_state_applied_us = self._uptime_us(now) & 0xFFFFFFFF

    def _uptime_us(self, now: float) -> int:
        return max(0, round((now - self._boot_at) * 1e6))

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

    def reset(self) -> None:
        """An MCU reset that keeps the USB port open (the driver's port stays usable)."""
        with self._cond:
            self.board.reset(time.monotonic())
            self._cond.notify_all()

    def inject(self, data: bytes) -> None:
        """Bytes from the board to the host (e.g. garbage)."""
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
                now = time.monotonic()
                self._outbox += self.board.poll(now)
                if self._outbox:
                    data = bytes(self._outbox)
                    self._outbox.clear()
                    return data
                remaining = deadline - now
                if remaining <= 0:
                    return b""
                wait = min(remaining, max(0.0, self.board.next_output_at() - now) + 0.0005)
                self._cond.wait(wait)


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
