"""Buddy hears and speaks through a real audio device (issue 21 "Done when"): a private
PulseAudio server with a null sink; `buddy run --speak --listen` plays into the sink and
records the room it is looped into (`pulse_room`). A child's line played into the room
reaches speech/utterance, Buddy's reply is played as audio with its mood's prosody,
tts/speaking and the face's talking follow that audio, and Buddy never transcribes its own
voice (DESIGN §4.7, erratum 24: the echo canceller `--listen` sets up).

Skips with the reason when pulseaudio, pactl, PortAudio, the ALSA pulse plug-in or
espeak-ng is missing (`make setup` installs them as root with apt)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from diagnostic_msgs.msg import DiagnosticArray
from std_msgs.msg import Bool, Float32
from support.speech import espeak, needs_espeak, silence, trim, write_wav

from buddy_msgs.msg import FaceState, Say, Utterance
from buddy_personality.nodes.common import qos
from buddy_personality.speech.prosody import prosody_for
from buddy_personality.speech.synth import EspeakSynth, trimmed
from buddy_personality.tools.fakes.fake_stt_server import FakeSttServer

pytestmark = [pytest.mark.ros, pytest.mark.process, pytest.mark.slow, needs_espeak]

BUDDY = Path(sys.prefix) / "bin" / "buddy"
CHILD_SAYS = "hey buddy, I like dinosaurs"


class MonitorRecorder:
    """`parec` on the sink's monitor: what a microphone next to the speaker would hear,
    as (arrival time, loudness) per 10 ms."""

    def __init__(self, env: dict[str, str], source: str) -> None:
        self.levels: list[tuple[float, float]] = []
        self._proc = subprocess.Popen(
            ["parec", "-d", source, "--raw", "--format=s16le", "--rate=16000", "--channels=1",
             "--latency-msec=10"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        while data := self._proc.stdout.read(320):
            x = np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2").astype(np.float32)
            self.levels.append((time.monotonic(), float(np.abs(x).max()) / 32768))

    def loud_between(self, t0: float, t1: float, threshold: float = 0.01) -> list[float]:
        return [t for t, v in self.levels if t0 <= t <= t1 and v > threshold]

    def close(self) -> None:
        self._proc.terminate()
        self._proc.wait(timeout=5)


def test_buddy_hears_a_child_answers_aloud_and_never_hears_itself(ros, pulse_room, tmp_path):
    pulse = pulse_room        # Buddy's speaker looped into the room the microphone hears
    ns = "/buddy"
    utterances = ros.collect(Utterance, f"{ns}/speech/utterance")
    says = ros.collect(Say, f"{ns}/tts/say")
    speaking: list[tuple[float, bool]] = []
    energy: list[tuple[float, float]] = []
    talking: list[tuple[float, bool]] = []
    asr_ready: list[bool] = []
    ros.probe.create_subscription(Bool, f"{ns}/tts/speaking",
                                  lambda m: speaking.append((time.monotonic(), m.data)),
                                  qos.EVENTS)
    ros.probe.create_subscription(Float32, f"{ns}/tts/energy",
                                  lambda m: energy.append((time.monotonic(), m.data)),
                                  qos.EVENTS)
    ros.probe.create_subscription(FaceState, f"{ns}/face/state",
                                  lambda m: talking.append((time.monotonic(), m.talking)),
                                  qos.LATCHED)
    ros.probe.create_subscription(
        DiagnosticArray, "/diagnostics",
        lambda m: asr_ready.extend(s.message == "listening" for s in m.status
                                   if s.name == "buddy/asr"), qos.DIAGNOSTICS)
    child = tmp_path / "child.wav"
    write_wav(child, np.concatenate([silence(0.2), trim(espeak(CHILD_SAYS)), silence(0.2)]))
    recorder = MonitorRecorder(pulse.env, pulse.monitor)
    log = (tmp_path / "buddy.log").open("w")
    with FakeSttServer([CHILD_SAYS, "THIS WAS BUDDY HEARING ITSELF"], delay_s=0.05) as stt:
        proc = subprocess.Popen(
            [str(BUDDY), "run", "--headless", "--speak", "--listen", "--stt-url", stt.url,
             "--duration", "90"], env=pulse.env, stdout=log, stderr=subprocess.STDOUT)
        try:
            assert ros.spin_until(lambda: any(asr_ready), 30.0), "asr never listening"
            subprocess.run(["paplay", "--latency-msec=20", "-d", pulse.room, str(child)],
                           env=pulse.env, check=True, timeout=20)
            played = time.monotonic()
            assert ros.spin_until(lambda: bool(utterances), 20.0), "the child was not heard"
            assert utterances[0].text == CHILD_SAYS
            assert ros.spin_until(lambda: [s for _, s in speaking][:2] == [True, False], 30.0)
            on, off = speaking[0][0], speaking[1][0]
            ros.spin_for(2.0)        # the asr's tail and end of turn after Buddy's voice
            turns = stt.turns()
        finally:
            proc.terminate()
            proc.wait(timeout=15)
            recorder.close()
            log.close()
    output = (tmp_path / "buddy.log").read_text(errors="replace")
    # Heard once: the child's line. Buddy's own voice went into the same sink and was
    # recorded by the same monitor, and was never sent (DESIGN §4.7).
    assert len(turns) == 1, (turns, output[-2000:])
    assert turns[0].received_at < on
    assert turns[0].received_at - played < 3.0
    # Buddy's reply was played as audio, into the sink, while tts/speaking was true
    reply = says[-1]
    loud = recorder.loud_between(on - 0.5, off + 0.5)
    assert loud, "no audio reached the sink while tts/speaking was true"
    assert abs(loud[0] - on) <= 0.25 and abs(loud[-1] - off) <= 0.25, (loud[0] - on,
                                                                          loud[-1] - off)
    # ... with its mood's prosody: as long as espeak-ng makes it with that mood's row
    mood, prosody = prosody_for(reply.emotion)
    ref = sum(c.samples.size / c.sample_rate for c in trimmed(
        EspeakSynth().stream(reply.text, prosody, threading.Event())))
    assert abs((off - on) - ref) <= 0.2 * ref + 0.1, (
        mood, off - on, ref, [(s.text, s.session_id, s.turn_id) for s in says], speaking)
    # the face's mouth: talking while the audio played, energy at ~20 Hz
    assert any(t and on - 0.1 <= ts <= off + 0.1 for ts, t in talking), talking
    assert len([v for ts, v in energy if on <= ts <= off]) >= 0.6 * 20 * (off - on)
