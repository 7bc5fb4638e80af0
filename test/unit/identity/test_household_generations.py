"""Issue 31 item 4 for the identity's state files. Before, a corrupt household file was
moved aside and the store started empty: the parent PIN was gone, `buddy parent set-pin`
then set a new one without asking for the old, and the parent page said no PIN was set.
Now the previous good generation is used (quarantined and counted, DESIGN §5
Persistence); with no readable generation the file stays where it is, the PIN check
fails with a clear error and nothing is written over it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from buddy_personality.identity.greetings import GreetingLog
from buddy_personality.identity.parent_pin import hash_pin, verify_pin
from buddy_personality.identity.profiles import (
    Profile,
    ProfileStore,
    read_household,
    write_household,
)
from buddy_personality.tools.cli.parent import set_pin

ANNA = Profile("anna", "Anna", "parent")
BEN = Profile("ben", "Ben", "child", dt.date(2020, 5, 1))
PIN = "4711"


@pytest.fixture(scope="module")
def pin_hash():
    return hash_pin(PIN)


def test_corrupt_household_falls_back_to_the_previous_generation_with_the_pin(
        tmp_path: Path, pin_hash) -> None:
    path = tmp_path / "household.json"
    write_household(path, [ANNA], pin_hash)
    write_household(path, [ANNA, BEN], pin_hash)
    path.write_text('{"schema_version": 2, "profiles": [{"user_id": "an')
    store = ProfileStore(path)
    assert store.user_ids() == ["anna"]                   # the previous generation
    pin = store.parent_pin()
    assert pin is not None and verify_pin(PIN, pin)       # the PIN is kept
    assert store.set_aside == 1 and not store.unreadable
    assert [p.read_text() for p in tmp_path.glob("household.json.corrupt-*")] == \
        ['{"schema_version": 2, "profiles": [{"user_id": "an']
    # restored as the current file: the tools and the other nodes read it too
    assert [p.user_id for p in read_household(path)[0]] == ["anna"]


def test_both_household_generations_corrupt_is_a_clear_error_and_nothing_is_overwritten(
        tmp_path: Path, pin_hash) -> None:
    path = tmp_path / "household.json"
    prev = tmp_path / "household.json.prev"
    write_household(path, [ANNA], pin_hash)
    write_household(path, [ANNA, BEN], pin_hash)
    path.write_text("{not json")
    prev.write_text('{"schema_version": 99}')
    store = ProfileStore(path)
    assert store.unreadable and store.set_aside == 1
    assert any("household file" in w and "left in place" in w for w in store.warnings)
    with pytest.raises(ValueError):       # the PIN check fails closed, never "no PIN"
        store.parent_pin()
    with pytest.raises(OSError):          # a profile change is refused, not written over
        store.put(BEN)
    # `buddy parent set-pin` refuses too: it would set a PIN without the old one
    assert set_pin(path, ask=lambda _prompt: "2580") == 1
    assert path.read_text() == "{not json" and prev.read_text() == '{"schema_version": 99}'


def test_a_household_file_garbled_while_the_node_runs_is_not_written_over(
        tmp_path: Path, pin_hash) -> None:
    path = tmp_path / "household.json"
    write_household(path, [ANNA, BEN], pin_hash)
    store = ProfileStore(path)
    path.write_text("{garbled")
    with pytest.raises(OSError):          # apply would have written it without the PIN
        store.apply("ben", "name", "Benny")
    assert path.read_text() == "{garbled"


def test_corrupt_greeting_log_uses_the_previous_generation(tmp_path: Path) -> None:
    path = tmp_path / "greetings.json"
    today = dt.date(2026, 5, 1)
    log = GreetingLog(path)
    log.save({("ben", today)})
    log.save({("ben", today), ("mia", today)})
    path.write_text('{"schema_version": 1, "greeted": [["ben"')
    again = GreetingLog(path)
    assert again.load() == {("ben", today)}    # ben is not greeted twice (spec 004 §6)
    assert len(list(tmp_path.glob("greetings.json.corrupt-*"))) == 1
