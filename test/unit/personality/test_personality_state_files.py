"""Issue 19 attacks on the state files a person may edit or a crash may leave (DESIGN §5
Persistence: a bad file is moved aside with a warning; nothing stored is lost).

Valid JSON of the wrong shape crashed start-up; one bad memory entry lost every good
one; a 100 MB file was read whole; `.tmp` files of interrupted writes stayed forever.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from buddy_personality.identity.greetings import GreetingLog
from buddy_personality.identity.profiles import ProfileStore
from buddy_personality.personality.memory import MemoryStore
from buddy_personality.state_files import MAX_STATE_FILE_BYTES

from .conftest import T0, make_engine

pytestmark = pytest.mark.attack


def entry(tag: str, **over: object) -> dict[str, object]:
    e: dict[str, object] = {
        "tag": tag, "category": "topic", "valence_bias": 0.05, "arousal_bias": 0.0,
        "initial_strength": 1.0, "created_ts": T0 - 10, "last_reinforced_ts": T0 - 10,
        "reinforcement_count": 1, "decay_lambda": 0.0, "source": "llm_extract"}
    e.update(over)
    return e


WRONG_SHAPES = [
    '"just a string"', "42", "[1, 2, 3]", "null",
    json.dumps({"version": 1, "entries": "dinosaurs"}),          # string for a list
    json.dumps({"version": 1, "entries": [], "session_count": "many"}),
    json.dumps({"version": 1, "entries": [], "total_conversation_s": [1]}),
    json.dumps({"version": 1, "entries": {"a": 1}}),               # object for a list
]


@pytest.mark.parametrize("content", WRONG_SHAPES)
def test_wrong_shape_memory_file_is_moved_aside_not_a_crash(tmp_path: Path,
                                                             content: str) -> None:
    path = tmp_path / "memory.json"
    path.write_text(content)
    engine = make_engine(memory_path=path)
    assert len(engine.memory) == 0
    assert any("corrupt" in w for w in engine.warnings)
    aside = list(tmp_path.glob("memory.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text() == content


USAGE_SHAPES = [
    '"x"', "[]", json.dumps({"version": 1, "local_day": "today", "daily_conversation_s": 1}),
    json.dumps({"version": 1, "local_day": 20454, "daily_conversation_s": [5]}),
    json.dumps({"version": 1, "local_day": 20454, "daily_conversation_s": 5,
                "last_boot_local_day": {"a": 1}}),
    '{"version": 1, "local_day": 20454, "daily_conversation_s": NaN}',
]


@pytest.mark.parametrize("content", USAGE_SHAPES)
def test_wrong_shape_usage_file_is_moved_aside_not_a_crash(tmp_path: Path,
                                                            content: str) -> None:
    path = tmp_path / "usage.json"
    path.write_text(content)
    engine = make_engine(usage_path=path)
    # issue 31 item 4: unreadable today counts as used up (spec 002 §9.3 RS-2), never 0
    assert engine.usage.daily_s >= engine.daily_limit_s
    assert engine.usage.last_boot_day is None
    assert any("corrupt" in w for w in engine.warnings)
    assert [p.read_text() for p in tmp_path.glob("usage.json.corrupt-*")] == [content]


@pytest.mark.parametrize("content", ['"x"', "[]", "7",
                                     json.dumps({"schema_version": 1, "greeted": 5})])
def test_wrong_shape_greeting_log_is_moved_aside_not_a_crash(tmp_path: Path,
                                                             content: str) -> None:
    path = tmp_path / "greetings.json"
    path.write_text(content)
    log = GreetingLog(path)
    assert log.load() == set() and log.warnings
    assert not path.exists()


@pytest.mark.parametrize("content", [
    '"x"', "[]", json.dumps({"schema_version": 1, "profiles": "anna"}),
    json.dumps({"schema_version": 1, "profiles": [{"user_id": "u1", "name": 7,
                                                   "role": "child"}]}),
])
def test_wrong_shape_household_file_is_left_in_place_not_a_crash(tmp_path: Path,
                                                                 content: str) -> None:
    """Issue 31 item 4: with no readable generation the household file stays as it is
    (the PIN in it must not vanish) and nothing is written over it."""
    path = tmp_path / "household.json"
    path.write_text(content)
    household = ProfileStore(path)
    assert household.user_ids() == [] and household.warnings and household.unreadable
    assert path.read_text() == content


def test_one_bad_memory_entry_keeps_the_good_ones(tmp_path: Path) -> None:
    good = [entry(f"likes_topic_{k}") for k in range(7)]
    bad = [entry("Bad Tag"), entry("ok_tag", valence_bias=5.0), entry(12345),
           entry("likes_topic_0")]  # a name that is a number, a bias out of range, a repeat
    path = tmp_path / "memory.json"
    path.write_text(json.dumps({"version": 1, "entries": [*good[:3], *bad, *good[3:]],
                                "session_count": 4}))
    store = MemoryStore(path, T0)
    assert sorted(e.tag for e in store.entries()) == [f"likes_topic_{k}" for k in range(7)]
    assert store.quarantined == 4 and store.session_count == 4
    assert any("4 of 11 entries dropped" in w and "7 kept" in w for w in store.warnings)
    (side,) = tmp_path.glob("memory.json.quarantine-*")
    assert [q["entry"] for q in json.loads(side.read_text())["quarantined"]] == bad
    # the store on disk now holds only the good ones: the next start is clean
    again = MemoryStore(path, T0 + 1)
    assert len(again) == 7 and again.quarantined == 0 and not again.warnings


def test_oversized_memory_file_is_refused_unread_and_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "memory.json"
    pad = " " * (MAX_STATE_FILE_BYTES + 1)
    path.write_text('{"version": 1, "entries": []' + pad + "}")
    store = MemoryStore(path, T0)
    assert len(store) == 0 and "byte limit" in store.warnings[0]
    assert list(tmp_path.glob("memory.json.corrupt-*"))


def test_stale_tmp_files_of_a_killed_write_are_cleaned_at_start_up(tmp_path: Path) -> None:
    memory, usage = tmp_path / "memory.json", tmp_path / "usage.json"
    left = [tmp_path / ".memory.json.k3j_a9.tmp", tmp_path / ".usage.json.x81b2c.tmp"]
    for p in left:
        p.write_text('{"half": ')
    other = tmp_path / ".household.json.abc.tmp"   # another owner's file: not ours
    other.write_text("{}")
    make_engine(memory_path=memory, usage_path=usage)
    assert not any(p.exists() for p in left) and other.exists()
