"""The derived-pattern cache (safety/pattern_cache.py, DESIGN erratum 22): a process that
finds the file derives nothing again and gets exactly what deriving gives; a bad file or an
unwritable directory costs time, never a verdict or a start."""

from __future__ import annotations

import marshal
from collections.abc import Iterator
from pathlib import Path

import pytest

from buddy_personality.safety import pattern_cache, words
from buddy_personality.safety.concept_rules import LEXICONS
from buddy_personality.safety.output_rules import GUARD_TABLE

DERIVED = (words.compile_pattern, words.first_words, words.anchor_words, words.second_anchor)
PATTERNS = sorted({p for ps in LEXICONS.values() for p in ps}
                  | {p for r in GUARD_TABLE for p in r.patterns})


@pytest.fixture
def fresh_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """This process's store emptied, the cache directory a new one; restored after."""
    monkeypatch.setenv(pattern_cache.CACHE_ENV, str(tmp_path / "cache"))
    saved = (pattern_cache._STORE.tables, pattern_cache._STORE.dirty)
    pattern_cache._STORE.tables, pattern_cache._STORE.dirty = None, False
    yield tmp_path / "cache"
    pattern_cache._STORE.tables, pattern_cache._STORE.dirty = saved


def _derive_all() -> list[tuple[object, ...]]:
    return [tuple(f(p) for f in DERIVED) for p in PATTERNS]


def test_a_process_that_finds_the_file_gets_what_deriving_gives(fresh_store: Path) -> None:
    built = _derive_all()
    assert pattern_cache.save() and pattern_cache.cache_file().is_file()
    # the next process: the file read, nothing derived again
    pattern_cache._STORE.tables, pattern_cache._STORE.dirty = None, False
    assert _derive_all() == built
    assert not pattern_cache._STORE.dirty and not pattern_cache.save()
    # and what it read is what the derivations give, pattern by pattern
    assert built == [tuple(f.__wrapped__(p) for f in DERIVED) for p in PATTERNS]


def test_a_new_pattern_is_derived_and_added_to_the_file(fresh_store: Path) -> None:
    words.compile_pattern("hello there")
    assert pattern_cache.save()
    pattern_cache._STORE.tables = None
    assert words.compile_pattern("purple elephants") == \
        words.compile_pattern.__wrapped__("purple elephants")
    assert pattern_cache._STORE.dirty and pattern_cache.save()
    table = marshal.loads(pattern_cache.cache_file().read_bytes())["compile_pattern"]
    assert {"hello there", "purple elephants"} <= set(table)


@pytest.mark.parametrize("content", [b"", b"not marshal at all", marshal.dumps([1, 2, 3]),
                                     marshal.dumps({"compile_pattern": "oops"})])
def test_a_bad_file_is_derived_again_and_replaced(fresh_store: Path, content: bytes) -> None:
    path = pattern_cache.cache_file()
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert words.anchor_words("knife .. sharp") == words.anchor_words.__wrapped__("knife .. sharp")
    assert pattern_cache._STORE.dirty and pattern_cache.save()
    assert isinstance(marshal.loads(path.read_bytes())["anchor_words"], dict)


def test_an_unwritable_cache_directory_leaves_the_process_uncached(
        fresh_store: Path) -> None:
    fresh_store.parent.mkdir(exist_ok=True)
    fresh_store.write_text("a file where the directory should be")
    assert words.first_words("(hot|warm) stove") == frozenset({"hot", "warm"})
    assert pattern_cache.save() is False


def test_a_file_from_other_code_is_removed_when_this_one_is_written(fresh_store: Path) -> None:
    fresh_store.mkdir()
    stale = fresh_store / f"{pattern_cache.FILE_PREFIX}0000000000000000.marshal"
    stale.write_bytes(marshal.dumps({}))
    words.compile_pattern("hello there")
    assert pattern_cache.save()
    assert not stale.exists() and pattern_cache.cache_file().exists()
