"""A small deterministic intention store (spec 003 §6.4).

The LLM proposes intention updates in words (create, boost, lower, drop); this store
turns them into priorities and lifetimes by fixed rules, so the same answers always give
the same store. Priorities never leave the robot: the prompt gets only the descriptions
of the top intentions (spec 003 §4 "current intentions").
"""

from __future__ import annotations

from dataclasses import dataclass

from buddy_personality.cognition.schema import IntentionUpdate

PRIORITY_CREATE = 2     # a new intention starts in the middle of the scale
PRIORITY_MAX = 4        # boost saturates here
# horizon -> lifetime in turns; "long" lasts the whole session (the store is per session).
HORIZON_TURNS: dict[str, int | None] = {"short": 3, "medium": 8, "long": None}
MAX_INTENTIONS = 5      # the lowest-priority, oldest intention is evicted beyond this
PROMPT_INTENTIONS = 3   # how many the context packet shows

# How an intention type reads in the prompt when the LLM gave no description.
TYPE_WORDS: dict[str, str] = {
    "be_gentle": "be gentle",
    "avoid_topic": "avoid the topic",
    "follow_up": "follow up",
    "encourage": "encourage the child",
    "redirect_to_adult": "suggest talking to a grown-up",
    "keep_short": "keep answers short",
    "play_game": "keep the game going",
    "celebrate": "celebrate with the child",
}


@dataclass(slots=True)
class Intention:
    type: str
    target: str | None
    description: str
    priority: int
    created_turn: int
    expires_turn: int | None   # None: until the session ends

    @property
    def key(self) -> tuple[str, str]:
        return (self.type, self.target or "")

    def words(self) -> str:
        base = self.description or TYPE_WORDS.get(self.type, self.type.replace("_", " "))
        if self.target and not self.description:
            base += " (" + self.target.replace("_", " ") + ")"
        return base


class IntentionStore:
    def __init__(self) -> None:
        self._items: dict[tuple[str, str], Intention] = {}

    def clear(self) -> None:
        self._items.clear()

    def apply(self, turn: int, update: IntentionUpdate) -> str:
        """Apply one update; returns what happened (for logs and tests)."""
        key = (update.type, update.target or "")
        cur = self._items.get(key)
        lifetime = HORIZON_TURNS.get(update.horizon, HORIZON_TURNS["short"])
        expires = None if lifetime is None else turn + lifetime
        if update.operation == "create":
            if cur is not None:
                cur.priority = min(PRIORITY_MAX, cur.priority + 1)
                cur.expires_turn = expires if cur.expires_turn is not None else None
                return "reinforced"
            self._items[key] = Intention(
                update.type, update.target, update.description, PRIORITY_CREATE, turn,
                expires,
            )
            self._evict()
            return "created" if key in self._items else "evicted"
        if cur is None:
            return "unknown"
        if update.operation == "boost":
            cur.priority = min(PRIORITY_MAX, cur.priority + 1)
            return "boosted"
        if update.operation == "lower":
            cur.priority -= 1
            if cur.priority <= 0:
                del self._items[key]
                return "dropped"
            return "lowered"
        del self._items[key]
        return "dropped"

    def expire(self, turn: int) -> None:
        for key in [k for k, v in self._items.items()
                    if v.expires_turn is not None and turn > v.expires_turn]:
            del self._items[key]

    def _ordered(self) -> list[Intention]:
        return sorted(self._items.values(),
                      key=lambda i: (-i.priority, i.created_turn, i.key))

    def _evict(self) -> None:
        while len(self._items) > MAX_INTENTIONS:
            del self._items[self._ordered()[-1].key]

    def top(self, n: int = PROMPT_INTENTIONS) -> list[Intention]:
        return self._ordered()[:n]

    def __len__(self) -> int:
        return len(self._items)
