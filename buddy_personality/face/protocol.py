"""Packet types, enumerations and typed payloads of the face MCU protocol
(face-protocol.md "Packet types" and "Enumerations"). All integers little-endian.

Each payload is a frozen dataclass with `encode()` and a `decode(data, version)`
class method. Decoding reads up to the known length and ignores the rest (longer
payloads are tolerated); a shorter payload raises `MalformedPayload`.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar, Protocol


class MalformedPayload(ValueError):
    """A payload is shorter than its type requires (or otherwise unreadable)."""


class PacketType(IntEnum):
    # host -> MCU
    TIME_SYNC_REQ = 0x06
    SET_PROTOCOL_VERSION = 0x07
    SET_STATE = 0x20
    GESTURE = 0x21
    SET_SYSTEM = 0x22
    SET_TALKING = 0x23
    SET_FLAGS = 0x24
    SET_CONV_STATE = 0x25
    # MCU -> host
    TIME_SYNC_RESP = 0x86
    PROTOCOL_VERSION_ACK = 0x87
    FACE_STATUS = 0x90
    TOUCH_EVENT = 0x91
    BUTTON_EVENT = 0x92
    HEARTBEAT = 0x93


class Mood(IntEnum):
    NEUTRAL = 0
    HAPPY = 1
    EXCITED = 2
    CURIOUS = 3
    SAD = 4
    SCARED = 5
    ANGRY = 6
    SURPRISED = 7
    SLEEPY = 8
    LOVE = 9
    SILLY = 10
    THINKING = 11
    CONFUSED = 12


# Canonical lowercase mood names (spec 002 §4.1) to protocol mood ids and back.
MOOD_IDS: dict[str, int] = {m.name.lower(): int(m) for m in Mood}
MOOD_NAMES: dict[int, str] = {v: k for k, v in MOOD_IDS.items()}


class GestureId(IntEnum):
    BLINK = 0
    WINK_L = 1
    WINK_R = 2
    CONFUSED = 3
    LAUGH = 4
    SURPRISE = 5
    HEART = 6
    X_EYES = 7
    SLEEPY = 8
    RAGE = 9
    NOD = 10
    HEADSHAKE = 11
    WIGGLE = 12


class SystemMode(IntEnum):
    NONE = 0
    BOOTING = 1
    ERROR_DISPLAY = 2
    LOW_BATTERY = 3
    UPDATING = 4
    SHUTTING_DOWN = 5


class ConvState(IntEnum):
    IDLE = 0
    ATTENTION = 1
    LISTENING = 2
    PTT = 3
    THINKING = 4
    SPEAKING = 5
    ERROR = 6
    DONE = 7


class FaceFlag(IntEnum):
    """SET_FLAGS bits."""

    IDLE_WANDER = 1 << 0
    AUTOBLINK = 1 << 1
    SOLID_EYE = 1 << 2
    SHOW_MOUTH = 1 << 3
    EDGE_GLOW = 1 << 4
    SPARKLE = 1 << 5
    AFTERGLOW = 1 << 6


class StatusFlag(IntEnum):
    """FACE_STATUS flags bits."""

    TOUCH_ACTIVE = 1 << 0
    TALKING = 1 << 1
    PTT_LISTENING = 1 << 2


class ButtonId(IntEnum):
    PTT = 0
    ACTION = 1


class ButtonEventType(IntEnum):
    PRESS = 0
    RELEASE = 1
    TOGGLE = 2
    CLICK = 3


class TouchEventType(IntEnum):
    PRESS = 0
    RELEASE = 1
    DRAG = 2


NO_GESTURE = 0xFF  # FACE_STATUS active_gesture when none plays


class Payload(Protocol):
    TYPE: ClassVar[PacketType]

    def encode(self) -> bytes: ...


def _pack(fmt: str, *values: int) -> bytes:
    try:
        return struct.pack(fmt, *values)
    except struct.error as exc:
        raise ValueError(f"field out of range for {fmt}: {values}") from exc


def _unpack(fmt: str, data: bytes, name: str) -> tuple[int, ...]:
    size = struct.calcsize(fmt)
    if len(data) < size:
        raise MalformedPayload(f"{name}: payload {len(data)} bytes, needs {size}")
    return struct.unpack_from(fmt, data, 0)


@dataclass(slots=True, frozen=True)
class TimeSyncReq:
    TYPE: ClassVar[PacketType] = PacketType.TIME_SYNC_REQ
    FMT: ClassVar[str] = "<II"
    ping_seq: int
    reserved: int = 0

    def encode(self) -> bytes:
        return _pack(self.FMT, self.ping_seq, self.reserved)

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> TimeSyncReq:
        return cls(*_unpack(cls.FMT, data, "TIME_SYNC_REQ"))


@dataclass(slots=True, frozen=True)
class SetProtocolVersion:
    TYPE: ClassVar[PacketType] = PacketType.SET_PROTOCOL_VERSION
    FMT: ClassVar[str] = "<B"
    version: int

    def encode(self) -> bytes:
        return _pack(self.FMT, self.version)

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> SetProtocolVersion:
        return cls(*_unpack(cls.FMT, data, "SET_PROTOCOL_VERSION"))


@dataclass(slots=True, frozen=True)
class SetState:
    TYPE: ClassVar[PacketType] = PacketType.SET_STATE
    FMT: ClassVar[str] = "<BBbbB"
    mood_id: int
    intensity: int  # 0-255 on the wire (see intensity_to_wire)
    gaze_x: int = 0
    gaze_y: int = 0
    brightness: int = 255

    def encode(self) -> bytes:
        return _pack(
            self.FMT, self.mood_id, self.intensity, self.gaze_x, self.gaze_y, self.brightness
        )

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> SetState:
        return cls(*_unpack(cls.FMT, data, "SET_STATE"))


@dataclass(slots=True, frozen=True)
class GestureCmd:
    TYPE: ClassVar[PacketType] = PacketType.GESTURE
    FMT: ClassVar[str] = "<BH"
    gesture_id: int
    duration_ms: int = 0  # 0 = firmware default

    def encode(self) -> bytes:
        return _pack(self.FMT, self.gesture_id, self.duration_ms)

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> GestureCmd:
        return cls(*_unpack(cls.FMT, data, "GESTURE"))


@dataclass(slots=True, frozen=True)
class SetSystem:
    TYPE: ClassVar[PacketType] = PacketType.SET_SYSTEM
    FMT: ClassVar[str] = "<BBB"
    mode: int
    phase: int = 0  # reserved
    param: int = 0  # e.g. battery level 0-255

    def encode(self) -> bytes:
        return _pack(self.FMT, self.mode, self.phase, self.param)

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> SetSystem:
        return cls(*_unpack(cls.FMT, data, "SET_SYSTEM"))


@dataclass(slots=True, frozen=True)
class SetTalking:
    TYPE: ClassVar[PacketType] = PacketType.SET_TALKING
    FMT: ClassVar[str] = "<BB"
    talking: int  # 0/1
    energy: int = 0  # 0-255

    def encode(self) -> bytes:
        return _pack(self.FMT, self.talking, self.energy)

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> SetTalking:
        return cls(*_unpack(cls.FMT, data, "SET_TALKING"))


@dataclass(slots=True, frozen=True)
class SetFlags:
    TYPE: ClassVar[PacketType] = PacketType.SET_FLAGS
    FMT: ClassVar[str] = "<B"
    flags: int

    def encode(self) -> bytes:
        return _pack(self.FMT, self.flags)

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> SetFlags:
        return cls(*_unpack(cls.FMT, data, "SET_FLAGS"))


@dataclass(slots=True, frozen=True)
class SetConvState:
    TYPE: ClassVar[PacketType] = PacketType.SET_CONV_STATE
    FMT: ClassVar[str] = "<B"
    conv_state: int

    def encode(self) -> bytes:
        return _pack(self.FMT, self.conv_state)

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> SetConvState:
        return cls(*_unpack(cls.FMT, data, "SET_CONV_STATE"))


@dataclass(slots=True, frozen=True)
class TimeSyncResp:
    TYPE: ClassVar[PacketType] = PacketType.TIME_SYNC_RESP
    FMT: ClassVar[str] = "<IQ"
    ping_seq: int
    t_src_us: int

    def encode(self) -> bytes:
        return _pack(self.FMT, self.ping_seq, self.t_src_us)

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> TimeSyncResp:
        return cls(*_unpack(cls.FMT, data, "TIME_SYNC_RESP"))


@dataclass(slots=True, frozen=True)
class ProtocolVersionAck:
    TYPE: ClassVar[PacketType] = PacketType.PROTOCOL_VERSION_ACK
    FMT: ClassVar[str] = "<B"
    version: int

    def encode(self) -> bytes:
        return _pack(self.FMT, self.version)

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> ProtocolVersionAck:
        return cls(*_unpack(cls.FMT, data, "PROTOCOL_VERSION_ACK"))


@dataclass(slots=True, frozen=True)
class FaceStatus:
    """FACE_STATUS; the two v2 fields are None in a v1 envelope."""

    TYPE: ClassVar[PacketType] = PacketType.FACE_STATUS
    FMT_V1: ClassVar[str] = "<BBBB"
    FMT_V2_TAIL: ClassVar[str] = "<II"
    mood_id: int
    active_gesture: int = NO_GESTURE
    system_mode: int = 0
    flags: int = 0
    cmd_seq_last_applied: int | None = None
    t_state_applied_us: int | None = None

    def encode(self) -> bytes:
        head = _pack(
            self.FMT_V1, self.mood_id, self.active_gesture, self.system_mode, self.flags
        )
        if self.cmd_seq_last_applied is None:
            return head
        return head + _pack(
            self.FMT_V2_TAIL, self.cmd_seq_last_applied, self.t_state_applied_us or 0
        )

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> FaceStatus:
        mood, gesture, mode, flags = _unpack(cls.FMT_V1, data, "FACE_STATUS")
        if version < 2:
            return cls(mood, gesture, mode, flags)
        seq, t_applied = _unpack("<4x" + cls.FMT_V2_TAIL[1:], data, "FACE_STATUS v2")
        return cls(mood, gesture, mode, flags, seq, t_applied)


@dataclass(slots=True, frozen=True)
class TouchEvent:
    TYPE: ClassVar[PacketType] = PacketType.TOUCH_EVENT
    FMT: ClassVar[str] = "<BHH"
    event_type: int
    x: int
    y: int

    def encode(self) -> bytes:
        return _pack(self.FMT, self.event_type, self.x, self.y)

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> TouchEvent:
        return cls(*_unpack(cls.FMT, data, "TOUCH_EVENT"))


@dataclass(slots=True, frozen=True)
class ButtonEvent:
    TYPE: ClassVar[PacketType] = PacketType.BUTTON_EVENT
    FMT: ClassVar[str] = "<BBBB"
    button_id: int
    event_type: int
    state: int = 0
    reserved: int = 0

    def encode(self) -> bytes:
        return _pack(self.FMT, self.button_id, self.event_type, self.state, self.reserved)

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> ButtonEvent:
        return cls(*_unpack(cls.FMT, data, "BUTTON_EVENT"))


HEARTBEAT_COUNTERS = 16
HEARTBEAT_LEN = 68  # sixteen u32 + four u8


@dataclass(slots=True, frozen=True)
class Heartbeat:
    """HEARTBEAT: sixteen u32 counters (uptime_ms first, then USB statistics) and four
    u8 (usb_dtr, usb_rts, ptt_listening, reserved). `tail` keeps the optional
    performance tail verbatim (tolerated, not interpreted)."""

    TYPE: ClassVar[PacketType] = PacketType.HEARTBEAT
    FMT: ClassVar[str] = "<16I4B"
    counters: tuple[int, ...]
    usb_dtr: int = 0
    usb_rts: int = 0
    ptt_listening: int = 0
    reserved: int = 0
    tail: bytes = b""

    @property
    def uptime_ms(self) -> int:
        return self.counters[0]

    def encode(self) -> bytes:
        if len(self.counters) != HEARTBEAT_COUNTERS:
            raise ValueError(f"HEARTBEAT needs {HEARTBEAT_COUNTERS} counters")
        return (
            _pack(
                self.FMT, *self.counters, self.usb_dtr, self.usb_rts, self.ptt_listening,
                self.reserved,
            )
            + self.tail
        )

    @classmethod
    def decode(cls, data: bytes, version: int = 1) -> Heartbeat:
        values = _unpack(cls.FMT, data, "HEARTBEAT")
        return cls(
            tuple(values[:HEARTBEAT_COUNTERS]), *values[HEARTBEAT_COUNTERS:],
            tail=bytes(data[HEARTBEAT_LEN:]),
        )


@dataclass(slots=True, frozen=True)
class UnknownPayload:
    """A packet type this driver does not know: kept raw and otherwise ignored."""

    type_id: int
    data: bytes

    def encode(self) -> bytes:
        return self.data


PAYLOAD_TYPES: dict[int, type] = {
    int(cls.TYPE): cls
    for cls in (
        TimeSyncReq, SetProtocolVersion, SetState, GestureCmd, SetSystem, SetTalking,
        SetFlags, SetConvState, TimeSyncResp, ProtocolVersionAck, FaceStatus, TouchEvent,
        ButtonEvent, Heartbeat,
    )
}


def decode_payload(type_id: int, data: bytes, version: int) -> object:
    """Typed payload for `type_id`, or UnknownPayload; raise MalformedPayload if short."""
    cls = PAYLOAD_TYPES.get(type_id)
    if cls is None:
        return UnknownPayload(type_id, bytes(data))
    return cls.decode(data, version)


def intensity_to_wire(intensity: float) -> int:
    """face-protocol.md: intensity on the wire is round(clamp01(intensity) * 255)."""
    if math.isnan(intensity):  # NaN: show nothing rather than guess
        return 0
    clamped = 0.0 if intensity < 0.0 else 1.0 if intensity > 1.0 else intensity
    return round(clamped * 255)
