"""Spec 004's invariants under random input sequences (hypothesis).

Whatever arrives, in whatever order: every transition taken is a row of its table;
confirmed identity leaves only on strong_conflict or end_conversation; child_safe holds
unless the speaker is a confirmed adult; a memory reset is only ever emitted for an
authorized, confirmed requester, once per call; profiles change only when an approved
update is applied; preferences are shown only in PRIVATE; a birthday is greeted at most
once per user and day.
"""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st
from identity_testlib import HOUSEHOLD, PARENT, TODAY

from buddy_personality.identity import (
    BirthdayGreeting,
    IdentityCore,
    IdentityInput,
    ProfileStore,
    ResetMemory,
)
from buddy_personality.identity.addressing import ADDRESSING_FSM
from buddy_personality.identity.age_context import AGE_FSM
from buddy_personality.identity.command_execution import COMMAND_FSM
from buddy_personality.identity.consent import CONSENT_FSM
from buddy_personality.identity.conversation_mode import MODE_FSM
from buddy_personality.identity.delegation import DELEGATION_FSM
from buddy_personality.identity.enums import (
    CONFIRMED_STATES,
    AgeGroup,
    ConversationMode,
    DelegationState,
    IdentityEventKind,
    IdentityStateId,
)
from buddy_personality.identity.identity_resolution import IDENTITY_FSM
from buddy_personality.identity.parent_pin import NO_TOKEN
from buddy_personality.identity.profile_update import PROFILE_UPDATE_FSM

FORGET = "forget_everything"
USERS = ["mom", "dad", "mia", "leo", "gran", "", "ghost"]
ACTORS = ["mom", "mia", "gran"]  # an adult parent, a child, a parent of unknown age
ROWS = {
    spec.name: {(t.source.name, t.event, t.target.name) for t in spec.transitions}
    for spec in (
        IDENTITY_FSM,
        ADDRESSING_FSM,
        AGE_FSM,
        MODE_FSM,
        COMMAND_FSM,
        PROFILE_UPDATE_FSM,
        DELEGATION_FSM,
        CONSENT_FSM,
    )
}

identity_events = st.builds(
    lambda kind, user, conf, value, pid, known: (
        "identity",
        IdentityInput(int(kind), user, conf, value, pid, known),
    ),
    st.sampled_from(list(IdentityEventKind)),
    st.sampled_from(USERS),
    st.sampled_from([0.0, 0.2, 0.5, 0.7, 1.0]),
    st.sampled_from(["", "Anna", "Mia", "Mimi"]),
    st.sampled_from(["", "p1", "p2"]),
    st.booleans(),
)
actions = st.one_of(
    identity_events,
    identity_events,
    st.tuples(st.just("tick"), st.sampled_from([0.0, 5.0, 40.0, 120.0]), st.booleans()),
    st.tuples(
        st.just("command"), st.sampled_from([(0,), (1,), (2,), (0, 1)]), st.sampled_from(ACTORS),
        st.booleans(),  # with the parent PIN's token (erratum 18)
    ),
    st.tuples(
        st.just("command"), st.sampled_from([(0,), (1,), (2,), (0, 1)]), st.sampled_from(ACTORS),
        st.booleans(),  # with the parent PIN's token (erratum 18)
    ),
    st.tuples(
        st.just("profile"),
        st.sampled_from([0, 1, 2, 3]),
        st.sampled_from(USERS[:5]),
        st.sampled_from(USERS[:5]),
        st.sampled_from(
            [
                ("name", "Zed"),
                ("birthdate", "1970-01-01"),
                ("birthdate", "2020-01-01"),
                ("role", "parent"),
                ("addressing", "Boss"),
            ]
        ),
        st.booleans(),
    ),
    st.tuples(
        st.just("delegate"),
        st.sampled_from([0, 1, 2, 3]),
        st.sampled_from(USERS[:5]),
        st.sampled_from(USERS[:5]),
        st.sampled_from([30.0, 600.0]),
        st.booleans(),
    ),
    st.tuples(
        st.just("consent"),
        st.sampled_from([0, 1, 2, 3]),
        st.sampled_from(USERS[:5]),
        st.sampled_from(USERS[:5]),
        st.booleans(),
    ),
    st.just(("ended",)),
    # A claim and its validation in one step, so sequences reach confirmed states often.
    st.tuples(st.just("login"), st.sampled_from(ACTORS)),
    st.tuples(st.just("login"), st.sampled_from(ACTORS)),
)


def _profiles(core: IdentityCore) -> dict:
    return {u: core.store.get(u) for u in core.store.user_ids()}


@settings(max_examples=300, deadline=None)
@given(st.lists(actions, min_size=5, max_size=40))
def test_invariants_hold_for_any_input_sequence(steps) -> None:
    core = IdentityCore(ProfileStore(None, list(HOUSEHOLD)))
    now, today = 0.0, TODAY - dt.timedelta(days=1)
    core.tick(now, today)
    greeted: set[tuple[str, dt.date]] = set()
    for step in steps:
        now += 1.0
        before_profiles = _profiles(core)
        kind = step[0]
        if kind == "identity":
            out = core.handle_identity_event(step[1], now)
        elif kind == "login":
            core.handle_identity_event(
                IdentityInput(int(IdentityEventKind.EXPLICIT_IDENTITY_CLAIM), step[1]), now
            )
            out = core.handle_identity_event(
                IdentityInput(int(IdentityEventKind.VALIDATION_SUCCESS)), now
            )
        elif kind == "tick":
            now += step[1]
            if step[2]:
                today += dt.timedelta(days=1)
            out = core.tick(now, today)
        elif kind == "command":
            _, command_actions, user, with_pin = step
            for action in command_actions:  # (REQUEST, CONFIRM) is one step, as a person would
                before_state = core.identity_state
                speaker, age = core.identified_user, core.age_group
                delegated = core.delegation_state(user, FORGET) == DelegationState.ACTIVE
                out = core.execute_command(action, FORGET, user, "", now,
                                           parent=PARENT if with_pin else NO_TOKEN)
                resets = [e for e in out.effects if isinstance(e, ResetMemory)]
                assert len(resets) <= 1
                if resets:
                    # Only on a confirmation carrying the parent PIN's token (erratum 18),
                    # whoever speaks and whatever a delegation says.
                    assert action == 1 and with_pin
                    assert user == resets[0].requested_by
                    del before_state, speaker, age, delegated
        elif kind == "profile":
            _, action, requester, target, (field, value), with_pin = step
            out = core.request_profile_update(action, requester, target, field, value, now,
                                              parent=PARENT if with_pin else NO_TOKEN)
        elif kind == "delegate":
            _, action, owner, delegate, duration, with_pin = step
            out = core.delegate(action, owner, delegate, FORGET, duration, now,
                                parent=PARENT if with_pin else NO_TOKEN)
        elif kind == "consent":
            _, action, user, granter, with_pin = step
            before_consent = core.consent_snapshot()
            out = core.request_consent(action, user, "memory", granter, now,
                                       parent=PARENT if with_pin else NO_TOKEN)
            if not with_pin:  # no grant or revocation without the PIN (erratum 18)
                assert not out.took("consent", "explicit_grant")
                assert not out.took("consent", "revoke")
                del before_consent
        else:
            out = core.conversation_ended(now)

        if kind != "command":
            assert not any(isinstance(e, ResetMemory) for e in out.effects)
        for r in out.taken:
            assert (r.source, r.event, r.target) in ROWS[r.machine], r
            confirmed_states = ("CONFIRMED", "CONFIRMED_ACTIVE")
            if (
                r.machine == "identity"
                and r.source in confirmed_states
                and r.target not in confirmed_states
            ):
                assert r.event in ("strong_conflict", "end_conversation"), r
        if _profiles(core) != before_profiles:
            assert out.took("profile_update", "applied", "NONE")
            # Erratum 18: only with the PIN, except a speaker's own addressing preference
            # (spec 004 §1.1 "ask once and store the answer").
            changed = {u for u, p in _profiles(core).items() if p != before_profiles[u]}
            pin = kind == "profile" and step[-1]
            assert pin or (kind == "identity" and all(
                _profiles(core)[u].addressing != before_profiles[u].addressing
                and _profiles(core)[u].birthdate == before_profiles[u].birthdate
                and _profiles(core)[u].role == before_profiles[u].role for u in changed))
        snap = core.identity_snapshot()
        confirmed = core.identity_state in CONFIRMED_STATES
        assert snap.child_safe == (not (confirmed and core.age_group == AgeGroup.ADULT))
        if not confirmed:
            assert core.age_group == AgeGroup.UNKNOWN and snap.role == ""
        if snap.preferred_name:
            assert snap.conversation_mode == ConversationMode.PRIVATE
        if core.identity_state in (
            IdentityStateId.UNKNOWN,
            IdentityStateId.AMBIGUOUS,
            IdentityStateId.REJECTED,
        ):
            assert snap.user_id == ""
        for g in (e for e in out.effects if isinstance(e, BirthdayGreeting)):
            assert (g.user_id, g.date) not in greeted
            greeted.add((g.user_id, g.date))
            assert confirmed and core.identified_user == g.user_id
            assert (
                core.conversation_mode == ConversationMode.PRIVATE
                or core.age_group == AgeGroup.ADULT
            )
