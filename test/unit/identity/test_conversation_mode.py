"""Conversation Mode FSM and privacy (spec 004 §2)."""

from __future__ import annotations

from identity_testlib import confirm, ev

from buddy_personality.identity import IdentityCore
from buddy_personality.identity.enums import ConversationMode as M
from buddy_personality.identity.enums import IdentityEventKind as K


def test_known_participant_makes_shared_verified(core: IdentityCore) -> None:
    out = core.handle_identity_event(
        ev(K.PARTICIPANT_DETECTED, participant_id="dad", identity_known=True), 1
    )
    assert out.took("conversation_mode", "participant_detected_known", "SHARED_VERIFIED")
    assert core.identity_snapshot().participants == ("dad",)


def test_unknown_participant_then_identified(core: IdentityCore) -> None:
    core.handle_identity_event(ev(K.PARTICIPANT_DETECTED, participant_id="p1"), 1)
    assert core.conversation_mode == M.SHARED_UNVERIFIED
    out = core.handle_identity_event(ev(K.PARTICIPANT_IDENTIFIED, participant_id="p1"), 2)
    assert out.took("conversation_mode", "identity_confirmed", "SHARED_VERIFIED")
    out = core.handle_identity_event(ev(K.PARTICIPANT_UNIDENTIFIED, participant_id="p1"), 3)
    assert out.took("conversation_mode", "identity_unknown", "SHARED_UNVERIFIED")


def test_unknown_arrival_in_verified_mode_makes_it_unverified(core: IdentityCore) -> None:
    core.handle_identity_event(
        ev(K.PARTICIPANT_DETECTED, participant_id="dad", identity_known=True), 1
    )
    out = core.handle_identity_event(ev(K.PARTICIPANT_DETECTED, participant_id="p2"), 2)
    assert out.took("conversation_mode", "identity_unknown", "SHARED_UNVERIFIED")


def test_private_again_only_when_the_last_participant_left(core: IdentityCore) -> None:
    """Guard last_participant_left on both shared modes."""
    for pid in ("a", "b"):
        core.handle_identity_event(ev(K.PARTICIPANT_DETECTED, participant_id=pid), 1)
    out = core.handle_identity_event(ev(K.PARTICIPANT_LEFT, participant_id="a"), 2)
    assert core.conversation_mode == M.SHARED_UNVERIFIED and out.results == []
    out = core.handle_identity_event(ev(K.PARTICIPANT_LEFT, participant_id="b"), 3)
    assert out.took("conversation_mode", "participant_left", "PRIVATE")


def test_explicit_statements(core: IdentityCore) -> None:
    out = core.handle_identity_event(ev(K.STATEMENT_SOMEONE_ARRIVED), 1)
    assert out.took("conversation_mode", "statement_someone_arrived", "SHARED_UNVERIFIED")
    out = core.handle_identity_event(ev(K.STATEMENT_ALONE), 2)
    assert out.took("conversation_mode", "statement_alone", "PRIVATE")


def test_events_without_participant_id_are_refused(core: IdentityCore) -> None:
    out = core.handle_identity_event(ev(K.PARTICIPANT_DETECTED), 1)
    assert out.rejected and core.conversation_mode == M.PRIVATE


def test_participant_arrives_mid_conversation_private_info_stops(core: IdentityCore) -> None:
    """Cross-FSM: a participant arrives and private information is no longer offered."""
    confirm(core, "dad")
    core.handle_identity_event(ev(K.SPEAKING_TURN), 2)
    snap = core.identity_snapshot()
    assert snap.private_info_allowed and snap.preferred_name == "Papa"
    out = core.handle_identity_event(ev(K.PARTICIPANT_DETECTED, participant_id="guest"), 3)
    assert out.identity_changed  # the node republishes identity/state at once
    snap = core.identity_snapshot()
    assert snap.conversation_mode == M.SHARED_UNVERIFIED
    assert not snap.private_info_allowed and snap.preferred_name == ""
    core.handle_identity_event(ev(K.PARTICIPANT_LEFT, participant_id="guest"), 4)
    snap = core.identity_snapshot()
    assert snap.private_info_allowed and snap.preferred_name == "Papa"


def test_conversation_end_clears_participants(core: IdentityCore) -> None:
    core.handle_identity_event(ev(K.PARTICIPANT_DETECTED, participant_id="p1"), 1)
    out = core.conversation_ended(2)
    assert out.took("conversation_mode", "participant_left", "PRIVATE")
    assert core.identity_snapshot().participants == ()
