"""Command Execution FSM: authorization, confirmation, cancellation (spec 004 §3)."""

from __future__ import annotations

from identity_testlib import PARENT, confirm, ev

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
    out = core.execute_command(A.REQUEST, FORGET, "mom", "", 3, parent=PARENT)
    outs.append(out)
    assert out.reply.accepted and out.reply.state == C.PENDING_CONFIRMATION
    assert "confirm" in out.reply.message.lower()
    assert resets(outs) == []  # nothing before the confirmation
    out = core.execute_command(A.CONFIRM, FORGET, "mom", "", 4, parent=PARENT)
    outs.append(out)
    assert out.reply.accepted and out.reply.state == C.EXECUTED
    assert out.took("command", "confirmation_received", "EXECUTED")
    assert out.took("command", "done", "IDLE")
    # A second confirm finds nothing pending, and time passing emits nothing more.
    outs.append(core.execute_command(A.CONFIRM, FORGET, "mom", "", 5, parent=PARENT))
    outs.append(core.tick(1000.0))
    outs.append(core.conversation_ended(1001.0))
    assert resets(outs) == [ResetMemory(FORGET, "mom")]
    assert core.command_state == C.IDLE


def test_a_child_speaker_without_the_pin_is_refused(core: IdentityCore) -> None:
    """Erratum 18: authority comes from the PIN; a confirmed child (or anyone) asking
    without a token is refused before the FSM moves."""
    confirm(core, "mia")
    out = core.execute_command(A.REQUEST, FORGET, "mia", "", 2)
    assert not out.reply.accepted and "parent PIN" in out.reply.message
    assert out.results == [] and resets([out]) == []
    out = core.execute_command(A.CONFIRM, FORGET, "mia", "", 3)
    assert not out.reply.accepted and resets([out]) == []


def test_confirmation_timeout_cancels(core: IdentityCore) -> None:
    confirm(core, "mom")
    core.execute_command(A.REQUEST, FORGET, "mom", "", 10, parent=PARENT)
    t = IdentityConfig().command_confirmation_timeout_s
    assert core.tick(10 + t - 0.1).results == []
    out = core.tick(10 + t)
    assert out.took("command", "confirmation_timeout", "CANCELLED")
    assert out.took("command", "done", "IDLE")
    assert resets([core.execute_command(A.CONFIRM, FORGET, "mom", "", 11 + t, parent=PARENT)]) == []


def test_a_conversation_context_change_does_not_cancel_a_pin_request(
    core: IdentityCore,
) -> None:
    """spec 004 §3 cancels a pending confirmation when the conversation's context changes;
    a request made with the parent PIN (the parent page, `buddy parent`) is not part of
    the conversation, so a guest arriving or a conflict leaves it pending (it still lapses
    by its own timeout, test_confirmation_timeout_cancels)."""
    confirm(core, "mom")
    core.execute_command(A.REQUEST, FORGET, "mom", "", 2, parent=PARENT)
    out = core.handle_identity_event(ev(K.PARTICIPANT_DETECTED, participant_id="p"), 3)
    assert not out.took("command", "context_changed")
    out = core.handle_identity_event(ev(K.STRONG_CONFLICT), 4)
    assert not out.took("command", "context_changed")
    assert core.command_state == C.PENDING_CONFIRMATION


def test_explicit_cancel(core: IdentityCore) -> None:
    confirm(core, "mom")
    core.execute_command(A.REQUEST, FORGET, "mom", "", 2, parent=PARENT)
    out = core.execute_command(A.CANCEL, FORGET, "mom", "", 3, parent=PARENT)
    assert out.reply.accepted and out.reply.state == C.CANCELLED


def test_only_the_requester_confirms(core: IdentityCore) -> None:
    """Guard confirmer_is_requester."""
    confirm(core, "mom")
    core.execute_command(A.REQUEST, FORGET, "mom", "", 2, parent=PARENT)
    out = core.execute_command(A.CONFIRM, FORGET, "dad", "", 3, parent=PARENT)
    assert not out.reply.accepted and "confirmer_is_requester" in out.reply.message
    assert core.command_state == C.PENDING_CONFIRMATION


def test_one_command_at_a_time(core: IdentityCore) -> None:
    confirm(core, "mom")
    core.execute_command(A.REQUEST, FORGET, "mom", "", 2, parent=PARENT)
    out = core.execute_command(A.REQUEST, FORGET, "mom", "", 3, parent=PARENT)
    assert not out.reply.accepted and out.refused


def test_unknown_command_action_and_user_are_rejected(core: IdentityCore) -> None:
    confirm(core, "mom")
    assert not core.execute_command(A.REQUEST, "self_destruct", "mom", "", 2,
                                    parent=PARENT).reply.accepted
    assert not core.execute_command(7, FORGET, "mom", "", 2, parent=PARENT).reply.accepted
    assert not core.execute_command(A.REQUEST, FORGET, "nobody", "", 2,
                                    parent=PARENT).reply.accepted
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
    out = core.execute_command(A.REQUEST, "forget_now", "mom", "", 2, parent=PARENT)
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
    out = core.execute_command(A.REQUEST, "remember_this", "mom", "", 2, parent=PARENT)
    assert out.reply.state == C.DENIED and "consent" in out.reply.message
    core.request_consent(0, "mom", "memory", "mom", 3, parent=PARENT)
    core.request_consent(1, "mom", "memory", "mom", 4, parent=PARENT)
    out = core.execute_command(A.REQUEST, "remember_this", "mom", "", 5, parent=PARENT)
    assert out.reply.state == C.EXECUTED


def test_execution_result_moves_no_state(core: IdentityCore) -> None:
    core.command_execution_result(FORGET, False, "personality/reset_memory unavailable")
    assert core.command_state == C.IDLE
    assert core.counters["execution_failure"] == 1
    assert core.last_execution == (FORGET, False, "personality/reset_memory unavailable")
