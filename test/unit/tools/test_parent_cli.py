"""`buddy parent set-pin` (offline, on the household file; DESIGN erratum 18)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from buddy_personality.identity import Profile, write_household
from buddy_personality.identity.parent_pin import verify_pin
from buddy_personality.identity.profiles import read_household
from buddy_personality.tools.cli.parent import (
    DEFAULT_HOUSEHOLD,
    build_parser,
    main,
    read_secret,
    set_pin,
)


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


@pytest.mark.parametrize("where", ["after", "before"])
def test_options_go_before_or_after_the_command(tmp_path: Path, monkeypatch, where: str,
                                                capsys) -> None:
    """Issue 30: `buddy parent set-pin --household X` failed ("unrecognized arguments");
    the options are taken on either side of the command, and the file named is used."""
    path = tmp_path / "elsewhere.json"
    write_household(path, [Profile("leo", "Leo", "child")])
    option = ["--household", str(path)]
    argv = ["set-pin", *option] if where == "after" else [*option, "set-pin"]
    monkeypatch.setattr("sys.stdin", io.StringIO("2468\n2468\n"))
    assert main(argv) == 0, capsys.readouterr().err
    assert verify_pin("2468", read_household(path)[1])
    ns = build_parser().parse_args(["add-child", "Mia", "--namespace", "/robot"])
    assert ns.namespace == "/robot" and ns.household == Path(DEFAULT_HOUSEHOLD)
