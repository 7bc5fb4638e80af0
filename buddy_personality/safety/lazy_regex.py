"""A regex compiled on its first use (DESIGN erratum 22). The safety tables' `PatternSet`s
hold ~3,900 regexes: compiled when a table was built, they cost 7 s of CPU in every
process or test that built a bridge, and most of them are never used by the lines it
checks. Same source, same matches; only the moment of compiling moves.

On the robot the first replies must not pay for it (issue 27: the local rules' p99 under
1 ms per line): the bridge node compiles what is still pending in a background thread
once it is up (`compile_pending`, its `warm_safety_rules_after_s` parameter), off the
turn's path. One LazyRegex per source in a process: every bridge built in it (the tests
build dozens) shares the compiled regexes, and a warm-up compiles each source once."""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterator


class LazyRegex:
    __slots__ = ("__weakref__", "pattern", "source")

    source: str
    pattern: re.Pattern[str] | None    # None until first used (a hot loop may read it)

    def __new__(cls, source: str) -> LazyRegex:
        rx = _ALL.get(source)
        if rx is None:                   # two threads at once make two: harmless
            rx = super().__new__(cls)
            rx.source = source
            rx.pattern = None
            _ALL[source] = rx
        return rx

    @property
    def compiled(self) -> bool:
        return self.pattern is not None

    @classmethod
    def union(cls, sources: list[str]) -> LazyRegex:
        """One regex matching where any of `sources` matches."""
        return cls("|".join(f"(?:{s})" for s in sources))

    def compile(self) -> re.Pattern[str]:
        if self.pattern is None:
            self.pattern = re.compile(self.source)
        return self.pattern

    def search(self, line: str, pos: int = 0) -> re.Match[str] | None:
        return self.compile().search(line, pos)

    def match(self, line: str, pos: int = 0) -> re.Match[str] | None:
        return self.compile().match(line, pos)

    def finditer(self, line: str) -> Iterator[re.Match[str]]:
        return self.compile().finditer(line)


# Every LazyRegex alive in this process, by its source (the safety tables hold theirs
# for their life).
_ALL: weakref.WeakValueDictionary[str, LazyRegex] = weakref.WeakValueDictionary()


def compile_pending(stop: Callable[[], bool] = lambda: False) -> int:
    """Compiles every LazyRegex not yet compiled, until `stop()` says so (checked between
    two regexes); returns how many it compiled. Safe beside the lines being checked: a
    regex compiled twice at once is the same regex, and the assignment is atomic."""
    done = 0
    for rx in [rx for rx in list(_ALL.values()) if not rx.compiled]:
        if stop():
            break
        rx.match("")
        done += 1
    return done


def pending() -> int:
    """How many LazyRegex of this process are not compiled yet."""
    return sum(1 for rx in list(_ALL.values()) if not rx.compiled)
