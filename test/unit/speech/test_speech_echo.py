"""The software echo canceller (DESIGN erratum 24): Buddy's voice, played and heard back
with a delay, is taken out of the microphone while a child's voice over it stays; a quiet
room costs no filter time; `tts/played` carries the reference with its play time."""

from __future__ import annotations

import numpy as np
import pytest
from support.speech import espeak, needs_espeak, trim

from buddy_personality.speech.audio import rms_dbfs, to_int16
from buddy_personality.speech.echo import ReferenceTrack, SpeexCanceller
from buddy_personality.speech.endpointing import FRAME_SAMPLES, SAMPLE_RATE
from buddy_personality.speech.played import PlayedResampler, pack_played, unpack_played
from buddy_personality.speech.vad import Vad

pytest.importorskip("pyaec")

STORY = ("Once upon a time there was a little dragon who lived in a cave by the sea, "
         "and every evening it sang songs to the fish. ")


def run(canceller: SpeexCanceller, mic: np.ndarray, t0: float) -> np.ndarray:
    n = mic.size // FRAME_SAMPLES * FRAME_SAMPLES
    out = [canceller.process(t0 + i / SAMPLE_RATE, to_int16(mic[i:i + FRAME_SAMPLES]))
           for i in range(0, n, FRAME_SAMPLES)]
    return np.concatenate(out).astype(np.float32) / 32768


@needs_espeak
def test_buddys_voice_is_taken_out_and_the_childs_voice_stays() -> None:
    buddy = trim(espeak(STORY * 2, voice="en-us", pitch=50))
    child = trim(espeak("stop, I want to tell you about my cat"))
    delay = round(0.03 * SAMPLE_RATE)       # the echo path and the devices' buffers
    mic = np.zeros(buddy.size, np.float32)
    mic[delay:] = 0.6 * buddy[:-delay]
    c0 = 6 * SAMPLE_RATE
    mic[c0:c0 + child.size] += child
    aec = SpeexCanceller()
    t0 = 1000.0
    aec.reference(t0, to_int16(buddy))
    out = run(aec, mic, t0)
    echo_only = slice(c0 + child.size + SAMPLE_RATE, out.size)
    assert rms_dbfs(out[echo_only]) < rms_dbfs(mic[echo_only]) - 20.0
    # what the ears decide on: Silero VAD hears the child over Buddy as it hears the
    # child alone, and hears (almost) nothing of Buddy once the filter has converged
    vad = Vad()
    probs = [vad.probability(to_int16(out[i:i + FRAME_SAMPLES]))
             for i in range(0, out.size - FRAME_SAMPLES, FRAME_SAMPLES)]
    frame_of = lambda sample: sample // FRAME_SAMPLES  # noqa: E731
    talk = probs[frame_of(c0):frame_of(c0 + child.size)]
    vad_alone = Vad()
    alone = [vad_alone.probability(to_int16(child[i:i + FRAME_SAMPLES]))
             for i in range(0, child.size - FRAME_SAMPLES, FRAME_SAMPLES)]
    assert np.mean(np.array(talk) >= 0.8) >= 0.8 * np.mean(np.array(alone) >= 0.8)
    after = probs[frame_of(2 * SAMPLE_RATE):frame_of(c0)] + probs[frame_of(echo_only.start):]
    assert np.mean(np.array(after) >= 0.8) < 0.02, np.mean(np.array(after) >= 0.8)
    assert aec.frames > 0


@needs_espeak
def test_an_echo_later_than_the_filter_is_found_and_taken_out() -> None:
    """The stamps of two devices behind an audio server miss its buffers: an echo 0.4 s
    after its stamp is outside a 0.256 s filter unless its delay is measured."""
    buddy = trim(espeak(STORY * 2, voice="en-us", pitch=50))
    delay = round(0.4 * SAMPLE_RATE)
    mic = np.zeros(buddy.size, np.float32)
    mic[delay:] = 0.6 * buddy[:-delay]
    aec = SpeexCanceller()
    aec.reference(500.0, to_int16(buddy))
    out = run(aec, mic, 500.0)
    late = slice(6 * SAMPLE_RATE, out.size)
    assert aec.delay_s == pytest.approx(0.4, abs=0.01)
    assert rms_dbfs(out[late]) < rms_dbfs(mic[late]) - 20.0


@needs_espeak
def test_the_echo_is_taken_out_when_the_devices_stamps_jitter() -> None:
    """Issue 29: in the PulseAudio room (load ~10 on 2 cores) the capture callback's stamp
    of a 32 ms frame came late by 3 ms (std) with single frames 55-60 ms late, and the
    played blocks' stamps by up to a few ms, while both streams are continuous. The
    filter needs the reference where the echo is to the sample: the canceller keeps both
    on their sample clocks, and the stamps only follow drift or mark a real gap."""
    buddy = trim(espeak(STORY * 2, voice="en-us", pitch=50))
    delay = round(0.03 * SAMPLE_RATE)
    mic = np.zeros(buddy.size, np.float32)
    mic[delay:] = 0.6 * buddy[:-delay]
    rng = np.random.default_rng(29)
    aec = SpeexCanceller()
    t0 = 2000.0
    batch = round(0.03 * SAMPLE_RATE)             # tts/played's batches
    n = mic.size // FRAME_SAMPLES * FRAME_SAMPLES
    out, played = [], 0
    for k, i in enumerate(range(0, n, FRAME_SAMPLES)):
        while played < min(buddy.size, i + FRAME_SAMPLES + 0.1 * SAMPLE_RATE):
            aec.reference(t0 + played / SAMPLE_RATE + rng.uniform(-0.002, 0.002),
                          to_int16(buddy[played:played + batch]))   # played ahead, as a
            played += batch                                         # device buffer is
        late = abs(rng.normal(0, 0.003)) + (0.055 if k % 40 == 17 else 0.0)
        out.append(aec.process(t0 + i / SAMPLE_RATE + late,
                               to_int16(mic[i:i + FRAME_SAMPLES])))
    got = np.concatenate(out).astype(np.float32) / 32768
    tail = slice(4 * SAMPLE_RATE, got.size)
    assert rms_dbfs(got[tail]) < rms_dbfs(mic[tail]) - 15.0, (rms_dbfs(got[tail]),
                                                              rms_dbfs(mic[tail]))


def test_a_quiet_room_runs_no_filter() -> None:
    aec = SpeexCanceller()
    rng = np.random.default_rng(1)
    noise = (rng.normal(0, 0.001, 5 * SAMPLE_RATE)).astype(np.float32)
    out = run(aec, noise, 50.0)
    assert aec.frames == 0 and aec.cpu_s == 0.0
    assert np.array_equal(out, to_int16(noise[:out.size]).astype(np.float32) / 32768)


def test_reference_track_lines_played_blocks_up_with_the_capture_clock() -> None:
    track = ReferenceTrack()
    track.add(10.0, np.full(160, 7, np.int16))
    track.add(10.02, np.full(160, 9, np.int16))          # a 10 ms gap of silence
    w = track.window(9.995, 480)
    assert list(w[:80]) == [0] * 80 and list(w[80:240]) == [7] * 160
    assert list(w[240:400]) == [0] * 160 and list(w[400:480]) == [9] * 80


def test_played_audio_round_trips_and_bad_messages_are_refused() -> None:
    samples = np.sin(np.linspace(0, 60, 661)).astype(np.float32) * 0.5
    msg = pack_played(123.456789, samples, 22050)
    got = unpack_played(msg)
    assert got is not None
    at, pcm = got
    assert at == pytest.approx(123.456789, abs=1e-9)
    assert pcm.dtype == np.int16 and pcm.size == round(661 * 16000 / 22050)
    msg.data[0] = float("nan")
    assert unpack_played(msg) is None
    msg.layout.dim = []
    assert unpack_played(pack_played(1.0, samples, 16000)) is not None
    assert unpack_played(msg) is None


@needs_espeak
def test_the_echo_is_taken_out_while_its_delay_drifts() -> None:
    """Issue 29: in the PulseAudio room the echo's delay moved 1.25 ms a second against
    the stamps; two devices' clocks drift by their ppm. An adaptive filter cannot follow
    a path that moves a sample every 150 ms (400 ppm here): the canceller follows the
    delay and reads the reference on it between samples, so the filter's path stays put
    (without: 11-14 dB over some 2 s of the line)."""
    buddy = trim(espeak(STORY * 3, voice="en-us", pitch=50))
    drift = -0.0004                                    # s of delay per s
    n = np.arange(buddy.size, dtype=np.float64)
    delay = 0.03 + drift * n / SAMPLE_RATE             # 30 ms, shrinking
    mic = 0.6 * np.interp(n - delay * SAMPLE_RATE, n, buddy, left=0.0).astype(np.float32)
    aec = SpeexCanceller()
    t0 = 3000.0
    out, played, batch = [], 0, round(0.04 * SAMPLE_RATE)
    for i in range(0, mic.size // FRAME_SAMPLES * FRAME_SAMPLES, FRAME_SAMPLES):
        while played < min(buddy.size, i + FRAME_SAMPLES + 0.1 * SAMPLE_RATE):
            aec.reference(t0 + played / SAMPLE_RATE, to_int16(buddy[played:played + batch]))
            played += batch
        out.append(aec.process(t0 + i / SAMPLE_RATE, to_int16(mic[i:i + FRAME_SAMPLES])))
    got = np.concatenate(out).astype(np.float32) / 32768
    for s in range(3, got.size // SAMPLE_RATE - 1, 2):
        part = slice(s * SAMPLE_RATE, (s + 2) * SAMPLE_RATE)
        assert rms_dbfs(got[part]) < rms_dbfs(mic[part]) - 15.0, (s, rms_dbfs(got[part]),
                                                                  rms_dbfs(mic[part]))
    assert aec.delay_s == pytest.approx(delay[got.size - 1], abs=0.001)


def test_played_audio_is_resampled_as_one_stream() -> None:
    """Issue 29: each 40 ms batch of 880 samples at 22050 Hz resampled on its own became
    639 samples at 16 kHz, not 638.55: the reference grew 0.7 ms a second longer than
    what was played. As one stream, 10 s played are 10 s of reference, and each batch
    starts where the previous one ended."""
    rate = 22050
    resampler = PlayedResampler()
    x = np.sin(np.arange(10 * rate) * 2 * np.pi * 300 / rate).astype(np.float32) * 0.5
    t0, total, ends = 77.0, 0, []
    for i in range(0, x.size, 880):
        at, pcm = resampler.feed(t0 + i / rate, x[i:i + 880], rate)
        if ends:
            assert at == pytest.approx(ends[-1], abs=0.5 / SAMPLE_RATE)
        ends.append(at + pcm.size / SAMPLE_RATE)
        total += pcm.size
    assert abs(total - 10 * SAMPLE_RATE) <= 1
    t = np.arange(total) / SAMPLE_RATE
    whole = np.concatenate([resampler.feed(t0, x, rate)[1] for resampler in
                            [PlayedResampler()]])
    assert np.max(np.abs(whole[:total] - np.sin(2 * np.pi * 300 * t[:whole.size]) * 0.5)) \
        < 0.01


@needs_espeak
def test_buddys_voice_stays_buddys_when_the_echo_path_jumps() -> None:
    """Issue 28 item 5 (the room test failed in 4 of 8 fresh clones): under load the
    room's loopback underran and Buddy's echo came 25-40 ms later at once (32.8 -> 58 ->
    73 ms), after the canceller had followed it for a second. The line is looked for only
    DRIFT_TRACK_S around itself and the residual compared within COHERENCE_LAG_S of it, so
    the moved echo, which the filter does not take out yet, passed as a child's voice
    (p 1.0, six frames in a row: a barge-in on Buddy's own story). A microphone that is
    nearly all Buddy's voice (COHERENCE_MIC) is Buddy's at whatever lag the path moved to
    (erratum 24: Buddy does not hear itself)."""
    buddy = trim(espeak(STORY * 2, voice="en-us", pitch=50))
    jump_at = 3 * SAMPLE_RATE // FRAME_SAMPLES * FRAME_SAMPLES
    before, after = round(0.03 * SAMPLE_RATE), round(0.07 * SAMPLE_RATE)
    mic = np.zeros(buddy.size, np.float32)
    mic[before:jump_at] = 0.6 * buddy[:jump_at - before]
    mic[jump_at:] = 0.6 * buddy[jump_at - after:buddy.size - after]
    aec = SpeexCanceller()
    t0 = 4000.0
    aec.reference(t0, to_int16(buddy))
    set_aside, loud = [], []
    for i in range(0, jump_at + SAMPLE_RATE, FRAME_SAMPLES):
        frame = to_int16(mic[i:i + FRAME_SAMPLES])
        aec.process(t0 + i / SAMPLE_RATE, frame)
        if i >= jump_at and rms_dbfs(mic[i:i + FRAME_SAMPLES]) > -30.0:
            loud.append(i)
            set_aside.append(aec.echo_like)
    assert aec.alignments >= 4            # the line was followed before the jump
    assert len(loud) >= 15
    missed = [round((i - jump_at) / SAMPLE_RATE, 3) for i, s in zip(loud, set_aside, strict=True)
              if not s]
    assert len(missed) <= 1, f"Buddy's loud frames after the jump taken for a child at {missed}"
