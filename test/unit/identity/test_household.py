"""A parent sets up the household (issue 30 item 1; spec 004 profiles through the Pending
Profile Update FSM; DESIGN §4.3 and erratum 18: profile changes need the parent PIN).
What is accepted is household.py's table: names are words, a child's birthdate makes them
2 to 12 (spec 002 §12.4 "children aged 4-6", spec 004 §1.2 CHILD below 13); removing a
child first forgets that child's memories."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from identity_testlib import PARENT, TODAY, confirm

from buddy_personality.identity import ForgetUser, IdentityCore, ProfileStore
from buddy_personality.identity.enums import ConsentAction, ConsentStateId, ProfileUpdateState
from buddy_personality.identity.household import REMOVE_EFFECT


def born(years: int, days: int = 0) -> str:
    return (TODAY.replace(year=TODAY.year - years) - dt.timedelta(days=days)).isoformat()


def on_disk(path: Path) -> dict[str, dict]:
    return {p["user_id"]: p for p in json.loads(path.read_text())["profiles"]}


def test_a_parent_adds_a_child_and_it_is_on_disk(core: IdentityCore,
                                                 household_path: Path) -> None:
    out = core.add_child("Zoë", born(5), "Zozo", 1.0, PARENT)
    assert out.reply is not None and out.reply.accepted, out.reply
    assert out.reply.user_id == "zoe"
    row = on_disk(household_path)["zoe"]
    assert (row["name"], row["role"], row["birthdate"], row["addressing"]) == (
        "Zoë", "child", born(5), "Zozo")
    assert core.store.get("zoe") is not None
    # it passed the Pending Profile Update FSM to APPROVED and back (spec 004 invariant)
    assert out.took("profile_update", "authority_verified", "APPROVED")
    assert out.took("profile_update", "applied", "NONE")
    assert core.profile_update_state("zoe") == ProfileUpdateState.NONE
    # and it is a household member at once: memory consent can be granted for it
    core.request_consent(ConsentAction.REQUEST, "zoe", "memory", "", 2.0, PARENT)
    core.request_consent(ConsentAction.GRANT, "zoe", "memory", "", 2.0, PARENT)
    assert core.consent_state("zoe", "memory") == ConsentStateId.GRANTED


def test_without_the_pin_nothing_is_added(core: IdentityCore, household_path: Path) -> None:
    before = household_path.read_text()
    out = core.add_child("Leo", born(5), "", 1.0)
    assert not out.reply.accepted and household_path.read_text() == before
    assert core.counters["parent_authority_refused"] == 1


@pytest.mark.parametrize("years,days", [(2, 0), (4, 0), (6, 0), (12, 0), (13, -1)])
def test_plausible_child_birthdates_are_accepted(core: IdentityCore, years: int,
                                                days: int) -> None:
    """2 to 12 years old today (13 less a day is still 12)."""
    out = core.add_child("Tom", born(years, days), "", 1.0, PARENT)
    assert out.reply.accepted, out.reply.message


@pytest.mark.parametrize("birthdate,why", [
    (born(0, -30), "would be"), (born(1), "would be"), (born(13), "would be"),
    (born(38), "would be"), ("1900-01-01", "would be"), ("2021-02-30", "YYYY-MM-DD"),
    ("5 years", "YYYY-MM-DD"),
])
def test_implausible_birthdates_are_refused_with_the_reason(
        core: IdentityCore, household_path: Path, birthdate: str, why: str) -> None:
    before = household_path.read_text()
    out = core.add_child("Tom", birthdate, "", 1.0, PARENT)
    assert not out.reply.accepted and why in out.reply.message
    assert household_path.read_text() == before and core.store.get("tom") is None
    assert core.counters["household_refused"] == 1


@pytest.mark.parametrize("name", ["<b>Leo</b>", "Leo<script>", "R2D2", "", "   ",
                                  "a" * 33, "Leo  Max", "-Leo", "{{name}}", "Leo\nMax"])
def test_names_are_words_not_markup(core: IdentityCore, name: str) -> None:
    out = core.add_child(name, born(5), "", 1.0, PARENT)
    assert not out.reply.accepted and "name" in out.reply.message
    assert core.store.user_ids() == ["dad", "gran", "leo", "mia", "mom"]


@pytest.mark.parametrize("name", ["Mary-Jane", "Anne Marie", "O'Brien", "Zoë", "Jr."])
def test_names_of_several_words_are_accepted(core: IdentityCore, name: str) -> None:
    assert core.add_child(name, "", "", 1.0, PARENT).reply.accepted


def test_a_name_already_in_the_household_is_refused(core: IdentityCore) -> None:
    """Two members answering to one name make a spoken claim ambiguous (spec 004)."""
    out = core.add_child("mia", born(5), "", 1.0, PARENT)
    assert not out.reply.accepted and "already" in out.reply.message


def test_an_unknown_date_refuses_a_birthdate_but_not_the_child(store: ProfileStore) -> None:
    core = IdentityCore(store)
    core.tick(0.0, TODAY, date_trusted=False)
    out = core.add_child("Noah", born(5), "", 1.0, PARENT)
    assert not out.reply.accepted and "date" in out.reply.message
    assert core.add_child("Noah", "", "", 1.0, PARENT).reply.accepted


def test_edit_changes_the_given_fields_and_keeps_the_others(
        core: IdentityCore, household_path: Path) -> None:
    out = core.edit_child("mia", "", born(6), "Mimi", 1.0, PARENT)
    assert out.reply.accepted, out.reply.message
    row = on_disk(household_path)["mia"]
    assert (row["name"], row["birthdate"], row["addressing"]) == ("Mia", born(6), "Mimi")
    refused = core.edit_child("mia", "M<i>a", "", "", 2.0, PARENT)
    assert not refused.reply.accepted and on_disk(household_path)["mia"]["name"] == "Mia"


def test_edit_of_the_speaker_moves_their_addressing(core: IdentityCore) -> None:
    confirm(core, "mia")
    core.edit_child("mia", "", "", "Mimi", 2.0, PARENT)
    # a parent's form is the child's stored answer: Buddy uses it at once (spec 004 §1.1)
    assert core.identity_snapshot().preferred_name == "Mimi"


@pytest.mark.parametrize("user_id", ["mom", "nobody", ""])
def test_only_children_are_edited_or_removed(core: IdentityCore, user_id: str) -> None:
    assert not core.edit_child(user_id, "Maxi", "", "", 1.0, PARENT).reply.accepted
    out = core.remove_child(user_id, 1.0, PARENT)
    assert not out.reply.accepted and out.effects == []


def test_removing_a_child_forgets_first_then_removes(core: IdentityCore,
                                                    household_path: Path) -> None:
    core.request_consent(ConsentAction.REQUEST, "mia", "memory", "", 1.0, PARENT)
    core.request_consent(ConsentAction.GRANT, "mia", "memory", "", 1.0, PARENT)
    asked = core.remove_child("mia", 2.0, PARENT)
    assert asked.effects == [ForgetUser(REMOVE_EFFECT, "", "mia")]
    assert "mia" in on_disk(household_path)  # nothing changes before the forget answered
    done = core.child_forgotten("mia", True, "forgot 2", 3.0, PARENT)
    assert done.reply.accepted and "Mia" in done.reply.message
    assert "mia" not in on_disk(household_path) and "mia" not in core.store
    assert [c.user_id for c in core.consent_snapshot()] == [] and done.consent_changed


def test_a_failed_forget_keeps_the_child(core: IdentityCore, household_path: Path) -> None:
    core.remove_child("mia", 2.0, PARENT)
    out = core.child_forgotten("mia", False, "personality not running", 3.0, PARENT)
    assert not out.reply.accepted and "nothing changed" in out.reply.message
    assert "mia" in on_disk(household_path)


def test_a_write_that_fails_changes_nothing(core: IdentityCore, household_path: Path,
                                            monkeypatch) -> None:
    """Atomic: the file is whole or untouched, and memory agrees with it."""
    before = household_path.read_text()

    def broken(*_a: object, **_k: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("buddy_personality.identity.profiles.write_household", broken)
    out = core.add_child("Noah", born(5), "", 1.0, PARENT)
    assert not out.reply.accepted and "nothing changed" in out.reply.message
    assert household_path.read_text() == before and "noah" not in core.store
    assert core.profile_update_state("noah") == ProfileUpdateState.NONE
