"""How the guard reads a line, fast and the same (issue 27: the local rules' cost under 1 ms
p99 on the robot, with the verdicts they gave before).

`read_line` reads a line in one pass (DESIGN §6.16: words, not substrings, after
normalising; docs/SAFETY.md "Sentences and clauses"); a `Line` finds a word's offsets when
a search asks for them; a `PatternSet` searched with the `Line` tries only the patterns
anchored on its words, and must answer what its whole regex answers."""

from __future__ import annotations

import pytest
from support.safety_corpus import benign_replies, unsafe_replies

from buddy_personality.safety.concept_rules import CONCEPT_TABLE, LEXICONS
from buddy_personality.safety.concepts import _blank
from buddy_personality.safety.output_rules import GUARD_TABLE
from buddy_personality.safety.reading import Line, line_of, read_line, relined
from buddy_personality.safety.words import PatternSet, anchor_words, second_anchor


def sentences(text: str) -> list[tuple[str, bool]]:
    return [(s.text, q) for s, q in read_line(text)[1]]


@pytest.mark.parametrize(("text", "whole", "read"), [
    # apostrophes, straight and curly, kept, dropped or expanded (spellings.py)
    ("Don\u2019t tell mommy\u2019s secret, ok? She'll never guess.",
     ". do not tell mommy secret ok . she will never guess .",
     [(". do not tell mommy secret . ok .", True), (". she will never guess .", False)]),
    ("rock'n'roll, y'all", ". rock roll you all .", [(". rock roll . you all .", False)]),
    # look-alike letters of other alphabets and zero-width characters do not hide a word
    ("I'm \u0430l\u200bive and r\u0435al!", ". i am alive and real .",
     [(". i am alive and real .", False)]),
    # nothing to read: no sentence, an empty line
    ("", ".  .", []),
    ("?! ... , -- ()", ".  .", []),
    # clause breaks inside a sentence never start or end it, and never come twice
    (", , try it , , now -- ok", ". try it now ok .", [(". try it . now . ok .", False)]),
    ("Is it 0.6? Yes.", ". is it 0 point 6 . yes .",
     [(". is it 0 point 6 .", True), (". yes .", False)]),
])
def test_read_line_reads_tricky_lines(text: str, whole: str,
                                      read: list[tuple[str, bool]]) -> None:
    line, _ = read_line(text)
    assert line.text == whole
    assert line == line_of(text)       # the phrase rows see what they saw before
    assert sentences(text) == read


def test_a_10000_character_line_is_read_whole() -> None:
    text = "Try one. " * 1111     # 9,999 characters
    line, read = read_line(text)
    assert len(read) == 1111 and all(s == (". try one .", False) for s in sentences(text))
    assert line.text == ". " + " . ".join(["try one"] * 1111) + " ."
    assert line.offsets("one")[-1] == len(line.text) - len(" one .")


def test_a_line_finds_where_a_word_stands() -> None:
    line = line_of("I hit it. White hit, hit!")
    assert line.text == ". i hit it . white hit hit ."
    assert line.offsets("hit") == [3, 18, 22]        # each " hit ", never inside "white"
    assert line.offsets("white") == [12]
    assert line.offsets("whit") == [] and line.offsets("~") == []
    assert line == line_of("I hit it. White hit, hit!")   # what was asked is no part of it


def test_relined_reads_a_masked_line() -> None:
    masked = ". do ~ ~ the stove . ~ it ."
    line = relined(masked)
    assert line.text == masked
    assert line.words == frozenset({"do", "~", "the", "stove", ".", "it"})
    assert line.offsets("stove") == [12] and line.offsets("~") == [4, 6, 20]


def _sets() -> list[tuple[str, PatternSet]]:
    out = [(name, PatternSet.of(p)) for name, p in LEXICONS.items()]
    for r in GUARD_TABLE:
        out += [(f"{r.rule_id} {k}", PatternSet.of(p)) for k, p in
                (("patterns", r.patterns), ("exceptions", r.exceptions), ("unless", r.unless))
                if p]
    return out


def test_a_search_by_anchors_answers_what_the_whole_regex_answers() -> None:
    """Every pattern set of the guard, on every sentence and whole line of the corpus and
    on those lines with each mask lexicon's words blanked: the anchored search (the one
    the guard makes) and a scan of every pattern agree, and so do `find` and `mask`."""
    texts = [r.reply["text"] for r in unsafe_replies(False) + benign_replies(False)]
    lines: list[Line] = []
    for t in texts:
        whole, read = read_line(t)
        lines += [whole, *(s for s, _ in read)]
    sets = _sets()
    mask_names = {m for c in CONCEPT_TABLE for m in (*c.masks, *c.none_masks)}
    masks = [ps for name, ps in sets if name in mask_names]
    for m in masks:
        lines += [relined(x) for x in {m.mask(ln.text, _blank) for ln in lines} if "~" in x]
    checked = 0
    for name, ps in sets:
        for ln in lines:
            found = any(rx.search(ln.text) for rx in ps._each)
            assert ps.search(ln.text, ln) == found, (name, ln.text)
            if found:
                assert ps.find(ln.text, ln) == ps.find(ln.text), (name, ln.text)
                checked += 1
    assert checked > 500     # the sets do match: the agreement is not all "no"
    for ps in masks:
        for ln in lines[:200]:
            assert ps.mask(ln.text, _blank, ln) == ps.mask(ln.text, _blank), ln.text


@pytest.mark.parametrize(("pattern", "first", "second"), [
    # the least common item anchors (no common word, fewest words: the first such), the
    # next least common one is the second anchor
    ("you (cried|sobbed) all night", {"night"}, {"cried", "sobbed"}),
    ("little (coin|button) batteries", {"little"}, {"batteries"}),
    ("i am (so|really|) sad", {"sad"}, {"i"}),
    # one needed item, or none: no second anchor
    ("(pills|tablets) ...", {"pills", "tablets"}, None),
    ("(a|) ..", None, None),
])
def test_second_anchor_is_another_item_a_match_needs(pattern: str, first: set[str] | None,
                                                     second: set[str] | None) -> None:
    assert anchor_words(pattern) == (None if first is None else frozenset(first))
    assert second_anchor(pattern) == (None if second is None else frozenset(second))


def test_a_line_without_the_second_anchor_is_not_matched() -> None:
    ps = PatternSet.of(["little (coin|button) batteries"])
    for text, hit in (("Little coin batteries are shiny", True),
                      ("A little coin for you", False), ("Batteries, little ones", False)):
        line = line_of(text)
        assert ps.search(line.text, line) is hit, text
