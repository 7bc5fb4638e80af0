"""Where Buddy's voice goes: a PortAudio device (the `sounddevice` package), or WAV files
in a directory (tests, recordings). Both pull blocks from one `Playout`, so
`tts/speaking` and `tts/energy` come from the samples actually handed over.

Events go to `sink` from the audio thread; the node hands them to its executor."""

from __future__ import annotations

import threading
import time
import wave
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from buddy_personality.speech.audio import SampleClock, to_int16
from buddy_personality.speech.playout import FINISHED, STARTED, Playout, PlayoutEvent

EventSink = Callable[[list[PlayoutEvent]], None]
BlockSink = Callable[[float, np.ndarray], None]   # (when it plays, float32 samples)
REFERENCE_BATCH_S = 0.03    # played audio is handed on in batches this long (tts/played)


class AudioUnavailable(RuntimeError):
    """PortAudio (libportaudio2) or the chosen device is missing."""


def import_sounddevice() -> Any:
    try:
        import sounddevice  # noqa: PLC0415 - needs libportaudio2 at import time
    except OSError as exc:  # "PortAudio library not found"
        raise AudioUnavailable(f"{exc} (apt-get install libportaudio2)") from exc
    return sounddevice


def parse_device(device: str) -> int | str | None:
    """'' or 'default' -> the system default; digits -> an index; else a name substring."""
    device = device.strip()
    if device in ("", "default"):
        return None
    return int(device) if device.isdigit() else device


class Player:
    """begin/feed/end/cut a line; subclasses move blocks from `playout` to an output."""

    def __init__(self, sample_rate: int, sink: EventSink, block_s: float) -> None:
        self.playout = Playout(sample_rate)
        self.sample_rate = sample_rate
        self.blocksize = max(64, round(block_s * sample_rate))
        self._sink = sink
        # What the speaker plays, for a software echo canceller (erratum 24): None = nobody
        # listens; set by the node. Called from the audio thread with batched blocks.
        self.block_sink: BlockSink | None = None
        self._batch: list[np.ndarray] = []
        self._batch_at = 0.0
        self._batch_n = round(REFERENCE_BATCH_S * sample_rate)

    def begin(self, line_id: int, label: str) -> None:
        self.playout.begin(line_id)
        self._ensure_running(label)

    def feed(self, line_id: int, samples: np.ndarray, sample_rate: int) -> None:
        self.playout.feed(line_id, samples, sample_rate)

    def end(self, line_id: int) -> None:
        self.playout.end(line_id)

    def cut(self, line_id: int | None = None) -> bool:
        return self.playout.cut(line_id)

    def maintain(self, now: float) -> None:
        """Called about once a second: close what idles (the device stream)."""

    def close(self) -> None:
        """Stop output; pending lines are dropped."""

    def _ensure_running(self, label: str) -> None:
        raise NotImplementedError

    def _emit(self, events: list[PlayoutEvent]) -> None:
        if events:
            self._sink(events)

    def _played(self, at: float, block: np.ndarray) -> None:
        """Audio thread: batch what was played for `block_sink` (silence between lines is
        not handed on: the canceller treats a gap as silence)."""
        sink = self.block_sink
        if sink is None:
            return
        silent = not np.any(block)
        if not self._batch:
            if silent:
                return
            self._batch_at = at
        self._batch.append(block.copy())
        if silent or sum(b.size for b in self._batch) >= self._batch_n:
            batch, self._batch = self._batch, []
            sink(self._batch_at, np.concatenate(batch))


class SoundDevicePlayer(Player):
    """Plays through PortAudio. The stream opens when a line begins and closes after
    `idle_close_s` without a line, so an idle robot keeps no audio callback running."""

    def __init__(self, device: str, sample_rate: int, sink: EventSink,
                 block_s: float = 0.01, idle_close_s: float = 5.0,
                 latency_s: float = 0.06, flush_on_cut: bool = False) -> None:
        super().__init__(sample_rate, sink, block_s)
        # The device buffer: a cut is heard within one block plus this; a loaded machine
        # (a busy executor holding the GIL) underruns below ~50 ms.
        self._latency_s = latency_s
        self._flush_on_cut = flush_on_cut
        self._sd = import_sounddevice()
        self._device = parse_device(device)
        self._idle_close_s = idle_close_s
        self._stream: Any = None
        self._lock = threading.Lock()
        self._last_active = time.monotonic()
        self._clock = SampleClock(sample_rate)   # the blocks' play times, sample-exact
        self.underflows = 0
        self.flush_errors = 0          # a cut's abort/start failed (the stream was reopened)
        self.last_flush_error = ""
        try:
            self._sd.check_output_settings(device=self._device, channels=1, dtype="float32",
                                           samplerate=sample_rate)
        except Exception as exc:
            raise AudioUnavailable(f"output device {device or 'default'!r}: {exc}") from exc

    def _callback(self, outdata: np.ndarray, frames: int, time_info: Any,
                  status: Any) -> None:
        if status.output_underflow:
            self.underflows += 1
        now = time.monotonic()
        latency = float(time_info.outputBufferDacTime - time_info.currentTime)
        at = self._clock.place(now + latency if 0.0 <= latency < 1.0 else now, frames)
        block, events = self.playout.render(frames, at)
        outdata[:, 0] = block
        if events:
            self._last_active = now
        self._emit(events)
        self._played(at, block)

    def _ensure_running(self, label: str) -> None:
        del label
        with self._lock:
            self._last_active = time.monotonic()
            if self._stream is not None:
                return
            self._open()

    def _open(self) -> None:
        """Under `_lock`: open and start the output stream."""
        self._clock.reset()
        self._stream = self._sd.OutputStream(
            samplerate=self.sample_rate, blocksize=self.blocksize, device=self._device,
            channels=1, dtype="float32", latency=self._latency_s, callback=self._callback)
        self._stream.start()

    def cut(self, line_id: int | None = None) -> bool:
        """Fade the line out; with `flush_on_cut`, also drop what the device already holds
        of it: the stream's buffer (`output_latency_s`, 60 ms) otherwise keeps Buddy
        talking that long after a barge-in. An aborted stream discards its buffered blocks
        (Pa_AbortStream; ALSA's drop, a flush on the PulseAudio plugin) and starts again at
        once with the fade, then silence (issue 29: activity to silence p95 26.5 ms
        instead of 88.8). Off by default: behind the audio server's echo canceller
        (module-echo-cancel) the room test's interrupting child reached the transcription
        0.25-0.3 s short in 3 of 4 runs with the flush, and in 4 of 8 without it (a
        marginal test; whether the canceller's realignment loses microphone audio is
        not shown either way), and the child's words matter more than 60 ms."""
        if not self.playout.cut(line_id):
            return False
        if not self._flush_on_cut:
            return True
        with self._lock:
            stream = self._stream
            if stream is not None and stream.active:
                try:
                    stream.abort()
                    self._clock.reset()
                    stream.start()
                except Exception as exc:  # PortAudio error: the stream is reopened
                    self.flush_errors += 1
                    self.last_flush_error = str(exc)
                    stream.close(ignore_errors=True)
                    self._stream = None
                    try:
                        self._open()
                    except Exception as again:  # the next line's begin() tries again
                        self.last_flush_error = str(again)
        return True

    def maintain(self, now: float) -> None:
        del now
        with self._lock:
            idle = time.monotonic() - self._last_active
            if self._stream is not None and not self.playout.active \
                    and idle >= self._idle_close_s:
                self._stream.close()
                self._stream = None

    def close(self) -> None:
        with self._lock:
            if self._stream is not None:
                self._stream.abort()
                self._stream.close()
                self._stream = None


@dataclass(slots=True, frozen=True)
class Recording:
    """One line written by `WavDirPlayer`: the file and when its first sample 'played'."""

    path: Path
    started_at: float      # monotonic s of the first sample
    sample_rate: int
    samples: int
    cut: bool


class WavDirPlayer(Player):
    """Writes each line to `<dir>/<NNNN>-<label>.wav`, paced in real time block by block
    (as a sound card would take them), so speaking, energy and cuts behave as on a device.
    `recordings` lists what was written, in order."""

    def __init__(self, directory: str | Path, sample_rate: int, sink: EventSink,
                 block_s: float = 0.01) -> None:
        super().__init__(sample_rate, sink, block_s)
        self.directory = Path(directory).expanduser()
        self.directory.mkdir(parents=True, exist_ok=True)
        self.recordings: list[Recording] = []
        self._cond = threading.Condition()
        self._closing = False
        self._labels: dict[int, str] = {}
        self._audio: dict[int, list[np.ndarray]] = {}
        self._started: dict[int, float] = {}
        self._seq = len(list(self.directory.glob("*.wav")))
        self._thread = threading.Thread(target=self._run, name="tts-wavdir", daemon=True)
        self._thread.start()

    def begin(self, line_id: int, label: str) -> None:
        with self._cond:
            self._labels[line_id] = label
            self._audio[line_id] = []
        super().begin(line_id, label)

    def _ensure_running(self, label: str) -> None:
        del label
        with self._cond:
            self._cond.notify_all()

    def _run(self) -> None:
        period = self.blocksize / self.sample_rate
        next_at: float | None = None
        while True:
            with self._cond:
                while not self._closing and not self.playout.active:
                    next_at = None
                    self._cond.wait()
                if self._closing:
                    return
            now = time.monotonic()
            if next_at is None or next_at < now - 0.5:
                next_at = now   # (re)start the block clock; a late block catches up
            delay = next_at - now
            if delay > 0:
                time.sleep(delay)
            block, events = self.playout.render(self.blocksize, next_at)
            with self._cond:
                self._keep(block, events, next_at)
            self._emit(events)
            self._played(next_at, block)
            next_at += period

    def _keep(self, block: np.ndarray, events: list[PlayoutEvent], block_at: float) -> None:
        """Keep the samples of the line in this block (one line per block: the playout
        finishes a line before it starts the next)."""
        sr = self.sample_rate
        lo, hi, owner = 0, block.size, None
        for e in events:
            if e.kind == STARTED:
                self._started[e.line_id] = e.at
                lo, owner = round((e.at - block_at) * sr), e.line_id
            elif e.kind == FINISHED and e.line_id in self._started and e.samples:
                hi, owner = round((e.at - block_at) * sr), e.line_id
        if owner is None:
            live = [lid for lid in self._audio if lid in self._started]
            owner = live[-1] if live else None
        if owner is not None and owner in self._audio:
            self._audio[owner].append(block[max(0, lo):max(0, hi)])
        for e in events:
            if e.kind == FINISHED:
                self._write(e)

    def _write(self, e: PlayoutEvent) -> None:
        chunks = self._audio.pop(e.line_id, [])
        label = self._labels.pop(e.line_id, "line")
        started = self._started.pop(e.line_id, None)
        if started is None or e.samples == 0:
            return
        audio = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float32)
        self._seq += 1
        path = self.directory / f"{self._seq:04d}-{label}.wav"
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(self.sample_rate)
            w.writeframes(to_int16(audio).tobytes())
        self.recordings.append(Recording(path, started, self.sample_rate, int(audio.size),
                                         e.cut))

    def close(self) -> None:
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._thread.join(timeout=2.0)
