"""face_driver lifecycle node (DESIGN §4.4): the face board over its serial protocol.

A thin layer around `buddy_personality.face.driver.FaceDriverCore`:

- configure: open the port (`port`: a path, `auto`, or `sim` for an in-process
  simulated board) and negotiate protocol v2 (v1 on older firmware), waiting at most
  the negotiation timeout. A missing port is not a failure: the core keeps retrying
  with backoff and diagnostics say why.
- activate: the face is driven: the whole state is sent and a 50 Hz tick starts
  (link poll, keepalive, backstop timing, board telemetry). A new snapshot, phase,
  AI emotion, gesture or talking state is sent at once from its callback, not at the
  next tick.
- Idle: once the board has said nothing but heartbeats for `idle_hold_s`, the fixed
  50 Hz tick pauses (issue 8: idle CPU): the tick timer is set to the core's next
  deadline instead (keepalive, spec 002 §11.3 staleness, §9.1 duration caps, link
  backoff / negotiation / silence, the 1 Hz face/state republish), and the port's
  reader thread wakes the node through a guard condition when the board sends
  anything. Both are exactly when a fixed-rate tick would have found work, so nothing
  is late by more than a timer's latency; board traffic other than heartbeats resumes
  the 50 Hz tick (nodes/face_driver/pacing.py).
- deactivate stops the tick; cleanup closes the port.

Serial reads run on the port's reader thread (`face.transport.ThreadedPort`); the
executor thread only writes (a few dozen bytes, with a write timeout) and drains the
reader's buffer in the tick.

Time: the core runs on the steady clock, not the ROS clock. The link is hardware
real-time (keepalive to the firmware, heartbeat silence, backoff, the host
`t_src_us` that the protocol defines as a monotonic clock), and snapshot age is
measured on arrival, so sim time (a paused or fast replay) must not stretch it.

Speech: tts/speaking starts and ends the mouth; tts/energy (std_msgs/Float32, loudness
in [0, 1]) is its SET_TALKING energy while fresh, else an envelope made from the line
on tts/say (face/talking.py). The core refreshes SET_TALKING every 50 ms while Buddy
speaks (the firmware stops the mouth 450 ms after the last one).

Logs: one line when the face link goes down (with the reason) and one when it is back;
one per board reset detected.

Topics: subscribes personality/snapshot and conversation/phase (latched),
personality/ai_emotion (backstop only), face/gesture, tts/speaking, tts/energy, tts/say,
system/events; publishes face/state (latched; on change and about once a second: `mood`
is what the board reports it shows, `mood_meant` what Buddy means), face/button,
face/touch and /diagnostics.
"""

from __future__ import annotations

import gc
import time
from typing import Any

from rclpy.clock import Clock, ClockType
from rclpy.lifecycle import LifecycleNode, LifecycleState, TransitionCallbackReturn
from rclpy.parameter import Parameter
from std_msgs.msg import Bool, Float32

from buddy_msgs.msg import (
    AiEmotion,
    ButtonEvent,
    ConversationPhase,
    FaceState,
    Gesture,
    PersonalitySnapshot,
    Say,
    SystemEvent,
    TouchEvent,
)
from buddy_personality.face.board_news import BoardNews
from buddy_personality.face.driver import DriverConfig, FaceDriverCore
from buddy_personality.face.link import LinkConfig, LinkManager, LinkState, Port
from buddy_personality.face.policy import BackstopConfig, FacePolicy
from buddy_personality.face.protocol import MOOD_IDS
from buddy_personality.face.sim_board import SimBoardDevice
from buddy_personality.face.transport import SerialTransport, ThreadedPort, find_board_port
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.diagnostics import OK, WARN, DiagnosticsPublisher, Health
from buddy_personality.nodes.common.inbound import InboundChecks
from buddy_personality.nodes.common.parameters import declare_parameters
from buddy_personality.nodes.common.rejections import RejectionLog
from buddy_personality.nodes.common.runtime import ClosesOwnResources, run_node
from buddy_personality.nodes.face_driver.pacing import FACE_STATE_PERIOD_S, TickPacing
from buddy_personality.nodes.face_driver.parameters import PARAMETERS

__all__ = ["PARAMETERS", "FaceDriverNode", "main"]

STRING_MAX = 64            # DESIGN §5: oversize strings are truncated


class FaceDriverNode(TickPacing, InboundChecks, ClosesOwnResources, LifecycleNode):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("face_driver", **node_kwargs)
        self.params = declare_parameters(self, PARAMETERS)
        self._steady = Clock(clock_type=ClockType.STEADY_TIME)
        self._rejections = RejectionLog(self.get_logger().warning)
        self.core: FaceDriverCore | None = None
        self.sim_device: SimBoardDevice | None = None  # port 'sim' (tests poke it)
        self._lifecycle_label = "unconfigured"
        self._subs: list[Any] = []
        self._pubs: list[Any] = []
        self._timer: Any = None
        self._last_face_key: tuple | None = None
        self._last_face_pub = 0.0
        self._last_tick: float | None = None    # last fixed-rate tick; None while paused
        # Pausing the tick when idle (module docstring). `_paused` and `_board_data` are
        # shared with the port's reader thread (plain flags; see _on_board_data).
        self._paused = False
        self._board_data = False
        self._last_busy = 0.0
        self._wake_at = 0.0           # when the paused tick timer fires next
        self.ticks = 0                # ticks run (tests, benchmarks)
        self._tick_late_max = 0.0     # since the last diagnostics (seconds)
        self._link_reported: bool | None = None   # last link state logged
        self._news = BoardNews()   # used on the port's reader thread only
        self._board_wake = self.create_guard_condition(self._on_board_wake)
        # Runs after declare_parameters' validation callback accepted the change.
        self.add_post_set_parameters_callback(self._on_post_set_parameters)
        self._diagnostics = DiagnosticsPublisher(self, self._health)
        if self.params["autostart"]:
            self.trigger_configure()
            self.trigger_activate()

    def now(self) -> float:
        return self._steady.now().nanoseconds * 1e-9

    # --- lifecycle -----------------------------------------------------------------------

    def on_configure(self, state: LifecycleState) -> TransitionCallbackReturn:
        p = {name: self.get_parameter(name).value for name in self.params}
        link = LinkManager(
            self._opener(str(p["port"]), int(p["baud"])),
            LinkConfig(
                want_version=int(p["protocol_version"]),
                negotiation_timeout_s=float(p["negotiation_timeout_s"]),
                silence_timeout_s=float(p["silence_timeout_s"]),
                backoff_initial_s=float(p["backoff_initial_s"]),
                backoff_max_s=float(p["backoff_max_s"]),
            ),
        )
        policy = FacePolicy(BackstopConfig(
            stale_after_s=float(p["stale_after_s"]),
            attentive_intensity=float(p["attentive_intensity"]),
        ))
        # Margin (two ticks, at least 0.1 s) so that a late tick still keeps the gap
        # between two SET_STATEs under keepalive_s ("at least once a second").
        margin = max(2.0 / float(p["tick_hz"]), 0.1)
        keepalive = max(0.01, float(p["keepalive_s"]) - margin)
        self.core = FaceDriverCore(link, policy, DriverConfig(
            brightness=int(p["brightness"]), keepalive_period_s=keepalive,
        ))
        self._negotiate(link, float(p["negotiation_timeout_s"]))

        self._pubs = [
            self.create_lifecycle_publisher(FaceState, "face/state", qos.of("face/state")),
            self.create_lifecycle_publisher(ButtonEvent, "face/button", qos.of("face/button")),
            self.create_lifecycle_publisher(TouchEvent, "face/touch", qos.of("face/touch")),
        ]
        self._state_pub, self._button_pub, self._touch_pub = self._pubs
        self._subs = [
            self.create_subscription(PersonalitySnapshot, "personality/snapshot",
                                     self._on_snapshot, qos.of("personality/snapshot")),
            self.create_subscription(AiEmotion, "personality/ai_emotion",
                                     self._on_ai_emotion, qos.of("personality/ai_emotion")),
            self.create_subscription(ConversationPhase, "conversation/phase",
                                     self._on_phase, qos.of("conversation/phase")),
            self.create_subscription(Gesture, "face/gesture", self._on_gesture,
                                     qos.of("face/gesture")),
            self.create_subscription(Bool, "tts/speaking", self._on_speaking,
                                     qos.of("tts/speaking")),
            self.create_subscription(Float32, "tts/energy", self._on_energy, qos.of("tts/energy")),
            self.create_subscription(Say, "tts/say", self._on_say, qos.of("tts/say")),
            self.create_subscription(SystemEvent, "system/events", self._on_system,
                                     qos.of("system/events")),
        ]
        # Latency: move everything allocated so far (rclpy, message types, this node)
        # out of the collector's reach. A full collection would otherwise scan ~40k
        # long-lived objects (~25 ms here) inside the 50 Hz loop. Process-wide, and
        # harmless: these objects live as long as the process anyway.
        gc.freeze()
        self._lifecycle_label = "inactive"
        return TransitionCallbackReturn.SUCCESS

    def _opener(self, port: str, baud: int):
        if port == "sim":
            self.sim_device = SimBoardDevice()
            device = self.sim_device

            def open_sim() -> Port:
                transport = device.open()
                self._news = BoardNews()   # a new port: a new frame stream
                return ThreadedPort(transport, on_data=self._on_board_data)

            return open_sim

        def open_serial() -> Port:
            path = find_board_port() if port == "auto" else port
            transport = SerialTransport(path, baud)
            self._news = BoardNews()
            return ThreadedPort(transport, on_data=self._on_board_data)

        return open_serial

    def _negotiate(self, link: LinkManager, timeout_s: float) -> None:
        """Open and negotiate now, waiting at most the negotiation timeout (plus a
        little): configure reports a link that is up, or the reason it is not."""
        deadline = time.monotonic() + timeout_s + 0.1
        link.poll(self.now())
        while link.state == LinkState.NEGOTIATING and time.monotonic() < deadline:
            time.sleep(0.002)  # the reader thread is filling the port's buffer
            link.poll(self.now())
        self._report_link(link)

    def on_activate(self, state: LifecycleState) -> TransitionCallbackReturn:
        assert self.core is not None
        result = super().on_activate(state)  # activates the lifecycle publishers
        now = self.now()
        self.core.activate(now)
        self._last_tick = None
        self._paused = False
        self._last_busy = now
        self._timer = self.create_timer(1.0 / float(self.params["tick_hz"]), self._on_timer,
                                        clock=self._steady)
        self._lifecycle_label = "active"
        self._publish_state(force=True)
        return result

    def on_deactivate(self, state: LifecycleState) -> TransitionCallbackReturn:
        if self._timer is not None:
            self.destroy_timer(self._timer)
            self._timer = None
        self._paused = False
        if self.core is not None:
            self.core.deactivate()
        self._lifecycle_label = "inactive"
        return super().on_deactivate(state)

    def on_cleanup(self, state: LifecycleState) -> TransitionCallbackReturn:
        self._teardown()
        self._lifecycle_label = "unconfigured"
        return TransitionCallbackReturn.SUCCESS

    def on_shutdown(self, state: LifecycleState) -> TransitionCallbackReturn:
        self._teardown()
        self._lifecycle_label = "finalized"
        return TransitionCallbackReturn.SUCCESS

    def _teardown(self) -> None:
        self._paused = False  # the reader thread stops waking us
        if self._timer is not None:
            self.destroy_timer(self._timer)
            self._timer = None
        for sub in self._subs:
            self.destroy_subscription(sub)
        for pub in self._pubs:
            self.destroy_lifecycle_publisher(pub)
        self._subs, self._pubs = [], []
        if self.core is not None:
            self.core.link.close()
            self.core = None

    def _close_own(self) -> None:
        """Stop the reader thread and close the port (ClosesOwnResources); the DDS
        entities are left to destroy_node."""
        self._paused = False
        if self.core is not None:
            self.core.link.close()

    def destroy_node(self) -> None:
        self._teardown()  # the lifecycle's own entities too; then close and destroy
        super().destroy_node()

    # --- inputs (event-driven: the core sends at once) ---------------------------------

    def _on_snapshot(self, msg: PersonalitySnapshot) -> None:
        if self.core is None:
            return
        if not self.core.on_snapshot(msg.mood[:STRING_MAX], msg.intensity, self.now()):
            self._rejections.reject("snapshot", f"mood {msg.mood[:STRING_MAX]!r}, "
                                    f"intensity {msg.intensity}")
        self._after_input()

    def _on_ai_emotion(self, msg: AiEmotion) -> None:
        if self.core is None:
            return
        if not self.core.on_ai_emotion(msg.emotion[:STRING_MAX], msg.intensity, self.now()):
            self._rejections.reject("ai_emotion", f"emotion {msg.emotion[:STRING_MAX]!r}, "
                                    f"intensity {msg.intensity}")
        self._after_input()

    def _on_phase(self, msg: ConversationPhase) -> None:
        if self.core is None:
            return
        if not self.core.on_phase(int(msg.phase), self.now()):
            self._rejections.reject("phase", f"phase {msg.phase}")
        self._after_input()

    def _on_gesture(self, msg: Gesture) -> None:
        if self.core is None:
            return
        if not 0 <= msg.gesture_id <= Gesture.WIGGLE:
            self._rejections.reject("gesture", f"gesture_id {msg.gesture_id}")
            return
        self.core.on_gesture(int(msg.gesture_id), int(msg.duration_ms), self.now())
        self._after_input()

    def _on_speaking(self, msg: Bool) -> None:
        if self.core is not None:
            self.core.on_talking(bool(msg.data), self.now())
            self._after_input()

    def _on_energy(self, msg: Float32) -> None:
        if self.core is not None and not self.core.on_speech_energy(float(msg.data), self.now()):
            self._rejections.reject("tts_energy", f"level {msg.data}")

    def _on_say(self, msg: Say) -> None:
        if self.core is not None:
            self.core.on_speech_text(msg.text[:1000], self.now())

    def _on_system(self, msg: SystemEvent) -> None:
        if self.core is None:
            return
        if msg.kind > SystemEvent.BIRTHDAY_GREETING:
            self._rejections.reject("system_event", f"kind {msg.kind}")
            return
        # issue 19: the battery level is clamped to 0-100 % at this boundary (counted in
        # diagnostics as battery_clamped); NaN or infinite refuses the event.
        if not self.core.on_system_event(int(msg.kind), float(msg.battery_pct), self.now()):
            self._rejections.reject("system_event", f"battery_pct {msg.battery_pct}")
        elif msg.kind in (SystemEvent.LOW_BATTERY, SystemEvent.CRITICAL_BATTERY) and not (
                0.0 <= msg.battery_pct <= 100.0):
            self.get_logger().warning(
                f"battery level {msg.battery_pct} % is outside 0-100 %: shown clamped "
                "(diagnostics battery_clamped)", throttle_duration_sec=10.0)
        self._after_input()

    # --- tick (its pacing: nodes/face_driver/pacing.py) ---------------------------------

    def _tick(self, fixed_rate: bool = True) -> None:
        if self.core is None:
            return
        now = self.now()
        self.ticks += 1
        if fixed_rate:
            self._last_tick = now
        self._board_data = False
        out = self.core.tick(now)
        self._report_link(self.core.link)
        stamp = self.get_clock().now().to_msg()
        for button in out.buttons:
            msg = ButtonEvent(button_id=button.button_id, event_type=button.event_type,
                              state=button.state)
            msg.header.stamp = stamp
            self._button_pub.publish(msg)
        for touch in out.touches:
            msg = TouchEvent(event_type=touch.event_type, x=touch.x, y=touch.y)
            msg.header.stamp = stamp
            self._touch_pub.publish(msg)
        self._publish_state()
        if out.board_active:
            self._last_busy = now
        self._schedule(now)

    def _publish_state(self, force: bool = False,
                       republish_after_s: float = FACE_STATE_PERIOD_S) -> None:
        core = self.core
        if core is None or core.shown is None or not self._pubs:
            return
        now = self.now()
        link = core.link
        shown = core.shown
        board_mood = core.shown_mood(now) or shown.mood
        key = (shown.mood, board_mood, round(shown.intensity, 3), core.conv_state,
               core.talking, link.connected, link.version, shown.backstop_active,
               link.port_name)
        if not force and key == self._last_face_key and (
                now - self._last_face_pub < republish_after_s):
            return
        self._last_face_key, self._last_face_pub = key, now
        age = core.policy.snapshot_age(now)
        msg = FaceState(
            mood=board_mood, mood_id=MOOD_IDS.get(board_mood, 0), mood_meant=shown.mood,
            intensity=float(shown.intensity),
            conv_state=core.conv_state, talking=core.talking, connected=link.connected,
            protocol_version=link.version, backstop_active=shown.backstop_active,
            snapshot_age_s=-1.0 if age is None else age, port=link.port_name,
        )
        msg.header.stamp = self.get_clock().now().to_msg()
        self._state_pub.publish(msg)

    def _report_link(self, link: LinkManager) -> None:
        """One log line per transition of the face link (down with its reason, back up),
        and one per board reset the core noticed."""
        core = self.core
        if core is not None:
            for level, line in core.notices:
                getattr(self.get_logger(), level)(line)
            core.notices.clear()
        if link.connected and self._link_reported is not True:
            self._link_reported = True
            self.get_logger().info(
                f"face board link up on {link.port_name}: protocol v{link.version}")
        elif link.state == LinkState.DISCONNECTED and self._link_reported is not False:
            self._link_reported = False
            self.get_logger().warning(
                f"face board link down: {link.last_error or 'not connected'}; "
                "retrying with backoff")

    def _on_post_set_parameters(self, params: list[Parameter]) -> None:
        for param in params:
            if param.name == "brightness" and self.core is not None:
                self.core.set_brightness(int(param.value), self.now())
                self._after_input()

    def _health(self) -> Health:
        core = self.core
        values: dict[str, str] = {"lifecycle": self._lifecycle_label,
                                  # which executor spins this node (benchmarks report it)
                                  "executor": type(self.executor).__name__,
                                  "tick_late_max_ms": f"{self._tick_late_max * 1000:.1f}"}
        self._tick_late_max = 0.0
        values.update(self._rejections.as_values())
        if core is None:
            return Health(WARN, f"not configured ({self._lifecycle_label})", values)
        values.update(core.diagnostics(self.now()))
        link = core.link
        if not link.connected:
            return Health(WARN, f"face board not connected: {link.last_error}", values)
        if core.policy.is_stale(self.now()):
            return Health(WARN, "snapshot stale: backstop active", values)
        return Health(OK, f"face board v{link.version} on {link.port_name}", values)


def main(args: list[str] | None = None) -> int:
    return run_node(FaceDriverNode, args)
