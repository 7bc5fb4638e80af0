"""Consent FSM per user and scope (spec 004 §5; DESIGN §4.1 memory gate)."""

from __future__ import annotations

from identity_testlib import PARENT, confirm

from buddy_personality.identity import ConsentInput, ConsentSnapshot, IdentityConfig, IdentityCore
from buddy_personality.identity.enums import ConsentAction as A
from buddy_personality.identity.enums import ConsentEventKind as K
from buddy_personality.identity.enums import ConsentStateId as S

MEM = "memory"


def _grant_for_mia(core: IdentityCore) -> None:
    confirm(core, "mom")
    out = core.request_consent(A.REQUEST, "mia", MEM, "mom", 2, parent=PARENT)
    assert out.took("consent", "consent_request", "PENDING") and out.consent_changed
    out = core.request_consent(A.GRANT, "mia", MEM, "mom", 3, parent=PARENT)
    assert out.took("consent", "explicit_grant", "GRANTED")
    assert core.consent_snapshot() == [ConsentSnapshot("mia", MEM, S.GRANTED)]


def test_parent_grants_for_a_child(core) -> None:
    _grant_for_mia(core)


def test_grant_expires_at_conversation_end_and_is_visible(core) -> None:
    _grant_for_mia(core)
    out = core.conversation_ended(4)
    assert out.took("consent", "conversation_end", "EXPIRED") and out.consent_changed
    assert core.consent_state("mia", MEM) == S.EXPIRED
    # a new request starts over
    out = core.request_consent(A.REQUEST, "mia", MEM, "", 5, parent=PARENT)
    assert out.took("consent", "done", "NONE")
    assert out.took("consent", "consent_request", "PENDING")


def test_revoke(core) -> None:
    _grant_for_mia(core)
    out = core.request_consent(A.REVOKE, "mia", MEM, "mom", 4, parent=PARENT)
    assert out.took("consent", "revoke", "REVOKED")
    assert core.consent_state("mia", MEM) == S.REVOKED


def test_denial_and_timeout_return_to_none(core) -> None:
    confirm(core, "mom")
    core.request_consent(A.REQUEST, "mia", MEM, "", 2, parent=PARENT)
    out = core.request_consent(A.DENY, "mia", MEM, "", 3, parent=PARENT)
    assert out.took("consent", "explicit_denial", "NONE")
    core.request_consent(A.REQUEST, "mia", MEM, "", 4, parent=PARENT)
    out = core.tick(4 + IdentityConfig().consent_timeout_s)
    assert out.took("consent", "timeout", "NONE")


def test_a_child_cannot_grant_and_nobody_grants_without_the_pin(core) -> None:
    """Guard actor_may_decide, by erratum 18: only the parent PIN decides."""
    confirm(core, "mia")
    core.request_consent(A.REQUEST, "mia", MEM, "", 2)
    out = core.request_consent(A.GRANT, "mia", MEM, "mia", 3)
    assert not out.reply.accepted and "parent PIN" in out.reply.message
    out = core.request_consent(A.GRANT, "mia", MEM, "mom", 4)  # names a parent, no PIN
    assert not out.reply.accepted
    assert core.consent_state("mia", MEM) == S.PENDING


def test_unknown_user_and_scope_are_rejected(core) -> None:
    assert not core.request_consent(A.REQUEST, "ghost", MEM, "", 1, parent=PARENT).reply.accepted
    assert not core.request_consent(A.REQUEST, "mia", "camera", "", 1, parent=PARENT).reply.accepted
    assert core.counters["unknown_user"] == 1 and core.counters["unknown_scope"] == 1


def test_consent_events_topic(core) -> None:
    confirm(core, "mom")
    core.handle_consent_event(ConsentInput(K.CONSENT_REQUEST, "mia", MEM), 2)
    core.request_consent(A.GRANT, "mia", MEM, "mom", 3, parent=PARENT)
    out = core.handle_consent_event(ConsentInput(K.CONVERSATION_END, "mia", MEM), 4)
    assert out.took("consent", "conversation_end", "EXPIRED")
    out = core.handle_consent_event(ConsentInput(42, "mia", MEM), 5)
    assert out.rejected and core.counters["unknown_kind"] == 1
