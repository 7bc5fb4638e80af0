"""HC-9 distress detection (DESIGN §6.15, spec 002 §9.3 "stop on child distress signals").

Two layers, both deterministic:
- every child utterance, before anything else: the phrase table of `distress_phrases`
  (layer 0 and layer 1 alike, so no LLM is called for that turn);
- layer 1 also: a reply whose `child_affect` is "negative" and whose own reasoning
  (`mood_reason`, `inner_thought`) names a distress reason. The model noticed something
  the phrase list missed; its reply is not spoken, the HC-9 line is.
"""

from __future__ import annotations

from dataclasses import dataclass

from buddy_personality.safety.distress_phrases import DISTRESS_TABLE, DistressCategory
from buddy_personality.safety.reading import joined, line_of, normalise
from buddy_personality.safety.rules import Hit, Matcher

SOURCE_UTTERANCE = "utterance"
SOURCE_CHILD_AFFECT = "child_affect"

# Words in the model's own reasoning that make a negative child_affect a distress signal
# (a sad child whose ice cream fell is not one; a hurt, frightened, lost or harmed one is).
DISTRESS_REASONS: tuple[str, ...] = (
    "(hurt|hurting|injured|injury|bleeding|blood|pain|in pain|wound|bruise|bruises)",
    "(scared|afraid|frightened|terrified|fear|fearful|panic|panicking|panicked)",
    "(lost|alone|abandoned|missing (mom|mommy|dad|daddy|parent|parents))",
    "(hit|hitting|hits|abuse|abused|abusive|neglect|neglected|harm|harmed|unsafe|danger|"
    "dangerous|emergency|threatened|threat)",
    "(bullied|bully|bullying|picked on|excluded)",
    "(die|dying|death|dead|suicidal|self harm|kill|killing) ",
    "(distress|distressed|crisis|crying for help|disclosure|disclosing|disclosed)",
    "(can not breathe|choking|fell|fall|sick|vomiting)",
)
_REASONS = Matcher.of("child_affect", DISTRESS_REASONS)


@dataclass(slots=True, frozen=True)
class DistressMatch:
    category: str       # the DISTRESS_TABLE category, or "child_affect"
    pattern: str        # the table line that fired
    words: str          # the words it matched (what the alert and the event report)
    source: str         # SOURCE_UTTERANCE or SOURCE_CHILD_AFFECT


class DistressDetector:
    def __init__(self, table: tuple[DistressCategory, ...] = DISTRESS_TABLE) -> None:
        self._matchers = tuple(Matcher.of(c.name, c.patterns, c.exceptions) for c in table)

    def check_utterance(self, text: str) -> DistressMatch | None:
        line = line_of(text)
        for m in self._matchers:
            hit = m.match(line)
            if hit is not None:
                return DistressMatch(hit.name, hit.pattern, hit.words, SOURCE_UTTERANCE)
        return None

    @staticmethod
    def check_reply(child_affect: str, mood_reason: str, inner_thought: str) -> (
            DistressMatch | None):
        if child_affect != "negative":
            return None
        hit: Hit | None = _REASONS.match(joined(normalise(f"{mood_reason}. {inner_thought}")))
        if hit is None:
            return None
        return DistressMatch("child_affect", hit.pattern, hit.words, SOURCE_CHILD_AFFECT)
