"""Permission Delegation FSM (spec 004 §4)."""

from __future__ import annotations

from identity_testlib import confirm, ev

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
    out = core.delegate(A.REQUEST, "mom", "leo", FORGET, duration, 2)
    assert out.reply.accepted and out.reply.state == D.PENDING_CONFIRMATION
    out = core.delegate(A.CONFIRM, "mom", "leo", FORGET, 0.0, 3)
    assert out.took("delegation", "owner_confirmation", "ACTIVE")


def test_delegation_never_bypasses_confirmation_and_never_changes_role(core) -> None:
    _delegate_to_leo(core)
    _switch_to(core, "leo", 4)
    assert core.identity_snapshot().role == "child"  # role unchanged
    out = core.execute_command(CA.REQUEST, FORGET, "leo", "", 5)
    assert out.reply.state == C.PENDING_CONFIRMATION and "delegation" not in out.reply.message
    assert out.effects == []
    out = core.execute_command(CA.CONFIRM, FORGET, "leo", "", 6)
    assert out.effects == [ResetMemory(FORGET, "leo")]


def test_delegation_is_scoped(core) -> None:
    from buddy_personality.identity.commands import CommandPolicy
    from buddy_personality.identity.enums import AgeGroup

    core.commands["other"] = CommandPolicy(
        "other", frozenset({"parent"}), frozenset({AgeGroup.ADULT}), True, delegable=True
    )
    _delegate_to_leo(core)
    _switch_to(core, "leo", 4)
    assert core.execute_command(CA.REQUEST, "other", "leo", "", 5).reply.state == C.DENIED


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
    out = core.delegate(A.REVOKE, "dad", "leo", FORGET, 0.0, 4)
    assert not out.reply.accepted and "confirmer_is_owner" in out.reply.message
    out = core.delegate(A.REVOKE, "mom", "leo", FORGET, 0.0, 5)
    assert out.took("delegation", "revoke_command", "REVOKED")
    assert out.took("delegation", "done", "NONE")


def test_owner_denial_and_pending_timeout(core) -> None:
    confirm(core, "mom")
    core.delegate(A.REQUEST, "mom", "leo", FORGET, 60.0, 2)
    out = core.delegate(A.DENY, "mom", "leo", FORGET, 0.0, 3)
    assert out.took("delegation", "owner_denial", "NONE")
    core.delegate(A.REQUEST, "mom", "leo", FORGET, 60.0, 4)
    from buddy_personality.identity import IdentityConfig

    out = core.tick(4 + IdentityConfig().delegation_confirmation_timeout_s)
    assert out.took("delegation", "timeout", "NONE")


def test_only_an_authorized_owner_may_delegate(core) -> None:
    confirm(core, "mia")
    out = core.delegate(A.REQUEST, "mia", "leo", FORGET, 60.0, 2)
    assert not out.reply.accepted and "owner may not delegate" in out.reply.message
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
        assert not core.delegate(A.REQUEST, *args, 2).reply.accepted, args


def test_delegation_lapsing_before_confirmation_cancels_the_command(core) -> None:
    """Authority is re-checked at execution: a lapsed delegation cancels; nothing runs."""
    _delegate_to_leo(core, duration=10.0)  # ACTIVE from t=3 to t=13
    _switch_to(core, "leo", 4)
    out = core.execute_command(CA.REQUEST, FORGET, "leo", "", 5)
    assert out.reply.state == C.PENDING_CONFIRMATION
    out = core.tick(13.0)
    assert out.took("delegation", "timeout", "EXPIRED")
    assert core.command_state == C.PENDING_CONFIRMATION  # its own 30 s window is still open
    out = core.execute_command(CA.CONFIRM, FORGET, "leo", "", 14.0)
    assert out.reply.state == C.CANCELLED and out.effects == []
    assert out.took("command", "context_changed", "CANCELLED")
