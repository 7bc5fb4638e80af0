"""CRC-16/CCITT-FALSE (face-protocol.md "Framing").

Polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR; check value
0x29B1 for ASCII "123456789". The stdlib's `binascii.crc_hqx` is exactly this
non-reflected 0x1021 CRC with a caller-chosen initial value, implemented in C; the
unit tests compare it with a literal MSB-first bit loop.
"""

from __future__ import annotations

import binascii

CRC_INIT = 0xFFFF


def crc16_ccitt_false(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of `data` as an int in [0, 0xFFFF]."""
    return binascii.crc_hqx(data, CRC_INIT)
