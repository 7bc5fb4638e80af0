"""The face driver's core (DESIGN §4.4): everything the `face_driver` node does,
without ROS. The node turns messages into these calls and publishes what comes back.

- SET_STATE: from `FacePolicy` (snapshot, backstop, attentive phases), sent at once
  when what is shown changes (the event-driven path: call `flush` after an input) and
  re-sent as keepalive at least once per second (`tick`, 50 Hz in the node).
- Conversation phase -> SET_CONV_STATE, talking -> SET_TALKING, gestures -> GESTURE,
  system events -> SET_SYSTEM: sent on change, and all re-sent when the link comes up
  (after a reconnect the board has forgotten everything).
- BUTTON / TOUCH / FACE_STATUS from the board come back from `tick`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from buddy_personality.face.link import LinkManager
from buddy_personality.face.policy import FacePolicy, KeepaliveScheduler, ShownFace
from buddy_personality.face.protocol import (
    ButtonEvent,
    FaceStatus,
    GestureCmd,
    Heartbeat,
    SetConvState,
    SetState,
    SetSystem,
    SetTalking,
    SystemMode,
    TouchEvent,
    intensity_to_wire,
)

# buddy_msgs/SystemEvent kinds, repeated so the core imports no ROS.
SYS_BOOT = 0
SYS_LOW_BATTERY = 1
SYS_CRITICAL_BATTERY = 2
SYS_FAULT_RAISED = 3
SYS_FAULT_CLEARED = 4


@dataclass(slots=True)
class DriverConfig:
    brightness: int = 255
    keepalive_period_s: float = 0.9   # < 1 s so a 50 Hz tick always makes "once a second"
    talking_energy: int = 180         # SET_TALKING energy while TTS speaks (no audio level)


@dataclass(slots=True)
class DriverCounters:
    set_state_sent: int = 0
    keepalives_sent: int = 0
    gestures_sent: int = 0
    gestures_dropped: int = 0
    rejected_inputs: dict[str, int] = field(default_factory=dict)

    def reject(self, cause: str) -> None:
        self.rejected_inputs[cause] = self.rejected_inputs.get(cause, 0) + 1


@dataclass(slots=True, frozen=True)
class TickOutput:
    buttons: list[ButtonEvent]
    touches: list[TouchEvent]
    status_changed: bool
    # The board said more than its heartbeat (or the link came up): it is busy, and a
    # driver that pauses its fixed-rate tick when nothing is going on should keep it.
    board_active: bool = False


def system_mode_for(kind: int, battery_pct: float) -> tuple[int, int] | None:
    """SET_SYSTEM (mode, param) for a system event; None = no display change.
    The latest event wins; param is the battery level 0-255 for battery events."""
    if kind in (SYS_LOW_BATTERY, SYS_CRITICAL_BATTERY):
        level = 0 if not 0.0 <= battery_pct <= 100.0 else round(battery_pct / 100.0 * 255)
        return int(SystemMode.LOW_BATTERY), level
    if kind == SYS_FAULT_RAISED:
        return int(SystemMode.ERROR_DISPLAY), 0
    if kind in (SYS_FAULT_CLEARED, SYS_BOOT):
        return int(SystemMode.NONE), 0
    return None


class FaceDriverCore:
    def __init__(
        self,
        link: LinkManager,
        policy: FacePolicy | None = None,
        config: DriverConfig | None = None,
    ) -> None:
        self.link = link
        self.policy = policy or FacePolicy()
        self.config = config or DriverConfig()
        self.counters = DriverCounters()
        self.keepalive = KeepaliveScheduler(self.config.keepalive_period_s)
        self.shown: ShownFace | None = None
        self.conv_state = 0
        self.talking = False
        self.system: tuple[int, int] = (int(SystemMode.NONE), 0)
        self.last_status: FaceStatus | None = None
        self.last_heartbeat: Heartbeat | None = None
        self.active = False   # lifecycle: SET_STATE only while active

    # --- inputs (each returns after sending what changed) -------------------------------

    def on_snapshot(self, mood: str, intensity: float, now: float) -> bool:
        try:
            self.policy.on_snapshot(mood, intensity, now)
        except ValueError:
            self.counters.reject("snapshot")
            return False
        self.flush(now)
        return True

    def on_ai_emotion(self, emotion: str, intensity: float, now: float) -> bool:
        try:
            self.policy.on_ai_emotion(emotion, intensity, now)
        except ValueError:
            self.counters.reject("ai_emotion")
            return False
        self.flush(now)
        return True

    def on_phase(self, phase: int, now: float) -> bool:
        try:
            self.policy.on_phase(phase, now)
        except ValueError:
            self.counters.reject("phase")
            return False
        if phase != self.conv_state:
            self.conv_state = phase
            self._send_conv_state(now)
        self.flush(now)
        return True

    def on_talking(self, talking: bool, now: float) -> None:
        if talking != self.talking:
            self.talking = talking
            self._send_talking(now)

    def on_gesture(self, gesture_id: int, duration_ms: int, now: float) -> bool:
        if not 0 <= gesture_id <= 12 or not 0 <= duration_ms <= 0xFFFF:
            self.counters.reject("gesture")
            return False
        if not self.active or not self.link.send(GestureCmd(gesture_id, duration_ms), now):
            self.counters.gestures_dropped += 1  # a one-shot: not replayed later
            return False
        self.counters.gestures_sent += 1
        return True

    def on_system_event(self, kind: int, battery_pct: float, now: float) -> None:
        mode = system_mode_for(kind, battery_pct)
        if mode is not None and mode != self.system:
            self.system = mode
            self._send_system(now)

    # --- output --------------------------------------------------------------------------

    def flush(self, now: float) -> bool:
        """Send SET_STATE if the shown face changed or a keepalive is due."""
        self.shown = self.policy.decide(now)
        if not self.active or not self.link.connected:
            return False
        state = SetState(
            mood_id=self.shown.mood_id,
            intensity=intensity_to_wire(self.shown.intensity),
            brightness=self.config.brightness,
        )
        if not self.keepalive.due(state, now):
            return False
        is_keepalive = self.keepalive.is_repeat(state)
        if not self.link.send(state, now):
            return False
        self.keepalive.mark_sent(state, now)
        self.counters.set_state_sent += 1
        self.counters.keepalives_sent += int(is_keepalive)
        return True

    def tick(self, now: float) -> TickOutput:
        """Poll the link (reader-thread bytes), handle board packets, keepalive."""
        result = self.link.poll(now)
        if result.connected_now:
            self._resend_all(now)
        buttons: list[ButtonEvent] = []
        touches: list[TouchEvent] = []
        status_changed = False
        board_active = result.connected_now
        for packet in result.packets:
            payload = packet.payload
            if isinstance(payload, Heartbeat):
                self.last_heartbeat = payload
                continue
            board_active = True
            if isinstance(payload, ButtonEvent):
                buttons.append(payload)
            elif isinstance(payload, TouchEvent):
                touches.append(payload)
            elif isinstance(payload, FaceStatus):
                status_changed |= payload != self.last_status
                self.last_status = payload
        self.flush(now)
        return TickOutput(buttons, touches, status_changed, board_active)

    def next_deadline(self, now: float) -> float | None:
        """The next time `tick` has work that no input and no board byte announces:
        the link's timers (reopen backoff, negotiation, heartbeat silence), the
        keepalive (DESIGN §4.4: SET_STATE at least once a second) and the shown face
        changing by the clock (spec 002 §11.3 staleness, §9.1 duration caps). Ticking
        at that time and on every board byte does all that a fixed-rate tick does.
        None: nothing is pending."""
        times = [self.link.next_deadline(now), self.policy.next_change_at(now)]
        if self.active and self.link.connected:
            due = self.keepalive.next_due_at()
            times.append(now if due is None else due)
        return min((t for t in times if t is not None), default=None)

    def _resend_all(self, now: float) -> None:
        """After (re)negotiation the board knows nothing: tell it everything again."""
        self.keepalive.reset()
        self._send_conv_state(now)
        self._send_talking(now)
        self._send_system(now)

    def _send_conv_state(self, now: float) -> None:
        if self.active:
            self.link.send(SetConvState(self.conv_state), now)

    def _send_talking(self, now: float) -> None:
        if self.active:
            energy = self.config.talking_energy if self.talking else 0
            self.link.send(SetTalking(int(self.talking), energy), now)

    def _send_system(self, now: float) -> None:
        if self.active:
            self.link.send(SetSystem(mode=self.system[0], param=self.system[1]), now)

    def activate(self, now: float) -> None:
        """Lifecycle activate: start driving the face; send the whole state now."""
        self.active = True
        if self.link.connected:
            self._resend_all(now)
        self.flush(now)

    def deactivate(self) -> None:
        self.active = False

    # --- reporting -----------------------------------------------------------------------

    def diagnostics(self, now: float) -> dict[str, str]:
        age = self.policy.snapshot_age(now)
        values: dict[str, str] = {
            "port": self.link.port_name,
            "link_state": self.link.state.name,
            "protocol_version": str(self.link.version),
            "last_error": self.link.last_error,
            "snapshot_age_s": "none" if age is None else f"{age:.3f}",
            "backstop_active": str(self.policy.is_stale(now)),
            "shown_mood": self.shown.mood if self.shown else "",
            "set_state_sent": str(self.counters.set_state_sent),
            "keepalives_sent": str(self.counters.keepalives_sent),
            "gestures_sent": str(self.counters.gestures_sent),
            "gestures_dropped": str(self.counters.gestures_dropped),
        }
        values.update({k: str(v) for k, v in self.link.counters.as_dict().items()})
        values.update({f"rejected_{k}": str(v)
                       for k, v in self.counters.rejected_inputs.items()})
        return values
