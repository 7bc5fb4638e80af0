"""What `words.py` derives from each pattern (its regex source, first words and anchor
words), kept on disk between processes, as Python keeps bytecode.

Every process that checks lines builds the same ~1,500 concept patterns, and deriving them
is pure Python: about 1.2 s of CPU per llm_bridge start on this 2-core machine (more on a
Pi), paid by every node, `buddy run` and graph the test suite starts (DESIGN erratum 22).
The derivations are pure functions of the pattern text and of the code that derives it, so
the file is named by a hash of that code (`words.py`, `reading.py`) and of the Python
version: a changed rule table only adds entries, a changed derivation names a new file.

A missing, unreadable or foreign file is the same as an empty one (it is rebuilt and
rewritten); a cache directory that cannot be written leaves the process uncached, never
failing. The file is written by the project's one atomic write (`state_files.py`), so a
reader never sees half of one, and two writers leave one complete file.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from buddy_personality.state_files import atomic_write_bytes, clean_stale_tmp

R = TypeVar("R")

# BUDDY_CACHE_DIR, else the XDG cache directory (~/.cache/buddy), as for any user program.
CACHE_ENV = "BUDDY_CACHE_DIR"
FILE_PREFIX = "safety-patterns-"
# A file larger than this is not read (a cache is a few hundred kB; anything else is not ours).
MAX_FILE_BYTES = 32 * 1024 * 1024


@dataclass(slots=True)
class _Store:
    """This process's derived values: those read from the file, then its own."""
    tables: dict[str, dict[str, object]] | None = None   # None: the file not read yet
    dirty: bool = False                                   # derived something not on file


_STORE = _Store()


def cache_dir() -> Path:
    explicit = os.environ.get(CACHE_ENV, "").strip()
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg) if xdg else Path.home() / ".cache") / "buddy"


@functools.cache
def _code_key() -> str:
    """A hash of the code the cached values come from, and of the marshal format's Python."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(sys.version.encode())
    for name in ("words.py", "reading.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:16]


def cache_file() -> Path:
    return cache_dir() / f"{FILE_PREFIX}{_code_key()}.marshal"


def _load() -> dict[str, dict[str, object]]:
    if _STORE.tables is None:
        _STORE.tables = {}
        try:
            path = cache_file()
            if path.stat().st_size <= MAX_FILE_BYTES:
                data = marshal.loads(path.read_bytes())
                if isinstance(data, dict) and all(isinstance(v, dict) for v in data.values()):
                    _STORE.tables = data
        except (OSError, ValueError, EOFError, TypeError):
            pass    # no file yet, or not one of ours: rebuilt as the patterns are derived
    return _STORE.tables


def persistent(fn: Callable[[str], R]) -> Callable[[str], R]:
    """`functools.cache` for a pure function of one pattern string whose values marshal
    (str, frozenset, None): the values found in the cache file are not derived again."""
    name = fn.__qualname__

    @functools.wraps(fn)
    def cached(arg: str) -> R:
        table = _load().setdefault(name, {})
        try:
            return table[arg]  # type: ignore[return-value]
        except KeyError:
            value = table[arg] = fn(arg)
            _STORE.dirty = True
            return value

    return cached


def save() -> bool:
    """Write what this process derived beyond the file it read; True when written."""
    if not _STORE.dirty or _STORE.tables is None:
        return False
    path = cache_file()
    try:
        clean_stale_tmp(path)       # what a writer killed mid-write left
        atomic_write_bytes(path, marshal.dumps(_STORE.tables))
        for old in path.parent.glob(f"{FILE_PREFIX}*.marshal"):
            if old != path:     # derived by code that is no longer this one
                old.unlink(missing_ok=True)
    except OSError:
        return False    # a read-only home: uncached, as before
    _STORE.dirty = False
    return True
