"""The face on the real board, through the deployed process (issue 20): the
`face_driver_node` executable on a pseudo-terminal with the firmware-like board
emulator (face-protocol.md "How the firmware behaves"), driven over DDS from this
process. What the board showed is judged by the firmware's rules, not by what the
driver meant to send."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from std_msgs.msg import Bool
from support.face_rig import FaceExecutableRig

from buddy_msgs.msg import ConversationPhase, FaceState, PersonalitySnapshot, Say, SystemEvent
from buddy_personality.face.protocol import GestureId, Mood, PacketType
from buddy_personality.nodes.common import qos

pytestmark = [pytest.mark.ros, pytest.mark.process, pytest.mark.slow]


@pytest.fixture
def rig(ros, node_process, tmp_path: Path):
    face = FaceExecutableRig(ros, node_process, tmp_path)
    face.wait_connected()
    yield face
    face.close()


def speak(rig: FaceExecutableRig, seconds: float, text: str) -> tuple[float, float]:
    """tts/say then tts/speaking for `seconds`, as the tts node does; (start, end)."""
    ros = rig.ros
    say = ros.publisher(Say, rig.topic("tts/say"))
    speaking = ros.publisher(Bool, rig.topic("tts/speaking"))
    # Discovery is not symmetric: our writer may match the driver's reader before the
    # driver's reader matches it, and the first message then waits for the reliable
    # protocol's repair (0.64 s seen in a loaded fresh-clone run): a delay of discovery,
    # not of the path timed below. So one burst of talking first, until the board saw it
    # start and stop.
    warm = time.monotonic()
    speaking.publish(Bool(data=True))
    assert rig.wait_until(lambda: any(r.packet.payload.talking for r in
                                      rig.of_type(PacketType.SET_TALKING, since=warm)), 10)
    speaking.publish(Bool(data=False))
    quiet = time.monotonic()
    assert rig.wait_until(lambda: rig.talking_stopped_at(quiet) is not None, 10)
    say.publish(Say(text=text))
    start = time.monotonic()
    speaking.publish(Bool(data=True))
    ros.spin_for(seconds)
    end = time.monotonic()
    speaking.publish(Bool(data=False))
    return start, end


def test_the_mouth_moves_for_98_percent_of_a_3_s_utterance_and_stops_within_500_ms(
        rig: FaceExecutableRig) -> None:
    # face-protocol.md: the firmware ends talking 450 ms after the last SET_TALKING;
    # the driver refreshes it while Buddy speaks, holds 300 ms, then stops.
    start, end = speak(rig, 3.0, "Shall we build a tall tower with the red blocks today?")
    rig.ros.spin_for(1.0)
    # From the first SET_TALKING on (the tts/speaking message takes 1-2 ms over DDS on
    # an idle machine, up to ~0.1 s on this loaded one: that delay is DDS's, bounded
    # here on its own), the refresh must keep the mouth moving.
    first = next(r.at for r in rig.of_type(PacketType.SET_TALKING, since=start)
                 if r.packet.payload.talking)
    assert first - start <= 0.25
    assert rig.talking_fraction(first, end) >= 0.98
    stopped = rig.talking_stopped_at(end)
    # the driver holds 300 ms, so 500 ms leaves 200 ms for DDS and two processes; a
    # fresh clone with three workers on 2 cores saw 538 ms (erratum 22's margin for a
    # loaded machine: 0.25 s; the firmware alone would stop 450 ms after the last refresh)
    assert stopped is not None and stopped - end <= 0.5 + 0.25
    frames = [r.packet.payload for r in rig.of_type(PacketType.SET_TALKING, since=start)
              if r.at <= end]
    assert len({f.energy for f in frames}) > 5     # the energy moves with the speech
    assert all(r.packet.version == 1 for r in rig.of_type(PacketType.SET_TALKING))


def test_confused_shows_as_thinking_with_gesture_3(rig: FaceExecutableRig) -> None:
    ros = rig.ros
    states = ros.collect(FaceState, rig.topic("face/state"), qos.LATCHED)
    ros.publisher(ConversationPhase, rig.topic("conversation/phase"), qos.LATCHED).publish(
        ConversationPhase(phase=ConversationPhase.SPEAKING))
    snaps = ros.publisher(PersonalitySnapshot, rig.topic("personality/snapshot"),
                          qos.LATCHED)
    snaps.publish(PersonalitySnapshot(mood="confused", intensity=0.6))
    assert ros.spin_until(lambda: rig.board.face.mood_id == Mood.THINKING)
    ok = ros.spin_until(lambda: states and states[-1].mood_meant == "confused"
                        and states[-1].mood == "thinking")
    assert ok, [(s.mood, s.mood_meant, s.conv_state) for s in states]
    # the gesture plays once the board's 3.7 s boot animation is over: keep the snapshot
    # fresh meanwhile, or the 3 s backstop (spec 002 §11.3) rightly shows NEUTRAL
    played = False
    for _ in range(16):
        snaps.publish(PersonalitySnapshot(mood="confused", intensity=0.6))
        if ros.spin_until(lambda: any(g == GestureId.CONFUSED
                                      for g, _ in rig.board.gestures_played), 0.5):
            played = True
            break
    assert played
    assert rig.board.counters.ignored_moods == 0      # never sent mood 12
    # again 4 s later while it lasts (fresh snapshots keep the 3 s backstop away)
    for i in range(6):
        snaps.publish(PersonalitySnapshot(mood="confused", intensity=0.6 + i / 100))
        ros.spin_for(0.8)
    # (played once the board's 3.7 s boot animation is over; sent on entry, then 4 s on)
    sent = [r.at for r in rig.of_type(PacketType.GESTURE)
            if r.packet.payload.gesture_id == GestureId.CONFUSED]
    assert 3.8 <= sent[1] - sent[0] <= 4.4


def test_a_reset_mid_speech_paints_no_garbage_and_keeps_talking(
        rig: FaceExecutableRig) -> None:
    ros = rig.ros
    snaps = ros.publisher(PersonalitySnapshot, rig.topic("personality/snapshot"),
                          qos.LATCHED)
    say = ros.publisher(Say, rig.topic("tts/say"))
    speaking = ros.publisher(Bool, rig.topic("tts/speaking"))
    say.publish(Say(text="Once upon a time there was a little dragon who loved soup."))
    speaking.publish(Bool(data=True))
    snaps.publish(PersonalitySnapshot(mood="happy", intensity=0.7))
    ros.spin_for(0.8)
    reset_at = rig.reset_board()     # MCU reset, USB kept: the board is back on v1
    for i, mood in enumerate(("excited", "love", "silly", "curious", "happy")):
        snaps.publish(PersonalitySnapshot(mood=mood, intensity=0.5 + i / 20))
        ros.spin_for(0.3)
    end = time.monotonic()
    speaking.publish(Bool(data=False))
    after = rig.of_type(PacketType.SET_STATE, since=reset_at)
    # every SET_STATE the board applied after the reset is one the driver meant:
    # read as v1 (the envelope it was sent in), full brightness, the moods sent
    assert after and all(r.packet.version == 1 for r in after)
    assert all(r.packet.payload.brightness == 255 for r in after)
    assert {r.packet.payload.mood_id for r in after} <= {
        int(Mood[m.upper()]) for m in ("happy", "excited", "love", "silly", "curious")}
    assert rig.board.version == 2          # negotiated again
    assert rig.board.face.mood_id == Mood.HAPPY
    # the mouth kept moving: the board was told again within a status cycle of its
    # reset (its first v1 FACE_STATUS), then kept talking (the 3.7 s boot animation
    # hides the mouth on the screen meanwhile, but its talking state holds)
    back = next(r.at for r in rig.of_type(PacketType.SET_TALKING, since=reset_at)
                if r.packet.payload.talking)
    assert back - reset_at <= 0.2
    assert rig.talking_fraction(back, end) >= 0.98


def test_no_set_state_ever_sets_brightness_0(rig: FaceExecutableRig) -> None:
    ros = rig.ros
    phases = ros.publisher(ConversationPhase, rig.topic("conversation/phase"), qos.LATCHED)
    snaps = ros.publisher(PersonalitySnapshot, rig.topic("personality/snapshot"),
                          qos.LATCHED)
    for phase in range(8):
        phases.publish(ConversationPhase(phase=phase))
        snaps.publish(PersonalitySnapshot(mood="sleepy", intensity=phase / 8))
        ros.spin_for(0.15)
    rig.reset_board()
    ros.spin_for(0.5)
    states = rig.of_type(PacketType.SET_STATE)
    assert len(states) >= 8
    assert all(r.packet.payload.brightness > 0 for r in states)


def test_a_board_reporting_another_mood_gets_it_resent(rig: FaceExecutableRig) -> None:
    ros = rig.ros
    snaps = ros.publisher(PersonalitySnapshot, rig.topic("personality/snapshot"),
                          qos.LATCHED)
    snaps.publish(PersonalitySnapshot(mood="love", intensity=0.6))
    assert ros.spin_until(lambda: rig.board.face.mood_id == Mood.LOVE)
    ros.spin_for(0.3)
    with rig.runner.lock:
        rig.board.face.mood_id = int(Mood.SAD)   # the board shows something else
    wrong_at = time.monotonic()
    assert ros.spin_until(lambda: rig.board.face.mood_id == Mood.LOVE, timeout=2.0)
    resent = rig.of_type(PacketType.SET_STATE, since=wrong_at)[0]
    # resent after 200 ms of disagreement, well before the next keepalive (0.9 s)
    assert 0.2 <= resent.at - wrong_at <= 0.6


def test_link_down_and_back_are_logged_once_each_with_the_reason(
        rig: FaceExecutableRig) -> None:
    # issue 19: one log line when the face link goes down (with why) and one when it is
    # back, not one per reconnect attempt
    rig.runner.unplug()
    assert rig.wait_until(lambda: "face board link down" in rig.proc.output(), 10.0)
    rig.ros.spin_for(2.0)            # several reconnect attempts meanwhile (backoff)
    rig.runner.plug()
    plugged = time.monotonic()
    assert rig.wait_until(lambda: rig.proc.output().count("face board link up") == 2, 15.0)
    # issue 14: the reconnect time after a replug at the same path, v2 renegotiated
    print(f"\nreplugged board: link up on v2 again after {time.monotonic() - plugged:.2f} s")
    assert "protocol v2" in rig.proc.output().split("face board link up")[-1].splitlines()[0]
    out = rig.proc.output()
    assert out.count("face board link down") == 1
    down = next(line for line in out.splitlines() if "face board link down" in line)
    assert "read failed" in down or "write failed" in down


def test_a_nan_or_out_of_range_battery_level_is_refused_or_clamped(
        rig: FaceExecutableRig) -> None:
    # issue 19: battery values outside 0-100 or NaN are clamped / refused at the node
    # boundary, with a counter; the board never gets a garbage level
    events = rig.ros.publisher(SystemEvent, rig.topic("system/events"))
    events.publish(SystemEvent(kind=SystemEvent.LOW_BATTERY, battery_pct=float("nan")))
    events.publish(SystemEvent(kind=SystemEvent.LOW_BATTERY, battery_pct=250.0))
    assert rig.wait_until(lambda: rig.board.face.system_mode == 3)
    systems = [r.packet.payload for r in rig.of_type(PacketType.SET_SYSTEM)]
    assert [s.param for s in systems if s.mode == 3] == [255]     # clamped to 100 %
    # the board can show the clamped level before the driver's log line about it has come
    # through the pipe (a fresh clone saw the board at 255 and the line not yet read)
    logged = rig.wait_until(lambda: "outside 0-100" in rig.proc.output()
                            and "battery_pct nan" in rig.proc.output())
    assert logged, rig.proc.output()
