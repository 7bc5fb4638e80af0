"""Normalised words and word patterns: the matching under every safety rule (DESIGN §6.15,
§6.16).

Rules match whole words of a normalised line, never substrings: "hit" does not match
"white", "die" does not match "diet". How a line is normalised and read into sentences is
`safety/reading.py`.

Pattern language (one pattern is one string, written for a reviewer to read):
- words, separated by spaces, normalised like the line ("i'm scared" == "i am scared")
- `a|b|c`  one word among these
- `(i see|there is|lots of)`  one of these word sequences (may be empty: `(really|)`)
- `*`      any one word
- `..`     a gap of up to three words (within the sentence)
- `...`    a gap of up to eight words (within the sentence)
- `^` `$`  start and end of a sentence

A table of patterns compiles to one regular expression over the normalised line, so a rule
costs one regex search per line whatever its size; the pattern that matched is found
again only when the rule fires (for the GuardrailEvent and the alert).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from buddy_personality.safety.lazy_regex import LazyRegex
from buddy_personality.safety.pattern_cache import persistent
from buddy_personality.safety.reading import BOUNDARY, Line, normalise

GAP_MAX_WORDS = 3
LONG_GAP_MAX_WORDS = 8

class PatternError(ValueError):
    pass


@functools.cache   # pure (erratum 22: words recur across patterns)
def _word_regex(word: str) -> str:
    alts = []
    for alt in word.split("|"):
        norm = normalise(alt)
        if not norm or BOUNDARY in norm:
            raise PatternError(f"empty or punctuated alternative {alt!r} in {word!r}")
        alts.append(" ".join(re.escape(w) for w in norm))
    return " (?:" + "|".join(alts) + ")(?= )"


_PLAIN = re.compile(r"[a-z0-9' ]+")    # words only: no group, gap, `*`, `^` or `$`


def _split_top(src: str) -> list[str]:
    """Split a group's inside at `|` outside nested parentheses."""
    out, depth, cur = [], 0, ""
    for ch in src:
        if ch == "|" and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += (ch == "(") - (ch == ")")
        cur += ch
    out.append(cur)
    return out


def _sequence(src: str, pattern: str) -> list[str]:
    parts: list[str] = []
    i = 0
    while i < len(src):
        ch = src[i]
        if ch.isspace():
            i += 1
            continue
        if ch == "(":
            depth, j = 0, i
            while j < len(src):
                depth += (src[j] == "(") - (src[j] == ")")
                if depth == 0:
                    break
                j += 1
            if depth != 0:
                raise PatternError(f"unbalanced parentheses in {pattern!r}")
            inside = _split_top(src[i + 1:j])
            words = [a.strip() for a in inside if a.strip()]
            if words and all(_PLAIN.fullmatch(a) for a in words):
                # (TS2) a group of plain words and phrases is one alternation, " (?:a|b c)(?= )",
                # not one wrapped group per word: same matches, a regex about a third the
                # size, so compiling a lexicon's union on first use costs less
                plain = _word_regex("|".join(words))
                parts.append(f"(?:{plain}|)" if len(words) < len(inside) else plain)
            else:
                alts = ["".join(_sequence(a, pattern)) for a in inside]
                parts.append("(?:" + "|".join(alts) + ")")
            i = j + 1
            continue
        if ch == ")":
            raise PatternError(f"unbalanced parentheses in {pattern!r}")
        j = i
        while j < len(src) and not src[j].isspace() and src[j] not in "()":
            j += 1
        tok = src[i:j]
        i = j
        if tok == "^":
            parts.append(r"(?<=\.)")
        elif tok == "$":
            parts.append(r"(?= \.)")
        elif tok == "*":
            parts.append(r" [a-z0-9]+(?= )")
        elif tok == "..":
            parts.append(rf"(?: [a-z0-9]+){{0,{GAP_MAX_WORDS}}}(?= )")
        elif tok == "...":
            parts.append(rf"(?: [a-z0-9]+){{0,{LONG_GAP_MAX_WORDS}}}(?= )")
        else:
            parts.append(_word_regex(tok))
    # (TS2) a word's "(?= )" is implied when the next part itself starts with a space
    return [p[:-5] if p.endswith("(?= )") and p.startswith(" ") and i + 1 < len(parts)
            and parts[i + 1].startswith(" ") else p for i, p in enumerate(parts)]


@persistent   # pure; the same patterns are built by every bridge and process (erratum 22)
def first_words(pattern: str) -> frozenset[str] | None:
    """The words a match of `pattern` can start with, or None when any word can (a
    leading `*`, gap or optional group). Lets a table skip its regex for lines that hold
    none of them."""
    src = pattern.strip()
    if src.startswith("^"):
        src = src[1:].strip()
    if not src:
        return None
    if src[0] == "(":
        depth, j = 0, 0
        while j < len(src):
            depth += (src[j] == "(") - (src[j] == ")")
            if depth == 0:
                break
            j += 1
        out: set[str] = set()
        for alt in _split_top(src[1:j]):
            if not alt.strip():
                return None
            sub = first_words(alt)
            if sub is None:
                return None
            out |= sub
        return frozenset(out)
    tok = re.split(r"[\s()]", src, maxsplit=1)[0]
    if tok in ("*", "..", "...", "$"):
        return None
    return frozenset(normalise(alt)[0] for alt in tok.split("|"))


# Words so common that a pattern needing one of them says little about a line.
COMMON_WORDS = frozenset((
    "i", "you", "me", "my", "your", "we", "us", "our", "it", "is", "are", "am", "was", "were",
    "be", "the", "a", "an", "and", "or", "to", "of", "in", "on", "at", "for", "with", "so",
    "do", "does", "did", "not", "no", "can", "will", "would", "could", "should", "that",
    "this", "just", "all", "what", "how", "when", "if", "then", "there", "here", "he", "she",
    "they", "them", "his", "her", "go", "get", "got", "have", "has", "had",
))


def _top_tokens(src: str) -> list[str]:
    """The top-level items of a pattern: words, `*`, gaps, anchors and `( ... )` groups."""
    out, i = [], 0
    while i < len(src):
        if src[i].isspace():
            i += 1
            continue
        if src[i] == "(":
            depth, j = 0, i
            while j < len(src):
                depth += (src[j] == "(") - (src[j] == ")")
                if depth == 0:
                    break
                j += 1
            out.append(src[i:j + 1])
            i = j + 1
            continue
        j = i
        while j < len(src) and not src[j].isspace() and src[j] != "(":
            j += 1
        out.append(src[i:j])
        i = j
    return out


@functools.cache   # pure (erratum 22: words recur across patterns)
def _needs(item: str) -> frozenset[str] | None:
    """Words one of which a line must hold for `item` to match, or None if it needs none."""
    if item in ("^", "$", "*", "..", "..."):
        return None
    if item.startswith("("):
        alts = _split_top(item[1:-1])
        out: set[str] = set()
        for alt in alts:
            needs = [n for n in (_needs(t) for t in _top_tokens(alt)) if n is not None]
            if not needs:
                return None              # an empty or all-optional alternative
            out |= min(needs, key=lambda n: (len(n & COMMON_WORDS), len(n)))
        return frozenset(out)
    return frozenset(normalise(alt)[0] for alt in item.split("|"))


@persistent   # pure; the same patterns are built by every bridge and process (erratum 22)
def anchor_words(pattern: str) -> frozenset[str] | None:
    """The least common set of words one of which every line the pattern matches holds
    (so a table can skip the pattern for a line with none of them), or None."""
    needs = [n for n in (_needs(t) for t in _top_tokens(pattern)) if n is not None]
    if not needs:
        return None
    return min(needs, key=lambda n: (len(n & COMMON_WORDS), len(n)))


@persistent   # pure; the same patterns are built by every bridge and process (erratum 22)
def second_anchor(pattern: str) -> frozenset[str] | None:
    """Another set of words one of which every line the pattern matches holds, besides
    `anchor_words` (the next least common item of the pattern), or None. A pattern's
    anchor word is often a plain one ("little", "one", "make"); the second lets a search
    pass over it without a match when the line lacks the rest (issue 27's 1 ms p99)."""
    needs = [n for n in (_needs(t) for t in _top_tokens(pattern)) if n is not None]
    if len(needs) < 2:
        return None
    first = anchor_words(pattern)
    rest = list(needs)
    rest.remove(first)   # the first item min() chose (`remove` takes the first equal one)
    return min(rest, key=lambda n: (len(n & COMMON_WORDS), len(n)))


@persistent   # pure; the same patterns are built by every bridge and process (erratum 22)
def compile_pattern(pattern: str) -> str:
    """Regex source of one pattern over `joined(normalise(line))`."""
    if not re.search(r"[a-z0-9]", pattern.lower()):
        raise PatternError(f"pattern without words: {pattern!r}")
    return "".join(_sequence(pattern, pattern))


@dataclass(slots=True, frozen=True)
class PatternSet:
    """Patterns compiled to one regex; `find` names the first pattern (table order) that
    matches, so a reviewer sees exactly which line of the table fired.

    With the `Line` of the text (issue 27: the guard runs on every spoken line), a search
    tries only the patterns whose `anchor_words` the line holds, each matched only where
    one of its `first_words` stands: a few anchored matches instead of a scan of every
    alternative at every position. A pattern can match no line without one of its anchor
    words and cannot start at another word, so the answer is the one of the whole regex."""

    patterns: tuple[str, ...]
    _any: LazyRegex | None
    _each: tuple[LazyRegex, ...]
    _firsts: tuple[frozenset[str] | None, ...]   # each pattern's first words (None: any)
    _by_anchor: dict[str, tuple[int, ...]]       # anchor word -> the patterns it anchors
    _anchors: frozenset[str]                     # its keys
    _unanchored: tuple[int, ...]                 # patterns with no anchor word
    _seconds: tuple[frozenset[str] | None, ...]  # each pattern's `second_anchor`

    @classmethod
    def of(cls, patterns: Iterable[str]) -> PatternSet:
        pats = tuple(patterns)
        sources = [compile_pattern(p) for p in pats]
        any_re = LazyRegex.union(sources) if sources else None
        firsts = tuple(first_words(p) for p in pats)
        by_anchor: dict[str, list[int]] = {}
        unanchored: list[int] = []
        for i, p in enumerate(pats):
            anchors = anchor_words(p)
            if anchors is None:
                unanchored.append(i)
            for w in anchors or ():
                by_anchor.setdefault(w, []).append(i)
        return cls(pats, any_re, tuple(LazyRegex(s) for s in sources), firsts,
                   {w: tuple(ix) for w, ix in by_anchor.items()}, frozenset(by_anchor),
                   tuple(unanchored), tuple(second_anchor(p) for p in pats))

    @property
    def first_words(self) -> frozenset[str]:
        """Words some pattern starts with (a pattern that may start anywhere: `loose`)."""
        return frozenset(w for f in self._firsts for w in f or ())

    @property
    def loose(self) -> bool:
        return any(f is None for f in self._firsts)

    def _candidates(self, at: Line) -> list[int]:
        """The patterns that can match the line of `at` (its words hold an anchor), in
        table order."""
        found: set[int] = set(self._unanchored)
        for w in self._anchors.intersection(at.words):
            found.update(self._by_anchor[w])
        return sorted(found)

    def search(self, line: str, at: Line | None = None) -> bool:
        """Does any pattern match `line` (`joined(normalise(text))`)? With `at`, the
        `Line` of that same text, only the patterns anchored on its words are tried, each
        where its first words stand (the class's docstring)."""
        if self._any is None:
            return False
        if at is None:
            return self._any.search(line) is not None
        hit = self._anchors.intersection(at.words)      # usually empty
        if not hit and not self._unanchored:
            return False
        if len(hit) == 1:
            ix: Iterable[int] = self._by_anchor[next(iter(hit))]
        else:
            ix = {i for w in hit for i in self._by_anchor[w]}
        offsets, words = at.offsets, at.words
        each, firsts, seconds = self._each, self._firsts, self._seconds
        for i in (*ix, *self._unanchored):
            second = seconds[i]
            if second is not None and second.isdisjoint(words):
                continue
            lazy = each[i]
            rx = lazy.pattern or lazy.compile()
            starts = firsts[i]
            if starts is None:
                if rx.search(line) is not None:
                    return True
                continue
            for w in starts.intersection(words):   # a hazard's pattern starts with 60
                for pos in offsets(w):
                    if rx.match(line, pos) is not None:
                        return True
        return False

    def mask(self, line: str, blank: Callable[[str], str], at: Line | None = None) -> str:
        """`line` with the words of every match of every pattern replaced by
        `blank(words)`. Matches are found on the unmasked line, so one exception never
        hides the words another (longer) one needs. With `at` (the `Line` of `line`), only
        the patterns that can match it are run."""
        if not self.search(line, at):
            return line
        covered = [False] * len(line)
        for i in range(len(self._each)) if at is None else self._candidates(at):
            for m in self._each[i].finditer(line):
                covered[m.start():m.end()] = [True] * (m.end() - m.start())
        out, i = [], 0
        while i < len(line):
            j = i
            while j < len(line) and covered[j] == covered[i]:
                j += 1
            out.append(blank(line[i:j]) if covered[i] else line[i:j])
            i = j
        return "".join(out)

    def find(self, line: str, at: Line | None = None) -> tuple[str, str] | None:
        """(pattern, the words it matched) of the first matching pattern, or None. With
        `at` (the `Line` of `line`), only the patterns that can match it are tried."""
        if at is None and not self.search(line):
            return None
        for i in range(len(self._each)) if at is None else self._candidates(at):
            m = self._each[i].search(line)
            if m is not None:
                return self.patterns[i], m.group(0).strip(" .")
        return None
