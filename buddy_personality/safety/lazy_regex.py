"""A regex compiled on its first use (DESIGN erratum 22). The safety tables' `PatternSet`s
hold ~3,900 regexes: compiled when a table was built, they cost 7 s of CPU in every
process or test that built a bridge, and most of them are never used by the lines it
checks. Same source, same matches; only the moment of compiling moves."""

from __future__ import annotations

import re
from collections.abc import Iterator


class LazyRegex:
    __slots__ = ("_rx", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._rx: re.Pattern[str] | None = None

    @classmethod
    def union(cls, sources: list[str]) -> LazyRegex:
        """One regex matching where any of `sources` matches."""
        return cls("|".join(f"(?:{s})" for s in sources))

    def _get(self) -> re.Pattern[str]:
        if self._rx is None:
            self._rx = re.compile(self.source)
        return self._rx

    def search(self, line: str, pos: int = 0) -> re.Match[str] | None:
        return self._get().search(line, pos)

    def match(self, line: str, pos: int = 0) -> re.Match[str] | None:
        return self._get().match(line, pos)

    def finditer(self, line: str) -> Iterator[re.Match[str]]:
        return self._get().finditer(line)
