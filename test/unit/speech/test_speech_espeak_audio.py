"""Buddy's voice and ears on real audio made by espeak-ng at test time (issue 21):
the WAV length fits the text, rate and pitch follow the mood table (spec 002 §11.5,
measured from the audio), and Silero VAD + endpointing cut a child's sentence with its
pauses into one turn and two sentences into two."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from support.speech import espeak, median_f0, needs_espeak, silence, speech_bounds, trim

from buddy_personality.speech.endpointing import (
    FRAME_S,
    FRAME_SAMPLES,
    SAMPLE_RATE,
    ActivityChanged,
    EndpointConfig,
    Endpointer,
    Segment,
)
from buddy_personality.speech.prosody import PROSODY, prosody_for
from buddy_personality.speech.synth import EspeakSynth

pytestmark = needs_espeak

LINE = "I like big red dinosaurs and little green frogs. Do you like them too?"


def synth(text: str, mood: str) -> tuple[np.ndarray, int]:
    chunks = list(EspeakSynth().stream(text, prosody_for(mood)[1], threading.Event()))
    assert chunks, "espeak-ng gave no audio"
    return np.concatenate([c.samples for c in chunks]), chunks[0].sample_rate


@pytest.mark.parametrize("text", [
    "Hi!",
    "Ooh, how fun! Tell me more about that.",
    "Once upon a time a small robot lived in a house with two children and a very old cat.",
])
def test_wav_length_fits_the_text(text: str) -> None:
    audio, sr = synth(text, "neutral")
    seconds = trim(audio).size / sr
    words = len(text.split())
    wps = words / seconds
    # a friendly voice for children: between 1.5 and 4 words a second (neutral: 155 wpm)
    assert 1.5 <= wps <= 4.0, f"{words} words in {seconds:.2f} s"


def test_rate_and_pitch_follow_the_mood_table() -> None:
    measured: dict[str, tuple[float, float]] = {}
    for mood in ("sad", "sleepy", "neutral", "happy", "excited", "silly"):
        audio, sr = synth(LINE, mood)
        measured[mood] = (trim(audio).size / sr, median_f0(audio, sr))
    for a in measured:
        for b in measured:
            ra, rb = PROSODY[a].rate_wpm, PROSODY[b].rate_wpm
            if ra >= rb * 1.15:          # the table says clearly faster: shorter audio
                assert measured[a][0] < measured[b][0], (a, b, measured)
            pa, pb = PROSODY[a].pitch, PROSODY[b].pitch
            if pa >= pb + 15:            # the table says clearly higher: higher f0
                assert measured[a][1] > measured[b][1], (a, b, measured)
    # a sad Buddy speaks slower and lower, an excited one faster and higher (issue 21)
    assert measured["sad"][0] > 1.25 * measured["excited"][0]
    assert measured["sad"][1] < 0.85 * measured["excited"][1]


def run_ears(audio: np.ndarray) -> list:
    from buddy_personality.speech.vad import Vad

    vad, ep, events = Vad(), Endpointer(), []
    pcm = (np.clip(audio, -1, 1) * 32767).astype(np.int16)
    pcm = np.concatenate([pcm, np.zeros((-pcm.size) % FRAME_SAMPLES, np.int16)])
    for i, frame in enumerate(pcm.reshape(-1, FRAME_SAMPLES)):
        events += ep.push(i * FRAME_S, frame, vad.probability(frame))
    return events


def test_a_childs_sentence_with_pauses_is_one_turn_with_the_right_boundaries() -> None:
    # trimmed, so the pauses are exactly a child's: 0.5 s and 0.7 s
    parts = [trim(espeak("I saw a")), silence(0.5), trim(espeak("a big dog")), silence(0.7),
             trim(espeak("at the park"))]
    lead = silence(1.0)
    utterance = np.concatenate(parts)
    audio = np.concatenate([lead, utterance, silence(2.0)])
    start, end = speech_bounds(audio, SAMPLE_RATE)
    segs = [e for e in run_ears(audio) if isinstance(e, Segment)]
    assert len(segs) == 1, [(s.start, s.end) for s in segs]
    seg = segs[0]
    pre_roll = EndpointConfig().pre_roll_s
    assert seg.start <= start and start - seg.start <= pre_roll + 0.05   # pre-roll, no more
    assert abs(seg.speech_end - end) <= 0.15
    assert seg.end >= end


def test_two_sentences_with_a_long_pause_are_two_turns() -> None:
    audio = np.concatenate([silence(0.5), trim(espeak("hey buddy")), silence(1.2),
                            trim(espeak("what is your name")), silence(2.0)])
    events = run_ears(audio)
    assert len([e for e in events if isinstance(e, Segment)]) == 2
    assert [e.active for e in events if isinstance(e, ActivityChanged)] == [
        True, False, True, False]


def test_silence_and_noise_make_no_turn() -> None:
    rng = np.random.default_rng(3)
    noise = (rng.standard_normal(SAMPLE_RATE * 3) * 0.003).astype(np.float32)
    assert run_ears(np.concatenate([silence(2.0), noise])) == []
