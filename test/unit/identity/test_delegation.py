"""Permission Delegation FSM (spec 004 §4).

Under DESIGN erratum 18 delegating is itself a parent action (it needs the PIN), and every
command needs the PIN too, so a delegation no longer lends the power to act by voice: the
FSM keeps spec 004 §4's lifecycle (request, owner confirmation, expiry, revocation) and
its bookkeeping, which the parent page shows."""

from __future__ import annotations

from identity_testlib import PARENT, confirm, ev

from buddy_personality.identity import IdentityCore, ResetMemory
from buddy_personality.identity.enums import CommandAction as CA
from buddy_personality.identity.enums import CommandState as C
from buddy_personality.identity.enums import DelegateAction as A
from buddy_personality.identity.enums import DelegationState as D
from buddy_personality.identity.enums import IdentityEventKind as K

FORGET = "forget_everything"


def _switch_to(core: IdentityCore, user: str, now: float) -> None:
    core.handle_identity_event(ev(K.STRONG_CONFLICT), now)
    core.handle_identity_event(ev(K.CLARIFICATION_SUCCESS, user_id=user), now)


def _delegate_to_leo(core: IdentityCore, duration: float = 600.0) -> None:
    confirm(core, "mom")
    out = core.delegate(A.REQUEST, "mom", "leo", FORGET, duration, 2, parent=PARENT)
    assert out.reply.accepted and out.reply.state == D.PENDING_CONFIRMATION
    out = core.delegate(A.CONFIRM, "mom", "leo", FORGET, 0.0, 3, parent=PARENT)
    assert out.took("delegation", "owner_confirmation", "ACTIVE")


def test_delegation_never_bypasses_confirmation_and_never_changes_role(core) -> None:
    _delegate_to_leo(core)
    _switch_to(core, "leo", 4)
    assert core.identity_snapshot().role == "child"  # role unchanged
    out = core.execute_command(CA.REQUEST, FORGET, "leo", "", 5, parent=PARENT)
    assert out.reply.state == C.PENDING_CONFIRMATION and "delegation" not in out.reply.message
    assert out.effects == []
    out = core.execute_command(CA.CONFIRM, FORGET, "leo", "", 6, parent=PARENT)
    assert out.effects == [ResetMemory(FORGET, "leo")]


def test_delegation_expires_at_conversation_end(core) -> None:
    _delegate_to_leo(core)
    out = core.conversation_ended(4)
    assert out.took("delegation", "conversation_end", "EXPIRED")
    assert out.took("delegation", "done", "NONE")
    assert core.delegation_state("leo", FORGET) == D.NONE


def test_delegation_expires_after_its_duration(core) -> None:
    _delegate_to_leo(core, duration=100.0)
    assert core.tick(102.9).results == []
    out = core.tick(103.0)
    assert out.took("delegation", "timeout", "EXPIRED")
    assert core.delegation_state("leo", FORGET) == D.NONE


def test_revoke_by_owner_only(core) -> None:
    _delegate_to_leo(core)
    out = core.delegate(A.REVOKE, "dad", "leo", FORGET, 0.0, 4, parent=PARENT)
    assert not out.reply.accepted and "confirmer_is_owner" in out.reply.message
    out = core.delegate(A.REVOKE, "mom", "leo", FORGET, 0.0, 5, parent=PARENT)
    assert out.took("delegation", "revoke_command", "REVOKED")
    assert out.took("delegation", "done", "NONE")


def test_owner_denial_and_pending_timeout(core) -> None:
    confirm(core, "mom")
    core.delegate(A.REQUEST, "mom", "leo", FORGET, 60.0, 2, parent=PARENT)
    out = core.delegate(A.DENY, "mom", "leo", FORGET, 0.0, 3, parent=PARENT)
    assert out.took("delegation", "owner_denial", "NONE")
    core.delegate(A.REQUEST, "mom", "leo", FORGET, 60.0, 4, parent=PARENT)
    from buddy_personality.identity import IdentityConfig

    out = core.tick(4 + IdentityConfig().delegation_confirmation_timeout_s)
    assert out.took("delegation", "timeout", "NONE")


def test_only_a_parent_with_the_pin_may_delegate(core) -> None:
    confirm(core, "mom")  # confirmed by voice only
    out = core.delegate(A.REQUEST, "mom", "leo", FORGET, 60.0, 2)
    assert not out.reply.accepted and "parent PIN" in out.reply.message
    assert core.delegation_state("leo", FORGET) == D.NONE


def test_bad_delegation_requests(core) -> None:
    confirm(core, "mom")
    for args in (
        ("mom", "mom", FORGET, 60.0),
        ("mom", "leo", FORGET, 0.0),
        ("mom", "leo", FORGET, 1e9),
        ("mom", "leo", "nope", 60.0),
        ("mom", "ghost", FORGET, 60.0),
    ):
        assert not core.delegate(A.REQUEST, *args, 2, parent=PARENT).reply.accepted, args
