"""Pending Profile Update FSM and the household store (spec 004; DESIGN §4.3, §5)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from identity_testlib import HOUSEHOLD, PARENT, confirm

from buddy_personality.identity import IdentityConfig, ProfileStore
from buddy_personality.identity.enums import ProfileAction as A
from buddy_personality.identity.enums import ProfileUpdateState as P
from buddy_personality.identity.profiles import SCHEMA_VERSION, write_household


def test_file_has_schema_version_and_round_trips(household_path: Path) -> None:
    data = json.loads(household_path.read_text())
    assert data["schema_version"] == SCHEMA_VERSION
    store = ProfileStore(household_path)
    assert store.user_ids() == sorted(p.user_id for p in HOUSEHOLD)
    assert store.get("dad") == next(p for p in HOUSEHOLD if p.user_id == "dad")


def test_corrupt_file_without_a_previous_generation_stays_and_the_store_starts_empty(
        tmp_path: Path) -> None:
    """Issue 31 item 4: no readable generation, so the file stays where it is (a PIN in it
    must not vanish) and the store writes nothing over it."""
    path = tmp_path / "household.json"
    path.write_text("{not json")
    store = ProfileStore(path)
    assert store.user_ids() == [] and store.warnings and store.unreadable
    assert path.read_text() == "{not json" and store.set_aside == 1


def test_wrong_schema_version_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "household.json"
    path.write_text(json.dumps({"schema_version": 99, "profiles": []}))
    assert ProfileStore(path).warnings


def test_write_is_atomic_and_leaves_no_temp_files(tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    write_household(path, HOUSEHOLD)
    write_household(path, HOUSEHOLD[:2])
    assert sorted(os.listdir(tmp_path)) == ["h.json", "h.json.prev"]   # issue 31 item 4
    assert len(json.loads((tmp_path / "h.json.prev").read_text())["profiles"]) == \
        len(HOUSEHOLD)
    assert len(json.loads(path.read_text())["profiles"]) == 2


def test_self_edit_of_name_is_approved_and_written(core, household_path) -> None:
    confirm(core, "mia")
    out = core.request_profile_update(A.REQUEST, "mia", "mia", "name", "Mia Rose", 2, parent=PARENT)
    assert out.took("profile_update", "authority_verified", "APPROVED")
    assert out.took("profile_update", "applied", "NONE")
    assert out.reply.state == P.APPROVED
    assert ProfileStore(household_path).get("mia").name == "Mia Rose"


def test_change_needing_confirmation_writes_only_when_approved(core, household_path) -> None:
    """Invariant: profile data is not modified outside APPROVED."""
    confirm(core, "mom")
    before = household_path.read_bytes()
    out = core.request_profile_update(A.REQUEST, "mom", "mia", "name", "Mila", 2, parent=PARENT)
    assert out.reply.state == P.PENDING_CONFIRMATION
    assert household_path.read_bytes() == before and core.store.get("mia").name == "Mia"
    out = core.request_profile_update(A.CONFIRM, "mom", "mia", "", "", 3, parent=PARENT)
    assert out.took("profile_update", "owner_confirmation_received", "APPROVED")
    assert ProfileStore(household_path).get("mia").name == "Mila"


@pytest.mark.parametrize("how", ["deny", "cancel", "timeout"])
def test_rejected_or_cancelled_updates_leave_no_trace(core, household_path, how) -> None:
    confirm(core, "mom")
    before = household_path.read_bytes()
    core.request_profile_update(A.REQUEST, "mom", "mia", "birthdate", "2021-04-04", 2,
                                parent=PARENT)
    if how == "deny":
        out = core.request_profile_update(A.DENY, "mom", "mia", "", "", 3, parent=PARENT)
        assert out.took("profile_update", "owner_confirmation_denied", "REJECTED")
    elif how == "cancel":
        out = core.request_profile_update(A.CANCEL, "mom", "mia", "", "", 3, parent=PARENT)
        assert out.took("profile_update", "context_changed", "CANCELLED")
    else:
        out = core.tick(2 + IdentityConfig().profile_confirmation_timeout_s)
        assert out.took("profile_update", "timeout", "CANCELLED")
    assert out.took("profile_update", "done", "NONE")
    assert household_path.read_bytes() == before
    assert core.store.get("mia").birthdate.isoformat() == "2021-03-03"
    assert core.profile_update_state("mia") == P.NONE


def test_one_pending_update_per_user(core) -> None:
    confirm(core, "mom")
    core.request_profile_update(A.REQUEST, "mom", "mia", "name", "Mila", 2, parent=PARENT)
    out = core.request_profile_update(A.REQUEST, "mom", "mia", "addressing", "Mimi", 3,
                                      parent=PARENT)
    assert not out.reply.accepted and "already pending" in out.reply.message
    assert core.profile_update_state("mia") == P.PENDING_CONFIRMATION
    # Another user's profile is independent.
    out = core.request_profile_update(A.REQUEST, "mom", "leo", "name", "Leon", 4, parent=PARENT)
    assert out.reply.accepted and out.reply.state == P.PENDING_CONFIRMATION


def test_the_confirmation_needs_the_pin_too(core, store) -> None:
    """Erratum 18: the confirming step carries a parent token like the request."""
    core.request_profile_update(A.REQUEST, "mom", "dad", "name", "Benny", 2, parent=PARENT)
    confirm(core, "dad")  # dad confirmed by voice is no owner confirmation
    out = core.request_profile_update(A.CONFIRM, "dad", "dad", "", "", 3)
    assert not out.reply.accepted and "parent PIN" in out.reply.message
    assert store.get("dad").name == "Ben"


def test_child_cannot_edit_another_profile_or_a_role(core) -> None:
    confirm(core, "mia")
    out = core.request_profile_update(A.REQUEST, "mia", "leo", "name", "Stinky", 2)
    assert not out.reply.accepted and "parent PIN" in out.reply.message
    out = core.request_profile_update(A.REQUEST, "mia", "mia", "role", "parent", 3)
    assert not out.reply.accepted
    assert core.store.get("mia").role == "child" and core.store.get("leo").name == "Leo"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("birthdate", "yesterday"),
        ("birthdate", "2099-01-01"),
        ("role", "king"),
        ("name", ""),
        ("shoe_size", "30"),
    ],
)
def test_invalid_values_are_rejected_in_validation(core, field, value) -> None:
    confirm(core, "mom")
    out = core.request_profile_update(A.REQUEST, "mom", "mia", field, value, 2, parent=PARENT)
    assert out.reply.state == P.REJECTED


def test_failed_write_changes_nothing(core, household_path, monkeypatch) -> None:
    from buddy_personality import state_files

    def disk_full(*_a: object) -> None:
        raise OSError(28, "No space left on device")

    confirm(core, "mia")
    before = household_path.read_bytes()
    monkeypatch.setattr(state_files.os, "replace", disk_full)
    out = core.request_profile_update(A.REQUEST, "mia", "mia", "name", "Mimi", 2, parent=PARENT)
    monkeypatch.undo()
    assert "nothing changed" in out.reply.message
    assert core.store.get("mia").name == "Mia"
    assert household_path.read_bytes() == before
    left = [p.name for p in household_path.parent.iterdir() if not p.name.endswith(".lock")]
    assert left == [household_path.name]  # no temp file left behind
    assert core.profile_update_state("mia") == P.NONE
