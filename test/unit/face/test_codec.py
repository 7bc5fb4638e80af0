"""Envelopes, packet payloads and the streaming decoder (face-protocol.md)."""

from __future__ import annotations

import contextlib
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from buddy_personality.face.cobs import cobs_encode
from buddy_personality.face.codec import (
    MAX_PACKET,
    DropReason,
    FrameDecoder,
    encode_frame,
    encode_packet,
    parse_packet,
)
from buddy_personality.face.crc import crc16_ccitt_false
from buddy_personality.face.protocol import (
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
    TimeSyncReq,
    TimeSyncResp,
    TouchEvent,
    UnknownPayload,
    intensity_to_wire,
)

EVERY_PAYLOAD = [
    TimeSyncReq(ping_seq=0xDEADBEEF, reserved=7),
    SetProtocolVersion(2),
    SetState(mood_id=11, intensity=200, gaze_x=-128, gaze_y=127, brightness=40),
    GestureCmd(gesture_id=12, duration_ms=65535),
    SetSystem(mode=3, phase=0, param=51),
    SetTalking(talking=1, energy=180),
    SetFlags(flags=0b0111_1111),
    SetConvState(conv_state=7),
    TimeSyncResp(ping_seq=9, t_src_us=2**64 - 1),
    ProtocolVersionAck(2),
    TouchEvent(event_type=2, x=479, y=65535),
    ButtonEvent(button_id=1, event_type=3, state=1, reserved=0),
    Heartbeat(counters=tuple(range(1000, 1016)), usb_dtr=1, usb_rts=0, ptt_listening=1),
]


def unframe(frame: bytes) -> bytes:
    decoder = FrameDecoder()
    (body,) = decoder.feed(frame)
    return body


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("payload", EVERY_PAYLOAD, ids=lambda p: type(p).__name__)
def test_round_trip_every_packet_type(payload: object, version: int) -> None:
    frame = encode_frame(payload, seq=300, version=version, t_src_us=123_456_789)
    assert frame.endswith(b"\x00") and 0 not in frame[:-1]
    packet = parse_packet(unframe(frame), version)
    assert packet.type_id == int(payload.TYPE)
    assert packet.payload == payload
    assert packet.version == version
    if version == 1:
        assert packet.seq == 300 & 0xFF  # u8 sequence wraps
        assert packet.t_src_us is None
    else:
        assert packet.seq == 300
        assert packet.t_src_us == 123_456_789


@pytest.mark.parametrize("version", [1, 2])
def test_face_status_round_trip_per_version(version: int) -> None:
    if version == 1:
        status = FaceStatus(mood_id=4, active_gesture=0xFF, system_mode=2, flags=0b101)
    else:
        status = FaceStatus(4, 0xFF, 2, 0b101, cmd_seq_last_applied=77,
                            t_state_applied_us=4_000_000_000)
    packet = parse_packet(unframe(encode_frame(status, 1, version)), version)
    assert packet.payload == status


# --- byte vectors written from face-protocol.md -------------------------------------

def test_vector_v1_set_protocol_version_2() -> None:
    # Negotiation request, always in a v1 envelope (face-protocol.md "Version negotiation").
    body = bytes([
        0x07,  # type SET_PROTOCOL_VERSION
        0x00,  # seq u8 = 0
        0x02,  # data: version 2
    ])
    crc = crc16_ccitt_false(body)
    assert encode_packet(SetProtocolVersion(2), seq=0, version=1) == body + struct.pack("<H", crc)
    # CRC 0x694E from the document's bit loop, stored low byte first: 4E 69.
    assert crc == 0x694E
    # COBS: code 02 -> [07] then the implied zero (the seq byte), code 04 -> [02 4E 69].
    assert encode_frame(SetProtocolVersion(2), 0, 1) == bytes(
        [0x02, 0x07, 0x04, 0x02, 0x4E, 0x69, 0x00])


def test_vector_v2_set_state_happy_half_intensity() -> None:
    frame = encode_frame(
        SetState(mood_id=1, intensity=intensity_to_wire(0.5), gaze_x=0, gaze_y=0,
                 brightness=255),
        seq=1, version=2, t_src_us=0x0102030405060708)
    expected_packet = bytes([
        0x20,                    # type SET_STATE
        0x01, 0x00, 0x00, 0x00,  # seq u32 LE = 1
        0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,  # t_src_us u64 LE
        0x01,                    # mood_id 1 = happy
        0x80,                    # intensity round(0.5 * 255) = 128
        0x00,                    # gaze_x 0
        0x00,                    # gaze_y 0
        0xFF,                    # brightness 255
        0x43, 0x88,              # CRC 0x8843 (bit loop) low byte first
    ])
    assert crc16_ccitt_false(expected_packet[:-2]) == 0x8843
    assert frame == bytes([
        0x03, 0x20, 0x01,        # code 03: 20 01, then implied zero (seq byte 2)
        0x01,                    # code 01: implied zero (seq byte 3)
        0x01,                    # code 01: implied zero (seq byte 4)
        0x0B, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x01, 0x80,  # 10 bytes, zero
        0x01,                    # gaze_x zero
        0x04, 0xFF, 0x43, 0x88,  # after gaze_y's zero: FF 43 88, end of frame
        0x00,                    # delimiter
    ])
    assert parse_packet(unframe(frame), 2).payload == SetState(1, 128, 0, 0, 255)
    assert unframe(frame) == expected_packet[:-2]


def test_vector_v2_protocol_version_ack_is_read_by_the_host() -> None:
    # What the MCU answers in a v2 envelope: type 87, seq 0 (4 bytes), t_src_us 0
    # (8 bytes), data [02], CRC 0xAE50 -> 50 AE.
    wire = bytes([0x02, 0x87] + [0x01] * 11 + [0x04, 0x02, 0x50, 0xAE, 0x00])
    packet = parse_packet(unframe(wire), 2)
    assert packet.payload == ProtocolVersionAck(2)
    assert (packet.seq, packet.t_src_us) == (0, 0)


def test_vector_v1_button_click() -> None:
    wire = bytes([
        0x03, 0x92, 0x05,  # type BUTTON_EVENT, seq 5, then zero (button_id 0 = PTT)
        0x03, 0x03, 0x01,  # event_type 3 = click, state 1, then zero (reserved)
        0x03, 0xC2, 0x02,  # CRC 0x02C2 low byte first
        0x00,
    ])
    packet = parse_packet(unframe(wire), 1)
    assert packet.payload == ButtonEvent(button_id=0, event_type=3, state=1, reserved=0)
    assert packet.seq == 5


def test_intensity_on_the_wire() -> None:
    # face-protocol.md: round(clamp01(intensity) * 255).
    assert [intensity_to_wire(x) for x in (-1.0, 0.0, 0.2, 1.0, 7.0)] == [0, 0, 51, 255, 255]
    assert intensity_to_wire(float("nan")) == 0


# --- tolerance and malformed payloads ------------------------------------------------

def _raw_frame(body: bytes) -> bytes:
    return cobs_encode(body + struct.pack("<H", crc16_ccitt_false(body))) + b"\x00"


def test_unknown_type_is_tolerated() -> None:
    packet = parse_packet(unframe(_raw_frame(bytes([0x55, 1, 9, 9]))), 1)
    assert packet.payload == UnknownPayload(0x55, b"\x09\x09")


def test_longer_payload_is_read_up_to_the_known_length() -> None:
    body = bytes([0x92, 1, 1, 0, 1, 0, 0xAA, 0xBB])  # button + 2 extra bytes
    assert parse_packet(unframe(_raw_frame(body)), 1).payload == ButtonEvent(1, 0, 1, 0)


def test_heartbeat_performance_tail_is_kept_and_tolerated() -> None:
    hb = Heartbeat(counters=tuple(range(16)), tail=b"\x01\x02\x03")
    packet = parse_packet(unframe(encode_frame(hb, 0, 2)), 2)
    assert packet.payload.tail == b"\x01\x02\x03"
    assert packet.payload.uptime_ms == 0


@pytest.mark.parametrize(
    ("body", "version"),
    [
        (bytes([0x92, 1, 0, 0, 1]), 1),          # BUTTON_EVENT with 3 of 4 bytes
        (bytes([0x93, 1]) + bytes(67), 1),       # HEARTBEAT one byte short
        (bytes([0x90, 0]) + bytes(16), 2),       # v2 header then only 4 status bytes
        (bytes([0x90, 1, 2]), 2),                # shorter than the 13-byte v2 header
    ],
)
def test_short_payloads_are_malformed(body: bytes, version: int) -> None:
    with pytest.raises(MalformedPayload):
        parse_packet(unframe(_raw_frame(body)), version)


def test_encoder_refuses_out_of_range_fields_and_oversize_packets() -> None:
    with pytest.raises(ValueError):
        encode_packet(SetState(mood_id=256, intensity=0), 0, 1)
    with pytest.raises(ValueError):
        encode_packet(Heartbeat(tuple(range(16)), tail=bytes(700)), 0, 2)
    with pytest.raises(ValueError):
        encode_packet(SetFlags(1), 0, 3)


# --- streaming decoder ------------------------------------------------------------------

GOOD = encode_frame(SetConvState(4), seq=2, version=1)


def test_decoder_reassembles_frames_split_byte_by_byte() -> None:
    decoder = FrameDecoder()
    out = [body for byte in GOOD * 3 for body in decoder.feed(bytes([byte]))]
    assert len(out) == 3
    assert decoder.drops.total() == 0


def test_decoder_counts_each_drop_reason_and_resynchronises() -> None:
    decoder = FrameDecoder()
    bad_crc = bytearray(GOOD)
    bad_crc[2] ^= 0x01  # flip a data bit (no new zero byte)
    stream = (
        b"\x03\x11\x00"             # COBS error: block runs past the end
        + cobs_encode(b"\x01\x02\x03") + b"\x00"  # decodes to 3 bytes: too short
        + bytes(bad_crc)            # bad CRC
        + b"\x00\x00"               # empty frames: skipped, not counted
        + b"\x05" * 2000 + b"\x00"  # oversize garbage, abandoned early
        + GOOD
    )
    bodies = decoder.feed(stream)
    assert len(bodies) == 1
    assert parse_packet(bodies[0], 1).payload == SetConvState(4)
    assert decoder.drops.as_dict() == {
        "cobs_error": 1, "too_short": 1, "bad_crc": 1, "oversize": 1, "malformed_payload": 0}


def test_decoder_drops_decoded_packets_over_768_bytes() -> None:
    body = bytes([0x93, 0]) + bytes(range(1, 256)) * 3  # 767 bytes + CRC = 769
    frame = _raw_frame(body)
    decoder = FrameDecoder()
    assert decoder.feed(frame) == []
    assert decoder.drops.counts[DropReason.OVERSIZE] == 1
    # Exactly 768 is legal.
    assert len(decoder.feed(_raw_frame(body[:-1]))) == 1
    assert MAX_PACKET == 768


def test_truncated_frame_is_dropped_and_the_next_frame_survives() -> None:
    decoder = FrameDecoder()
    bodies = decoder.feed(GOOD[:4] + b"\x00" + GOOD)
    assert len(bodies) == 1
    assert decoder.drops.total() == 1


def _oracle_bodies(stream: bytes) -> list[bytes]:
    """Independent reading of face-protocol.md: split on 0x00, COBS-decode each frame,
    keep those of 4..768 bytes whose CRC (the document's bit loop) matches."""
    from buddy_personality.face.cobs import CobsError, cobs_decode
    from buddy_personality.face.testing import crc_bit_loop

    bodies = []
    for segment in stream.split(b"\x00")[:-1]:  # the last piece has no delimiter yet
        try:
            packet = cobs_decode(segment)
        except CobsError:
            continue
        if 4 <= len(packet) <= MAX_PACKET and crc_bit_loop(packet[:-2]) == int.from_bytes(
                packet[-2:], "little"):
            bodies.append(packet[:-2])
    return bodies


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=300), st.sampled_from([GOOD, b"\x00"])),
                max_size=20))
def test_fuzz_decoder_never_raises_and_never_yields_a_bad_crc(chunks: list[bytes]) -> None:
    decoder = FrameDecoder()
    yielded = []
    for chunk in chunks:
        for body in decoder.feed(chunk):
            yielded.append(body)
            for version in (1, 2):
                with contextlib.suppress(MalformedPayload):
                    parse_packet(body, version)
    # Exactly the frames with a good CRC come out, in order, nothing else.
    assert yielded == _oracle_bodies(b"".join(chunks))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_fuzz_decoder_good_frame_after_garbage_is_recovered(garbage: bytes) -> None:
    decoder = FrameDecoder()
    decoder.feed(garbage)
    bodies = decoder.feed(b"\x00" + GOOD)
    assert bodies and parse_packet(bodies[-1], 1).payload == SetConvState(4)
