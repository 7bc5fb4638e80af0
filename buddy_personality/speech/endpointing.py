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
    # Audio kept from before the first speech frame, and after the last. Generous, since
    # a word cut is a word lost (erratum 24): over Buddy's voice the echo canceller's
    # double-talk handling softens the child's first syllables, so the probability
    # reaches the stricter start threshold later, and 0.3 s / 0.2 s lost 0.02-0.06 s of
    # a child's line in half the room tests; silence around a turn costs the server little.
    pre_roll_s: float = 0.5
    tail_s: float = 0.35
    max_turn_s: float = 15.0        # a turn is sent in segments of at most this length
    min_turn_s: float = 0.3         # shorter speech (a cough, a clap) is not transcribed
    # While Buddy speaks (and for the gate's tail after) the child needs more evidence, so
    # that what the echo canceller leaves of Buddy's voice is not a barge-in (erratum 24).
    speaking_start_threshold: float = 0.8
    speaking_min_speech_s: float = 0.3
    # Frames the echo canceller says are only Buddy's voice are no evidence either way
    # (issue 29), but before activity the child's evidence must come this close together:
    # stray frames of residual scattered over a story added up to 0.3 s in the room.
    echo_gap_s: float = 0.45


@dataclass(slots=True, frozen=True)
class ActivityChanged:
    active: bool
    at: float           # capture time of the frame where it changed (monotonic s)


@dataclass(slots=True, frozen=True)
class Segment:
    """One piece of a child's turn, ready to transcribe: 16 kHz mono int16, in memory only.

    A turn longer than `max_turn_s` comes in several segments of the same `turn` (so the
    server's limits hold); only the last has `final` set, and the turn is answered once,
    after it (erratum 24). A final segment may carry no audio (the child stopped right
    after a cut): it only closes the turn."""

    audio: np.ndarray
    start: float        # capture time of its first sample
    end: float          # capture time of the last speech frame's end
    speech_end: float   # when the child stopped speaking (start of the final pause)
    turn: int = 0       # the child's turn this piece belongs to
    part: int = 0       # 0, 1, ... within the turn
    final: bool = True  # the turn is over: answer it


EndpointEvent = ActivityChanged | Segment


@dataclass(slots=True)
class EndpointStats:
    segments: int = 0
    too_short: int = 0
    split_long: int = 0
    discarded: int = 0      # turns thrown away by reset
    over_buddy: int = 0     # turns that began while Buddy spoke (barge-ins)


@dataclass(slots=True)
class Endpointer:
    config: EndpointConfig = field(default_factory=EndpointConfig)
    stats: EndpointStats = field(default_factory=EndpointStats)
    _pre: deque[np.ndarray] = field(default_factory=deque)
    _frames: list[np.ndarray] = field(default_factory=list)
    _start: float = 0.0
    _speech_s: float = 0.0      # speech frames in the current candidate turn
    _pause_s: float = 0.0       # pause frames in a row
    _gap_s: float = 0.0         # pause or echo-only frames since the last speech frame
    _active: bool = False       # activity reported
    _in_turn: bool = False
    _last_speech_end: float = 0.0
    _turn: int = 0              # turns begun
    _part: int = 0              # segments already sent of the current turn
    _turn_speech_s: float = 0.0  # speech in the segments already sent

    def push(self, at: float, frame: np.ndarray, prob: float | None,
             buddy_speaking: bool = False) -> list[EndpointEvent]:
        """One frame captured at `at` (its first sample) with speech probability `prob`;
        `buddy_speaking`: Buddy's voice may be in it (stricter evidence, erratum 24).
        `prob` None: the frame is only Buddy's voice as far as the echo canceller can
        tell, no evidence either way: kept with the turn, counted neither as the child's
        speech nor as a pause (a child talking over Buddy has quieter moments where the
        echo dominates; counting them as pauses dropped the turn, issue 29)."""
        c = self.config
        events: list[EndpointEvent] = []
        end_at = at + FRAME_S
        start_threshold = max(c.start_threshold, c.speaking_start_threshold) \
            if buddy_speaking else c.start_threshold
        if prob is None:
            if self._in_turn:
                self._frames.append(frame)
                self._gap_s += FRAME_S
                if not self._active and self._gap_s >= c.echo_gap_s - 1e-9:
                    self._abandon()       # scattered residual of Buddy's voice: no turn
                elif self._active and len(self._frames) * FRAME_S >= c.max_turn_s:
                    self._split(events, end_at)
            else:
                self._pre.append(frame)
                while len(self._pre) * FRAME_S > c.pre_roll_s + 1e-9:
                    self._pre.popleft()
            return events
        if not self._in_turn:
            if prob >= start_threshold:
                self._in_turn = True
                self._turn += 1
                self._part = 0
                self._turn_speech_s = 0.0
                self._frames = list(self._pre)
                self._start = at - len(self._pre) * FRAME_S
                self._pre.clear()
                self._speech_s, self._pause_s, self._gap_s = 0.0, 0.0, 0.0
            else:
                self._pre.append(frame)
                while len(self._pre) * FRAME_S > c.pre_roll_s + 1e-9:
                    self._pre.popleft()
                return events
        self._frames.append(frame)
        # Before activity is reported, a frame counts as the child only above the start
        # threshold of the moment (Buddy speaking or not); after, the hysteresis holds.
        speech_threshold = c.end_threshold if self._active else start_threshold
        if prob >= speech_threshold:
            self._speech_s += FRAME_S
            self._pause_s = 0.0
            self._gap_s = 0.0
            self._last_speech_end = end_at
            min_speech = max(c.min_speech_s, c.speaking_min_speech_s) \
                if buddy_speaking else c.min_speech_s
            if not self._active and self._speech_s >= min_speech - 1e-9:
                self._active = True
                if buddy_speaking:
                    self.stats.over_buddy += 1
                events.append(ActivityChanged(True, end_at))
        else:
            self._pause_s += FRAME_S
            self._gap_s += FRAME_S
            if not self._active and (self._pause_s >= 0.25
                                     or self._gap_s >= c.echo_gap_s - 1e-9):
                self._abandon()           # a click, a breath, an echo: no turn
                return events
        if self._active and self._pause_s >= c.end_silence_s - 1e-9:
            self._finish(events, end_at)
        elif self._active and len(self._frames) * FRAME_S >= c.max_turn_s:
            self._split(events, end_at)
        return events

    def reset(self, at: float) -> list[EndpointEvent]:
        """Drop what was heard (the input restarts)."""
        events: list[EndpointEvent] = []
        if self._active:
            events.append(ActivityChanged(False, at))
        if self._in_turn:
            self.stats.discarded += 1
            if self._part:           # segments already sent: close their turn
                events.append(Segment(np.zeros(0, np.int16), at, at, self._last_speech_end,
                                      self._turn, self._part, final=True))
        self._abandon()
        self._pre.clear()
        return events

    @property
    def active(self) -> bool:
        return self._active

    def _split(self, events: list[EndpointEvent], at: float) -> None:
        """The turn goes on: send what is heard so far, keep listening (activity stays)."""
        self.stats.split_long += 1
        self.stats.segments += 1
        events.append(Segment(np.concatenate(self._frames), self._start, at,
                              self._last_speech_end, self._turn, self._part, final=False))
        self._part += 1
        self._turn_speech_s += self._speech_s
        self._frames = []
        self._speech_s = 0.0
        self._start = at

    def _finish(self, events: list[EndpointEvent], at: float) -> None:
        c = self.config
        keep = len(self._frames)
        pause_frames = round(self._pause_s / FRAME_S)
        tail_frames = round(c.tail_s / FRAME_S)
        keep = max(1, keep - max(0, pause_frames - tail_frames))
        audio = np.concatenate(self._frames[:keep])
        speech_end = self._last_speech_end
        events.append(ActivityChanged(False, at))
        if self._speech_s >= c.min_turn_s - 1e-9:
            self.stats.segments += 1
            events.append(Segment(audio, self._start, self._start + keep * FRAME_S,
                                  speech_end, self._turn, self._part, final=True))
        elif self._part:
            # the rest after a cut is too short to send, but the turn must be answered
            events.append(Segment(np.zeros(0, np.int16), self._start, self._start,
                                  speech_end, self._turn, self._part, final=True))
        else:
            self.stats.too_short += 1
        self._abandon()

    def _abandon(self) -> None:
        self._in_turn = False
        self._active = False
        self._frames = []
        self._speech_s = 0.0
        self._pause_s = 0.0
        self._gap_s = 0.0
        self._part = 0
