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
  (erratum 21). Around the filter (issue 29): the echo's delay against the stamps is
  followed as a drifting line and the reference read on it, so the filter sees a fixed
  path; and a frame is marked Buddy's voice only (`echo_like`: no evidence of a child for
  the endpointer) when the filter took RESIDUAL_ECHO_DB out of it or what is left, or the
  microphone itself, still follows Buddy's voice.

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
ALIGN_EVERY_S = 0.25        # how often, while Buddy speaks (each measure feeds the drift fit)
ALIGN_MAX_S = 0.8           # the longest echo delay looked for ...
ALIGN_AHEAD_S = 0.1         # ... and how early an echo may seem to come
ALIGN_TOLERANCE_S = 0.04    # within the margin: the filter follows such a change itself
ALIGN_MIN_CORRELATION = 0.3  # a weaker peak (the child talking, no echo) changes nothing
# The echo's delay drifts: in the PulseAudio room the loopback's rate control moved it
# 1.5 ms a second at first (30 -> 5 ms over 20 s of a story, measured every 0.25 s to
# +-0.05 ms), a real speaker and microphone on two clocks by their ppm. An adaptive filter
# cannot follow: one sample off at 16 kHz leaves the echo only 8 dB down at 1 kHz (issue
# 29). So the delay is followed (a line fitted to the last DRIFT_FIT_S of measures) and
# the reference is read on that line, between samples, so the filter sees a fixed path.
DRIFT_FIT_S = 3.0           # measures the drift line is fitted to
DRIFT_TRACK_S = 0.02        # once followed, the delay is looked for this close to the line
DRIFT_OUTLIER_S = 0.002     # a measure this far off the line is set aside (the child's voice
DRIFT_RESTART = 4           # ... over Buddy's); this many in a row, agreeing: the path moved
DRIFT_JUMP_CORRELATION = 0.9  # ... or one measure this clear (under load the room's path
                            # jumped 43 ms: a loopback underrun)
DRIFT_NEAR_PEAK = 0.8       # the peak on the line is kept while this strong against the best
DRIFT_MAX = 0.01            # the fastest drift followed (s/s; the room's was 0.0015)
COHERENCE_LAG_S = 0.01      # the residual is compared with the reference within this
COHERENCE_SEARCH_S = 0.1    # ... or within this before the echo's delay is first measured
COHERENCE_ECHO = 0.5        # correlation above which a residual is Buddy's, not a child
COHERENCE_MIC = 0.9         # ... or the microphone itself is this much Buddy's voice
# What the filter leaves of Buddy's voice is still speech to a VAD (Silero heard 40 % of a
# story's frames at 15-25 dB down in the room, issue 29): a frame the filter took this
# much out of, while Buddy plays, is Buddy's (a child over Buddy keeps the frame loud).
RESIDUAL_ECHO_DB = 10.0
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
    unreferenced: bool      # the last frame passed with no played audio to cancel (software)
    path_moved_frames: int  # Buddy's frames found off the delay's line (software, issue 28)

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
        self.unreferenced = False
        self.path_moved_frames = 0

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

    def window_between(self, at: float, n: int, step: float) -> np.ndarray:
        """n samples read from `at` every `step` samples (about 1: a drifting clock's
        rate), between the played samples (Catmull-Rom): the reference resampled onto
        the microphone's time line (issue 29)."""
        pos = at * SAMPLE_RATE + np.arange(n) * step
        lo = int(np.floor(pos[0])) - 1
        base = self.window(lo / SAMPLE_RATE, int(np.floor(pos[-1])) - lo + 3)
        x = base.astype(np.float32)
        i = np.floor(pos).astype(np.int64) - lo
        t = (pos - np.floor(pos)).astype(np.float32)
        p0, p1, p2, p3 = x[i - 1], x[i], x[i + 1], x[i + 2]
        y = p1 + 0.5 * t * (p2 - p0 + t * (2 * p0 - 5 * p1 + 4 * p2 - p3
                                            + t * (3 * (p1 - p2) + p3 - p0)))
        return np.clip(np.rint(y), -32768, 32767).astype(np.int16)

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
        self._anchor_s = 0.0          # the delay the shift was set for (drift moves it on)
        self._fit: deque[tuple[float, float]] = deque()   # (at, measured delay)
        self._slope = 0.0             # the delay's drift (s/s) ...
        self._fit_at = 0.0            # ... through (_fit_at, _fit_delay)
        self._fit_delay = 0.0
        self._pending: list[float] = []  # consecutive measures off the line
        self.outliers = 0             # measures set aside (diagnostics)
        self.echo_like = False        # the last frame still follows the reference
        self.unreferenced = False     # the last frame had no played audio near it
        self.path_moved_frames = 0    # Buddy's, found beyond the line (diagnostics)
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
            self.unreferenced = True
            return frame                     # Buddy silent: nothing to take out
        self.unreferenced = False
        # Buddy is speaking: the rest of this window is being played now; wait for it
        # (the listening thread; a frame is at most REFERENCE_WAIT_S late for it).
        self.track.wait_until(start + frame.size / SAMPLE_RATE, REFERENCE_WAIT_S)
        t0 = time.thread_time()
        self._align(at, frame)
        # the reference on the drift line: the echo stays where the filter learned it
        if self._fit:
            self.delay_s = self._delay_at(at)
        shift = self._shift_s + self.delay_s - self._anchor_s if self._fit else self._shift_s
        ref = self.track.window_between(at - shift + self._margin_s, frame.size,
                                        1.0 - self._slope)
        mic = np.ascontiguousarray(frame, dtype=np.int16)
        out = np.empty_like(mic)
        b = self._block
        for i in range(0, mic.size, b):
            self._lib.AecCancelEcho(self._handle, mic[i:i + b].ctypes.data_as(self._ptr),
                                    ref[i:i + b].ctypes.data_as(self._ptr),
                                    out[i:i + b].ctypes.data_as(self._ptr), b)
        self.echo_like = self._echo_only(at, mic, out)
        self.frames += 1
        self.cpu_s += time.thread_time() - t0
        return out

    def _echo_only(self, at: float, mic: np.ndarray, out: np.ndarray) -> bool:
        """Whether the frame holds only Buddy's voice (then the VAD's word is not the
        child's): the filter took RESIDUAL_ECHO_DB out of it, or what is left still
        follows Buddy's voice (the filter has not converged yet, at the start of its first
        lines), or the microphone is nearly all Buddy's voice at the echo's delay."""
        e_in = float(np.dot(mic.astype(np.float32), mic.astype(np.float32)))
        e_out = float(np.dot(out.astype(np.float32), out.astype(np.float32)))
        # before the first alignment (a line's first second, the filter not converged)
        # the echo's delay is unknown: the room's test heard it 31 ms after its stamp,
        # outside +-10 ms, and Buddy's first words were taken for a child (issue 29)
        # ... nor while the line is in doubt (a measure off it: the room's path jumped)
        lag_s = COHERENCE_LAG_S if self.alignments and not self._pending \
            else COHERENCE_SEARCH_S
        ref = self._reference_near(at, out.size, lag_s)
        if not np.any(ref):
            return False                     # nothing of Buddy's near this frame
        if e_out * 10 ** (RESIDUAL_ECHO_DB / 10) < e_in:
            return True
        if _follows(ref, out, COHERENCE_ECHO) or _follows(ref, mic, COHERENCE_MIC):
            return True
        if lag_s >= COHERENCE_SEARCH_S:
            return False
        # The echo's path can jump further than the line is looked for (issue 28: under
        # load the room's loopback underran and the echo came at 58, then 73 ms instead
        # of 32.8, a second into a line; the filter did not take it out yet and six frames
        # in a row of Buddy's story were a barge-in). A microphone nearly all Buddy's voice
        # is Buddy's at any lag within COHERENCE_SEARCH_S. The microphone only: a child
        # over Buddy keeps it under COHERENCE_MIC at every lag, as at the line's. Looked
        # at only for a frame that would otherwise be the child's evidence.
        if _follows(self._reference_near(at, out.size, COHERENCE_SEARCH_S), mic,
                    COHERENCE_MIC):
            self.path_moved_frames += 1
            return True
        return False

    def _reference_near(self, at: float, n: int, lag_s: float) -> np.ndarray:
        """What was played around the echo of a frame of n samples captured at `at`:
        from `lag_s` before its delay on the line to `lag_s` after."""
        lag = round(lag_s * SAMPLE_RATE)
        return self.track.window(at - self.delay_s - lag_s, n + 2 * lag).astype(np.float32)

    def _delay_at(self, at: float) -> float:
        return self._fit_delay + self._slope * (at - self._fit_at)

    def _align(self, at: float, frame: np.ndarray) -> None:
        """The echo's delay against the two devices' time stamps (audio servers and ALSA
        plug-ins add buffers the stamps do not show): the lag of the strongest
        correlation between the microphone's last ALIGN_WINDOW_S and what was played,
        to a fraction of a sample, measured every ALIGN_EVERY_S while Buddy speaks and
        followed as a drifting line (DRIFT_*). A filter only models the margin plus its
        own length: the shift keeps the echo inside it."""
        self._mic.append((at, frame.astype(np.float32)))
        while self._mic and self._mic[0][0] < at - ALIGN_WINDOW_S:
            self._mic.popleft()
        if at < self._next_align or len(self._mic) * FRAME_SAMPLES < ALIGN_WINDOW_S * \
                SAMPLE_RATE * 0.9:
            return
        self._next_align = at + ALIGN_EVERY_S
        t0 = self._mic[0][0]
        mic = np.concatenate([f for _, f in self._mic])
        tracking = bool(self._fit)
        # once followed, only near the line (cheaper, and the child's voice over Buddy's
        # cannot pull the measure far); else anywhere from ALIGN_AHEAD_S early to ALIGN_MAX_S
        late, early = (self._delay_at(t0) + DRIFT_TRACK_S, DRIFT_TRACK_S - self._delay_at(t0)) \
            if tracking else (ALIGN_MAX_S, ALIGN_AHEAD_S)
        back, ahead = round(late * SAMPLE_RATE), round(early * SAMPLE_RATE)
        if back + ahead <= 2:
            return
        ref = self.track.window(t0 - back / SAMPLE_RATE,
                                mic.size + back + ahead).astype(np.float32)
        n = 1 << int(np.ceil(np.log2(ref.size + mic.size)))
        corr = np.fft.irfft(np.fft.rfft(ref, n) * np.conj(np.fft.rfft(mic, n)), n)
        corr = np.abs(corr[:back + ahead + 1])         # ref shifted by j against mic
        j = int(np.argmax(corr))
        if tracking:
            # a voice's pitch period repeats the peak (espeak's en-us every 10.6 ms): on a
            # glitch in the room the strongest can be one period off; the line's own peak
            # is taken while it is nearly as strong
            near = back - round(self._delay_at(t0 + ALIGN_WINDOW_S / 2) * SAMPLE_RATE)
            w = round(DRIFT_OUTLIER_S * SAMPLE_RATE)
            a, b = max(0, near - w), min(corr.size, near + w + 1)
            if b > a:
                k = a + int(np.argmax(corr[a:b]))
                if corr[k] >= DRIFT_NEAR_PEAK * corr[j]:
                    j = k
        energy = np.sqrt(np.sum(mic * mic) * np.sum(ref[j:j + mic.size] ** 2))
        strength = corr[j] / energy if energy > 0 else 0.0
        if strength < ALIGN_MIN_CORRELATION:
            return
        frac = 0.0
        if 0 < j < corr.size - 1:                      # the peak between two samples
            y0, y1, y2 = corr[j - 1], corr[j], corr[j + 1]
            den = y0 - 2.0 * y1 + y2
            frac = float(np.clip(0.5 * (y0 - y2) / den, -0.5, 0.5)) if den < 0 else 0.0
        delay = (back - j - frac) / SAMPLE_RATE
        mid = t0 + ALIGN_WINDOW_S / 2
        if tracking and abs(delay - self._delay_at(mid)) > DRIFT_OUTLIER_S:
            self.outliers += 1
            # the same new delay DRIFT_RESTART times in a row: the path moved; else an
            # odd measure (a glitch, the child over Buddy) and the line holds
            if self._pending and abs(delay - self._pending[-1]) > DRIFT_OUTLIER_S:
                self._pending.clear()
            self._pending.append(delay)
            if len(self._pending) < DRIFT_RESTART and strength < DRIFT_JUMP_CORRELATION:
                return
            self._restart(delay)
        self._pending.clear()
        if not self._fit:
            self._restart(delay)
        self._fit.append((mid, delay))
        while self._fit and self._fit[0][0] < mid - DRIFT_FIT_S:
            self._fit.popleft()
        ts = np.array([t for t, _ in self._fit])
        ds = np.array([d for _, d in self._fit])
        self._fit_at, self._fit_delay = float(ts.mean()), float(ds.mean())
        if ts[-1] - ts[0] >= 0.5:
            dt = ts - ts.mean()
            self._slope = float(np.clip(np.dot(dt, ds - ds.mean()) / np.dot(dt, dt),
                                        -DRIFT_MAX, DRIFT_MAX))
        self.delay_s = self._delay_at(at)
        self.alignments += 1

    def _restart(self, delay: float) -> None:
        """A new echo path (the first measure, or a jump): the reference keeps its
        current shift when the echo is still inside what the filter covers (shift -
        margin .. + filter_s): a moved reference makes the filter learn the room again;
        in the room the first measurement (~25 ms, a second into Buddy's first line)
        moved it from 0 and the filter started over as Buddy's voice was loudest."""
        shift = self._shift_s + (self.delay_s - self._anchor_s if self._fit else 0.0)
        lo = shift - self._margin_s + ALIGN_TOLERANCE_S / 4
        hi = shift - self._margin_s + self._filter_s - ALIGN_TOLERANCE_S
        self._shift_s = shift if lo <= delay <= hi else delay
        self._anchor_s = delay
        self._fit.clear()
        self._slope = 0.0
        self._fit_at, self._fit_delay = 0.0, delay
        self.delay_s = delay

    def close(self) -> None:
        if self._handle:
            self._lib.AecDestroy(self._handle)
            self._handle = None


def _follows(ref: np.ndarray, x: np.ndarray, bar: float) -> bool:
    """Whether `x` is at least `bar` correlated (normalised) with `ref` at one of the
    ref.size - x.size + 1 shifts."""
    xf = x.astype(np.float32)
    ex = float(np.dot(xf, xf))
    if ex <= 0.0:
        return False
    win = np.convolve(ref * ref, np.ones(xf.size, np.float32), mode="valid")
    corr = np.correlate(ref, xf, mode="valid")
    return float(np.max(np.abs(corr) / np.sqrt(ex * np.maximum(win, 1e-9)))) >= bar


def make_canceller(mode: str) -> EchoCanceller:
    """'server': the audio server's canceller cleans the microphone; 'software': speexdsp
    with the played reference; 'off': none (tests show why it is needed)."""
    if mode == "software":
        return SpeexCanceller()
    if mode == "server":
        return ServerCanceller("audio server (module-echo-cancel)")
    return ServerCanceller("off")
