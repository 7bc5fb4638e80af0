"""Command Execution FSM: authorization, confirmation, cancellation (spec 004 §3)."""

from __future__ import annotations

from identity_testlib import confirm, ev

from buddy_personality.identity import IdentityConfig, IdentityCore, ResetMemory
from buddy_personality.identity.commands import CommandPolicy
from buddy_personality.identity.enums import AgeGroup
from buddy_personality.identity.enums import CommandAction as A
from buddy_personality.identity.enums import CommandState as C
from buddy_personality.identity.enums import IdentityEventKind as K

FORGET = "forget_everything"


def resets(outcomes) -> list[ResetMemory]:
    return [e for o in outcomes for e in o.effects if isinstance(e, ResetMemory)]


def test_parent_forget_everything_resets_exactly_once(core: IdentityCore) -> None:
    """Cross-FSM: parent confirms identity, asks, confirms: one reset command."""
    outs = []
    confirm(core, "mom")
    outs.append(core.handle_identity_event(ev(K.SPEAKING_TURN), 2))
    out = core.execute_command(A.REQUEST, FORGET, "mom", "", 3)
    outs.append(out)
    assert out.reply.accepted and out.reply.state == C.PENDING_CONFIRMATION
    assert "confirm" in out.reply.message.lower()
    assert resets(outs) == []  # nothing before the confirmation
    out = core.execute_command(A.CONFIRM, FORGET, "mom", "", 4)
    outs.append(out)
    assert out.reply.accepted and out.reply.state == C.EXECUTED
    assert out.took("command", "confirmation_received", "EXECUTED")
    assert out.took("command", "done", "IDLE")
    # A second confirm finds nothing pending, and time passing emits nothing more.
    outs.append(core.execute_command(A.CONFIRM, FORGET, "mom", "", 5))
    outs.append(core.tick(1000.0))
    outs.append(core.conversation_ended(1001.0))
    assert resets(outs) == [ResetMemory(FORGET, "mom")]
    assert core.command_state == C.IDLE


def test_child_forget_everything_is_denied(core: IdentityCore) -> None:
    confirm(core, "mia")
    out = core.execute_command(A.REQUEST, FORGET, "mia", "", 2)
    assert out.reply.accepted and out.reply.state == C.DENIED
    assert "role" in out.reply.message
    assert out.took("command", "authorization_denied", "DENIED")
    assert out.took("command", "done", "IDLE")
    assert resets([out]) == []
    out = core.execute_command(A.CONFIRM, FORGET, "mia", "", 3)
    assert not out.reply.accepted and resets([out]) == []


def test_unconfirmed_parent_is_denied(core: IdentityCore) -> None:
    core.handle_identity_event(ev(K.EXPLICIT_IDENTITY_CLAIM, user_id="mom"), 1)  # PROBABLE
    out = core.execute_command(A.REQUEST, FORGET, "mom", "", 2)
    assert out.reply.state == C.DENIED and "not confirmed" in out.reply.message


def test_requester_must_be_the_identified_user(core: IdentityCore) -> None:
    confirm(core, "mia")
    out = core.execute_command(A.REQUEST, FORGET, "mom", "", 2)  # "I am mom", says mia
    assert out.reply.state == C.DENIED


def test_confirmation_timeout_cancels(core: IdentityCore) -> None:
    confirm(core, "mom")
    core.execute_command(A.REQUEST, FORGET, "mom", "", 10)
    t = IdentityConfig().command_confirmation_timeout_s
    assert core.tick(10 + t - 0.1).results == []
    out = core.tick(10 + t)
    assert out.took("command", "confirmation_timeout", "CANCELLED")
    assert out.took("command", "done", "IDLE")
    assert resets([core.execute_command(A.CONFIRM, FORGET, "mom", "", 11 + t)]) == []


def test_context_change_cancels_a_pending_confirmation(core: IdentityCore) -> None:
    confirm(core, "mom")
    core.execute_command(A.REQUEST, FORGET, "mom", "", 2)
    out = core.handle_identity_event(ev(K.PARTICIPANT_DETECTED, participant_id="p"), 3)
    assert out.took("command", "context_changed", "CANCELLED")
    assert core.command_state == C.IDLE


def test_identity_loss_cancels_a_pending_confirmation(core: IdentityCore) -> None:
    confirm(core, "mom")
    core.execute_command(A.REQUEST, FORGET, "mom", "", 2)
    out = core.handle_identity_event(ev(K.STRONG_CONFLICT), 3)
    assert out.took("command", "context_changed", "CANCELLED")


def test_explicit_cancel(core: IdentityCore) -> None:
    confirm(core, "mom")
    core.execute_command(A.REQUEST, FORGET, "mom", "", 2)
    out = core.execute_command(A.CANCEL, FORGET, "mom", "", 3)
    assert out.reply.accepted and out.reply.state == C.CANCELLED


def test_only_the_requester_confirms(core: IdentityCore) -> None:
    """Guard confirmer_is_requester."""
    confirm(core, "mom")
    core.execute_command(A.REQUEST, FORGET, "mom", "", 2)
    out = core.execute_command(A.CONFIRM, FORGET, "dad", "", 3)
    assert not out.reply.accepted and "confirmer_is_requester" in out.reply.message
    assert core.command_state == C.PENDING_CONFIRMATION


def test_one_command_at_a_time(core: IdentityCore) -> None:
    confirm(core, "mom")
    core.execute_command(A.REQUEST, FORGET, "mom", "", 2)
    out = core.execute_command(A.REQUEST, FORGET, "mom", "", 3)
    assert not out.reply.accepted and out.refused


def test_unknown_command_action_and_user_are_rejected(core: IdentityCore) -> None:
    confirm(core, "mom")
    assert not core.execute_command(A.REQUEST, "self_destruct", "mom", "", 2).reply.accepted
    assert not core.execute_command(7, FORGET, "mom", "", 2).reply.accepted
    assert not core.execute_command(A.REQUEST, FORGET, "nobody", "", 2).reply.accepted
    assert core.counters["rejected_inputs"] == 3
    assert core.command_state == C.IDLE


def test_immediate_command_executes_without_confirmation(store) -> None:
    policy = CommandPolicy(
        "forget_now",
        frozenset({"parent"}),
        frozenset({AgeGroup.ADULT}),
        False,
        effect="reset_memory",
    )
    core = IdentityCore(store, commands={"forget_now": policy})
    from identity_testlib import TODAY

    core.tick(0.0, TODAY)
    confirm(core, "mom")
    out = core.execute_command(A.REQUEST, "forget_now", "mom", "", 2)
    assert out.took("command", "authorization_granted", "EXECUTED")
    assert resets([out]) == [ResetMemory("forget_now", "mom")]


def test_command_consults_consent(store) -> None:
    """Cross-FSM: the Command FSM MUST consult the Consent FSM."""
    from identity_testlib import TODAY

    policy = CommandPolicy(
        "remember_this",
        frozenset({"parent", "child"}),
        frozenset(AgeGroup),
        False,
        consent_scope="memory",
    )
    core = IdentityCore(store, commands={"remember_this": policy})
    core.tick(0.0, TODAY)
    confirm(core, "mom")
    out = core.execute_command(A.REQUEST, "remember_this", "mom", "", 2)
    assert out.reply.state == C.DENIED and "consent" in out.reply.message
    core.request_consent(0, "mom", "memory", "mom", 3)
    core.request_consent(1, "mom", "memory", "mom", 4)
    out = core.execute_command(A.REQUEST, "remember_this", "mom", "", 5)
    assert out.reply.state == C.EXECUTED


def test_execution_result_moves_no_state(core: IdentityCore) -> None:
    core.command_execution_result(FORGET, False, "personality/reset_memory unavailable")
    assert core.command_state == C.IDLE
    assert core.counters["execution_failure"] == 1
    assert core.last_execution == (FORGET, False, "personality/reset_memory unavailable")
