"""The mouth while Buddy speaks (face-protocol.md: the firmware ends the talking
animation 450 ms after the last SET_TALKING; Buddy's driver refreshes it at least every
100 ms with the speech's loudness as energy, holds `talking=1, energy=0` for 300 ms
after the audio ends, then sends `talking=0`).

`TalkingController` is ROS-free and clock-free (every call takes `now`). Energy comes
from `tts/energy` (loudness in [0, 1], about 20 Hz while speaking) while that is fresh;
otherwise from `TextEnvelope`, a plausible loudness curve made from the text being
spoken (syllables at a child-directed speaking rate, quieter at word gaps, silent at
punctuation), so the mouth moves like speech even before the tts node reports levels.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from buddy_personality.face.board_rules import TALKING_HOLD_S, TALKING_REFRESH_S
from buddy_personality.face.protocol import SetTalking

ENERGY_FRESH_S = 0.25          # a tts/energy level older than this is not used
SYLLABLES_PER_S = 4.0          # espeak-ng at Buddy's rate: about 4 syllables a second
PAUSE_S = {",": 0.25, ";": 0.3, ":": 0.3, ".": 0.45, "!": 0.45, "?": 0.45}
WORD_GAP_S = 0.06
GENERIC_LEVEL = 0.6            # no text and no measured level: a steady syllable rhythm
_VOWEL_GROUPS = re.compile(r"[aeiouy]+", re.IGNORECASE)
_TOKENS = re.compile(r"[A-Za-z']+|\d+|[,;:.!?]")


@dataclass(slots=True, frozen=True)
class _Segment:
    start: float
    end: float
    peak: float     # 0 for a pause


class TextEnvelope:
    """Loudness over time for a line of text: each syllable a half-sine bump, louder on
    longer words, a short dip between words and a pause at punctuation; after the text's
    estimated duration the generic rhythm goes on (speech may run longer)."""

    def __init__(self, text: str) -> None:
        self.segments: list[_Segment] = []
        t = 0.0
        for token in _TOKENS.findall(text):
            if token in PAUSE_S:
                self.segments.append(_Segment(t, t + PAUSE_S[token], 0.0))
                t += PAUSE_S[token]
                continue
            syllables = max(1, len(_VOWEL_GROUPS.findall(token))) if token.isalpha() \
                else max(1, len(token))  # digits: roughly one syllable each
            peak = min(1.0, 0.55 + 0.08 * syllables)
            for i in range(syllables):
                stress = 1.0 if i == 0 else 0.8
                self.segments.append(_Segment(t, t + 1.0 / SYLLABLES_PER_S, peak * stress))
                t += 1.0 / SYLLABLES_PER_S
            self.segments.append(_Segment(t, t + WORD_GAP_S, 0.0))
            t += WORD_GAP_S
        self.duration = t

    def level(self, elapsed: float) -> float:
        if elapsed < 0:
            return 0.0
        for seg in self.segments:  # lines are short: a scan is fine
            if seg.start <= elapsed < seg.end:
                if seg.peak == 0.0:
                    return 0.05  # the mouth rests almost shut in a pause
                return seg.peak * (0.3 + 0.7 * _bump((elapsed - seg.start) / (seg.end - seg.start)))
        phase = (elapsed * SYLLABLES_PER_S) % 1.0
        return GENERIC_LEVEL * (0.3 + 0.7 * _bump(phase))


def _bump(phase: float) -> float:
    return math.sin(math.pi * min(1.0, max(0.0, phase)))


@dataclass(slots=True)
class TalkingCounters:
    frames: int = 0
    from_tts_energy: int = 0
    from_text: int = 0


class TalkingController:
    """What SET_TALKING to send and when (see the module docstring)."""

    def __init__(self, refresh_s: float = TALKING_REFRESH_S,
                 hold_s: float = TALKING_HOLD_S) -> None:
        self.refresh_s = refresh_s
        self.hold_s = hold_s
        self.counters = TalkingCounters()
        self._speaking = False
        self._speech_started = 0.0
        self._hold_until: float | None = None     # set when speech ends
        self._envelope = TextEnvelope("")
        self._pending_text: str | None = None      # the next line to be spoken
        self._level: float | None = None
        self._level_at = float("-inf")
        self._next_due: float | None = None        # when the next frame is due
        self._sent_talking = False                 # the last frame's flag
        self._source = ""                          # of the energy in the frame due

    # --- inputs --------------------------------------------------------------------------

    def on_text(self, text: str, now: float) -> None:
        """A line to be spoken (tts/say): its envelope drives the energy once its speech
        starts (or, while a line is being spoken, once that one's envelope has run out)."""
        self._pending_text = text

    def on_energy(self, level: float, now: float) -> None:
        """A loudness sample in [0, 1] (callers clamp and count bad values)."""
        self._level, self._level_at = level, now

    def on_speaking(self, speaking: bool, now: float) -> None:
        if speaking == self._speaking:
            return
        self._speaking = speaking
        if speaking:
            self._hold_until = None
            self._speech_started = now
            if self._pending_text is not None:
                self._envelope = TextEnvelope(self._pending_text)
                self._pending_text = None
            self._next_due = now          # at once
        else:
            self._hold_until = now + self.hold_s
            self._next_due = now          # energy 0 at once, then the hold

    def reset_link(self, now: float) -> None:
        """The board forgot everything (reconnect, reset): send the talking state now."""
        self._next_due = now

    # --- output --------------------------------------------------------------------------

    @property
    def talking(self) -> bool:
        """Whether the board should show talking now (speaking, or in the hold)."""
        return self._speaking or self._hold_until is not None

    @property
    def speaking(self) -> bool:
        """Buddy is speaking (tts/speaking), the 300 ms hold after it not included."""
        return self._speaking

    @property
    def sent_talking(self) -> bool:
        return self._sent_talking

    def next_due_at(self) -> float | None:
        return self._next_due

    def due(self, now: float) -> SetTalking | None:
        """The SET_TALKING to send now, if one is due (call `sent` after sending)."""
        if self._next_due is None or now < self._next_due:
            return None
        if self._speaking:
            energy, self._source = self._energy(now)
            return SetTalking(1, energy)
        if self._hold_until is not None and now < self._hold_until:
            return SetTalking(1, 0)
        return SetTalking(0, 0)

    def sent(self, frame: SetTalking, now: float) -> None:
        self.counters.frames += 1
        if self._source == "tts":
            self.counters.from_tts_energy += 1
        elif self._source == "text":
            self.counters.from_text += 1
        self._source = ""
        self._sent_talking = bool(frame.talking)
        if frame.talking:
            next_due = now + self.refresh_s
            if not self._speaking and self._hold_until is not None:
                next_due = min(next_due, self._hold_until)   # talking=0 right on time
            self._next_due = next_due
        else:
            self._hold_until = None
            self._next_due = None     # stopped: nothing to refresh

    def _energy(self, now: float) -> tuple[int, str]:
        """The energy byte and where it came from ("tts" or "text")."""
        if self._level is not None and now - self._level_at <= ENERGY_FRESH_S:
            level, source = self._level, "tts"
        else:
            elapsed = now - self._speech_started
            if elapsed > self._envelope.duration and self._pending_text is not None:
                self._envelope = TextEnvelope(self._pending_text)   # the next queued line
                self._pending_text = None
                self._speech_started, elapsed = now, 0.0
            level, source = self._envelope.level(elapsed), "text"
        return round(min(1.0, max(0.0, level)) * 255), source
