"""Intents that arrive before their session's STARTED (issue 30 item 2; spec 002 §5.1
L0-06, §10.3 conv_started / ai_emotion).

The bridge sends a session's STARTED before that session's first intent (the wake
greeting's), but on two topics: across processes nothing orders two DDS streams (two
wait-set rounds, another executor, a bag played at another rate), so the personality may
take the intent first. Applied then, the greeting's intent moved the mood before the
session began and STARTED's L0-06 pull (§5.1, "session_id assigned") came last: the face
showed THINKING while the greeting was said with its intent's mood.

So the engine, not the order of arrival, puts a session's start before its intents: an
intent stamped with a session the engine neither runs nor has seen end is held here and
applied right after that session's STARTED (after its L0-06 pull, each projected in turn,
as if STARTED had come first). The hold is bounded: an intent held HOLD_S, or pushed out
by HOLD_MAX newer ones, is applied without its STARTED (lost, or a personality that joined
mid-session), and later intents of that session are then applied at once. Nothing held is
dropped. ROS-free and clock-free: the engine passes `now` and says which sessions it awaits.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from buddy_personality.personality.emotion_intake import EmotionIntent

# Far longer than two topics of one writer drift apart on one machine (milliseconds), short
# enough that an intent whose STARTED never comes still moves the face within a tick or two
# (the node's 1 Hz tick releases it).
HOLD_S = 1.0
HOLD_MAX = 8          # intents held at once; the oldest is applied when one more comes
GAVE_UP_REMEMBERED = 8  # sessions whose STARTED never came: their intents are not held


@dataclass(slots=True)
class EarlyIntents:
    """The intents waiting for their session's STARTED, oldest first."""

    _held: deque[tuple[float, EmotionIntent]] = field(default_factory=deque)
    _gave_up: deque[str] = field(
        default_factory=lambda: deque(maxlen=GAVE_UP_REMEMBERED))

    def __len__(self) -> int:
        return len(self._held)

    def should_hold(self, intent: EmotionIntent, awaited: Callable[[str], bool]) -> bool:
        """`awaited(session_id)`: the engine neither runs that session nor saw it end."""
        sid = intent.session_id
        return bool(sid) and sid not in self._gave_up and awaited(sid)

    def hold(self, now: float, intent: EmotionIntent,
             awaited: Callable[[str], bool]) -> list[tuple[EmotionIntent, bool]]:
        """Hold `intent`. Past HOLD_MAX, the oldest one's session is given up: its
        intents are returned (as `release` does) to be applied now."""
        self._held.append((now, intent))
        if len(self._held) <= HOLD_MAX:
            return []
        self._give_up(self._held[0][1])
        return self.release(now, awaited)

    def release(self, now: float,
                awaited: Callable[[str], bool]) -> list[tuple[EmotionIntent, bool]]:
        """The held intents to apply now, in arrival order, each with whether it goes
        without its STARTED: those whose session started (or ended), and those held
        HOLD_S or longer without it."""
        out: list[tuple[EmotionIntent, bool]] = []
        kept: deque[tuple[float, EmotionIntent]] = deque()
        for held_at, intent in self._held:
            if not awaited(intent.session_id):
                out.append((intent, False))
            elif now - held_at >= HOLD_S or intent.session_id in self._gave_up:
                out.append((self._give_up(intent), True))
            else:
                kept.append((held_at, intent))
        self._held = kept
        return out

    def _give_up(self, intent: EmotionIntent) -> EmotionIntent:
        if intent.session_id not in self._gave_up:
            self._gave_up.append(intent.session_id)
        return intent
