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
from collections import Counter
from dataclasses import dataclass

from buddy_personality.safety.reading import BOUNDARY, Line, _line, read_line, relined
from buddy_personality.safety.words import PatternSet, anchor_words, second_anchor

QUESTION = "QUESTION"
_WORD = re.compile(r"[a-z0-9]+")
# "Why don't you taste it?" is an invitation, not a negation: its "do not" becomes one
# token ("whynot") before the negation masks look, so "never taste" is still taken back
# and "why don't you taste" is still offered (the lexicons write it "whynot you"); "why not
# drink it" likewise becomes "whynot drink it".
_WHY_NOT = re.compile(r" why do not (you|we) ")
_WHY_NOT_TO = r" whynot \1 "
# (TS2, issue 27) "I bet you can't touch the wires" is a dare, not a negation: "bet you
# can not" becomes one token ("betcha") before the negation masks look, like "why not".
_BET = re.compile(r" (?:i )?bet (?:you|ya) (?:can not|could not|will not|would not|can|could) ")
# (TS2, issue 27 round 21) Buddy spoken of in the third person ("Teddy says Buddy has been
# poorly all week", "Buddy cried for an hour") is read as "I", so the first-person claims
# of HC-1 and HC-6 hold; not after "your", "my", "a", "the" (a buddy of the child's).
_BUDDY_AS_I = {"is": "i am", "was": "i was", "has": "i have", "had": "i had", "will": "i will",
               "would": "i would", "cried": "i cried", "fell": "i fell", "got": "i got",
               "gets": "i get", "feels": "i feel", "felt": "i felt", "needs": "i need",
               "being": "me being", "cries": "i cry", "ate": "i ate", "hurt": "i hurt"}
_BUDDY = re.compile(r"(?<!your )(?<!my )(?<! a )(?<!the )(?<!his )(?<!her )\bbuddy ("
                    + "|".join(_BUDDY_AS_I) + r") ")


def _rephrased(line: Line) -> Line:
    if ("bet" not in line.words and "buddy" not in line.words
            and ("why" not in line.words or "not" not in line.words)):
        return line
    text = _WHY_NOT.sub(_WHY_NOT_TO, line.text).replace(" why not ", " whynot ")
    text = _BET.sub(" betcha ", text)
    text = _BUDDY.sub(lambda m: _BUDDY_AS_I[m.group(1)] + " ", text)
    if text == line.text:
        return line
    words = text.split(" ")
    if words and words[0] == BOUNDARY:
        words = words[1:]
    if words and words[-1] == BOUNDARY:
        words = words[:-1]
    return _line(tuple(words))


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
    # `all_of` lexicons that may stand in an earlier sentence of the reply ("The pills are
    # in her purse. They look like mints. Pick one and swallow it."); `none_of` is then
    # looked for in the sentences they were found in too.
    carry: tuple[str, ...] = ()
    carry_if: str = ""      # a lexicon the sentence must hold when one was carried
    # (TS2, issue 27) a lexicon that takes the exemptions back: "Ask a grown-up? Nah, just
    # use your wet hands." When the sentence holds it, `none_of` lifts nothing.
    revoke: str = ""


@dataclass(slots=True, frozen=True)
class ConceptHit:
    rule_id: str
    pattern: str    # "combo what: LEXICON + LEXICON"
    words: str      # the words each lexicon matched, joined by " + "


@dataclass(slots=True)
class _Sentence:
    line: Line
    question: bool
    masked: dict[tuple[str, ...], Line]
    seen: dict[tuple[str, tuple[str, ...]], bool]     # (lexicon, masks) -> found
    maybe: set[str]     # lexicons a pattern of which starts with a word of the sentence
    upto: set[str]      # `maybe` of this sentence and every earlier one of the line


@dataclass(slots=True, frozen=True)
class _Screened:
    combo: Combo
    need: frozenset[str]     # in `maybe` of every sentence the combo can fire in
    any_of: frozenset[str]   # one of these too, when the combo has any_of
    carried: frozenset[str]  # in `upto`: in this sentence or an earlier one


def _screened(c: Combo) -> _Screened:
    return _Screened(c, frozenset(n for n in c.all_of if n not in c.carry),
                     frozenset(c.any_of), frozenset(n for n in c.all_of if n in c.carry))


class ConceptRules:
    """The compiled concept table: one `PatternSet` per lexicon, the combos in order."""

    def __init__(self, lexicons: dict[str, tuple[str, ...]],
                 combos: tuple[Combo, ...]) -> None:
        for c in combos:
            for name in (*c.all_of, *c.any_of, *c.none_of, *c.masks, *c.none_masks,
                         *((c.carry_if,) if c.carry_if else ()),
                         *((c.revoke,) if c.revoke else ())):
                if name != QUESTION and name not in lexicons:
                    raise KeyError(f"combo {c.rule_id} {c.what!r}: no lexicon {name!r}")
        self.lexicons = {name: PatternSet.of(p) for name, p in lexicons.items()}
        # word -> the lexicons with a pattern starting with it: a sentence is searched only
        # for the lexicons its words can start (the guard runs on every spoken line).
        # Each pattern is indexed by its least common needed words (`anchor_words`).
        index: dict[str, set[str]] = {}
        anywhere: set[str] = set()
        # word -> lexicon -> the second anchors of its patterns anchored on that word
        # (None: one of them has none): the lexicon is possible when the sentence also
        # holds one of them
        also: dict[str, dict[str, set[str] | None]] = {}
        for name, patterns in lexicons.items():
            for p in patterns:
                anchors = anchor_words(p)
                if anchors is None:
                    anywhere.add(name)
                second = second_anchor(p)
                for w in anchors or ():
                    index.setdefault(w, set()).add(name)
                    by_name = also.setdefault(w, {})
                    have = by_name.get(name, set())
                    by_name[name] = None if second is None or have is None else have | second
        self._index = {w: frozenset(names) for w, names in index.items()}
        self._indexed = frozenset(index)
        self._also = {w: tuple((name, None if cond is None else frozenset(cond))
                               for name, cond in by_name.items())
                      for w, by_name in also.items()}
        self._anywhere = frozenset(anywhere)
        self.combos = combos
        # Each combo with what a sentence must hold for it to fire at all: its `all_of`
        # lexicons that cannot be carried, and one of its `any_of`. A sentence whose
        # `maybe` lacks them is skipped without a call (about 50 combos per sentence; the
        # guard's cost on every spoken line, issue 27's 1 ms p99).
        self._all: tuple[_Screened, ...] = tuple(_screened(c) for c in combos)
        self._by_rule: dict[str, tuple[_Screened, ...]] = {}
        for sc in self._all:
            self._by_rule[sc.combo.rule_id] = (*self._by_rule.get(sc.combo.rule_id, ()), sc)
        # A rule's keys: for each of its combos one lexicon it cannot fire without (its
        # rarest `need`, or each of its `any_of`). A sentence whose `maybe` holds no key of
        # a rule is passed over in one set operation (most sentences, for most rules).
        # (how many anchor words index a lexicon: counted in one pass over the index, not
        # once per lexicon: 230,000 membership tests at every start)
        indexed_by = Counter(name for names in index.values() for name in names)
        weight = {name: (name in anywhere, indexed_by[name]) for name in lexicons}
        keys: dict[str | None, set[str] | None] = {}
        for sc in self._all:
            if sc.need:
                key: set[str] | None = {min(sc.need, key=lambda n: (weight.get(n, (0, 0)), n))}
            else:
                key = set(sc.any_of) or None
            for rule in (sc.combo.rule_id, None):
                have = keys.get(rule, set())
                keys[rule] = None if key is None or have is None else have | key
        self._keys = {rule: None if k is None else frozenset(k) for rule, k in keys.items()}

    @property
    def rule_ids(self) -> frozenset[str]:
        return frozenset(self._by_rule)

    def _has(self, s: _Sentence, name: str, masks: tuple[str, ...]) -> bool:
        if name not in s.maybe:
            return False
        if name == QUESTION:
            return True
        # Masking only blanks words: what the plain sentence lacks, the masked one lacks
        # too. The plain search is made once per sentence and lexicon, whatever the masks
        # of the combos that ask (many combos share a lexicon under different masks).
        seen = s.seen
        found = seen.get((name, ()))
        if found is None:
            found = self.lexicons[name].search(s.line.text, s.line)
            seen[(name, ())] = found
        if not found or not masks:
            return found
        key = (name, masks)
        found = seen.get(key)
        if found is None:
            masked = self._masked(s, masks)
            found = self.lexicons[name].search(masked.text, masked)
            seen[key] = found
        return found

    def _masked(self, s: _Sentence, masks: tuple[str, ...]) -> Line:
        """The sentence with the words of `masks` blanked (each mask run only with the
        patterns its words can start; the `Line` of the blanked text for the searches)."""
        if not masks:
            return s.line
        line = s.masked.get(masks)
        if line is None:
            line = s.line
            for name in masks:
                text = self.lexicons[name].mask(line.text, _blank, line)
                if text is not line.text:
                    line = relined(text)
            s.masked[masks] = line
        return line

    def read(self, text: str) -> list[_Sentence]:
        """The sentences of `text` as the combos look at them (read once per line)."""
        return self.read_sentences(read_line(text)[1])

    def read_sentences(self, lines: list[tuple[Line, bool]]) -> list[_Sentence]:
        out = []
        also = self._also
        upto: set[str] = set()
        for read, question in lines:
            line = _rephrased(read)
            maybe = set(self._anywhere)
            words = line.words
            for w in self._indexed.intersection(words):
                for name, cond in also[w]:
                    if cond is None or not cond.isdisjoint(words):
                        maybe.add(name)
            if question:
                maybe.add(QUESTION)
            upto = upto | maybe
            out.append(_Sentence(line, question, {}, {}, maybe, upto))
        return out

    def check(self, text: str, rule_id: str | None = None,
              read: list[_Sentence] | None = None) -> ConceptHit | None:
        """The first combo (of `rule_id`, or of any rule) that fires in a sentence."""
        combos = self._all if rule_id is None else self._by_rule.get(rule_id, ())
        if not combos:
            return None
        keys = self._keys[rule_id]
        earlier: list[_Sentence] = []
        for s in self.read(text) if read is None else read:
            maybe, upto = s.maybe, s.upto
            if keys is not None and keys.isdisjoint(maybe):
                earlier.append(s)
                continue
            for sc in combos:
                # a carried lexicon must be possible here or in an earlier sentence
                if sc.need <= maybe and (not sc.any_of or not sc.any_of.isdisjoint(maybe)) \
                        and sc.carried <= upto and self._fires(sc.combo, s, earlier):
                    return self._hit(sc.combo, s)
            earlier.append(s)
        return None

    def _fires(self, c: Combo, s: _Sentence, earlier: list[_Sentence]) -> bool:
        has = self._has
        around = [s]
        for n in c.all_of:
            if not has(s, n, c.masks):
                if n not in c.carry:
                    return False
                found = next((e for e in reversed(earlier) if has(e, n, c.masks)), None)
                if found is None:
                    return False
                around.append(found)
        if c.any_of and not any(has(s, n, c.masks) for n in c.any_of):
            return False
        if len(around) > 1 and c.carry_if and not has(s, c.carry_if, ()):
            return False
        if c.revoke and has(s, c.revoke, ()):
            return True
        return not any(has(x, n, c.none_masks) for x in around for n in c.none_of)

    def _hit(self, c: Combo, s: _Sentence) -> ConceptHit:
        names = [n for n in (*c.all_of, *c.any_of) if self._has(s, n, c.masks)]
        words = []
        for n in names:
            if n == QUESTION:
                words.append("?")
                continue
            masked = self._masked(s, c.masks)
            found = self.lexicons[n].find(masked.text, masked)
            words.append(found[1] if found else "")
        return ConceptHit(c.rule_id, f"{c.what}: {' + '.join(names)}", " + ".join(words))
