"""`buddy parent set-pin` (offline, on the household file; DESIGN erratum 18)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from buddy_personality.identity import Profile, write_household
from buddy_personality.identity.parent_pin import verify_pin
from buddy_personality.identity.profiles import read_household
from buddy_personality.tools.cli.parent import read_secret, set_pin


def _asker(answers: list[str]):
    it: Iterator[str] = iter(answers)
    return lambda _prompt: next(it)


@pytest.fixture
def household(tmp_path: Path) -> Path:
    path = tmp_path / "household.json"
    write_household(path, [Profile("leo", "Leo", "child")])
    return path


def test_set_then_change_the_pin(household: Path, capsys) -> None:
    assert set_pin(household, _asker(["2468", "2468"])) == 0
    profiles, pin = read_household(household)
    assert [p.user_id for p in profiles] == ["leo"] and pin and verify_pin("2468", pin)
    assert "2468" not in household.read_text()
    # Changing it needs the current PIN.
    assert set_pin(household, _asker(["0000"])) == 1
    assert "wrong current PIN" in capsys.readouterr().err
    assert set_pin(household, _asker(["2468", "97531", "97531"])) == 0
    assert verify_pin("97531", read_household(household)[1])


@pytest.mark.parametrize("answers,why", [(["12", "12"], "4 to 64"),
                                         (["2468", "2469"], "differ"),
                                         (["1111", "1111"], "repeated")])
def test_a_bad_new_pin_changes_nothing(household: Path, capsys, answers, why) -> None:
    before = household.read_bytes()
    assert set_pin(household, _asker(answers)) == 1
    assert why in capsys.readouterr().err and household.read_bytes() == before


def test_a_corrupt_household_file_is_not_overwritten(tmp_path: Path, capsys) -> None:
    path = tmp_path / "household.json"
    path.write_text("{not json")
    assert set_pin(path, _asker(["2468", "2468"])) == 1
    assert path.read_text() == "{not json" and "nothing changed" in capsys.readouterr().err


def test_read_secret_takes_a_line_from_a_pipe() -> None:
    stream = io.StringIO("2468\n9999\n")
    assert read_secret("PIN: ", stream) == "2468" and read_secret("PIN: ", stream) == "9999"
    with pytest.raises(EOFError):
        read_secret("PIN: ", stream)
