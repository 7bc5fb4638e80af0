"""The safety rules' regexes compile on first use (DESIGN erratum 22), and the bridge node
compiles what is still pending off the turn's path (issue 27: the local rules' p99 under
1 ms per line on the robot, not only after each regex's first line)."""

from __future__ import annotations

import weakref

import pytest

from buddy_personality.safety import lazy_regex
from buddy_personality.safety.lazy_regex import LazyRegex, compile_pending, pending


@pytest.fixture(autouse=True)
def own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only this test's regexes: a test worker also holds the thousands of every bridge
    its other tests built (compiling those took 116 s in a fresh clone's run)."""
    monkeypatch.setattr(lazy_regex, "_ALL", weakref.WeakValueDictionary())


def test_compile_pending_compiles_every_regex_not_yet_compiled() -> None:
    rxs = [LazyRegex(rf"\bword{i}\b") for i in range(5)]
    rxs[0].search("word0 here")                 # used once: compiled already
    assert [rx.compiled for rx in rxs] == [True, False, False, False, False]
    assert pending() == 4
    compile_pending()
    assert all(rx.compiled for rx in rxs) and pending() == 0
    # same matches after warming as on first use
    assert rxs[3].search("a word3!") is not None and rxs[3].search("word33") is None


def test_compile_pending_stops_between_two_regexes_when_told() -> None:
    done = [LazyRegex(rf"done{i}") for i in range(3)]
    compile_pending()                           # compiled before: never asked about
    rxs = [LazyRegex(rf"stop{i}") for i in range(4)]
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 2                   # allow two, then stop (node closing)

    assert compile_pending(stop) == 2
    assert sum(rx.compiled for rx in rxs) == 2 and pending() == 2
    assert all(rx.compiled for rx in done)
