"""Envelopes and framing of the face protocol (face-protocol.md "Framing", "Envelopes").

Packet (before COBS):
- v1: type:u8, seq:u8, data:N, crc16:u16
- v2: type:u8, seq:u32, t_src_us:u64, data:N, crc16:u16   (13-byte header)
Frame on the wire: COBS(packet) + 0x00. CRC-16/CCITT-FALSE over everything before the
CRC, stored little-endian. Packets over 768 raw bytes are never sent and are dropped.

`FrameDecoder` turns a byte stream into CRC-checked raw packets, resynchronising on
every 0x00 and counting each dropped frame by reason; `parse_packet` reads the
envelope of one raw packet for a given protocol version.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from enum import StrEnum

from buddy_personality.face.cobs import CobsError, cobs_decode, cobs_encode
from buddy_personality.face.crc import crc16_ccitt_false
from buddy_personality.face.protocol import MalformedPayload, Payload, decode_payload

MAX_PACKET = 768          # raw bytes including the CRC (face-protocol.md "Framing")
MIN_PACKET = 4            # decoded length under 4 bytes is dropped
CRC_LEN = 2
V1_HEADER = struct.Struct("<BB")     # type, seq
V2_HEADER = struct.Struct("<BIQ")    # type, seq, t_src_us (13 bytes)
# Longest COBS encoding of a MAX_PACKET packet: one code byte per started 254-byte run.
MAX_ENCODED = MAX_PACKET + (MAX_PACKET + 253) // 254

SEQ_MASK = {1: 0xFF, 2: 0xFFFFFFFF}
T_SRC_MASK = 0xFFFFFFFFFFFFFFFF


class DropReason(StrEnum):
    COBS = "cobs_error"
    TOO_SHORT = "too_short"
    BAD_CRC = "bad_crc"
    OVERSIZE = "oversize"
    MALFORMED = "malformed_payload"


@dataclass(slots=True)
class DropCounters:
    """Dropped inbound frames per reason (face-protocol.md: dropped and counted)."""

    counts: dict[DropReason, int] = field(default_factory=lambda: dict.fromkeys(DropReason, 0))

    def add(self, reason: DropReason) -> None:
        self.counts[reason] += 1

    def total(self) -> int:
        return sum(self.counts.values())

    def as_dict(self) -> dict[str, int]:
        return {reason.value: n for reason, n in self.counts.items()}


@dataclass(slots=True, frozen=True)
class Packet:
    """One parsed packet. `t_src_us` is None in a v1 envelope."""

    type_id: int
    seq: int
    payload: object
    version: int
    t_src_us: int | None = None


def encode_packet(payload: Payload, seq: int, version: int, t_src_us: int = 0) -> bytes:
    """Raw packet (header + data + CRC) of `payload` in the given envelope version."""
    data = payload.encode()
    type_id = int(payload.TYPE)
    if version == 1:
        header = V1_HEADER.pack(type_id, seq & SEQ_MASK[1])
    elif version == 2:
        header = V2_HEADER.pack(type_id, seq & SEQ_MASK[2], t_src_us & T_SRC_MASK)
    else:
        raise ValueError(f"unknown protocol version {version}")
    body = header + data
    packet = body + struct.pack("<H", crc16_ccitt_false(body))
    if len(packet) > MAX_PACKET:
        raise ValueError(f"packet of {len(packet)} bytes exceeds {MAX_PACKET}")
    return packet


def encode_frame(payload: Payload, seq: int, version: int, t_src_us: int = 0) -> bytes:
    """Wire frame: COBS(packet) followed by the 0x00 delimiter."""
    return cobs_encode(encode_packet(payload, seq, version, t_src_us)) + b"\x00"


def parse_packet(body: bytes, version: int) -> Packet:
    """Read the envelope of a CRC-checked packet body (CRC already stripped).

    Raise MalformedPayload when the body is too short for the envelope's header or the
    payload is shorter than its type requires. Unknown types give UnknownPayload.
    """
    if version == 1:
        if len(body) < V1_HEADER.size:
            raise MalformedPayload(f"v1 packet of {len(body)} bytes has no header")
        type_id, seq = V1_HEADER.unpack_from(body, 0)
        t_src: int | None = None
        data = body[V1_HEADER.size:]
    elif version == 2:
        if len(body) < V2_HEADER.size:
            raise MalformedPayload(f"v2 packet of {len(body)} bytes is shorter than 13")
        type_id, seq, t_src = V2_HEADER.unpack_from(body, 0)
        data = body[V2_HEADER.size:]
    else:
        raise ValueError(f"unknown protocol version {version}")
    return Packet(type_id, seq, decode_payload(type_id, data, version), version, t_src)


class FrameDecoder:
    """Streaming frame decoder: bytes in, CRC-checked packet bodies (CRC stripped) out.

    Resynchronises on each 0x00 delimiter: whatever precedes it is one frame, good or
    bad. Bad frames are dropped and counted in `drops`. Empty frames (back-to-back
    delimiters, which senders use to flush) are skipped without counting. A frame that
    grows beyond the longest legal encoding is abandoned at once (bounded memory) and
    counted as oversize when its delimiter arrives.
    """

    def __init__(self, drops: DropCounters | None = None) -> None:
        self.drops = drops if drops is not None else DropCounters()
        self._buf = bytearray()
        self._overflow = False
        self.frames_ok = 0

    def reset(self) -> None:
        """Forget a partial frame (e.g. after the port was reopened)."""
        self._buf.clear()
        self._overflow = False

    def feed(self, data: bytes) -> list[bytes]:
        bodies: list[bytes] = []
        start = 0
        while True:
            end = data.find(b"\x00", start)
            if end < 0:
                self._append(data[start:])
                return bodies
            self._append(data[start:end])
            body = self._finish_frame()
            if body is not None:
                bodies.append(body)
            start = end + 1

    def _append(self, chunk: bytes) -> None:
        if self._overflow or not chunk:
            return
        if len(self._buf) + len(chunk) > MAX_ENCODED:
            self._overflow = True
            self._buf.clear()
            return
        self._buf += chunk

    def _finish_frame(self) -> bytes | None:
        if self._overflow:
            self._overflow = False
            self.drops.add(DropReason.OVERSIZE)
            return None
        if not self._buf:
            return None
        encoded = bytes(self._buf)
        self._buf.clear()
        try:
            packet = cobs_decode(encoded)
        except CobsError:
            self.drops.add(DropReason.COBS)
            return None
        if len(packet) < MIN_PACKET:
            self.drops.add(DropReason.TOO_SHORT)
            return None
        if len(packet) > MAX_PACKET:
            self.drops.add(DropReason.OVERSIZE)
            return None
        body, crc_bytes = packet[:-CRC_LEN], packet[-CRC_LEN:]
        if crc16_ccitt_false(body) != int.from_bytes(crc_bytes, "little"):
            self.drops.add(DropReason.BAD_CRC)
            return None
        self.frames_ok += 1
        return body
