"""Where the `asr` node's audio comes from: 16 kHz mono frames of 512 samples, each with
its capture time (monotonic s), handed to `sink` from a capture thread.

- `MicSource`: a PortAudio input device (the `sounddevice` package).
- `WavSource`: a WAV file, or a directory whose WAV files are played in name order as
  they appear (tests drop a child's line into it), paced in real time with silence in
  between, as a microphone would deliver them. Input files are only ever read.
Audio captured here stays in memory (HC-3).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from buddy_personality.speech.audio import INT16_FULL_SCALE, read_wav, resample, to_int16
from buddy_personality.speech.endpointing import FRAME_S, FRAME_SAMPLES, SAMPLE_RATE
from buddy_personality.speech.players import import_sounddevice, parse_device

FrameSink = Callable[[float, np.ndarray], None]   # (capture time, int16[512])


class _Rechunker:
    """Blocks of any size in, frames of exactly 512 samples out."""

    def __init__(self, sink: FrameSink) -> None:
        self._sink = sink
        self._buf = np.zeros(0, dtype=np.int16)
        self._buf_at = 0.0

    def push(self, at: float, block: np.ndarray) -> None:
        if self._buf.size == 0:
            self._buf_at = at
        self._buf = np.concatenate([self._buf, block])
        while self._buf.size >= FRAME_SAMPLES:
            frame, self._buf = self._buf[:FRAME_SAMPLES], self._buf[FRAME_SAMPLES:]
            self._sink(self._buf_at, frame)
            self._buf_at += FRAME_S


class MicSource:
    def __init__(self, device: str, sink: FrameSink) -> None:
        self._sd = import_sounddevice()
        self._chunker = _Rechunker(sink)
        self.overflows = 0
        # latency "low": frames reach the ears as they are captured. PortAudio's default
        # for input ("high") let the ALSA pulse plug-in hand them over about a second
        # late, and a barge-in came after the child had finished (erratum 24).
        self._stream: Any = self._sd.InputStream(
            samplerate=SAMPLE_RATE, blocksize=FRAME_SAMPLES, device=parse_device(device),
            channels=1, dtype="int16", latency="low", callback=self._callback)

    def _callback(self, indata: np.ndarray, frames: int, time_info: Any, status: Any) -> None:
        if status.input_overflow:
            self.overflows += 1
        now = time.monotonic()
        age = float(time_info.currentTime - time_info.inputBufferAdcTime)
        at = now - age if 0.0 <= age < 1.0 else now - frames / SAMPLE_RATE
        self._chunker.push(at, indata[:, 0].copy())

    def start(self) -> None:
        self._stream.start()

    def close(self) -> None:
        self._stream.abort()
        self._stream.close()


class WavSource:
    def __init__(self, path: str | Path, sink: FrameSink, gap_s: float = 1.5,
                 poll_s: float = 0.1) -> None:
        self.path = Path(path).expanduser()
        if not self.path.exists():
            raise FileNotFoundError(f"asr input {self.path} does not exist")
        self._sink = sink
        self._gap_frames = round(gap_s / FRAME_S)
        self._poll_s = poll_s
        self._stop = threading.Event()
        self._seen: set[str] = set()
        self.files_played: list[str] = []
        self._thread = threading.Thread(target=self._run, name="asr-wav", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _next_file(self) -> Path | None:
        if self.path.is_file():
            return None if self.path.name in self._seen else self.path
        for f in sorted(self.path.glob("*.wav")):
            if f.name not in self._seen:
                return f
        return None

    def _run(self) -> None:
        silence = np.zeros(FRAME_SAMPLES, dtype=np.int16)
        t = time.monotonic()
        pending: list[np.ndarray] = []
        gap = 0
        while not self._stop.is_set():
            if not pending and gap == 0:
                f = self._next_file()
                if f is not None:
                    pending = self._frames_of(f)
                    gap = self._gap_frames
            if pending:
                frame = pending.pop(0)
            else:
                frame = silence
                gap = max(0, gap - 1)
            delay = t - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)
            elif delay < -0.5:
                t = time.monotonic()   # fell far behind (a loaded machine): resync
            self._sink(t, frame)
            t += FRAME_S

    def _frames_of(self, f: Path) -> list[np.ndarray]:
        self._seen.add(f.name)
        self.files_played.append(f.name)
        try:
            samples, rate = read_wav(f.read_bytes())
        except (OSError, ValueError, EOFError):
            return []
        pcm = to_int16(resample(samples, rate, SAMPLE_RATE))
        pad = (-pcm.size) % FRAME_SAMPLES
        pcm = np.concatenate([pcm, np.zeros(pad, dtype=np.int16)])
        return list(pcm.reshape(-1, FRAME_SAMPLES))

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2.0)


def frame_to_float(frame: np.ndarray) -> np.ndarray:
    return frame.astype(np.float32) / INT16_FULL_SCALE
