"""What Buddy's driver sends so that the real firmware shows what is meant
(face-protocol.md "What Buddy's driver does (decisions)"), as tables a reviewer reads
line by line. The driver core (`face/driver.py`) only looks things up here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from buddy_personality.face.protocol import MOOD_IDS, ConvState, FaceFlag, GestureId, PacketType

# --- envelopes ----------------------------------------------------------------------------
# Every face command goes in a v1 envelope in either mode, so a board that reset to v1
# under us can never misread one (face-protocol.md: frames under 15 decoded bytes are
# parsed as v1 even in v2 mode). Only these use the negotiated (v2) envelope.
NEGOTIATED_ENVELOPE_TYPES = frozenset({PacketType.TIME_SYNC_REQ})


# --- moods the firmware cannot show -------------------------------------------------------
@dataclass(slots=True, frozen=True)
class StandIn:
    """A mood the firmware ignores (ids above 11), shown as another mood plus a gesture
    played on entry and again every `repeat_s` while the mood lasts."""

    shown_as: str
    gesture: int
    repeat_s: float


MAX_FIRMWARE_MOOD_ID = 11
STAND_INS: dict[str, StandIn] = {
    # THINKING is CONFUSED's nearest firmware mood (spec 002 §4.1 anchor, same class);
    # the firmware's own "confused" is GESTURE 3.
    "confused": StandIn(shown_as="thinking", gesture=int(GestureId.CONFUSED), repeat_s=4.0),
}
assert all(MOOD_IDS[s.shown_as] <= MAX_FIRMWARE_MOOD_ID for s in STAND_INS.values())
assert all(MOOD_IDS[m] > MAX_FIRMWARE_MOOD_ID for m in STAND_INS)


def wire_mood(mood: str) -> str:
    """The mood sent to the board for the mood meant."""
    stand_in = STAND_INS.get(mood)
    return mood if stand_in is None else stand_in.shown_as


# --- flags and gaze per conversation state ------------------------------------------------
_F = FaceFlag
ALL_BUT_AFTERGLOW = int(_F.IDLE_WANDER | _F.AUTOBLINK | _F.SOLID_EYE | _F.SHOW_MOUTH
                        | _F.EDGE_GLOW | _F.SPARKLE)          # 0x3F, the boot default
NO_WANDER = ALL_BUT_AFTERGLOW & ~int(_F.IDLE_WANDER)          # 0x3E
NO_WANDER_NO_SPARKLE = NO_WANDER & ~int(_F.SPARKLE)           # 0x1E

# SET_FLAGS per conversation state, as the upstream robot does (face-protocol.md
# "SET_FLAGS"); None = leave the flags as they are (ERROR).
FLAGS_BY_CONV_STATE: dict[int, int | None] = {
    int(ConvState.IDLE): ALL_BUT_AFTERGLOW,
    int(ConvState.DONE): ALL_BUT_AFTERGLOW,
    int(ConvState.ATTENTION): NO_WANDER,      # hold the gaze on the child
    int(ConvState.LISTENING): NO_WANDER,
    int(ConvState.PTT): NO_WANDER,
    int(ConvState.SPEAKING): NO_WANDER,
    int(ConvState.THINKING): NO_WANDER_NO_SPARKLE,
    int(ConvState.ERROR): None,
}
FLAGS_BEFORE_ANY_STATE = ALL_BUT_AFTERGLOW   # what ERROR keeps if nothing came before

# Gaze (SET_STATE gaze_x, gaze_y as i8; the firmware draws i8 / 127 * 12 px) per
# conversation state. Not in the protocol document: Buddy looks straight at the child
# while it attends, listens and speaks, and up to one side while it thinks (THINKING
# and LOVE moods overwrite gaze on the firmware anyway); idle wander moves the eyes
# when idle, so the centre is only its resting point there.
GAZE_BY_CONV_STATE: dict[int, tuple[int, int]] = {
    int(ConvState.IDLE): (0, 0),
    int(ConvState.ATTENTION): (0, 0),
    int(ConvState.LISTENING): (0, 0),
    int(ConvState.PTT): (0, 0),
    int(ConvState.THINKING): (48, -48),
    int(ConvState.SPEAKING): (0, 0),
    int(ConvState.ERROR): (0, 32),            # a little downcast
    int(ConvState.DONE): (0, 0),
}

# --- talking -----------------------------------------------------------------------------
TALKING_REFRESH_S = 0.05     # < the firmware's 450 ms timeout; the decision: <= 100 ms
TALKING_HOLD_S = 0.30        # talking=1, energy=0 after the audio ends, then talking=0

# --- the board's own reports ------------------------------------------------------------
STATUS_DISAGREEMENT_S = 0.20   # FACE_STATUS disagreeing this long: resend and count

# --- battery (SET_SYSTEM LOW_BATTERY param) ---------------------------------------------


def battery_param(battery_pct: float) -> tuple[int, bool]:
    """SET_SYSTEM param for a battery level: pct * 255 / 100 with the level clamped to
    0-100 % (the decision). Returns (param, clamped). Raises ValueError for NaN or
    infinities: an unknown level is refused, not guessed."""
    if not math.isfinite(battery_pct):
        raise ValueError(f"battery level {battery_pct!r} is not a number")
    clamped = min(100.0, max(0.0, battery_pct))
    return round(clamped * 255 / 100), clamped != battery_pct
