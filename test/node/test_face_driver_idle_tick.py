"""face_driver over DDS: the 50 Hz tick pauses while the board only sends heartbeats
(issue 8, idle CPU) without losing what the tick is for: the keepalive (DESIGN §4.4,
at least once a second), the backstop after 3000 ms (spec 002 §11.3) and board
telemetry, which wakes a paused tick at once and resumes the fixed rate."""

from __future__ import annotations

import itertools
import time

import pytest
from rclpy.parameter import Parameter

from buddy_msgs.msg import ButtonEvent, FaceState, PersonalitySnapshot
from buddy_personality.face.protocol import PacketType
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.face_driver_node import FaceDriverNode

pytestmark = pytest.mark.ros


def start(ros, **params) -> FaceDriverNode:
    overrides = [Parameter("port", value="sim")]
    overrides += [Parameter(k, value=v) for k, v in params.items()]
    return ros.add(FaceDriverNode(**ros.node_kwargs(parameter_overrides=overrides)))


def ticks_during(ros, node: FaceDriverNode, seconds: float) -> int:
    before = node.ticks
    ros.spin_for(seconds)
    return node.ticks - before


def set_state_times(node: FaceDriverNode, mood_id: int) -> list[float]:
    """Arrival times at the board of the SET_STATEs showing `mood_id`."""
    assert node.sim_device is not None
    board = node.sim_device.board
    return [at for p, at in zip(list(board.received), list(board.received_at), strict=False)
            if p.type_id == PacketType.SET_STATE and p.payload.mood_id == mood_id]


def test_idle_pauses_the_tick_but_keeps_the_keepalive_and_the_3_s_backstop(ros) -> None:
    node = start(ros, idle_hold_s=0.3)
    states = ros.collect(FaceState, "face/state", qos.LATCHED)
    snaps = ros.publisher(PersonalitySnapshot, "personality/snapshot", qos.LATCHED)
    snaps.publish(PersonalitySnapshot(mood="happy", intensity=0.8))
    assert ros.spin_until(lambda: states and states[-1].mood == "happy")
    ros.spin_for(0.5)   # the board acknowledged the change; then only heartbeats
    # Paused: a few wake-ups a second (keepalive, heartbeat, face/state) instead of 50.
    assert ticks_during(ros, node, 1.5) <= 12
    # spec 002 §11.3 while paused: the backstop starts after 3000 ms, at its own
    # deadline, not at the next keepalive (up to a second later). The node spins in this
    # test's process, which a loaded machine starves (a fresh clone with three workers saw
    # 3.45 s): erratum 22's margin for a loaded machine, 0.5 s; the driver's own timing
    # in its own process is test_face_driver_stall's (3.0-3.3 s) and benchmarks/face_latency.py's.
    assert ros.spin_until(lambda: states[-1].backstop_active, timeout=4.5)
    happy_at = next(i for i, s in enumerate(states) if s.mood == "happy")
    first_stale = next(s for s in states[happy_at:] if s.backstop_active)
    assert 3.0 < first_stale.snapshot_age_s <= 3.0 + 0.5
    assert (first_stale.mood, first_stale.intensity) == ("neutral", pytest.approx(0.2))
    # DESIGN §4.4 while paused: the unchanged face (happy, mood 1) was re-sent at
    # least once a second until the backstop, and not at every tick.
    times = set_state_times(node, mood_id=1)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len(times) >= 4
    assert max(gaps) <= 1.0 + 0.3    # this process starved on a loaded machine (above)
    assert min(gaps) >= 0.8


def test_a_button_on_a_paused_tick_is_published_at_once_and_resumes_50_hz(ros) -> None:
    node = start(ros, idle_hold_s=0.3)
    buttons = ros.collect(ButtonEvent, "face/button")
    states = ros.collect(FaceState, "face/state", qos.LATCHED)
    assert ros.spin_until(lambda: states and states[-1].connected)
    ros.spin_for(0.6)
    assert ticks_during(ros, node, 1.0) <= 8   # paused
    assert node.sim_device is not None
    pressed_at = time.monotonic()
    node.sim_device.press_button(ButtonEvent.BUTTON_PTT, ButtonEvent.CLICK, 1)
    assert ros.spin_until(lambda: buttons, timeout=2.0)
    # Woken by the reader thread, not by the next keepalive (up to 0.9 s away).
    assert time.monotonic() - pressed_at < 0.3
    b = buttons[0]
    assert (b.button_id, b.event_type, b.state) == (0, 3, 1)
    # The board is busy: the fixed 50 Hz tick is back for the hold time (15 at 50 Hz).
    assert ticks_during(ros, node, 0.25) >= 6


def test_idle_hold_0_keeps_the_fixed_50_hz_tick(ros) -> None:
    node = start(ros, idle_hold_s=0.0)
    states = ros.collect(FaceState, "face/state", qos.LATCHED)
    assert ros.spin_until(lambda: states and states[-1].connected)
    ros.spin_for(0.6)
    assert ticks_during(ros, node, 1.0) >= 35   # 50 at 50 Hz, less on a loaded machine
