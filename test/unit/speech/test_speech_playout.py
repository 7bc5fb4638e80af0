"""Playout: tts/speaking and tts/energy come from the samples handed to the device
(DESIGN §4.7): started at the first sample, finished after the last, energy every 50 ms,
a cut fades out within 5 ms."""

from __future__ import annotations

import numpy as np
import pytest

from buddy_personality.speech.playout import ENERGY, FINISHED, STARTED, Playout

SR = 16000
BLOCK = 160   # 10 ms


def run(p: Playout, blocks: int, t0: float = 100.0) -> tuple[np.ndarray, list]:
    out, events = [], []
    for i in range(blocks):
        b, ev = p.render(BLOCK, t0 + i * BLOCK / SR)
        out.append(b)
        events += ev
    return np.concatenate(out), events


def tone(seconds: float, amp: float = 0.5) -> np.ndarray:
    t = np.arange(round(seconds * SR)) / SR
    return (amp * np.sin(2 * np.pi * 220 * t)).astype(np.float32)


def test_started_and_finished_bracket_exactly_the_line_samples() -> None:
    p = Playout(SR)
    p.begin(1)
    p.feed(1, tone(0.5), SR)
    p.end(1)
    audio, events = run(p, 80)
    kinds = [e for e in events if e.kind != ENERGY]
    assert [e.kind for e in kinds] == [STARTED, FINISHED]
    assert kinds[0].at == pytest.approx(100.0)
    assert kinds[1].at == pytest.approx(100.5)         # after the last sample
    assert kinds[1].samples == 8000 and not kinds[1].cut
    assert np.count_nonzero(audio[8000:]) == 0


def test_energy_about_20_hz_and_follows_loudness() -> None:
    p = Playout(SR, energy_period_s=0.05)
    p.begin(1)
    p.feed(1, np.concatenate([tone(0.5, 0.02), tone(0.5, 0.5)]), SR)
    p.end(1)
    _, events = run(p, 110)
    energy = [e for e in events if e.kind == ENERGY]
    assert len(energy) == 20                       # 1 s of audio at 20 Hz
    quiet, loud = energy[:10], energy[10:]
    assert all(0.0 <= e.value <= 1.0 for e in energy)
    assert max(e.value for e in quiet) < min(e.value for e in loud)


def test_cut_fades_out_within_5_ms_and_finishes_as_cut() -> None:
    p = Playout(SR, fade_s=0.005)
    p.begin(1)
    p.feed(1, tone(2.0), SR)
    p.end(1)
    run(p, 10)
    assert p.cut(1)
    audio, events = run(p, 5, t0=100.1)
    fin = next(e for e in events if e.kind == FINISHED)
    assert fin.cut and fin.at - 100.1 <= 0.0051
    assert np.count_nonzero(audio[round(0.005 * SR):]) == 0


def test_line_cut_before_its_first_sample_finishes_without_starting() -> None:
    p = Playout(SR)
    p.begin(7)
    p.cut(7)
    _, events = run(p, 1)
    assert [(e.kind, e.samples) for e in events] == [(FINISHED, 0)]


def test_a_new_line_replaces_the_one_playing_and_resamples() -> None:
    p = Playout(SR)
    p.begin(1)
    p.feed(1, tone(1.0), SR)
    run(p, 5)
    p.begin(2)
    p.feed(2, np.full(2205, 0.1, np.float32), 22050)   # 0.1 s at another rate: resampled
    p.end(2)
    _, events = run(p, 20, t0=200.0)
    assert [(e.kind, e.line_id) for e in events if e.kind != ENERGY] == [
        (FINISHED, 1), (STARTED, 2), (FINISHED, 2)]
    assert next(e for e in events if e.kind == FINISHED and e.line_id == 2).samples == 1600
