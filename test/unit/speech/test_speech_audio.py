"""WAV in memory and a streamed WAV header (espeak-ng --stdout, HTTP bodies)."""

from __future__ import annotations

import numpy as np
import pytest

from buddy_personality.speech.audio import (
    WavStreamHeader,
    energy_from_dbfs,
    read_wav,
    resample,
    wav_bytes,
)


def test_streamed_header_in_small_pieces_gives_every_sample() -> None:
    samples = (np.sin(np.arange(1000) / 7) * 0.5).astype(np.float32)
    data = wav_bytes(samples, 22050)
    h = WavStreamHeader()
    got = np.concatenate([h.feed(data[i:i + 7]) for i in range(0, len(data), 7)])
    assert h.sample_rate == 22050
    assert np.allclose(got, samples, atol=1 / 32768)


def test_wav_roundtrip_and_errors() -> None:
    samples = np.linspace(-0.5, 0.5, 320, dtype=np.float32)
    back, rate = read_wav(wav_bytes(samples, 16000))
    assert rate == 16000 and np.allclose(back, samples, atol=1 / 32768)
    with pytest.raises(ValueError):
        WavStreamHeader().feed(b"not a wav file at all")


def test_resample_length_and_energy_mapping() -> None:
    assert resample(np.zeros(22050, np.float32), 22050, 16000).size == 16000
    assert energy_from_dbfs(-np.inf) == 0.0
    assert energy_from_dbfs(-60.0) == 0.0 and energy_from_dbfs(0.0) == 1.0
    assert 0.0 < energy_from_dbfs(-30.0) < 1.0


def test_quiet_edges_trimmed_while_streaming_inner_pauses_kept() -> None:
    from buddy_personality.speech.synth import AudioChunk, trimmed

    sr = 1000
    quiet, loud = np.zeros(300, np.float32), np.full(100, 0.5, np.float32)
    signal = np.concatenate([quiet, loud, quiet, loud, quiet])
    chunks = [AudioChunk(signal[i:i + 64], sr) for i in range(0, signal.size, 64)]
    out = np.concatenate([c.samples for c in trimmed(iter(chunks))])
    # 20 ms kept before the first and after the last loud sample; the inner pause stays
    assert out.size == 20 + 100 + 300 + 100 + 20
    assert np.count_nonzero(out) == 200
