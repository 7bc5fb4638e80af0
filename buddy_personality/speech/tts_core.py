"""Which line Buddy speaks, and when it stops (DESIGN §4.7): the `tts` node's rules,
without ROS, audio or clocks (every method takes `now`).

- Lines of one turn queue in order.
- A line of a newer turn, or of another session, supersedes: the line playing is cut
  (within 100 ms: the playout fades over 5 ms at the next device block) and older queued
  lines are dropped.
- A session's end (conversation/events ENDED; HC-9 first among them) cuts that session's
  speech. The line the bridge sends just before ENDED (its closing line, published in
  the same step) is still spoken; nothing of that session arriving after ENDED is.
- Barge-in (the child presses the talk button or starts speaking) cuts the line playing
  and drops the queue: what Buddy was about to say answers something already past.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from buddy_personality.speech.prosody import prosody_for

NO_SESSION = ""


@dataclass(slots=True, frozen=True)
class TtsConfig:
    max_queue: int = 8              # queued lines; the oldest is dropped beyond this
    max_chars: int = 600            # a line longer than this is cut at a word boundary
    closing_window_s: float = 0.2   # a Say this close before ENDED is the closing line: the
    #                                 bridge publishes both in one step, milliseconds apart
    remember_ended: int = 64        # ended session ids kept to refuse their late lines


@dataclass(slots=True, frozen=True)
class Line:
    line_id: int
    text: str
    mood: str              # the mood used (unknown -> neutral, spec 002 §11.5)
    session_id: str
    turn_id: int
    received_at: float


@dataclass(slots=True)
class Decision:
    """What the node does now: cut the line playing, start a line, log drops."""

    cut: int | None = None                  # line_id to cut
    start: Line | None = None
    dropped: list[tuple[str, str]] = field(default_factory=list)   # (reason, text)


@dataclass(slots=True)
class TtsStats:
    said: int = 0
    queued: int = 0
    cut: dict[str, int] = field(default_factory=dict)
    dropped: dict[str, int] = field(default_factory=dict)
    unknown_mood: int = 0

    def count(self, table: dict[str, int], reason: str) -> None:
        table[reason] = table.get(reason, 0) + 1


class TtsCore:
    def __init__(self, config: TtsConfig | None = None) -> None:
        self.config = config or TtsConfig()
        self.current: Line | None = None
        self.queue: deque[Line] = deque()
        self.stats = TtsStats()
        self._next_id = 0
        self._recent: deque[Line] = deque(maxlen=16)      # received lines, for closing lines
        self._ended: deque[str] = deque(maxlen=self.config.remember_ended)

    # -- inputs --------------------------------------------------------------------------
    def on_say(self, now: float, text: str, mood: str, session_id: str,
               turn_id: int) -> Decision:
        d = Decision()
        text = " ".join(text.split())
        if not text:
            return self._drop(d, "empty", text)
        if len(text) > self.config.max_chars:
            text = text[: self.config.max_chars].rsplit(" ", 1)[0]
            self.stats.count(self.stats.dropped, "truncated")
        if session_id and session_id in self._ended:
            return self._drop(d, "session_ended", text)
        used, _ = prosody_for(mood)
        if used != mood.strip().lower():
            self.stats.unknown_mood += 1
        self._next_id += 1
        line = Line(self._next_id, text, used, session_id, turn_id, now)
        self._recent.append(line)
        cur = self.current
        if cur is not None and self._supersedes(line, cur):
            d.cut = cur.line_id
            self.stats.count(self.stats.cut, "superseded")
        stale = [q for q in self.queue if self._supersedes(line, q)]
        for q in stale:
            self.queue.remove(q)
            self._drop(d, "superseded", q.text)
        self.queue.append(line)
        self.stats.queued += 1
        while len(self.queue) > self.config.max_queue:
            self._drop(d, "queue_full", self.queue.popleft().text)
        if self.current is None or d.cut is not None:
            self._start_next(d, force=d.cut is not None)
        return d

    def on_session_ended(self, now: float, session_id: str) -> Decision:
        """ConversationEvent ENDED: cut the session's speech but its closing line."""
        d = Decision()
        if not session_id or session_id in self._ended:
            return d
        self._ended.append(session_id)
        closing = next((ln for ln in reversed(self._recent)
                        if ln.session_id == session_id
                        and now - ln.received_at <= self.config.closing_window_s), None)
        for q in [q for q in self.queue if q.session_id == session_id and q is not closing]:
            self.queue.remove(q)
            self._drop(d, "session_ended", q.text)
        cur = self.current
        if cur is not None and cur.session_id == session_id and cur is not closing:
            d.cut = cur.line_id
            self.stats.count(self.stats.cut, "session_ended")
            self._start_next(d, force=True)
        return d

    def on_barge_in(self, now: float) -> Decision:
        """The child talks over Buddy: stop now and forget the queue."""
        del now
        d = Decision()
        for q in list(self.queue):
            self._drop(d, "barge_in", q.text)
        self.queue.clear()
        if self.current is not None:
            d.cut = self.current.line_id
            self.stats.count(self.stats.cut, "barge_in")
            self.current = None
        return d

    def on_line_finished(self, now: float, line_id: int) -> Decision:
        """The player finished (or cut) `line_id`: the next queued line starts."""
        del now
        d = Decision()
        if self.current is not None and self.current.line_id == line_id:
            self.current = None
            self._start_next(d)
        return d

    # -- internals -----------------------------------------------------------------------
    @staticmethod
    def _supersedes(new: Line, old: Line) -> bool:
        if new.session_id != old.session_id:
            return True
        return new.session_id != NO_SESSION and new.turn_id > old.turn_id

    def _start_next(self, d: Decision, force: bool = False) -> None:
        if self.current is not None and not force:
            return
        self.current = self.queue.popleft() if self.queue else None
        if self.current is not None:
            self.stats.said += 1
        d.start = self.current

    def _drop(self, d: Decision, reason: str, text: str) -> Decision:
        self.stats.count(self.stats.dropped, reason)
        d.dropped.append((reason, text))
        return d
