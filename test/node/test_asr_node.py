"""The asr node over DDS, fed WAV files made with espeak-ng at test time and a fake
transcription server (DESIGN §4.7, issue 21): one request per turn with the turn's audio,
speech/activity around it, the text on speech/utterance, nothing sent while Buddy speaks
(plus the tail), and a server outage raised once then cleared."""

from __future__ import annotations

import numpy as np
import pytest
from rclpy.parameter import Parameter
from std_msgs.msg import Bool
from support.speech import espeak, needs_espeak, silence, speech_bounds, trim, write_wav

from buddy_msgs.msg import SystemEvent, Utterance
from buddy_personality.nodes.asr_node import AsrNode
from buddy_personality.speech.ears import FAULT_NAME
from buddy_personality.tools.fakes.fake_llm_server import closed_port_url
from buddy_personality.tools.fakes.fake_stt_server import FakeSttServer

pytestmark = [pytest.mark.ros, needs_espeak, pytest.mark.slow]


def start_asr(ros, inbox, url: str, **extra):
    params = {"input_wav": str(inbox), "server_url": url, "input_gap_s": 0.2,
              "backoff_initial_s": 0.3, **extra}
    return ros.add(AsrNode(**ros.node_kwargs(parameter_overrides=[
        Parameter(k, value=v) for k, v in params.items()])))


def child_line(text: str) -> np.ndarray:
    return np.concatenate([silence(0.3), trim(espeak(text)), silence(0.3)])


def test_one_request_per_turn_with_the_turns_audio(ros, tmp_path) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    activity = ros.collect(Bool, "speech/activity")
    utterances = ros.collect(Utterance, "speech/utterance")
    with FakeSttServer(["hey buddy I like frogs"]) as stt:
        start_asr(ros, inbox, stt.url)
        line = child_line("hey buddy, I like frogs")
        write_wav(inbox / "001.wav", line)
        assert ros.spin_until(lambda: len(utterances) == 1, 15.0)
        turns = stt.turns()
    assert [m.data for m in activity] == [True, False]
    assert utterances[0].text == "hey buddy I like frogs" and utterances[0].is_final
    assert len(turns) == 1
    spoken = np.diff(speech_bounds(line, 16000))[0]
    got = np.diff(speech_bounds(turns[0].samples, 16000))[0]
    assert abs(got - spoken) <= 0.15, (got, spoken)   # the whole line, in one segment
    assert turns[0].sample_rate == 16000
    assert turns[0].duration_s <= spoken + 0.25 + 0.2 + 0.1   # pre-roll + tail, no more


def test_nothing_is_sent_while_buddy_speaks_nor_in_the_tail(ros, tmp_path) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    activity = ros.collect(Bool, "speech/activity")
    with FakeSttServer(["what is your name"]) as stt:
        node = start_asr(ros, inbox, stt.url, speaking_tail_s=0.4)
        speaking = ros.publisher(Bool, "tts/speaking")
        speaking.publish(Bool(data=True))
        ros.spin_for(0.2)
        write_wav(inbox / "001.wav", child_line("I am Buddy and I like to talk a lot"))
        source = node._source
        assert ros.spin_until(lambda: "001.wav" in source.files_played, 5.0)
        ros.spin_for(3.0)                         # the whole line plays while Buddy speaks
        speaking.publish(Bool(data=False))
        ros.spin_for(0.8)
        assert stt.turns() == [] and activity == []
        write_wav(inbox / "002.wav", child_line("what is your name"))
        assert len(stt.wait_for(1, 15.0)) == 1
        ros.spin_until(lambda: len(activity) == 2, 5.0)
    assert [m.data for m in activity] == [True, False]


def test_server_down_raises_the_fault_once_then_clears_when_it_answers(ros, tmp_path) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    events = ros.collect(SystemEvent, "system/events")
    url = closed_port_url()
    start_asr(ros, inbox, url, attempts=1, connect_timeout_s=0.2)
    write_wav(inbox / "001.wav", child_line("hello buddy"))
    write_wav(inbox / "002.wav", child_line("can you hear me"))
    faults = lambda k: [e for e in events if e.kind == k and e.detail == FAULT_NAME]  # noqa: E731
    assert ros.spin_until(lambda: len(faults(SystemEvent.FAULT_RAISED)) == 1, 15.0)
    ros.spin_for(4.0)                             # the second turn fails too: said once
    assert len(faults(SystemEvent.FAULT_RAISED)) == 1
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    with FakeSttServer(port=port):
        assert ros.spin_until(lambda: len(faults(SystemEvent.FAULT_CLEARED)) == 1, 15.0)
