"""COBS and CRC-16/CCITT-FALSE (face-protocol.md "Framing")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from buddy_personality.face.cobs import CobsError, cobs_decode, cobs_encode
from buddy_personality.face.crc import crc16_ccitt_false
from buddy_personality.face.testing import crc_bit_loop


def test_crc_check_value_from_protocol_document() -> None:
    # face-protocol.md: CRC of ASCII "123456789" is 0x29B1.
    assert crc16_ccitt_false(b"123456789") == 0x29B1
    assert crc_bit_loop(b"123456789") == 0x29B1


def test_crc_of_empty_input_is_the_initial_value() -> None:
    assert crc16_ccitt_false(b"") == 0xFFFF


@given(st.binary(max_size=800))
def test_crc_matches_the_bit_loop(data: bytes) -> None:
    assert crc16_ccitt_false(data) == crc_bit_loop(data)


# Vectors from the COBS paper / Wikipedia's table of examples.
COBS_VECTORS = [
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
]


@pytest.mark.parametrize(("raw", "encoded"), COBS_VECTORS)
def test_cobs_known_vectors(raw: bytes, encoded: bytes) -> None:
    assert cobs_encode(raw) == encoded
    assert cobs_decode(encoded) == raw


RUN_254 = bytes(range(1, 255))          # 01..FE: exactly one full run
RUN_255 = bytes(range(1, 256))          # 01..FF: one full run plus one byte


def test_cobs_254_byte_run_is_one_full_block_without_trailer() -> None:
    # Wikipedia example 7: 01..FE -> FF 01..FE (no trailing empty block).
    assert cobs_encode(RUN_254) == b"\xff" + RUN_254
    assert cobs_decode(b"\xff" + RUN_254) == RUN_254
    # The other common encoding (with a trailing 0x01 block) decodes to the same data.
    assert cobs_decode(b"\xff" + RUN_254 + b"\x01") == RUN_254


def test_cobs_255_byte_run_spills_into_a_second_block() -> None:
    # Wikipedia example 9: 01..FF -> FF 01..FE 02 FF.
    assert cobs_encode(RUN_255) == b"\xff" + RUN_254 + b"\x02\xff"
    assert cobs_decode(cobs_encode(RUN_255)) == RUN_255


def test_cobs_zero_before_a_254_run() -> None:
    # Wikipedia example 8: 00 01..FE -> 01 FF 01..FE.
    raw = b"\x00" + RUN_254
    assert cobs_encode(raw) == b"\x01\xff" + RUN_254
    assert cobs_decode(cobs_encode(raw)) == raw


def test_cobs_run_of_254_followed_by_zero() -> None:
    raw = RUN_254 + b"\x00"
    # Full block (no implied zero), then a block of length 0 with the implied zero,
    # then the final empty block.
    assert cobs_encode(raw) == b"\xff" + RUN_254 + b"\x01\x01"
    assert cobs_decode(cobs_encode(raw)) == raw


def test_cobs_long_runs_of_zeros_and_non_zeros() -> None:
    for raw in (bytes(600), b"\x07" * 600, b"\x07" * 508, (b"\x05" * 253 + b"\x00") * 3):
        encoded = cobs_encode(raw)
        assert 0 not in encoded
        assert cobs_decode(encoded) == raw


@pytest.mark.parametrize(
    "bad",
    [
        b"",                 # nothing to decode
        b"\x00",             # zero code byte
        b"\x03\x11",         # block claims 2 bytes, only 1 present
        b"\x03\x11\x00",     # zero inside a block
        b"\x02\x11\x00\x01",  # zero code byte later in the frame
    ],
)
def test_cobs_decode_rejects_invalid_frames(bad: bytes) -> None:
    with pytest.raises(CobsError):
        cobs_decode(bad)


@given(st.binary(max_size=1200))
def test_cobs_round_trip_and_no_zero_bytes(raw: bytes) -> None:
    encoded = cobs_encode(raw)
    assert 0 not in encoded
    # Overhead is at most one byte per started 254-byte run, plus one.
    assert len(encoded) <= len(raw) + len(raw) // 254 + 1
    assert cobs_decode(encoded) == raw
