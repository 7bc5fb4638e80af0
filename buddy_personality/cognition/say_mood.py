"""A line is spoken with the mood the face shows while it plays (issue 30 item 2; spec
002 §11.5 prosody; DESIGN §1.2, the personality owns the mood).

The bridge sends a turn's emotion intent and its line in the same step. The line's mood
used to be the last snapshot's, from before that intent: "hey buddy, hello!" was spoken
neutral while the face turned curious. Now a line whose turn has an intent in flight is
held until the personality answers that intent on `personality/emotion_applied` (same
session and turn, the mood after the fast path, the mood of the snapshot the face
follows), and goes out with that mood; a line of no such turn goes out at once with the
snapshot's mood. The wait is bounded (`wait_s`): an answer that never comes (no
personality running) costs at most that, and the line then carries the latest mood.
Lines leave in the order they were offered. ROS-free: the node passes `now`.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from buddy_personality.cognition.bridge import IntentOut, SayOut

DEFAULT_WAIT_S = 0.5


@dataclass(slots=True)
class SayMoodSync:
    wait_s: float = DEFAULT_WAIT_S
    timeouts: int = 0                   # lines sent after the bounded wait (diagnostics)
    released: int = 0                   # lines sent with the mood the intent left
    _in_flight: dict[tuple[str, int], int] = dataclasses.field(default_factory=dict)
    _held: deque[tuple[float, SayOut]] = dataclasses.field(default_factory=deque)

    @property
    def holding(self) -> bool:
        return bool(self._held)

    def next_deadline(self) -> float | None:
        return self._held[0][0] if self._held else None

    def offer(self, now: float, intents: Iterable[IntentOut], says: Iterable[SayOut],
              hold: bool = True) -> list[SayOut]:
        """The step's intents are published, then its lines offered: those to publish now.
        `hold=False` (a step that ends the session) flushes every held line first."""
        for i in intents:
            key = (i.session_id, i.turn_id)
            self._in_flight[key] = self._in_flight.get(key, 0) + 1
        out: list[SayOut] = [] if hold else self.flush()
        for s in says:
            if hold and (self._held or self._in_flight.get((s.session_id, s.turn_id))):
                self._held.append((now + self.wait_s, s))
            else:
                out.append(s)
        return out

    def on_applied(self, session_id: str, turn_id: int, mood: str) -> list[SayOut]:
        """The personality integrated one intent of (session, turn): the lines now free,
        with the mood it left (the latest the face was given)."""
        key = (session_id, turn_id)
        left = self._in_flight.get(key, 0) - 1
        if left > 0:
            self._in_flight[key] = left
        else:
            self._in_flight.pop(key, None)
        out: list[SayOut] = []
        while self._held:
            s = self._held[0][1]
            if self._in_flight.get((s.session_id, s.turn_id)):
                break
            self._held.popleft()
            self.released += 1
            out.append(dataclasses.replace(s, emotion=mood))
        return out

    def due(self, now: float, mood: str) -> list[SayOut]:
        """Lines whose wait ran out, with `mood` (the latest snapshot's); their turn's
        intents are no longer waited for. A line whose emotion the safety rules fixed (a
        refused reply's THINKING, erratum 16; the HC-9 line's calm, erratum 15) keeps it:
        with no answer from the personality the latest snapshot predates the turn, and
        the rule's emotion is what the face was told."""
        out: list[SayOut] = []
        while self._held and self._held[0][0] <= now:
            s = self._held.popleft()[1]
            self._in_flight.pop((s.session_id, s.turn_id), None)
            self.timeouts += 1
            out.append(s if s.rule_emotion else dataclasses.replace(s, emotion=mood))
        return out

    def flush(self) -> list[SayOut]:
        out = [s for _, s in self._held]
        self._held.clear()
        self._in_flight.clear()
        return out
