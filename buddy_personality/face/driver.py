"""The face driver's core (DESIGN §4.4, face-protocol.md "What Buddy's driver does"):
everything the `face_driver` node does, without ROS. The node turns messages into these
calls and publishes what comes back.

- SET_STATE: from `FacePolicy` (snapshot, backstop, attentive phases), sent at once
  when what is shown changes (the event-driven path: call `flush` after an input) and
  re-sent as keepalive at least once per second (`tick`). A mood the firmware cannot
  show is sent as its stand-in with a gesture on entry and every few seconds
  (`board_rules.STAND_INS`: CONFUSED as THINKING + GESTURE 3). Gaze comes from the
  conversation state, brightness from the configuration (never 0 unless asked).
- Conversation phase -> SET_CONV_STATE and SET_FLAGS (`board_rules`), speech ->
  SET_TALKING refreshed while speaking (`face.talking`), gestures -> GESTURE, system
  events -> SET_SYSTEM (battery clamped to 0-100 %).
- Every face command goes in a v1 envelope (`face.link`). On any sign of a board reset
  (`face.readback.ResetDetector`, or a v1 frame in v2 mode) the link negotiates again
  and everything latched is resent: mood, flags, system mode, conversation state,
  talking.
- FACE_STATUS is read back (`face.readback.StatusReadback`): a disagreement with what
  was sent for over 200 ms is resent and counted. TIME_SYNC (v2) gives the board
  clock's offset and the round trip.
- BUTTON / TOUCH from the board come back from `tick`.

Its records (configuration, counters, a tick's output, the system-event display rule)
are in driver_records.py, its /diagnostics values in driver_report.py.
"""

from __future__ import annotations

import math

from buddy_personality.face import board_rules
from buddy_personality.face.driver_records import (
    DEFAULT_BRIGHTNESS,
    SYS_BOOT,
    SYS_CRITICAL_BATTERY,
    SYS_FAULT_CLEARED,
    SYS_FAULT_RAISED,
    SYS_LOW_BATTERY,
    DriverConfig,
    DriverCounters,
    TickOutput,
    system_mode_for,
)
from buddy_personality.face.driver_report import driver_diagnostics
from buddy_personality.face.link import LinkManager
from buddy_personality.face.policy import FacePolicy, KeepaliveScheduler, ShownFace
from buddy_personality.face.protocol import (
    MOOD_IDS,
    MOOD_NAMES,
    ButtonEvent,
    FaceStatus,
    GestureCmd,
    Heartbeat,
    SetConvState,
    SetFlags,
    SetState,
    SetSystem,
    SystemMode,
    TimeSyncReq,
    TimeSyncResp,
    TouchEvent,
    intensity_to_wire,
)
from buddy_personality.face.readback import (
    Channel,
    Expected,
    ResetDetector,
    StatusReadback,
    TimeSync,
)
from buddy_personality.face.talking import TalkingController

# importable from here as before the split (tests, the node)
__all__ = ["DEFAULT_BRIGHTNESS", "SYS_BOOT", "SYS_CRITICAL_BATTERY", "SYS_FAULT_CLEARED",
           "SYS_FAULT_RAISED", "SYS_LOW_BATTERY", "DriverConfig", "DriverCounters",
           "FaceDriverCore", "TickOutput", "system_mode_for"]

# A time-sync ping due within this much goes out with a tick that runs anyway (the 0.9 s
# keepalive's) rather than waking the paused driver on its own (issue 14).
TIME_SYNC_EARLY_S = 0.25


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
        self.talking_ctl = TalkingController()
        self.readback = StatusReadback()
        self.resets = ResetDetector()
        self.time_sync = TimeSync()
        self.shown: ShownFace | None = None
        self.conv_state = 0
        self.system: tuple[int, int] = (int(SystemMode.NONE), 0)
        self.flags = board_rules.FLAGS_BEFORE_ANY_STATE
        self.last_status: FaceStatus | None = None
        self.last_heartbeat: Heartbeat | None = None
        self.last_sent_state: SetState | None = None
        self.active = False   # lifecycle: SET_STATE only while active
        self.notices: list[tuple[str, str]] = []   # (level, line) for the node to log
        self._stand_in_mood: str | None = None
        self._stand_in_next: float | None = None
        self._renegotiations_seen = 0
        self._drops_reported: dict[str, int] = {}
        self._notice_at: dict[str, float] = {}
        self._button_tokens = float(self.config.button_burst)
        self._button_at: float | None = None

    @property
    def talking(self) -> bool:
        """Buddy speaks (face/state `talking`). The board's mouth also moves for the
        300 ms hold after; that wall-clock detail stays out of face/state so a replay
        at sim speed sees the same sequence of states (docs/REPLAY.md)."""
        return self.talking_ctl.speaking

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
            self._send_flags(now)
        self.flush(now)
        return True

    def on_talking(self, talking: bool, now: float) -> None:
        self.talking_ctl.on_speaking(talking, now)
        self._send_talking_if_due(now)

    def on_speech_text(self, text: str, now: float) -> None:
        self.talking_ctl.on_text(text, now)

    def on_speech_energy(self, level: float, now: float) -> bool:
        """tts/energy: loudness in [0, 1]; out of range is clamped, NaN refused."""
        if math.isnan(level):
            self.counters.reject("tts_energy")
            return False
        self.talking_ctl.on_energy(min(1.0, max(0.0, level)), now)
        return True

    def on_gesture(self, gesture_id: int, duration_ms: int, now: float) -> bool:
        if not 0 <= gesture_id <= 12 or not 0 <= duration_ms <= 0xFFFF:
            self.counters.reject("gesture")
            return False
        if not self.active or not self.link.send(GestureCmd(gesture_id, duration_ms), now):
            self.counters.gestures_dropped += 1  # a one-shot: not replayed later
            return False
        self.counters.gestures_sent += 1
        return True

    def on_system_event(self, kind: int, battery_pct: float, now: float) -> bool:
        """Raises nothing: a NaN battery level refuses the event (counted); a level
        outside 0-100 % is clamped (counted)."""
        try:
            mode = system_mode_for(kind, battery_pct)
        except ValueError:
            self.counters.reject("battery_level")
            return False
        if kind in (SYS_LOW_BATTERY, SYS_CRITICAL_BATTERY) and not 0.0 <= battery_pct <= 100.0:
            self.counters.battery_clamped += 1
        if mode is not None and mode != self.system:
            self.system = mode
            self._send_system(now)
        return True

    def set_brightness(self, brightness: int, now: float) -> None:
        self.config.brightness = brightness
        self.flush(now)

    # --- output --------------------------------------------------------------------------

    def wire_state(self) -> SetState | None:
        """The SET_STATE for what is shown now (None before the first decide)."""
        if self.shown is None:
            return None
        mood = board_rules.wire_mood(self.shown.mood)
        gaze_x, gaze_y = board_rules.GAZE_BY_CONV_STATE.get(self.conv_state, (0, 0))
        return SetState(
            mood_id=MOOD_IDS[mood],
            intensity=intensity_to_wire(self.shown.intensity),
            gaze_x=gaze_x, gaze_y=gaze_y,
            brightness=self.config.brightness,
        )

    def flush(self, now: float) -> bool:
        """Send SET_STATE if the shown face changed or a keepalive is due; play the
        stand-in gesture of a mood the firmware cannot show when it is due."""
        self.shown = self.policy.decide(now)
        if not self.active or not self.link.connected:
            return False
        self._stand_in_gesture(now)
        state = self.wire_state()
        assert state is not None
        if not self.keepalive.due(state, now):
            return False
        return self._send_state(state, now)

    def _send_state(self, state: SetState, now: float) -> bool:
        is_keepalive = self.keepalive.is_repeat(state)
        if not self.link.send(state, now):
            return False
        self.keepalive.mark_sent(state, now)
        self.last_sent_state = state
        self.counters.set_state_sent += 1
        self.counters.keepalives_sent += int(is_keepalive)
        self._expect(now)
        return True

    def _stand_in_gesture(self, now: float) -> None:
        assert self.shown is not None
        stand_in = board_rules.STAND_INS.get(self.shown.mood)
        if stand_in is None:
            self._stand_in_mood, self._stand_in_next = None, None
            return
        if self._stand_in_mood != self.shown.mood:   # entry
            self._stand_in_mood, self._stand_in_next = self.shown.mood, now
        if self._stand_in_next is not None and now >= self._stand_in_next:
            if self.link.send(GestureCmd(stand_in.gesture, 0), now):
                self.counters.stand_in_gestures += 1
            self._stand_in_next = now + stand_in.repeat_s

    def tick(self, now: float) -> TickOutput:
        """Poll the link (reader-thread bytes), handle board packets, keepalive, the
        talking refresh, read-back resends and time sync."""
        result = self.link.poll(now)
        self._note_renegotiation()
        if result.connected_now:
            self._on_link_up(now)
        buttons: list[ButtonEvent] = []
        touches: list[TouchEvent] = []
        status_changed = False
        board_active = result.connected_now
        for packet in result.packets:
            reason = self.resets.on_sequence(packet.seq, packet.version)
            payload = packet.payload
            if isinstance(payload, Heartbeat):
                self.last_heartbeat = payload
                reason = self.resets.on_heartbeat(payload.uptime_ms) or reason
            elif isinstance(payload, ButtonEvent):
                if self._button_allowed(now):
                    buttons.append(payload)
                board_active = True
            elif isinstance(payload, TouchEvent):
                touches.append(payload)
                board_active = True
            elif isinstance(payload, FaceStatus):
                changed = self.last_status is None or _visible(payload) != _visible(
                    self.last_status)
                status_changed |= changed
                board_active |= changed
                self.last_status = payload
                self.readback.on_status(payload, now)
            elif isinstance(payload, TimeSyncResp):
                self.time_sync.on_response(payload.ping_seq, payload.t_src_us, now)
            if reason is not None:
                self.link.renegotiate(now, reason)
                self._note_renegotiation()
                board_active = True
                break   # what follows came from a board that is being renegotiated
        self._note_drops(now)
        self.flush(now)
        if self.active and self.link.connected:
            self._resend_disagreements(now)
            self._send_talking_if_due(now)
            self._time_sync_if_due(now)
        return TickOutput(buttons, touches, status_changed, board_active)

    def next_deadline(self, now: float) -> float | None:
        """The next time `tick` has work that no input and no board byte announces:
        the link's timers (reopen backoff, negotiation, heartbeat silence), the
        keepalive (DESIGN §4.4: SET_STATE at least once a second), the shown face
        changing by the clock (spec 002 §11.3 staleness, §9.1 duration caps), the
        talking refresh, a stand-in gesture, a read-back disagreement coming due, the
        next time sync ping. Ticking at that time and on every board byte does all that
        a fixed-rate tick does. None: nothing is pending."""
        times = [self.link.next_deadline(now), self.policy.next_change_at(now)]
        if self.active and self.link.connected:
            due = self.keepalive.next_due_at()
            times.append(now if due is None else due)
            times += [self.talking_ctl.next_due_at(), self._stand_in_next,
                      self.readback.next_check_at()]
            if self.link.version == 2 and self.config.time_sync:
                times.append(self.time_sync.next_due_at())
        return min((t for t in times if t is not None), default=None)

    # --- link and board events ----------------------------------------------------------

    def _on_link_up(self, now: float) -> None:
        """After (re)negotiation the board knows nothing: tell it everything again."""
        self.readback.reset()
        self.resets.reset()
        self.last_status = None
        if self.link.version == 2 and self.config.time_sync:
            self.time_sync.start(now)
        else:
            self.time_sync.stop()
        if self.active:
            self._resend_all(now)

    def _notice_due(self, cause: str, now: float) -> bool:
        last = self._notice_at.get(cause)
        if last is not None and now - last < self.config.notice_every_s:
            return False
        self._notice_at[cause] = now
        return True

    def _note_drops(self, now: float) -> None:
        """DESIGN §1.5: frames the link dropped (garbage, bad CRC, oversize) are counted
        by the link and said in a log line, one per cause at most every 10 s."""
        for cause, n in self.link.counters.drops.as_dict().items():
            if cause == "malformed_payload":   # also a sign of a reset: reported there
                continue
            new = n - self._drops_reported.get(cause, 0)
            if new > 0 and self._notice_due(f"drop_{cause}", now):
                self._drops_reported[cause] = n
                self.notices.append(("warning", f"face board link: {new} frame(s) dropped "
                                     f"({cause}; {n} in all, diagnostics drop_{cause})"))

    def _button_allowed(self, now: float) -> bool:
        """A token bucket: `button_burst` events, refilled at `button_rate_hz`."""
        cfg = self.config
        if self._button_at is not None:
            self._button_tokens = min(float(cfg.button_burst), self._button_tokens + (
                now - self._button_at) * cfg.button_rate_hz)
        self._button_at = now
        if self._button_tokens >= 1.0:
            self._button_tokens -= 1.0
            return True
        self.counters.buttons_flood_dropped += 1
        if self._notice_due("button_flood", now):
            self.notices.append(("warning", "face board button flood: more than "
                                 f"{cfg.button_rate_hz:g} events a second; the extra ones "
                                 "are dropped (diagnostics buttons_flood_dropped)"))
        return False

    def _note_renegotiation(self) -> None:
        """Count and report each board reset the link or the detector noticed."""
        seen = self.link.counters.renegotiations
        if seen != self._renegotiations_seen:
            self.counters.board_resets += seen - self._renegotiations_seen
            self._renegotiations_seen = seen
            self.notices.append(("warning", f"face board reset ({self.link.last_reset_reason}"
                                            "): negotiating again and resending the face"))

    def _resend_all(self, now: float) -> None:
        self.keepalive.reset()
        self._stand_in_mood = None     # the stand-in gesture plays again on entry
        self._send_flags(now, force=True)
        self._send_conv_state(now)
        self._send_system(now)
        self.talking_ctl.reset_link(now)
        self._send_talking_if_due(now)
        self.flush(now)

    def _resend_disagreements(self, now: float) -> None:
        for channel in self.readback.check(now):
            self.counters.status_resends += 1
            if channel is Channel.MOOD and self.last_sent_state is not None:
                self._send_state(self.last_sent_state, now)
            elif channel is Channel.TALKING:
                self.talking_ctl.reset_link(now)
                self._send_talking_if_due(now)
            elif channel is Channel.SYSTEM:
                self._send_system(now)

    def _expect(self, now: float) -> None:
        state = self.last_sent_state
        self.readback.expect(Expected(
            mood_id=None if state is None else state.mood_id,
            talking=self.talking_ctl.sent_talking if self.talking_ctl.counters.frames else None,
            system_mode=self.system[0],
        ), now)

    def _send_conv_state(self, now: float) -> None:
        if self.active:
            self.link.send(SetConvState(self.conv_state), now)

    def _send_flags(self, now: float, force: bool = False) -> None:
        flags = board_rules.FLAGS_BY_CONV_STATE.get(self.conv_state)
        if flags is None:
            flags = self.flags    # ERROR: unchanged
        if not self.active or (flags == self.flags and not force):
            self.flags = flags
            return
        if self.link.send(SetFlags(flags), now):
            self.flags = flags
            self.counters.flags_sent += 1

    def _send_talking_if_due(self, now: float) -> None:
        if not self.active or not self.link.connected:
            return
        frame = self.talking_ctl.due(now)
        if frame is not None and self.link.send(frame, now):
            self.talking_ctl.sent(frame, now)
            self._expect(now)

    def _send_system(self, now: float) -> None:
        if self.active:
            self.link.send(SetSystem(mode=self.system[0], param=self.system[1]), now)
            self._expect(now)

    def _time_sync_if_due(self, now: float) -> None:
        if self.link.version != 2 or not self.config.time_sync:
            return
        ping = self.time_sync.due(now, early_s=TIME_SYNC_EARLY_S)
        if ping is not None:
            self.link.send(TimeSyncReq(ping), now)

    def activate(self, now: float) -> None:
        """Lifecycle activate: start driving the face; send the whole state now."""
        self.active = True
        if self.link.connected:
            self._on_link_up(now)
        self.flush(now)

    def deactivate(self) -> None:
        self.active = False

    # --- reporting -----------------------------------------------------------------------

    def board_mood(self) -> str | None:
        """The mood the board reports it shows (FACE_STATUS), None before any report."""
        if self.last_status is None or not self.link.connected:
            return None
        return MOOD_NAMES.get(self.last_status.mood_id)

    def shown_mood(self, now: float) -> str | None:
        """The mood on the board: what was sent (a stand-in for a mood the firmware
        cannot show), unless the board has reported another one for longer than the
        read-back hold (then that one, until the resend takes). None before a decision.
        Not the raw report, which trails every change by up to a status cycle."""
        state = self.wire_state()
        if state is None:
            return None
        reported = self.board_mood()
        if reported is not None and self.readback.disagrees(Channel.MOOD, now):
            return reported
        return MOOD_NAMES[state.mood_id]

    def diagnostics(self, now: float) -> dict[str, str]:
        return driver_diagnostics(self, now)


def _visible(status: FaceStatus) -> tuple[int, int, int, int]:
    """The FACE_STATUS fields that say what the face shows (the v2 fields change with
    every command and every drawn frame)."""
    return status.mood_id, status.active_gesture, status.system_mode, status.flags
