"""The output guard (DESIGN §6.16): every line Buddy is about to say passes `check` before
`tts/say`. A line that breaks a rule of `output_rules.GUARD_TABLE` is not spoken; the rule's
fixed safe line is, and the caller reports the rule. Pure and deterministic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from buddy_personality.safety import pattern_cache
from buddy_personality.safety.concept_rules import CONCEPT_TABLE, LEXICONS
from buddy_personality.safety.concepts import Combo, ConceptRules
from buddy_personality.safety.learned import (
    LEARNED_SUFFIX,
    SAFE,
    LearnedLexicon,
    shipped_lexicon,
)
from buddy_personality.safety.output_rules import (
    GUARD_TABLE,
    RAW_MARKUP_CHARS,
    RAW_MARKUP_RULE,
    GuardRule,
)
from buddy_personality.safety.reading import read_line
from buddy_personality.safety.rules import Matcher

# A line that cannot even be checked sensibly (a broken server's wall of text) is longer
# than anything Buddy says (schema caps text at 400 characters).
MAX_LINE_CHARS = 600
OVERSIZE_RULE = "OVERSIZE"
OVERSIZE_LINE = "Hmm, let me think about that a different way. What would you like to talk about?"


@dataclass(slots=True, frozen=True)
class Verdict:
    ok: bool
    text: str               # what may be spoken: the line itself, or the safe line
    rule_id: str = ""       # the rule that refused it
    pattern: str = ""
    words: str = ""


class OutputGuard:
    def __init__(self, table: tuple[GuardRule, ...] = GUARD_TABLE,
                 concepts: tuple[Combo, ...] = CONCEPT_TABLE,
                 learned: LearnedLexicon | bool = True) -> None:
        self._rules = tuple((Matcher.of(r.rule_id, r.patterns, r.exceptions, r.unless),
                             r.replacement) for r in table)
        # DESIGN §6.23: each rule, in table order, by its phrase rows and then by its
        # concepts (concept_rules.py); a concept rule says its rule's safe line.
        self._concepts = ConceptRules(LEXICONS, concepts)
        self._replacement = {r.rule_id: r.replacement for r in table}
        missing = {c.rule_id for c in concepts} - set(self._replacement)
        if missing:
            raise KeyError(f"concept rules for rules without a safe line: {sorted(missing)}")
        # Task CL (issue 27): the learned lexicon, asked only when every rule let the line
        # through, so it can add a refusal and never lift one; True = the shipped table.
        self._learned = shipped_lexicon() if learned is True else (learned or None)
        if self._learned is not None:
            unknown = set(self._learned.classes) - set(self._replacement) - {SAFE}
            if unknown:
                raise KeyError(f"learned lexicon classes without a safe line: {sorted(unknown)}")
        self._markup = re.compile(RAW_MARKUP_CHARS)
        self._markup_line = next((r.replacement for r in table
                                  if r.rule_id == RAW_MARKUP_RULE), OVERSIZE_LINE)
        # what this build derived, for the next process (pattern_cache.py, erratum 22)
        pattern_cache.save()

    def check(self, text: str) -> Verdict:
        if len(text) > MAX_LINE_CHARS:
            return Verdict(False, OVERSIZE_LINE, OVERSIZE_RULE, "", f"{len(text)} chars")
        markup = self._markup.search(text)
        if markup is not None:
            return Verdict(False, self._markup_line, RAW_MARKUP_RULE, RAW_MARKUP_CHARS,
                           markup.group(0))
        line, sentences = read_line(text)
        read = self._concepts.read_sentences(sentences)
        for matcher, replacement in self._rules:
            hit = matcher.match(line)
            if hit is not None:
                return Verdict(False, replacement, hit.name, hit.pattern, hit.words)
            concept = self._concepts.check(text, matcher.name, read)
            if concept is not None:
                return Verdict(False, replacement, concept.rule_id, concept.pattern,
                               concept.words)
        if self._learned is not None:
            hit = self._learned.check(sentences)
            if hit is not None:
                return Verdict(False, self._replacement[hit.rule_id],
                               hit.rule_id + LEARNED_SUFFIX,
                               f"learned lexicon p={hit.p_unsafe:.2f}", hit.words)
        return Verdict(True, text)

    @property
    def learned(self) -> LearnedLexicon | None:
        return self._learned

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return (*tuple(m.name for m, _ in self._rules), OVERSIZE_RULE)
