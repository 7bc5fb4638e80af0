"""Reading a line for the safety rules (DESIGN §6.15, §6.16): normalised words, sentences
and clauses, and the `Line` the pattern tables (`safety/words.py`) search. Moved out of
words.py (issue 27's engine work made it pass the ~500-line bar); words.py re-exports it.

Normalising makes a line's surface harmless to the match: case, curly quotes, accents,
zero-width and control characters, look-alike letters from other alphabets, contractions
with or without the apostrophe ("I'm", "im" -> "i am"). Sentence punctuation becomes a
boundary token, so a pattern never runs across two sentences and `^` / `$` can anchor at
the start or end of one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from buddy_personality.safety.spellings import CONTRACTIONS, SPELLINGS

BOUNDARY = "."

# Letters of other alphabets that look like Latin ones (a model or a typist can hide "alive"
# as "аlive" with a Cyrillic а). NFKD handles accents and full-width forms; these it does not.
_CONFUSABLES = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i",
    "ј": "j", "ѕ": "s", "к": "k", "м": "m", "т": "t", "в": "b", "н": "h",
    "α": "a", "ε": "e", "ι": "i", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "ν": "v",
    "κ": "k", "χ": "x",
    "‘": "'", "’": "'", "ʼ": "'", "`": "'", "´": "'",
})

# "sooo", "pleeease", "reallly": a letter stretched three times or more counts once.
_STRETCHED = re.compile(r"([a-z])\1{2,}")

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_DECIMAL = re.compile(r"(\d+)[.,](\d+)")
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[.!?;:]+")


def clean_text(text: str) -> str:
    """Drop control and invisible format characters (zero-width spaces, bidi overrides);
    keep the line readable. Used on child input and inside `normalise`."""
    text = _CONTROL.sub(" ", text)
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def _prepared(text: str) -> str:
    if text.isascii():   # the common case: no accents, look-alikes or invisible characters
        text = _CONTROL.sub(" ", text).lower().replace("`", "'")
    else:
        text = clean_text(text).translate(_CONFUSABLES)
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
        text = text.translate(_CONFUSABLES)
    text = _STRETCHED.sub(r"\1", text)
    return _DECIMAL.sub(r"\1 point \2", text)   # "0.6" stays one number, not two sentences


# (TS2, issue 27) clitics of any word: "she'll never guess" -> "she will never guess" (it was
# read "she never guess"), "must've" -> "must have", "needn't" -> "need not".
_CLITICS = {"ll": "will", "ve": "have", "re": "are", "d": "would"}


def _clitic_words(tok: str) -> tuple[str, ...]:
    """The words of a token with an apostrophe that no table expands."""
    if tok.endswith("n't") and len(tok) > 3:
        return (tok[:-3], "not")
    base, _, tail = tok.partition("'")
    clitic = _CLITICS.get(tail)     # possessive and other clitics: "mommy's" -> mommy
    return (base,) if clitic is None else (base, clitic)


def _expansion(tok: str) -> tuple[str, ...] | None:
    expanded = CONTRACTIONS.get(tok) or SPELLINGS.get(tok)
    if expanded is not None:
        return tuple(expanded.split())
    return _clitic_words(tok) if "'" in tok else None


# Every token the normaliser rewrites, with the words it becomes (issue 27's 1 ms p99: one
# dict look-up per token on every spoken line). Filled from the tables at import; a token
# with an apostrophe that no table names is added when first met (`_word`).
_EXPANDED: dict[str, tuple[str, ...]] = {
    tok: words for tok in (*CONTRACTIONS, *SPELLINGS)
    if (words := _expansion(tok)) is not None}
_EXPANDED_MAX = 50_000      # bound on the apostrophe tokens added while running


def _word(tok: str) -> tuple[str, ...] | None:
    """The words `tok` becomes, or None when it stays itself (the common case)."""
    words = _EXPANDED.get(tok)
    if words is None and "'" in tok:
        words = _clitic_words(tok)
        if len(_EXPANDED) < _EXPANDED_MAX:
            _EXPANDED[tok] = words
    return words


def normalise(text: str) -> tuple[str, ...]:
    """The words of `text`, lower case, contractions expanded, sentence ends as `.`."""
    out: list[str] = []
    for tok in _TOKEN.findall(_prepared(text)):
        if tok[0] in ".!?;:":
            if out and out[-1] != BOUNDARY:
                out.append(BOUNDARY)
            continue
        words = _word(tok)
        if words is None:
            out.append(tok)
        else:
            out.extend(words)
    while out and out[-1] == BOUNDARY:
        out.pop()
    return tuple(out)


def joined(words: tuple[str, ...]) -> str:
    """The form patterns search: sentence boundaries at both ends, one space between."""
    return ". " + " ".join(words) + " ."


@dataclass(slots=True, frozen=True)
class Line:
    """A normalised line as the tables search it: `text` is `joined(words)`; `offsets`
    gives the offsets of the space before a word, where a pattern starting with that word
    can match."""

    text: str
    words: frozenset[str]
    # the offsets of the words asked so far (a cache, no part of what the line is)
    found: dict[str, list[int]] = field(default_factory=dict, compare=False, repr=False)

    def offsets(self, word: str) -> list[int]:
        """Where `word` stands in `text`: the offsets of the space before it. Found when
        first asked (a search asks for a few words of a line, the guard reads every spoken
        line): words are separated by one space, so " word " is the word itself."""
        at = self.found.get(word)
        if at is None:
            at = []
            needle = f" {word} "
            i = self.text.find(needle)
            while i >= 0:
                at.append(i)
                i = self.text.find(needle, i + 1)
            self.found[word] = at
        return at


def line_of(text: str) -> Line:
    return _line(normalise(text))


# Clause breaks inside a sentence (commas, dashes between spaces, brackets), for the rules
# by concept (`safety/concepts.py`), which read a line sentence by sentence.
_MARKED_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[.!?;:]+|,|(?<=\s)[-\u2013\u2014]+(?=\s)|"
                           r"[\u2013\u2014()]")
_SENTENCE_END = frozenset(".!?;:")
_CLAUSE_BREAK = frozenset(",-()\u2013\u2014")


def read_line(text: str) -> tuple[Line, list[tuple[Line, bool]]]:
    """The `Line` of `text` (as `line_of` gives it) and, normalised once, the `Line` of
    each of its sentences with its clause breaks as boundaries, and whether that sentence
    is a question (it ends with `?`). One pass over the tokens (the guard reads every
    spoken line, issue 27): a boundary is added only after a word, never twice in a row,
    and a trailing one is dropped, so no sentence is empty."""
    whole: list[str] = []
    sentence: list[str] = []
    sentences: list[tuple[Line, bool]] = []
    expanded = _EXPANDED
    for tok in _MARKED_TOKEN.findall(_prepared(text)):
        c = tok[0]
        if c in _SENTENCE_END:
            if sentence:
                if sentence[-1] == BOUNDARY:
                    sentence.pop()
                sentences.append((_line(sentence), "?" in tok))
                sentence = []
                whole.append(BOUNDARY)
        elif c in _CLAUSE_BREAK:
            if sentence and sentence[-1] != BOUNDARY:
                sentence.append(BOUNDARY)
        else:
            words = expanded.get(tok)
            if words is None and "'" in tok:
                words = _word(tok)
            if words is None:
                whole.append(tok)
                sentence.append(tok)
            else:
                whole.extend(words)
                sentence.extend(words)
    if sentence:
        if sentence[-1] == BOUNDARY:
            sentence.pop()
        sentences.append((_line(sentence), False))
    elif whole:
        whole.pop()          # the boundary after the last sentence
    return _line(whole), sentences


def _line(words: Sequence[str]) -> Line:
    return Line(". " + " ".join(words) + " .", frozenset(words))


def relined(text: str) -> Line:
    """The `Line` of a text in the joined form (`joined(words)`), such as a line whose
    words a mask blanked to `~`: the offsets are those of `text` itself."""
    return Line(text, frozenset(text[2:-2].split(" ")))
