"""The learned lexicon: a second local check of the output guard (issue 27, task CL).

The concept rules (`concept_rules.py`) refuse what their lexicons name; a red-team round
written in a voice they never saw still finds a sixth to a third of its unsafe lines
missed. This check is a small multinomial logistic regression over the line's own
normalised words (`safety/words.py`: the same normalising every rule sees) and word
pairs, trained on every labelled round by `scripts/train_safety_lexicon.py`, and shipped
as a table a reviewer can read and grep: one row per feature, one weight per class
(`learned_lexicon.tsv`). Scoring is pure Python: add the weights of the line's features
per class, softmax, and the line is refused when the probability of "not SAFE" is at
least the table's threshold; the rule named is the most probable unsafe class.

It can only add a refusal, never lift one (the guard asks it only after every rule has let
the line through), and the GuardrailEvent says it was the lexicon ("HC-6 (learned)").
Pure and deterministic: the same line and table always give the same answer.

Features of a line (the union over its sentences, `read_line`):
- `w:WORD`   a normalised word;
- `b:A_B`    two words next to each other in one clause; `A` is `^` at a clause start,
  so `b:^_touch` is an imperative "touch" opening a clause.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

from buddy_personality.safety.reading import BOUNDARY, Line, read_line

TABLE_PATH = Path(__file__).resolve().parent / "learned_lexicon.tsv"
SAFE = "SAFE"
BIAS = "(bias)"
CLAUSE_START = "^"
LEARNED_SUFFIX = " (learned)"


def features(sentences: list[tuple[Line, bool]]) -> set[str]:
    """The features of a line read by `read_line` (its sentences)."""
    out: set[str] = set()
    for line, _question in sentences:
        prev = CLAUSE_START
        for word in line.text.split(" "):
            if word == BOUNDARY:
                prev = CLAUSE_START
                continue
            out.add("w:" + word)
            out.add(f"b:{prev}_{word}")
            prev = word
    return out


def text_features(text: str) -> set[str]:
    return features(read_line(text)[1])


@dataclass(slots=True, frozen=True)
class LearnedHit:
    rule_id: str        # the rule the lexicon chose ("HC-6"), without the suffix
    p_unsafe: float     # 1 - P(SAFE)
    words: str          # the features that pushed hardest towards that rule


class TableError(ValueError):
    pass


class LearnedLexicon:
    """The table, loaded: `check(sentences)` gives a `LearnedHit` or None."""

    def __init__(self, classes: tuple[str, ...], bias: tuple[float, ...],
                 weights: dict[str, tuple[float, ...]], threshold: float,
                 meta: dict[str, str] | None = None) -> None:
        if SAFE not in classes:
            raise TableError(f"learned lexicon: no {SAFE} class in {classes}")
        if len(bias) != len(classes) or any(len(w) != len(classes) for w in weights.values()):
            raise TableError("learned lexicon: a row has not one weight per class")
        if not 0.0 < threshold <= 1.0:
            raise TableError(f"learned lexicon: threshold {threshold} outside (0, 1]")
        self.classes = classes
        self.bias = bias
        self.weights = weights
        self.threshold = threshold
        self.meta = dict(meta or {})
        self._safe = classes.index(SAFE)

    @classmethod
    def load(cls, path: Path = TABLE_PATH) -> LearnedLexicon:
        return cls.parse(path.read_text(encoding="utf-8"), str(path))

    @classmethod
    def parse(cls, text: str, name: str = "table") -> LearnedLexicon:
        meta: dict[str, str] = {}
        classes: tuple[str, ...] = ()
        bias: tuple[float, ...] = ()
        weights: dict[str, tuple[float, ...]] = {}
        for n, raw in enumerate(text.splitlines(), 1):
            if not raw.strip():
                continue
            cells = raw.split("\t")
            if raw.startswith("#"):
                if len(cells) == 2:
                    meta[cells[0].lstrip("# ").strip()] = cells[1].strip()
                continue
            if not classes:
                if cells[0] != "feature":
                    raise TableError(f"{name}:{n}: expected the header row 'feature<TAB>...'")
                classes = tuple(cells[1:])
                continue
            try:
                row = tuple(map(float, cells[1:]))
            except ValueError as e:
                raise TableError(f"{name}:{n}: {e}") from None
            if cells[0] == BIAS:
                bias = row
            else:
                weights[cells[0]] = row
        if not classes or not bias:
            raise TableError(f"{name}: no header or no {BIAS} row")
        try:
            threshold = float(meta["threshold"])
        except (KeyError, ValueError):
            raise TableError(f"{name}: no '# threshold<TAB>value' line") from None
        return cls(classes, bias, weights, threshold, meta)

    def scores(self, feats: set[str]) -> list[float]:
        """The probability of each class (in `classes` order)."""
        rows = [r for r in map(self.weights.get, feats) if r is not None]
        # column sums in C (zip, sum): the guard runs on every spoken line
        z = ([b + s for b, s in zip(self.bias, map(sum, zip(*rows, strict=True)),
                                              strict=True)]
             if rows else list(self.bias))
        top = max(z)
        e = [math.exp(v - top) for v in z]
        total = sum(e)
        return [v / total for v in e]

    def check(self, sentences: list[tuple[Line, bool]]) -> LearnedHit | None:
        feats = features(sentences)
        p = self.scores(feats)
        p_unsafe = 1.0 - p[self._safe]
        if p_unsafe < self.threshold:
            return None
        k = max((i for i in range(len(p)) if i != self._safe), key=lambda i: p[i])
        # the words a reviewer sees in the event: the features that pushed this rule
        # over SAFE the most
        pushed = sorted(((self.weights[f][k] - self.weights[f][self._safe], f)
                         for f in feats if f in self.weights), reverse=True)[:3]
        return LearnedHit(self.classes[k], p_unsafe,
                          " ".join(f.split(":", 1)[1] for _, f in pushed))


@functools.cache
def shipped_lexicon() -> LearnedLexicon:
    """The committed table, read once per process (every guard shares it)."""
    return LearnedLexicon.load(TABLE_PATH)
