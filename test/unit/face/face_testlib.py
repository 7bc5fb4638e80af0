"""Reference implementations written straight from face-protocol.md, shared by the
face tests as independent oracles."""

from __future__ import annotations


def crc_bit_loop(data: bytes) -> int:
    """The document's CRC definition, literally: poly 0x1021, init 0xFFFF, MSB-first
    bit loop, no reflection, no final XOR."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc
