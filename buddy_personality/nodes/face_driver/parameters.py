"""The face_driver node's parameters (ParamSpecs; config/robot.yaml is checked against
this table)."""

from __future__ import annotations

from buddy_personality.nodes.common.parameters import ParamSpec

PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("autostart", True, "configure and activate on start, so ros2 run works alone",
              read_only=True),
    ParamSpec("port", "sim", "serial port path, 'auto' to find the board, 'sim' for an "
              "in-process simulated board (read at configure)"),
    ParamSpec("baud", 115200, "serial baud rate (USB CDC ignores it)", min=1200, max=4000000),
    ParamSpec("tick_hz", 50.0, "face tick rate", min=1.0, max=200.0, read_only=True),
    ParamSpec("stale_after_s", 3.0, "snapshot age that starts the backstop (spec 002 §11.3)",
              min=0.1, max=60.0),
    ParamSpec("keepalive_s", 1.0, "SET_STATE at least this often (DESIGN §4.4)",
              min=0.05, max=10.0),
    ParamSpec("protocol_version", 2, "protocol version to negotiate (face-protocol.md)",
              min=1, max=2),
    ParamSpec("negotiation_timeout_s", 0.5, "no ACK within this: stay on v1 (old firmware)",
              min=0.05, max=5.0),
    ParamSpec("silence_timeout_s", 3.0, "no frame from the board this long = link lost "
              "(0 = never)", min=0.0, max=60.0),
    ParamSpec("backoff_initial_s", 0.5, "first reconnect delay, doubled per failure",
              min=0.01, max=60.0),
    ParamSpec("backoff_max_s", 8.0, "longest reconnect delay", min=0.01, max=600.0),
    ParamSpec("brightness", 255, "SET_STATE backlight duty (0 is a dark screen: only if "
              "asked for; the firmware boots at 200); applied at once when changed",
              min=0, max=255),
    ParamSpec("attentive_intensity", 0.5, "intensity of the LISTENING/THINKING face "
              "(spec 002 §11.1)", min=0.0, max=1.0),
    ParamSpec("idle_hold_s", 0.5, "pause the fixed-rate tick once the board has sent "
              "nothing but heartbeats this long; then tick at the next deadline or board "
              "byte (0 = never pause)", min=0.0, max=60.0, read_only=True),
)
