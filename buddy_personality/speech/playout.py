"""The block-by-block playout of one line at a time, shared by every audio output.

A player asks `render(frames, at)` for the next block of samples that reaches the speaker
at `at` (monotonic seconds). The events it gets back are what `tts/speaking` and
`tts/energy` are made of, measured from the samples actually handed to the device, not
estimated from the text (DESIGN §4.7): `started` at a line's first sample, `energy` every
`energy_period_s` of played audio, `finished` after its last sample (or at the end of a
short fade when it was cut; a line cut or failed before its first sample finishes
with `samples == 0`, and no `started` came before it).

Thread-safe: the synthesiser thread feeds, the node thread begins and cuts, the audio
callback renders; one lock, held for array copies only.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from buddy_personality.speech.audio import energy_from_dbfs, resample, rms_dbfs

STARTED, ENERGY, FINISHED = "started", "energy", "finished"


@dataclass(slots=True, frozen=True)
class PlayoutEvent:
    kind: str           # STARTED | ENERGY | FINISHED
    line_id: int
    at: float           # when the block's sample reaches the speaker (monotonic s)
    value: float = 0.0  # ENERGY: loudness in [0, 1]
    cut: bool = False   # FINISHED: stopped before its end (barge-in, session end, error)
    samples: int = 0    # FINISHED: samples played


@dataclass(slots=True)
class _Line:
    line_id: int
    chunks: deque[np.ndarray] = field(default_factory=deque)
    fed_done: bool = False
    started: bool = False
    played: int = 0
    fade_left: int | None = None     # samples of fade-out left once cut
    energy_acc: list[np.ndarray] = field(default_factory=list)
    energy_n: int = 0


class Playout:
    def __init__(self, sample_rate: int, energy_period_s: float = 0.05,
                 fade_s: float = 0.005) -> None:
        self.sample_rate = int(sample_rate)
        self._energy_n = max(1, round(energy_period_s * self.sample_rate))
        self._fade_n = max(1, round(fade_s * self.sample_rate))
        self._lock = threading.Lock()
        self._line: _Line | None = None
        self._pending: list[PlayoutEvent] = []   # finished events of replaced lines

    # -- producers ------------------------------------------------------------------------
    def begin(self, line_id: int) -> None:
        """`line_id` becomes the line being played; a line still playing ends, cut."""
        with self._lock:
            old = self._line
            if old is not None:
                self._pending.append(PlayoutEvent(FINISHED, old.line_id, -1.0, cut=True,
                                                  samples=old.played))
            self._line = _Line(line_id)

    def feed(self, line_id: int, samples: np.ndarray, sample_rate: int) -> None:
        data = resample(np.asarray(samples, dtype=np.float32), sample_rate, self.sample_rate)
        with self._lock:
            line = self._line
            if line is not None and line.line_id == line_id and line.fade_left is None:
                line.chunks.append(data)

    def end(self, line_id: int) -> None:
        """No more audio will come for `line_id`: it finishes after its last sample."""
        with self._lock:
            if self._line is not None and self._line.line_id == line_id:
                self._line.fed_done = True

    def cut(self, line_id: int | None = None) -> bool:
        """Fade the current line out within `fade_s` (any line, or only `line_id`)."""
        with self._lock:
            line = self._line
            if line is None or (line_id is not None and line.line_id != line_id):
                return False
            if line.fade_left is None:
                line.fade_left = self._fade_n if line.started else 0
            return True

    @property
    def active(self) -> bool:
        with self._lock:
            return self._line is not None or bool(self._pending)

    # -- consumer (the audio callback) -----------------------------------------------------
    def render(self, frames: int, at: float) -> tuple[np.ndarray, list[PlayoutEvent]]:
        out = np.zeros(frames, dtype=np.float32)
        with self._lock:
            events = [PlayoutEvent(e.kind, e.line_id, at, e.value, e.cut, e.samples)
                      for e in self._pending]
            self._pending.clear()
            line = self._line
            if line is None:
                return out, events
            pos = 0
            if line.fade_left == 0:
                self._line = None
                events.append(PlayoutEvent(FINISHED, line.line_id, at, cut=True,
                                           samples=line.played))
                return out, events
            while pos < frames and line.chunks:
                chunk = line.chunks[0]
                n = min(frames - pos, chunk.size)
                if line.fade_left is not None:
                    n = min(n, line.fade_left)
                if n > 0 and not line.started:
                    line.started = True
                    events.append(PlayoutEvent(STARTED, line.line_id,
                                               at + pos / self.sample_rate))
                block = chunk[:n]
                if line.fade_left is not None:
                    ramp = np.linspace(line.fade_left / self._fade_n,
                                       (line.fade_left - n) / self._fade_n, n,
                                       endpoint=False, dtype=np.float32)
                    block = block * ramp
                    line.fade_left -= n
                out[pos:pos + n] = block
                self._energy(line, block, at + (pos + n) / self.sample_rate, events)
                pos += n
                line.played += n
                if n == chunk.size:
                    line.chunks.popleft()
                else:
                    line.chunks[0] = chunk[n:]
                if line.fade_left == 0:
                    break
            done_fading = line.fade_left == 0
            if done_fading or (line.fed_done and not line.chunks):
                self._line = None
                events.append(PlayoutEvent(FINISHED, line.line_id,
                                           at + pos / self.sample_rate,
                                           cut=done_fading, samples=line.played))
        return out, events

    def _energy(self, line: _Line, block: np.ndarray, at: float,
                events: list[PlayoutEvent]) -> None:
        line.energy_acc.append(block)
        line.energy_n += block.size
        if line.energy_n >= self._energy_n:
            value = energy_from_dbfs(rms_dbfs(np.concatenate(line.energy_acc)))
            events.append(PlayoutEvent(ENERGY, line.line_id, at, value=value))
            line.energy_acc.clear()
            line.energy_n = 0
