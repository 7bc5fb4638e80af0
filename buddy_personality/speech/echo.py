"""Buddy's own voice out of the microphone (DESIGN erratum 24): the ears listen while Buddy
speaks, through an echo canceller.

Two ways, one interface (`EchoCanceller.process(at, frame) -> frame`):
- the audio server's canceller (PulseAudio / PipeWire `module-echo-cancel`, WebRTC): the
  microphone the node opens is already cleaned; `ServerCanceller` passes frames through.
  `speech.audio_server` sets it up for `buddy run --listen`; `deploy/` for the robot.
- `SpeexCanceller`: where no audio server runs, a software canceller fed with what the
  speaker played (the tts node's `tts/played`, kept by `ReferenceTrack` on the capture
  clock). It is speexdsp's MDF adaptive filter with its residual-echo suppressor, through
  the `pyaec` wheel: manylinux wheels for x86_64 and aarch64 that load a bundled C
  library with ctypes (any CPython 3, so Python 3.12 on the Pi's Ubuntu 24.04), 0.5 MB,
  no build step. (The WebRTC APM bindings on PyPI, `webrtc-audio-processing` and
  `aec-audio-processing`, and the `speexdsp` bindings have no aarch64 wheel for 3.12.)
  It runs only while Buddy's voice may be in the microphone: a quiet room costs nothing
  (erratum 21).

Audio stays in memory (HC-3).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any, Protocol

import numpy as np

from buddy_personality.speech.audio import SampleClock
from buddy_personality.speech.endpointing import FRAME_SAMPLES, SAMPLE_RATE

MODES = ("server", "software", "off")
REFERENCE_KEEP_S = 3.0      # played audio kept for alignment
REFERENCE_WAIT_S = 0.08    # how long a microphone frame waits for its reference
REFERENCE_STALE_S = 0.15   # no block for this long: the speaker is not playing
ALIGN_WINDOW_S = 1.0        # microphone audio the delay is measured on
ALIGN_EVERY_S = 2.0         # how often, while Buddy speaks
ALIGN_MAX_S = 0.8           # the longest echo delay looked for ...
ALIGN_AHEAD_S = 0.1         # ... and how early an echo may seem to come
ALIGN_TOLERANCE_S = 0.04    # within the margin: the filter follows such a change itself
ALIGN_MIN_CORRELATION = 0.3  # a weaker peak (the child talking, no echo) changes nothing
COHERENCE_LAG_S = 0.01      # the residual is compared with the reference within this
COHERENCE_SEARCH_S = 0.1    # ... or within this before the echo's delay is first measured
COHERENCE_ECHO = 0.5        # correlation above which a residual is Buddy's, not a child
ACTIVE_AFTER_S = 1.0        # the filter runs this long after the last played sample (echo tail)
# The two streams are continuous but their per-block stamps are not (a loaded machine's
# audio callbacks run late: 3 ms std, single frames 60 ms late, issue 29): each stream is
# kept on its sample clock (`audio.SampleClock`; the tts player stamps tts/played so).
REFERENCE_SNAP_S = 0.004    # a played block this close to the previous one's end follows
                            # it (a skipped silent block, 10 ms, stays a gap)


class EchoCancellerUnavailable(RuntimeError):
    pass


class EchoCanceller(Protocol):
    name: str
    cpu_s: float            # thread CPU time spent cancelling (diagnostics, benchmark)
    frames: int             # frames that went through the filter
    delay_s: float          # the echo's measured delay against the stamps (software)
    echo_like: bool         # the last frame is what is left of Buddy's voice (software)

    def process(self, at: float, frame: np.ndarray) -> np.ndarray: ...

    def reference(self, at: float, samples: np.ndarray) -> None: ...

    def close(self) -> None: ...


class ServerCanceller:
    """The audio server cancels (or nothing does: mode 'off'): frames pass through."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.cpu_s = 0.0
        self.frames = 0
        self.delay_s = 0.0
        self.echo_like = False

    def process(self, at: float, frame: np.ndarray) -> np.ndarray:
        del at
        return frame

    def reference(self, at: float, samples: np.ndarray) -> None:
        del at, samples

    def close(self) -> None:
        return


class ReferenceTrack:
    """What the speaker played, 16 kHz int16, placed on the monotonic clock at the time
    each block reached the speaker; read back as the window that lines up with a
    microphone frame. Thread-safe (the executor adds, the listening thread reads)."""

    def __init__(self, keep_s: float = REFERENCE_KEEP_S) -> None:
        self._chunks: deque[tuple[int, np.ndarray]] = deque()   # (first sample index, pcm)
        self._keep = round(keep_s * SAMPLE_RATE)
        self._lock = threading.Lock()
        self._added = threading.Condition(self._lock)
        self.last_sample_at = -1e18      # end of the newest played block (monotonic s)
        self._last_add = -1e18
        self._next_start = -(1 << 62)    # where a block continuing the stream starts

    @staticmethod
    def _index(at: float) -> int:
        return round(at * SAMPLE_RATE)

    def add(self, at: float, samples: np.ndarray) -> None:
        if samples.size == 0:
            return
        start = self._index(at)
        with self._added:
            if abs(start - self._next_start) <= REFERENCE_SNAP_S * SAMPLE_RATE:
                start = self._next_start     # the same stream: sample-contiguous
            self._next_start = start + samples.size
            self._chunks.append((start, samples.astype(np.int16, copy=False)))
            newest = start + samples.size
            while self._chunks and self._chunks[0][0] + self._chunks[0][1].size \
                    < newest - self._keep:
                self._chunks.popleft()
            self.last_sample_at = max(self.last_sample_at, newest / SAMPLE_RATE)
            self._last_add = time.monotonic()
            self._added.notify_all()

    def wait_until(self, at: float, timeout_s: float) -> bool:
        """Wait (at most `timeout_s`) until what was played up to `at` is known: the
        tts node hands its blocks over as it renders them, a few ms before they play."""
        with self._added:
            if time.monotonic() - self._last_add > REFERENCE_STALE_S:
                return False        # nothing is being played: no block is on its way
            return self._added.wait_for(lambda: self.last_sample_at >= at, timeout_s)

    def window(self, at: float, n: int) -> np.ndarray:
        """n samples from `at` (zeros where nothing was played)."""
        out = np.zeros(n, dtype=np.int16)
        lo = self._index(at)
        hi = lo + n
        with self._lock:
            for start, pcm in self._chunks:
                end = start + pcm.size
                if end <= lo or start >= hi:
                    continue
                a, b = max(lo, start), min(hi, end)
                out[a - lo:b - lo] = pcm[a - start:b - start]
        return out


class SpeexCanceller:
    """speexdsp's echo canceller (pyaec) over `ReferenceTrack`.

    `margin_s`: the reference window is taken this much *after* the microphone frame's
    capture time, so that each played sample enters the filter before its echo even when
    the two devices' time stamps are off by that much (the filter only models the past);
    the filter (`filter_s` long) covers the margin plus the room's echo path."""

    PREPROCESS = True     # speex's residual-echo suppressor after the linear filter

    def __init__(self, filter_s: float = 0.256, margin_s: float = 0.05,
                 block: int = 256) -> None:
        try:
            import pyaec  # noqa: PLC0415 - optional: the robot may use the audio server's
        except (ImportError, OSError) as exc:
            raise EchoCancellerUnavailable(f"pyaec is not installed: {exc}") from exc
        if FRAME_SAMPLES % block:
            raise ValueError("block must divide the frame")
        self.name = "software (speexdsp via pyaec)"
        self._lib: Any = pyaec.lib
        self._handle: Any = self._lib.AecNew(block, 1 << round(np.log2(filter_s * SAMPLE_RATE)),
                                            SAMPLE_RATE, self.PREPROCESS)
        if not self._handle:
            raise EchoCancellerUnavailable("pyaec could not create a canceller")
        self._block = block
        self._margin_s = margin_s
        self.track = ReferenceTrack()
        self.cpu_s = 0.0
        self.frames = 0
        self.delay_s = 0.0            # the echo's delay against the stamps (measured)
        self._filter_s = (1 << round(np.log2(filter_s * SAMPLE_RATE))) / SAMPLE_RATE
        self._shift_s = 0.0           # the reference's shift for the filter (see _align)
        self.echo_like = False        # the last frame still follows the reference
        self.alignments = 0
        self._mic: deque[tuple[float, np.ndarray]] = deque()
        self._clock = SampleClock(SAMPLE_RATE)   # the capture stream's time line
        self._next_align = -1e18
        self._ptr = self._lib.AecCancelEcho.argtypes[1]

    def reference(self, at: float, samples: np.ndarray) -> None:
        self.track.add(at, samples)

    def process(self, at: float, frame: np.ndarray) -> np.ndarray:
        at = self._clock.place(at, frame.size)
        start = at - self._shift_s + self._margin_s
        if at > self.track.last_sample_at + ACTIVE_AFTER_S:
            self.echo_like = False
            return frame                     # Buddy silent: nothing to take out
        # Buddy is speaking: the rest of this window is being played now; wait for it
        # (the listening thread; a frame is at most REFERENCE_WAIT_S late for it).
        self.track.wait_until(start + frame.size / SAMPLE_RATE, REFERENCE_WAIT_S)
        t0 = time.thread_time()
        self._align(at, frame)
        ref = self.track.window(at - self._shift_s + self._margin_s, frame.size)
        mic = np.ascontiguousarray(frame, dtype=np.int16)
        out = np.empty_like(mic)
        b = self._block
        for i in range(0, mic.size, b):
            self._lib.AecCancelEcho(self._handle, mic[i:i + b].ctypes.data_as(self._ptr),
                                    ref[i:i + b].ctypes.data_as(self._ptr),
                                    out[i:i + b].ctypes.data_as(self._ptr), b)
        self.echo_like = self._coherent(at, out)
        self.frames += 1
        self.cpu_s += time.thread_time() - t0
        return out

    def _coherent(self, at: float, out: np.ndarray) -> bool:
        """Whether what is left still follows Buddy's voice (the filter has not converged
        yet, at the start of its first lines): then it is echo, not a child."""
        x = out.astype(np.float32)
        # before the first alignment (a line's first second, the filter not converged)
        # the echo's delay is unknown: the room's test heard it 31 ms after its stamp,
        # outside +-10 ms, and Buddy's first words were taken for a child (issue 29)
        lag_s = COHERENCE_LAG_S if self.alignments else COHERENCE_SEARCH_S
        lag = round(lag_s * SAMPLE_RATE)
        ref = self.track.window(at - self.delay_s - lag_s,
                                x.size + 2 * lag).astype(np.float32)
        ex = float(np.dot(x, x))
        if ex <= 0.0 or not np.any(ref):
            return False
        corr = np.correlate(ref, x, mode="valid")       # 2 * lag + 1 shifts
        win = np.convolve(ref * ref, np.ones(x.size, np.float32), mode="valid")
        best = float(np.max(np.abs(corr) / np.sqrt(ex * np.maximum(win, 1e-9))))
        return best >= COHERENCE_ECHO

    def _align(self, at: float, frame: np.ndarray) -> None:
        """The echo's delay against the two devices' time stamps (audio servers and ALSA
        plug-ins add buffers the stamps do not show): the lag of the strongest
        correlation between the microphone's last ALIGN_WINDOW_S and what was played,
        looked for every ALIGN_EVERY_S while Buddy speaks. A filter only models
        ALIGN's margin plus its own length: this keeps the echo inside it."""
        self._mic.append((at, frame.astype(np.float32)))
        while self._mic and self._mic[0][0] < at - ALIGN_WINDOW_S:
            self._mic.popleft()
        if at < self._next_align or len(self._mic) * FRAME_SAMPLES < ALIGN_WINDOW_S * \
                SAMPLE_RATE * 0.9:
            return
        self._next_align = at + ALIGN_EVERY_S
        t0 = self._mic[0][0]
        mic = np.concatenate([f for _, f in self._mic])
        back, ahead = round(ALIGN_MAX_S * SAMPLE_RATE), round(ALIGN_AHEAD_S * SAMPLE_RATE)
        ref = self.track.window(t0 - ALIGN_MAX_S, mic.size + back + ahead).astype(np.float32)
        n = 1 << int(np.ceil(np.log2(ref.size + mic.size)))
        corr = np.fft.irfft(np.fft.rfft(ref, n) * np.conj(np.fft.rfft(mic, n)), n)
        corr = corr[:back + ahead + 1]                 # ref shifted by j against mic
        j = int(np.argmax(np.abs(corr)))
        energy = np.sqrt(np.sum(mic * mic) * np.sum(ref[j:j + mic.size] ** 2))
        if energy > 0 and abs(corr[j]) / energy >= ALIGN_MIN_CORRELATION:
            delay = ALIGN_MAX_S - j / SAMPLE_RATE
            # a moved reference makes the filter learn the room again: move it only when
            # the echo leaves what the filter covers (shift - margin .. + filter_s), not
            # for a measured delay the filter already models: in the room the first
            # measurement (~25 ms, after a second of Buddy's first line) moved it from 0
            # and the filter started over just as Buddy's voice was loudest (issue 29)
            lo = self._shift_s - self._margin_s + ALIGN_TOLERANCE_S / 4
            hi = self._shift_s - self._margin_s + self._filter_s - ALIGN_TOLERANCE_S
            if not lo <= delay <= hi:
                self._shift_s = delay
            self.delay_s = delay
            self.alignments += 1

    def close(self) -> None:
        if self._handle:
            self._lib.AecDestroy(self._handle)
            self._handle = None


def make_canceller(mode: str) -> EchoCanceller:
    """'server': the audio server's canceller cleans the microphone; 'software': speexdsp
    with the played reference; 'off': none (tests show why it is needed)."""
    if mode == "software":
        return SpeexCanceller()
    if mode == "server":
        return ServerCanceller("audio server (module-echo-cancel)")
    return ServerCanceller("off")
