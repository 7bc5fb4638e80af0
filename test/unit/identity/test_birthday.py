"""Date-aware birthday greeting and its guards (spec 004 §6)."""

from __future__ import annotations

import datetime as dt

import pytest
from identity_testlib import confirm, ev

from buddy_personality.identity import BirthdayGreeting, IdentityCore, Profile, ProfileStore
from buddy_personality.identity.enums import IdentityEventKind as K

MIA_BDAY = dt.date(2026, 3, 3)  # mia born 2021-03-03
MOM_BDAY = dt.date(2026, 5, 1)


def greetings(*outs) -> list[BirthdayGreeting]:
    return [e for o in outs for e in o.effects if isinstance(e, BirthdayGreeting)]


def test_greets_a_confirmed_user_once_per_day(store) -> None:
    core = IdentityCore(store)
    core.tick(0.0, MIA_BDAY)
    outs = [core.handle_identity_event(ev(K.EXPLICIT_IDENTITY_CLAIM, user_id="mia"), 1)]
    assert greetings(*outs) == []  # PROBABLE is not enough
    outs.append(core.handle_identity_event(ev(K.VALIDATION_SUCCESS), 2))
    assert greetings(*outs) == [BirthdayGreeting("mia", MIA_BDAY)]
    outs += [core.tick(3.0), core.conversation_started(4.0)]
    core.handle_identity_event(ev(K.SPEAKING_TURN), 5)
    outs.append(core.handle_identity_event(ev(K.END_CONVERSATION), 6))
    confirm(core, "mia", now=7)  # back again the same day
    outs.append(core.tick(8.0))
    assert len(greetings(*outs)) == 1


def test_greeting_across_midnight(store) -> None:
    core = IdentityCore(store)
    core.tick(0.0, MIA_BDAY - dt.timedelta(days=1))
    confirm(core, "mia")
    assert greetings(core.tick(10.0)) == []  # 23:59 the day before
    out = core.tick(70.0, MIA_BDAY)  # 00:00:10 on the birthday
    assert greetings(out) == [BirthdayGreeting("mia", MIA_BDAY)]
    assert greetings(core.tick(80.0, MIA_BDAY)) == []
    out = core.tick(90_000.0, MIA_BDAY + dt.timedelta(days=1))  # next midnight
    assert greetings(out) == []


def test_not_without_a_trusted_date(store) -> None:
    core = IdentityCore(store)
    core.tick(0.0, MIA_BDAY, date_trusted=False)
    confirm(core, "mia")
    assert greetings(core.tick(1.0)) == []
    assert greetings(core.tick(2.0, MIA_BDAY, date_trusted=True)) == [
        BirthdayGreeting("mia", MIA_BDAY)
    ]


def test_not_for_an_ambiguous_identity(store) -> None:
    core = IdentityCore(store)
    core.tick(0.0, MIA_BDAY - dt.timedelta(days=1))
    confirm(core, "mia")
    core.handle_identity_event(ev(K.STRONG_CONFLICT), 2)
    assert greetings(core.tick(3.0, MIA_BDAY)) == []
    out = core.handle_identity_event(ev(K.CLARIFICATION_SUCCESS, user_id="mia"), 4)
    assert greetings(out) == [BirthdayGreeting("mia", MIA_BDAY)]


def test_child_not_greeted_in_shared_mode_then_greeted_in_private(store) -> None:
    core = IdentityCore(store)
    core.tick(0.0, MIA_BDAY - dt.timedelta(days=1))
    confirm(core, "mia")
    core.handle_identity_event(
        ev(K.PARTICIPANT_DETECTED, participant_id="dad", identity_known=True), 2
    )
    out = core.tick(3.0, MIA_BDAY)
    assert greetings(out) == [] and core.counters["birthday_withheld_shared"] == 1
    out = core.handle_identity_event(ev(K.PARTICIPANT_LEFT, participant_id="dad"), 4)
    assert greetings(out) == [BirthdayGreeting("mia", MIA_BDAY)]


def test_teen_not_greeted_in_shared_mode(store) -> None:
    core = IdentityCore(store)
    leo_bday = dt.date(2026, 1, 9)
    core.tick(0.0, leo_bday - dt.timedelta(days=1))
    confirm(core, "leo")
    core.handle_identity_event(ev(K.STATEMENT_SOMEONE_ARRIVED), 2)
    assert greetings(core.tick(3.0, leo_bday)) == []


def test_adult_greeted_in_shared_mode(store) -> None:
    core = IdentityCore(store)
    core.tick(0.0, MOM_BDAY - dt.timedelta(days=1))
    confirm(core, "mom")
    core.handle_identity_event(
        ev(K.PARTICIPANT_DETECTED, participant_id="mia", identity_known=True), 2
    )
    assert greetings(core.tick(3.0, MOM_BDAY)) == [BirthdayGreeting("mom", MOM_BDAY)]


@pytest.mark.parametrize(
    ("today", "greet"),
    [
        (dt.date(2027, 2, 28), True),
        (dt.date(2027, 3, 1), False),
        (dt.date(2028, 2, 29), True),
        (dt.date(2028, 2, 28), False),
    ],
)
def test_leap_day_birthday(today: dt.date, greet: bool) -> None:
    store = ProfileStore(None, [Profile("pip", "Pip", "child", dt.date(2020, 2, 29))])
    core = IdentityCore(store)
    core.tick(0.0, today)
    core.handle_identity_event(ev(K.EXPLICIT_IDENTITY_CLAIM, user_id="pip"), 1)
    out = core.handle_identity_event(ev(K.VALIDATION_SUCCESS), 2)
    assert bool(greetings(out)) is greet


def test_greeting_log_survives_a_restart(tmp_path, store) -> None:
    """Once per user per day even when the node restarts in between."""
    from buddy_personality.identity.greetings import GreetingLog

    log = GreetingLog(tmp_path / "greetings.json")
    core = IdentityCore(store, greeted=log.load())
    core.tick(0.0, MIA_BDAY)
    confirm(core, "mia")
    assert core.greeted == {("mia", MIA_BDAY)}
    log.save(set(core.greeted))
    restarted = IdentityCore(store, greeted=GreetingLog(tmp_path / "greetings.json").load())
    restarted.tick(0.0, MIA_BDAY)
    core_out = restarted.handle_identity_event(ev(K.EXPLICIT_IDENTITY_CLAIM, user_id="mia"), 1)
    out = restarted.handle_identity_event(ev(K.VALIDATION_SUCCESS), 2)
    assert greetings(core_out, out) == []
    # The next year's birthday is a new day: greeted again, and the old entry dropped.
    out = restarted.tick(3.0, MIA_BDAY.replace(year=2027))
    assert greetings(out) == [BirthdayGreeting("mia", MIA_BDAY.replace(year=2027))]
    assert restarted.greeted == {("mia", MIA_BDAY.replace(year=2027))}


def test_corrupt_greeting_log_is_moved_aside(tmp_path) -> None:
    from buddy_personality.identity.greetings import GreetingLog

    path = tmp_path / "greetings.json"
    path.write_text("[1, 2")
    log = GreetingLog(path)
    assert log.load() == set() and log.warnings
    assert list(tmp_path.glob("greetings.json.corrupt-*"))
