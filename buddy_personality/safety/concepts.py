"""Rules by concept (DESIGN §6.23, issue 27): a line breaks a rule when one of its sentences
holds words of several concept lexicons at once (a hazard *and* an invitation to act), and
no exemption lexicon (a grown-up who helps) is there. The lexicons and their combinations
are data (`safety/concept_rules.py`); this module only evaluates them.

How a line is read:
- it is cut into sentences at `. ! ? ; :` (not inside a number such as "0.6"); a sentence
  that ends with `?` is a question (the pseudo-lexicon `QUESTION`);
- inside a sentence, commas, dashes and brackets become clause boundaries, so `^` in a
  pattern means "at the start of a clause": "the pills are like candies, try one" holds
  the imperative "try" at a clause start;
- each sentence is normalised like every other rule (`safety/words.py`: case, accents,
  look-alike letters, contractions with or without the apostrophe); inflections are
  written out in the lexicons ("light|lit|lighting").

A combination fires when, in one sentence, every lexicon of `all_of` matches, at least one
of `any_of` matches (when it is not empty), and no lexicon of `none_of` matches. Each
`masks` lexicon first blanks the words it matches (a negated verb: "never touch", "robots
like me do not get hungry"), so an invitation the line takes back is no invitation.
Pure and deterministic: the same line always gives the same answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from buddy_personality.safety.words import Line, PatternSet, line_of

QUESTION = "QUESTION"
# A sentence ends at . ! ? ; : unless the dot sits inside a number ("0.6").
_SENTENCE = re.compile(r"[^.!?;:]*(?:\d\.\d[^.!?;:]*)*(?:[.!?;:]+|$)")
_CLAUSE = re.compile(r",|\s[-–—]+\s|[–—()]|\.\.\.")
_WORD = re.compile(r"[a-z0-9]+")


def _blank(words: str) -> str:
    return _WORD.sub("~", words)


@dataclass(slots=True, frozen=True)
class Combo:
    """One row of the concept table: the rule it enforces and the lexicons it combines."""

    rule_id: str
    what: str                         # one line for a reviewer and the GuardrailEvent
    all_of: tuple[str, ...]
    any_of: tuple[str, ...] = ()
    none_of: tuple[str, ...] = ()
    masks: tuple[str, ...] = ()
    none_masks: tuple[str, ...] = ()  # blanked before `none_of` is looked for


@dataclass(slots=True, frozen=True)
class ConceptHit:
    rule_id: str
    pattern: str    # "combo what: LEXICON + LEXICON"
    words: str      # the words each lexicon matched, joined by " + "


@dataclass(slots=True)
class _Sentence:
    line: Line
    question: bool
    masked: dict[tuple[str, ...], str]


def sentences(text: str) -> list[tuple[str, bool]]:
    """(sentence with its clause boundaries as dots, is it a question) for each sentence."""
    out = []
    for m in _SENTENCE.finditer(text):
        s = m.group(0)
        if not s.strip(" .!?;:"):
            continue
        out.append((_CLAUSE.sub(" . ", s), "?" in s[-3:]))
    return out


class ConceptRules:
    """The compiled concept table: one `PatternSet` per lexicon, the combos in order."""

    def __init__(self, lexicons: dict[str, tuple[str, ...]],
                 combos: tuple[Combo, ...]) -> None:
        for c in combos:
            for name in (*c.all_of, *c.any_of, *c.none_of, *c.masks, *c.none_masks):
                if name != QUESTION and name not in lexicons:
                    raise KeyError(f"combo {c.rule_id} {c.what!r}: no lexicon {name!r}")
        self.lexicons = {name: PatternSet.of(p) for name, p in lexicons.items()}
        self.combos = combos
        self._by_rule: dict[str, tuple[Combo, ...]] = {}
        for c in combos:
            self._by_rule[c.rule_id] = (*self._by_rule.get(c.rule_id, ()), c)

    @property
    def rule_ids(self) -> frozenset[str]:
        return frozenset(self._by_rule)

    def _has(self, s: _Sentence, name: str, masks: tuple[str, ...]) -> bool:
        if name == QUESTION:
            return s.question
        return self.lexicons[name].search(self._text(s, masks), None if masks else s.line)

    def _text(self, s: _Sentence, masks: tuple[str, ...]) -> str:
        if not masks:
            return s.line.text
        text = s.masked.get(masks)
        if text is None:
            text = s.line.text
            for name in masks:
                text = self.lexicons[name].mask(text, _blank)
            s.masked[masks] = text
        return text

    def read(self, text: str) -> list[_Sentence]:
        """The sentences of `text` as the combos look at them (read once per line)."""
        return [_Sentence(line_of(raw), question, {}) for raw, question in sentences(text)]

    def check(self, text: str, rule_id: str | None = None,
              read: list[_Sentence] | None = None) -> ConceptHit | None:
        """The first combo (of `rule_id`, or of any rule) that fires in a sentence."""
        combos = self.combos if rule_id is None else self._by_rule.get(rule_id, ())
        if not combos:
            return None
        for s in self.read(text) if read is None else read:
            for c in combos:
                if not all(self._has(s, n, c.masks) for n in c.all_of):
                    continue
                if c.any_of and not any(self._has(s, n, c.masks) for n in c.any_of):
                    continue
                if any(self._has(s, n, c.none_masks) for n in c.none_of):
                    continue
                return self._hit(c, s)
        return None

    def _hit(self, c: Combo, s: _Sentence) -> ConceptHit:
        names = [n for n in (*c.all_of, *c.any_of) if self._has(s, n, c.masks)]
        words = []
        for n in names:
            if n == QUESTION:
                words.append("?")
                continue
            found = self.lexicons[n].find(self._text(s, c.masks))
            words.append(found[1] if found else "")
        return ConceptHit(c.rule_id, f"{c.what}: {' + '.join(names)}", " + ".join(words))
