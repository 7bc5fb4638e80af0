"""A child's turn from voice-activity probabilities (DESIGN §4.7): when the child starts
speaking (`speech/activity` true), and when the turn is over (one segment to transcribe).

Children of 4-6 pause mid-sentence ("I saw a... um... a big dog"), often for half a second
and more, so the end of a turn needs a longer pause than an adult dictation system uses:
`end_silence_s` (0.9 s) of frames below `end_threshold`. Measured with Silero VAD on
espeak-ng speech with the pauses of a child's sentence
(test/unit/speech/test_speech_espeak_audio.py): pauses of 0.5 and 0.7 s stay inside one
turn, a 1.2 s pause makes two turns.

No ROS, no clock: every frame comes with its capture time. Frames are 512 samples at
16 kHz (32 ms), Silero VAD's window.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

SAMPLE_RATE = 16000
FRAME_SAMPLES = 512
FRAME_S = FRAME_SAMPLES / SAMPLE_RATE


@dataclass(slots=True, frozen=True)
class EndpointConfig:
    start_threshold: float = 0.5    # probability that counts as speech to begin a turn
    end_threshold: float = 0.35     # below this a frame counts as pause (hysteresis)
    min_speech_s: float = 0.16      # speech this long before activity is reported
    end_silence_s: float = 0.9      # a pause this long ends the child's turn
    pre_roll_s: float = 0.25        # audio kept from before the first speech frame
    tail_s: float = 0.2             # pause kept after the last speech frame
    max_turn_s: float = 15.0        # a turn is cut into a segment at this length
    min_turn_s: float = 0.3         # shorter speech (a cough, a clap) is not transcribed


@dataclass(slots=True, frozen=True)
class ActivityChanged:
    active: bool
    at: float           # capture time of the frame where it changed (monotonic s)


@dataclass(slots=True, frozen=True)
class Segment:
    """One child turn, ready to transcribe: 16 kHz mono int16, in memory only."""

    audio: np.ndarray
    start: float        # capture time of its first sample
    end: float          # capture time of the last speech frame's end
    speech_end: float   # when the child stopped speaking (start of the final pause)


EndpointEvent = ActivityChanged | Segment


@dataclass(slots=True)
class EndpointStats:
    segments: int = 0
    too_short: int = 0
    split_long: int = 0
    discarded: int = 0      # turns thrown away by reset (Buddy started speaking)


@dataclass(slots=True)
class Endpointer:
    config: EndpointConfig = field(default_factory=EndpointConfig)
    stats: EndpointStats = field(default_factory=EndpointStats)
    _pre: deque[np.ndarray] = field(default_factory=deque)
    _frames: list[np.ndarray] = field(default_factory=list)
    _start: float = 0.0
    _speech_s: float = 0.0      # speech frames in the current candidate turn
    _pause_s: float = 0.0       # pause frames in a row
    _active: bool = False       # activity reported
    _in_turn: bool = False
    _last_speech_end: float = 0.0

    def push(self, at: float, frame: np.ndarray, prob: float) -> list[EndpointEvent]:
        """One frame captured at `at` (its first sample) with speech probability `prob`."""
        c = self.config
        events: list[EndpointEvent] = []
        end_at = at + FRAME_S
        if not self._in_turn:
            if prob >= c.start_threshold:
                self._in_turn = True
                self._frames = list(self._pre)
                self._start = at - len(self._pre) * FRAME_S
                self._pre.clear()
                self._speech_s, self._pause_s = 0.0, 0.0
            else:
                self._pre.append(frame)
                while len(self._pre) * FRAME_S > c.pre_roll_s + 1e-9:
                    self._pre.popleft()
                return events
        self._frames.append(frame)
        if prob >= c.end_threshold:
            self._speech_s += FRAME_S
            self._pause_s = 0.0
            self._last_speech_end = end_at
            if not self._active and self._speech_s >= c.min_speech_s - 1e-9:
                self._active = True
                events.append(ActivityChanged(True, end_at))
        else:
            self._pause_s += FRAME_S
            if not self._active and self._pause_s >= 0.25:
                self._abandon()           # a click or a breath: no turn
                return events
        if self._active and self._pause_s >= c.end_silence_s - 1e-9:
            self._finish(events, end_at, split=False)
        elif self._active and len(self._frames) * FRAME_S >= c.max_turn_s:
            self.stats.split_long += 1
            self._finish(events, end_at, split=True)
        return events

    def reset(self, at: float) -> list[EndpointEvent]:
        """Drop what was heard (Buddy speaks: its own voice must not be transcribed)."""
        events: list[EndpointEvent] = []
        if self._active:
            events.append(ActivityChanged(False, at))
        if self._in_turn:
            self.stats.discarded += 1
        self._abandon()
        self._pre.clear()
        return events

    @property
    def active(self) -> bool:
        return self._active

    def _finish(self, events: list[EndpointEvent], at: float, split: bool) -> None:
        c = self.config
        keep = len(self._frames)
        if not split:
            pause_frames = round(self._pause_s / FRAME_S)
            tail_frames = round(c.tail_s / FRAME_S)
            keep = max(1, keep - max(0, pause_frames - tail_frames))
        audio = np.concatenate(self._frames[:keep])
        speech_end = self._last_speech_end
        events.append(ActivityChanged(False, at))
        if self._speech_s >= c.min_turn_s - 1e-9:
            self.stats.segments += 1
            events.append(Segment(audio, self._start, self._start + keep * FRAME_S,
                                  speech_end))
        else:
            self.stats.too_short += 1
        self._abandon()

    def _abandon(self) -> None:
        self._in_turn = False
        self._active = False
        self._frames = []
        self._speech_s = 0.0
        self._pause_s = 0.0
