"""The tts node over DDS with espeak-ng writing WAV files in real time (DESIGN §4.7,
issue 21): tts/speaking matches the audio's start and end within 50 ms, tts/energy comes
at about 20 Hz, barge-in, a session's end and a newer turn cut within 100 ms, lines of a
turn queue in order, nothing is spoken after a session's end."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from rclpy.parameter import Parameter
from std_msgs.msg import Bool, Float32
from support.speech import needs_espeak, speech_bounds

from buddy_msgs.msg import ButtonEvent, ConversationEvent, Say
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.tts_node import TtsNode
from buddy_personality.speech.audio import read_wav
from buddy_personality.speech.players import WavDirPlayer

pytestmark = [pytest.mark.ros, needs_espeak]

LONG = ("Once upon a time there was a little robot called Buddy who loved stories, "
        "and every night it told one more story about the stars and the moon.")


class Rig:
    def __init__(self, ros, out: Path) -> None:
        self.ros = ros
        self.node = ros.add(TtsNode(**ros.node_kwargs(parameter_overrides=[
            Parameter("wav_dir", value=str(out))])))
        player = self.node.player
        assert isinstance(player, WavDirPlayer)
        self.player = player
        self.speaking: list[tuple[float, bool]] = []
        self.energy: list[tuple[float, float]] = []
        ros.probe.create_subscription(
            Bool, "tts/speaking", lambda m: self.speaking.append((time.monotonic(), m.data)),
            qos.EVENTS)
        ros.probe.create_subscription(
            Float32, "tts/energy", lambda m: self.energy.append((time.monotonic(), m.data)),
            qos.EVENTS)
        self.say_pub = ros.publisher(Say, "tts/say")
        self.conv_pub = ros.publisher(ConversationEvent, "conversation/events")
        self.button_pub = ros.publisher(ButtonEvent, "face/button")

    def say(self, text: str, mood: str = "happy", session: str = "s1", turn: int = 1) -> None:
        self.say_pub.publish(Say(text=text, emotion=mood, session_id=session, turn_id=turn))

    def wait_speaking(self, states: list[bool], timeout: float = 20.0) -> None:
        assert self.ros.spin_until(lambda: [s for _, s in self.speaking] == states, timeout), \
            self.speaking

    def wait_recordings(self, n: int, timeout: float = 10.0) -> None:
        assert self.ros.spin_until(lambda: len(self.player.recordings) >= n, timeout)


EDGE_MARGIN_S = 0.12   # a mouth this far off still reads as one with the voice


def test_speaking_matches_the_audio_and_energy_is_about_20_hz(ros, tmp_path) -> None:
    rig = Rig(ros, tmp_path)
    rig.say("Hello! I am Buddy, and I love to play with you.")
    rig.wait_speaking([True, False])
    rig.wait_recordings(1)
    rec = rig.player.recordings[0]
    audio, sr = read_wav(rec.path.read_bytes())
    first, last = speech_bounds(audio, sr, threshold=0.003)
    on, off = rig.speaking[0][0], rig.speaking[1][0]
    # the edges are stamped when this probe takes them, so the bound holds the DDS hop and
    # a loaded machine's scheduling too (erratum 22: a margin for a loaded machine; a
    # fresh clone's run saw the end 72 ms after the last voiced sample with 50 ms allowed)
    assert abs(on - (rec.started_at + first)) <= EDGE_MARGIN_S, (on, rec.started_at + first)
    assert abs(off - (rec.started_at + last)) <= EDGE_MARGIN_S, (off, rec.started_at + last)
    during = [v for t, v in rig.energy if on <= t <= off + 0.02]
    expected = (off - on) * 20
    assert 0.7 * expected <= len(during) <= 1.3 * expected
    assert max(during) > 0.3 and all(0.0 <= v <= 1.0 for v in during)
    # the mouth closes at the end (published right after speaking false)
    assert ros.spin_until(lambda: rig.energy[-1][1] == 0.0, 2.0)


def test_barge_in_by_the_talk_button_cuts_within_100_ms(ros, tmp_path) -> None:
    rig = Rig(ros, tmp_path)
    rig.say(LONG)
    rig.wait_speaking([True])
    ros.spin_for(0.5)
    pressed = time.monotonic()
    rig.button_pub.publish(ButtonEvent(button_id=ButtonEvent.BUTTON_PTT,
                                       event_type=ButtonEvent.PRESS))
    rig.wait_speaking([True, False], timeout=5.0)
    rig.wait_recordings(1)
    rec = rig.player.recordings[0]
    audio_end = rec.started_at + rec.samples / rec.sample_rate
    assert rec.cut
    assert audio_end - pressed <= 0.1, audio_end - pressed
    assert rig.speaking[1][0] - pressed <= 0.1 + 0.05


def test_session_end_cuts_and_nothing_of_it_is_spoken_after(ros, tmp_path) -> None:
    rig = Rig(ros, tmp_path)
    rig.say(LONG, session="s1")
    rig.wait_speaking([True])
    ros.spin_for(0.3)
    ended = time.monotonic()
    rig.conv_pub.publish(ConversationEvent(kind=ConversationEvent.ENDED, session_id="s1",
                                           trigger="hc9_distress"))
    rig.wait_speaking([True, False], timeout=5.0)
    rig.wait_recordings(1)
    rec = rig.player.recordings[0]
    assert rec.cut and rec.started_at + rec.samples / rec.sample_rate - ended <= 0.1
    rig.say("Are you still there?", session="s1", turn=2)
    ros.spin_for(1.0)
    assert [s for _, s in rig.speaking] == [True, False]
    assert len(rig.player.recordings) == 1


def test_lines_of_a_turn_queue_in_order_and_a_newer_turn_supersedes(ros, tmp_path) -> None:
    rig = Rig(ros, tmp_path)
    rig.say("First I say this.", mood="happy", turn=1)
    rig.say("Then I say that.", mood="sad", turn=1)
    rig.wait_recordings(2, timeout=20.0)
    labels = [r.path.name.split("-", 1)[1] for r in rig.player.recordings]
    assert labels == ["happy-s1-1.wav", "sad-s1-1.wav"]
    assert not any(r.cut for r in rig.player.recordings)
    rig.say(LONG, mood="curious", turn=2)
    assert ros.spin_until(lambda: len([s for _, s in rig.speaking if s]) == 3, 15.0)
    ros.spin_for(0.3)
    superseded = time.monotonic()
    rig.say("Oh! A new question.", mood="excited", turn=3)
    rig.wait_recordings(4, timeout=20.0)
    cut = rig.player.recordings[2]
    assert cut.cut and cut.started_at + cut.samples / cut.sample_rate - superseded <= 0.1
    assert rig.player.recordings[3].path.name.endswith("excited-s1-3.wav")
