"""The face driver core's records (driver.py): its configuration, its counters, what a
tick returns, and which SET_SYSTEM display a system event asks for (`system_mode_for`,
face-protocol.md SET_SYSTEM; battery clamped by `board_rules.battery_param`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from buddy_personality.face import board_rules
from buddy_personality.face.protocol import ButtonEvent, SystemMode, TouchEvent
from buddy_personality.msg_constants import SystemKind

# buddy_msgs/SystemEvent kinds the face acts on (msg_constants: the core imports no ROS).
SYS_BOOT = SystemKind.BOOT
SYS_LOW_BATTERY = SystemKind.LOW_BATTERY
SYS_CRITICAL_BATTERY = SystemKind.CRITICAL_BATTERY
SYS_FAULT_RAISED = SystemKind.FAULT_RAISED
SYS_FAULT_CLEARED = SystemKind.FAULT_CLEARED

DEFAULT_BRIGHTNESS = 255   # full backlight (the firmware boots at 200)


@dataclass(slots=True)
class DriverConfig:
    brightness: int = DEFAULT_BRIGHTNESS
    keepalive_period_s: float = 0.9   # < 1 s so a late tick still makes "once a second"
    time_sync: bool = True
    # Button events: the firmware sends at most one per 50 ms status cycle
    # (face-protocol.md), so more than 20 a second is a faulty board or line; a burst of
    # `button_burst` passes, the rest of a flood is dropped and counted (issue 14).
    button_rate_hz: float = 20.0
    button_burst: int = 5
    notice_every_s: float = 10.0      # one log line per cause at most this often


@dataclass(slots=True)
class DriverCounters:
    set_state_sent: int = 0
    keepalives_sent: int = 0
    gestures_sent: int = 0
    gestures_dropped: int = 0
    stand_in_gestures: int = 0
    flags_sent: int = 0
    board_resets: int = 0
    status_resends: int = 0
    battery_clamped: int = 0
    buttons_flood_dropped: int = 0
    rejected_inputs: dict[str, int] = field(default_factory=dict)

    def reject(self, cause: str) -> None:
        self.rejected_inputs[cause] = self.rejected_inputs.get(cause, 0) + 1


@dataclass(slots=True, frozen=True)
class TickOutput:
    buttons: list[ButtonEvent]
    touches: list[TouchEvent]
    status_changed: bool
    # The board said something new (not a heartbeat, not an unchanged FACE_STATUS), or
    # the link came up: a driver that pauses its fixed-rate tick when nothing is going
    # on should keep it.
    board_active: bool = False


def system_mode_for(kind: int, battery_pct: float) -> tuple[int, int] | None:
    """SET_SYSTEM (mode, param) for a system event; None = no display change.
    The latest event wins; param is the battery level (clamped to 0-100 %, as
    pct * 255 / 100) for battery events. Raises ValueError for a NaN battery level."""
    if kind in (SYS_LOW_BATTERY, SYS_CRITICAL_BATTERY):
        param, _clamped = board_rules.battery_param(battery_pct)
        return int(SystemMode.LOW_BATTERY), param
    if kind == SYS_FAULT_RAISED:
        return int(SystemMode.ERROR_DISPLAY), 0
    if kind in (SYS_FAULT_CLEARED, SYS_BOOT):
        return int(SystemMode.NONE), 0
    return None
