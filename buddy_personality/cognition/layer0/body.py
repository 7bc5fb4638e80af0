"""How a child tells a body feeling without an illness name (issue 30 item 3, set 23):
"my ear is loud inside", "my legs are wobbly", "me tummy's proper bad", "my belly button
feels all pinchy". A row's `body` frame (answers.yaml, the sick and hurt rows) hears the
child's own body part ("my" / "me" + a part, by word family) followed by how it is or
feels ("is", "are", "feels", "keeps", "'s") and then a word that is not in `fine` (a
colour, a size, a good feeling: "my eyes are blue", "my tummy is full" say nothing hard).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from buddy_personality.cognition.layer0.tone import stem


@dataclass(slots=True, frozen=True)
class BodyFrame:
    owners: frozenset[str]
    parts: tuple[tuple[str, ...], ...]      # word families ("tummys" -> "tummy")
    states: frozenset[str]                  # "is", "are", "feels" ... as said
    skip: frozenset[str]                    # words between the state and the feeling
    fine: frozenset[str]                    # feelings that say nothing hard, as families

    def hears(self, words: list[str]) -> bool:
        fam = [stem(w) for w in words]
        for i, w in enumerate(words):
            if w not in self.owners:
                continue
            for part in self.parts:
                end = i + 1 + len(part)
                if tuple(fam[i + 1:end]) != part:
                    continue
                j = end
                # "me tummys proper bad": the "'s" of "tummy's" is the state when a word of
                # `skip` follows ("my ears and" is a plural).
                said_s = words[end - 1].endswith("s") and words[j] in self.skip \
                    if j < len(words) else False
                if j < len(words) and (words[j] in self.states or said_s):
                    j += words[j] in self.states
                    while j < len(words) and words[j] in self.skip:
                        j += 1
                    if j < len(words) and fam[j] not in self.fine:
                        return True
        return False


def parse_body(raw: Any, normalize: Any) -> BodyFrame | None:
    """A row's `body:` mapping, or None; ValueError when it is not one."""
    if raw is None:
        return None
    keys = ("owners", "parts", "states", "skip", "fine")
    if not isinstance(raw, dict) or not all(
            isinstance(raw.get(k), list) and all(isinstance(v, str) for v in raw[k])
            for k in keys):
        raise ValueError(f"body needs lists {list(keys)}")

    def words(k: str) -> list[str]:
        return [w for v in raw[k] for w in normalize(v)]

    return BodyFrame(frozenset(words("owners")),
                     tuple(tuple(stem(w) for w in normalize(p)) for p in raw["parts"]),
                     frozenset(words("states")), frozenset(words("skip")),
                     frozenset(stem(w) for w in words("fine")))
