"""Addressing Resolution sub-state and its guards (spec 004 §1.1)."""

from __future__ import annotations

from identity_testlib import PARENT, confirm, ev

from buddy_personality.identity import IdentityCore
from buddy_personality.identity.enums import AddressingState as A
from buddy_personality.identity.enums import ConversationMode
from buddy_personality.identity.enums import IdentityEventKind as K
from buddy_personality.identity.enums import IdentityStateId as I


def test_unresolved_addressing_falls_back_to_neutral(core: IdentityCore) -> None:
    confirm(core, "mia")
    snap = core.identity_snapshot()
    assert snap.addressing_state == A.UNKNOWN and snap.preferred_name == ""


def test_ask_at_most_once(core: IdentityCore) -> None:
    confirm(core, "mia")
    assert core.identity_snapshot().may_ask_addressing
    out = core.handle_identity_event(ev(K.ADDRESSING_ASKED), 2)
    assert out.results == [] and out.identity_changed
    assert not core.identity_snapshot().may_ask_addressing
    out = core.handle_identity_event(ev(K.ADDRESSING_ASKED), 3)
    assert not out.results[0].accepted and "already asked" in out.results[0].reason
    # Still unresolved: the neutral form stays, and nobody may ask again.
    snap = core.identity_snapshot()
    assert (snap.preferred_name, snap.may_ask_addressing) == ("", False)


def test_explicit_preference_is_confirmed_and_stored_via_the_profile_fsm(core, store) -> None:
    confirm(core, "mia")
    out = core.handle_identity_event(ev(K.EXPLICIT_PREFERENCE, value="Mimi"), 2)
    assert out.took("addressing", "explicit_preference", "CONFIRMED")
    assert out.took("profile_update", "authority_verified", "APPROVED")
    assert out.took("profile_update", "applied", "NONE")
    assert core.identity_snapshot().preferred_name == "Mimi"
    assert store.get("mia").addressing == "Mimi"


def test_inferred_needs_a_high_signal(core: IdentityCore) -> None:
    confirm(core, "mia")
    out = core.handle_identity_event(ev(K.INFERRED_SIGNAL, confidence=0.5, value="Mi"), 2)
    assert not out.results[0].accepted and "inferred_signal_is_high" in out.results[0].reason
    out = core.handle_identity_event(ev(K.INFERRED_SIGNAL, confidence=0.9, value="Mi"), 3)
    assert out.took("addressing", "inferred_signal", "INFERRED")
    assert core.identity_snapshot().preferred_name == "Mi"
    out = core.handle_identity_event(ev(K.CONFLICTING_SIGNAL), 4)
    assert out.took("addressing", "conflicting_signal", "UNKNOWN")
    assert core.identity_snapshot().preferred_name == ""


def test_confirmed_is_sticky_and_overrides_inferred(core: IdentityCore) -> None:
    confirm(core, "mia")
    core.handle_identity_event(ev(K.EXPLICIT_PREFERENCE, value="Mimi"), 2)
    for kind in (K.CONFLICTING_SIGNAL, K.INFERRED_SIGNAL):
        out = core.handle_identity_event(ev(kind, confidence=1.0, value="Other"), 3)
        assert not out.results[0].accepted
    snap = core.identity_snapshot()
    assert (snap.addressing_state, snap.preferred_name) == (A.CONFIRMED, "Mimi")


def test_stored_preference_is_used_when_identity_is_confirmed(core: IdentityCore) -> None:
    confirm(core, "dad")  # dad's profile says "Papa"
    snap = core.identity_snapshot()
    assert (snap.addressing_state, snap.preferred_name) == (A.CONFIRMED, "Papa")


def test_never_exposed_to_another_user(core: IdentityCore) -> None:
    confirm(core, "dad")
    core.handle_identity_event(ev(K.STRONG_CONFLICT), 2)
    core.handle_identity_event(ev(K.CLARIFICATION_SUCCESS, user_id="mia"), 3)
    snap = core.identity_snapshot()
    assert snap.user_id == "mia" and snap.preferred_name == ""
    # An addressing event about another user never lands on them.
    out = core.handle_identity_event(ev(K.EXPLICIT_PREFERENCE, user_id="dad", value="X"), 4)
    assert out.rejected


def test_never_exposed_in_shared_modes(core: IdentityCore) -> None:
    confirm(core, "dad")
    core.handle_identity_event(ev(K.PARTICIPANT_DETECTED, participant_id="p1"), 2)
    snap = core.identity_snapshot()
    assert snap.conversation_mode == ConversationMode.SHARED_UNVERIFIED
    assert snap.preferred_name == ""


def test_addressing_never_blocks_other_transitions(core: IdentityCore) -> None:
    """Unresolved addressing (asked, unanswered) does not stop identity or commands."""
    core.handle_identity_event(ev(K.ADDRESSING_ASKED), 0.5)
    confirm(core, "mom")
    core.handle_identity_event(ev(K.SPEAKING_TURN), 2)
    assert core.identity_state == I.CONFIRMED_ACTIVE
    out = core.execute_command(0, "forget_everything", "mom", "", 3, parent=PARENT)
    assert out.reply is not None and out.reply.accepted
