"""Small audio helpers shared by the voice and the ears: WAV in memory (never on disk,
HC-3), a streaming WAV header reader, resampling, loudness."""

from __future__ import annotations

import io
import math
import struct
import wave
from dataclasses import dataclass

import numpy as np

INT16_FULL_SCALE = 32768.0


def wav_bytes(samples: np.ndarray, sample_rate: int) -> bytes:
    """16-bit mono WAV of `samples` (int16, or float in [-1, 1]) built in memory."""
    pcm = to_int16(samples)
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(int(sample_rate))
        w.writeframes(pcm.tobytes())
    return buf.getvalue()


def read_wav(data: bytes) -> tuple[np.ndarray, int]:
    """(float32 mono samples, sample rate) of a 16-bit PCM WAV given as bytes."""
    with wave.open(io.BytesIO(data), "rb") as w:
        if w.getsampwidth() != 2:
            raise ValueError(f"only 16-bit PCM WAV is supported, got {8 * w.getsampwidth()} bit")
        channels, rate = w.getnchannels(), w.getframerate()
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    if channels > 1:
        pcm = pcm.reshape(-1, channels).mean(axis=1)
    return (pcm.astype(np.float32) / INT16_FULL_SCALE), rate


def to_int16(samples: np.ndarray) -> np.ndarray:
    if samples.dtype == np.int16:
        return samples
    return (np.clip(samples, -1.0, 32767 / 32768) * INT16_FULL_SCALE).astype(np.int16)


def resample(samples: np.ndarray, rate_in: int, rate_out: int) -> np.ndarray:
    """Linear-interpolation resampling: plenty for a voice going to a small speaker."""
    if rate_in == rate_out or samples.size == 0:
        return samples.astype(np.float32, copy=False)
    n_out = max(1, round(samples.size * rate_out / rate_in))
    x_out = np.arange(n_out, dtype=np.float64) * (rate_in / rate_out)
    return np.interp(x_out, np.arange(samples.size), samples).astype(np.float32)


def rms_dbfs(samples: np.ndarray) -> float:
    """Loudness of float samples in dB relative to full scale (-inf for digital silence)."""
    if samples.size == 0:
        return -math.inf
    rms = float(np.sqrt(np.mean(np.square(samples, dtype=np.float64))))
    return 20.0 * math.log10(rms) if rms > 0.0 else -math.inf


def energy_from_dbfs(dbfs: float, floor_db: float = -50.0, top_db: float = -10.0) -> float:
    """The mouth's loudness in [0, 1] (tts/energy): dB mapped linearly from `floor_db`
    (closed) to `top_db` (wide open), which is how loud speech looks, not how it measures."""
    if not math.isfinite(dbfs):
        return 0.0
    return min(1.0, max(0.0, (dbfs - floor_db) / (top_db - floor_db)))


@dataclass(slots=True)
class WavStreamHeader:
    """Parses a RIFF/WAVE header as bytes arrive (espeak-ng --stdout and HTTP bodies stream
    it first, with unknown sizes), then hands out 16-bit samples as they come."""

    sample_rate: int = 0
    channels: int = 0
    _buf: bytearray | None = None
    _data_started: bool = False
    _carry: bytes = b""

    def feed(self, chunk: bytes) -> np.ndarray:
        """Float32 mono samples contained in `chunk` (empty until the header is read)."""
        if not self._data_started:
            if self._buf is None:
                self._buf = bytearray()
            self._buf += chunk
            rest = self._parse_header()
            if rest is None:
                return np.zeros(0, dtype=np.float32)
            chunk = rest
        data = self._carry + chunk
        frame = 2 * max(1, self.channels)
        usable = len(data) - len(data) % frame
        self._carry = data[usable:]
        pcm = np.frombuffer(data[:usable], dtype="<i2")
        if self.channels > 1:
            pcm = pcm.reshape(-1, self.channels).mean(axis=1)
        return pcm.astype(np.float32) / INT16_FULL_SCALE

    def _parse_header(self) -> bytes | None:
        buf = self._buf
        assert buf is not None
        if len(buf) < 12:
            return None
        if buf[:4] != b"RIFF" or buf[8:12] != b"WAVE":
            raise ValueError("not a WAV stream")
        pos = 12
        while len(buf) >= pos + 8:
            cid, size = buf[pos:pos + 4], struct.unpack("<I", buf[pos + 4:pos + 8])[0]
            if cid == b"data":
                if not self.sample_rate:
                    raise ValueError("WAV data before its fmt chunk")
                self._data_started = True
                rest = bytes(buf[pos + 8:])
                self._buf = None
                return rest
            if len(buf) < pos + 8 + size:
                return None
            if cid == b"fmt ":
                fmt, channels, rate, _, _, bits = struct.unpack("<HHIIHH", buf[pos + 8:pos + 24])
                if fmt not in (1, 0xFFFE) or bits != 16:
                    raise ValueError(f"WAV format {fmt} with {bits} bit is not 16-bit PCM")
                self.channels, self.sample_rate = channels, rate
            pos += 8 + size + (size & 1)
        return None


@dataclass(slots=True)
class SampleClock:
    """A continuous audio stream's time line (issue 29): an audio callback's stamp of its
    block is late by however long the callback waited for a CPU (3 ms std, single blocks
    60 ms on a loaded machine), while the stream itself is sample-exact. `place(at, n)`
    gives the block's time as the previous block's end, drawn towards the stamps (an
    earlier stamp pulls harder: callbacks are only ever late; a later one only follows
    the two clocks' drift); a stamp `resync_s` away is a gap (an overrun, a restart) and
    taken as it is."""

    sample_rate: int
    resync_s: float = 0.1
    earlier: float = 0.05
    later: float = 0.001
    _next: float | None = None

    def place(self, at: float, n: int) -> float:
        expected = self._next
        if expected is None or abs(at - expected) > self.resync_s:
            t = at
        else:
            t = expected + (self.earlier if at < expected else self.later) * (at - expected)
        self._next = t + n / self.sample_rate
        return t

    def reset(self) -> None:
        self._next = None
