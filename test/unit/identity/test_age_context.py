"""Age Context Derivation and its mutation guards (spec 004 §1.2)."""

from __future__ import annotations

import datetime as dt

import pytest
from identity_testlib import PARENT, TODAY, confirm, ev

from buddy_personality.identity import IdentityCore
from buddy_personality.identity.age_context import age_group_of
from buddy_personality.identity.enums import AgeGroup as G
from buddy_personality.identity.enums import IdentityEventKind as K
from buddy_personality.identity.enums import ProfileUpdateState as P
from buddy_personality.identity.parent_pin import NO_TOKEN


@pytest.mark.parametrize(
    ("born", "today", "group"),
    [
        (dt.date(2020, 6, 1), dt.date(2026, 6, 1), G.CHILD),
        (dt.date(2013, 6, 2), dt.date(2026, 6, 1), G.CHILD),  # 12, a day before 13
        (dt.date(2013, 6, 1), dt.date(2026, 6, 1), G.TEEN),
        (dt.date(2008, 6, 2), dt.date(2026, 6, 1), G.TEEN),
        (dt.date(2008, 6, 1), dt.date(2026, 6, 1), G.ADULT),
        (None, dt.date(2026, 6, 1), G.UNKNOWN),
        (dt.date(2020, 6, 1), None, G.UNKNOWN),
        (dt.date(2030, 1, 1), dt.date(2026, 6, 1), G.UNKNOWN),  # born in the future
    ],
)
def test_age_group_from_birthdate_and_date(born, today, group) -> None:
    assert age_group_of(born, today) == group


def test_unknown_age_behaves_as_child(core: IdentityCore) -> None:
    confirm(core, "gran")  # a parent without a birthdate
    snap = core.identity_snapshot()
    assert snap.age_group == G.UNKNOWN and snap.child_safe
    # Erratum 18: a speaker confirmed by voice has no parent authority at all.
    out = core.execute_command(0, "forget_everything", "gran", "", 2, parent=NO_TOKEN)
    assert not out.reply.accepted and "parent PIN" in out.reply.message


def test_age_is_unknown_without_a_trusted_date(store) -> None:
    core = IdentityCore(store)
    core.tick(0.0, TODAY, date_trusted=False)
    confirm(core, "mom")
    assert core.age_group == G.UNKNOWN and core.identity_snapshot().child_safe
    out = core.tick(1.0, TODAY, date_trusted=True)
    assert out.took("age", "date_tick", "ADULT")


def test_confidence_drop_returns_to_unknown(core: IdentityCore) -> None:
    confirm(core, "mom")
    assert core.age_group == G.ADULT and not core.identity_snapshot().child_safe
    out = core.handle_identity_event(ev(K.STRONG_CONFLICT), 2)
    assert out.took("age", "confidence_drop", "UNKNOWN")
    assert core.identity_snapshot().child_safe


def test_date_tick_moves_a_teen_to_adult_on_the_birthday(store) -> None:
    core = IdentityCore(store)
    core.tick(0.0, dt.date(2030, 1, 8))
    confirm(core, "leo")  # born 2012-01-09
    assert core.age_group == G.TEEN
    out = core.tick(1.0, dt.date(2030, 1, 9))
    assert out.took("age", "date_tick", "ADULT")


@pytest.mark.parametrize("user", ["mia", "leo"])
def test_child_or_teen_cannot_change_own_birthdate(core, store, household_path, user) -> None:
    """Age Mutation Guards, now by erratum 18: a birthdate changes only with the parent
    PIN, so a child or teen who asks by voice is refused; no trace; age group unchanged."""
    confirm(core, user)
    before_file = household_path.read_bytes()
    before_group = core.age_group
    out = core.request_profile_update(0, user, user, "birthdate", "1990-01-01", 2)
    assert not out.reply.accepted and "parent PIN" in out.reply.message
    assert out.results == []
    assert household_path.read_bytes() == before_file
    assert core.age_group == before_group
    assert core.profile_update_state(user) == P.NONE


def test_unknown_age_parent_cannot_set_own_birthdate(core) -> None:
    confirm(core, "gran")
    out = core.request_profile_update(0, "gran", "gran", "birthdate", "1950-01-01", 2)
    assert not out.reply.accepted and core.store.get("gran").birthdate is None


def test_approved_birthdate_change_updates_age_group(core, store) -> None:
    """A parent corrects a child's birthdate; the age group follows only once APPROVED."""
    confirm(core, "mom")
    out = core.request_profile_update(0, "mom", "leo", "birthdate", "2020-01-09", 2, parent=PARENT)
    assert out.reply.state == P.PENDING_CONFIRMATION
    assert store.get("leo").birthdate == dt.date(2012, 1, 9)
    out = core.request_profile_update(1, "mom", "leo", "", "", 3, parent=PARENT)
    assert out.reply.state == P.APPROVED
    assert store.get("leo").birthdate == dt.date(2020, 1, 9)
    core.handle_identity_event(ev(K.STRONG_CONFLICT), 4)
    core.handle_identity_event(ev(K.CLARIFICATION_SUCCESS, user_id="leo"), 5)
    assert core.age_group == G.CHILD


def test_birthdate_updated_fires_for_the_current_user(core, store) -> None:
    confirm(core, "mom")
    core.request_profile_update(0, "mom", "mom", "birthdate", "1990-05-01", 2, parent=PARENT)
    out = core.request_profile_update(1, "mom", "mom", "", "", 3, parent=PARENT)
    assert out.took("age", "birthdate_updated", "ADULT")
