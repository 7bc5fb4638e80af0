"""Consistent Overhead Byte Stuffing (face-protocol.md "Framing").

Standard COBS: each block starts with a code byte `n` (1..255) followed by `n - 1`
non-zero bytes; a code below 0xFF implies a zero after its block (except at the end of
the frame), code 0xFF is a full run of 254 non-zero bytes with no implied zero.

The encoder follows the reference C implementation (Cheshire & Baker; the version on
Wikipedia and in common firmware libraries): a packet that ends exactly on a full
254-byte run gets no extra trailing `0x01` block. The decoder accepts both forms.
"""

from __future__ import annotations

MAX_RUN = 254  # non-zero bytes in one full block (code 0xFF)


class CobsError(ValueError):
    """The bytes are not a valid COBS encoding."""


def cobs_encode(data: bytes) -> bytes:
    """Encode `data`; the result contains no zero byte (the delimiter is not added)."""
    out = bytearray(b"\x00")  # placeholder for the first code byte
    code_index = 0
    code = 1
    last = len(data) - 1
    for i, byte in enumerate(data):
        if byte == 0:
            out[code_index] = code
            code_index = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF:
            out[code_index] = code
            code = 1
            if i == last:
                # Packet ends on a full run: no trailing empty block (reference encoder).
                return bytes(out)
            code_index = len(out)
            out.append(0)
    out[code_index] = code
    return bytes(out)


def cobs_decode(encoded: bytes) -> bytes:
    """Decode one COBS frame (without its 0x00 delimiter); raise CobsError if invalid."""
    if not encoded:
        raise CobsError("empty frame")
    out = bytearray()
    i = 0
    n = len(encoded)
    while i < n:
        code = encoded[i]
        if code == 0:
            raise CobsError(f"zero code byte at offset {i}")
        start = i + 1
        end = start + code - 1
        if end > n:
            raise CobsError(f"block at offset {i} runs past the end of the frame")
        block = encoded[start:end]
        if 0 in block:
            raise CobsError(f"zero byte inside block at offset {i}")
        out += block
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)
