"""The one typed JSON state file (buddy_personality/state_files.py; issue 28 item 2,
issue 31 item 4). DESIGN §5 Persistence: a corrupt file is moved aside; DESIGN §1.5:
nothing already stored is lost. Issue 31 item 4: keep the previous good generation of
each state file and fall back to it.

The per-store tests (usage, household, memory, personality state, greetings, session
log) are in test_state_file_stores.py."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from buddy_personality.state_files import StateFile, StateFileRefused


class Doc(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    version: int
    n: int


def state(path: Path, **kw: object) -> StateFile[Doc]:
    return StateFile(path, "test file", Doc.model_validate, **kw)  # type: ignore[arg-type]


def test_a_save_keeps_the_file_it_replaces_as_the_previous_generation(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    f = state(path)
    f.save({"version": 1, "n": 1})
    assert not f.previous_path.exists()        # nothing older yet
    f.save({"version": 1, "n": 2})
    assert json.loads(f.previous_path.read_text())["n"] == 1
    assert json.loads(path.read_text())["n"] == 2


def test_a_corrupt_current_falls_back_to_the_previous_quarantined_and_counted(
        tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    state(path).save({"version": 1, "n": 1})
    state(path).save({"version": 1, "n": 2})
    path.write_text('{"version": 1, "n": ')       # a truncated write, an editor's slip
    f = state(path)
    loaded = f.load()
    assert loaded.value == Doc(version=1, n=1) and loaded.generation == "previous"
    assert f.set_aside == 1 and f.fell_back == 1
    (aside,) = tmp_path.glob("s.json.corrupt-*")
    assert aside.read_text() == '{"version": 1, "n": '     # nothing stored is lost
    assert any("corrupt" in w and "previous generation" in w for w in f.warnings)
    # copied back, so another reader of the file (a tool, another node) sees it too
    assert Doc.model_validate(json.loads(path.read_text())).n == 1


def test_both_generations_bad_start_empty_with_both_kept(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    f = state(path)
    f.save({"version": 1, "n": 1})
    f.save({"version": 1, "n": 2})
    path.write_text("[]")
    f.previous_path.write_text("nonsense")
    g = state(path)
    loaded = g.load()
    assert loaded.value is None and loaded.generation == "unreadable"
    assert g.set_aside == 2 and len(loaded.unreadable_mtimes) == 2
    assert sorted(p.read_text() for p in tmp_path.glob("s.json*.corrupt-*")) == \
        ["[]", "nonsense"]


def test_keep_in_place_leaves_an_unreadable_file_and_refuses_to_write_over_it(
        tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text("{broken")
    f = state(path, keep_in_place=True)
    assert f.load().generation == "unreadable" and f.set_aside == 1 and f.unreadable
    try:
        f.save({"version": 1, "n": 3})
        raise AssertionError("a save over an unreadable file went through")
    except StateFileRefused:
        pass
    assert path.read_text() == "{broken" and not f.previous_path.exists()
    assert any("left in place" in w for w in f.warnings)


def test_a_file_changed_into_garbage_behind_the_owner_is_not_kept_as_previous(
        tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    f = state(path)
    f.save({"version": 1, "n": 1})
    f.save({"version": 1, "n": 2})
    path.write_text("garbage")                 # while the owner runs
    f.save({"version": 1, "n": 3})
    assert json.loads(f.previous_path.read_text())["n"] == 1   # the good one stays
    assert [p.read_text() for p in tmp_path.glob("s.json.corrupt-*")] == ["garbage"]
    assert f.set_aside == 1


def test_a_file_removed_on_purpose_does_not_come_back_from_the_previous(
        tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    f = state(path)
    f.save({"version": 1, "n": 1})
    f.save({"version": 1, "n": 2})
    path.unlink()                              # a parent deleted it: a fresh start
    assert state(path).load().generation == "absent"
    f.save({"version": 1, "n": 9})
    path.write_text("garbage")
    assert state(path).load().value is None    # not the deleted household's n=1


def test_a_stale_temp_of_the_previous_generation_is_cleaned(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    f = state(path)
    f.save({"version": 1, "n": 1})
    stale = tmp_path / ".s.json.prev.1234.tmp"   # a SIGKILL between link and rename
    stale.write_text("{}")
    state(path).load()
    assert not stale.exists()
