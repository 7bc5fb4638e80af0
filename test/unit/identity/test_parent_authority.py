"""Parent authority comes from the PIN, never from speech (DESIGN erratum 18).

A speaker confirmed as a parent through identity events (claim + validation: what anyone
on the graph, or a child saying "I'm Mom", can produce) gets addressing only. Forget
everything, profile changes, consent grants and revocations and delegation run only with
the proof a valid parent token gives; without it they are refused with the reason.
"""

from __future__ import annotations

import pytest
from identity_testlib import PARENT, confirm

from buddy_personality.identity import ConsentInput, IdentityCore, ResetMemory
from buddy_personality.identity.enums import (
    CommandAction,
    ConsentAction,
    ConsentEventKind,
    DelegateAction,
    ProfileAction,
)
from buddy_personality.identity.enums import CommandState as C
from buddy_personality.identity.enums import ConsentStateId as S
from buddy_personality.identity.parent_pin import NO_TOKEN, ParentProof

FORGET = "forget_everything"
EXPIRED = ParentProof(False, "the parent token is unknown or expired")


def _resets(core_outs) -> list[ResetMemory]:
    return [e for o in core_outs for e in o.effects if isinstance(e, ResetMemory)]


@pytest.mark.parametrize("proof", [NO_TOKEN, EXPIRED])
def test_a_speech_confirmed_parent_without_a_token_is_refused_everything(
    core: IdentityCore, proof: ParentProof
) -> None:
    """The forged-parent attack of issue 22, on the core: claim + validation make "mom"
    CONFIRMED, yet no parent action runs."""
    confirm(core, "mom")
    outs = [
        core.execute_command(CommandAction.REQUEST, FORGET, "mom", "", 2, parent=proof),
        core.execute_command(CommandAction.CONFIRM, FORGET, "mom", "", 3, parent=proof),
    ]
    assert all(not o.reply.accepted for o in outs)
    assert outs[0].reply.message == proof.reason
    assert _resets(outs) == [] and core.command_state == C.IDLE

    out = core.request_profile_update(ProfileAction.REQUEST, "mom", "mia", "birthdate",
                                      "2015-01-01", 4, parent=proof)
    assert not out.reply.accepted and proof.reason in out.reply.message
    assert str(core.store.get("mia").birthdate) == "2021-03-03"

    core.request_consent(ConsentAction.REQUEST, "mia", "memory", "mom", 5)  # asking is free
    out = core.request_consent(ConsentAction.GRANT, "mia", "memory", "mom", 6, parent=proof)
    assert not out.reply.accepted and core.consent_state("mia", "memory") == S.PENDING

    out = core.delegate(DelegateAction.REQUEST, "mom", "leo", FORGET, 60.0, 7, parent=proof)
    assert not out.reply.accepted
    assert core.counters["parent_authority_refused"] == 5


def test_consent_grant_and_revoke_over_the_topic_are_refused(core: IdentityCore) -> None:
    """consent/events is a topic: it cannot carry a token, so it cannot grant or revoke."""
    confirm(core, "mom")
    core.request_consent(ConsentAction.REQUEST, "mia", "memory", "mom", 2)
    for kind in (ConsentEventKind.EXPLICIT_GRANT, ConsentEventKind.REVOKE):
        out = core.handle_consent_event(ConsentInput(kind, "mia", "memory", "mom"), 3)
        assert out.rejected and "parent PIN" in out.rejected[0].reason
    assert core.consent_state("mia", "memory") == S.PENDING
    # The safe direction (a denial) still works over the topic.
    out = core.handle_consent_event(
        ConsentInput(ConsentEventKind.EXPLICIT_DENIAL, "mia", "memory", ""), 4)
    assert out.took("consent", "explicit_denial", "NONE")


def test_with_the_pin_a_parent_acts_whoever_is_talking(core: IdentityCore) -> None:
    """The dashboard or `buddy parent` acts while a child talks with Buddy (or nobody)."""
    confirm(core, "mia")  # the child is the speaker
    out = core.execute_command(CommandAction.REQUEST, FORGET, "", "", 2, parent=PARENT)
    assert out.reply.state == C.PENDING_CONFIRMATION
    out = core.execute_command(CommandAction.CONFIRM, FORGET, "", "", 3, parent=PARENT)
    assert out.reply.state == C.EXECUTED and _resets([out]) == [ResetMemory(FORGET, "")]

    out = core.request_profile_update(ProfileAction.REQUEST, "", "mia", "birthdate",
                                      "2021-03-04", 4, parent=PARENT)
    assert out.reply.accepted  # a birthdate still takes a second, confirming step
    out = core.request_profile_update(ProfileAction.CONFIRM, "", "mia", "", "", 5,
                                      parent=PARENT)
    assert out.reply.accepted and str(core.store.get("mia").birthdate) == "2021-03-04"

    core.request_consent(ConsentAction.REQUEST, "mia", "memory", "", 6)
    out = core.request_consent(ConsentAction.GRANT, "mia", "memory", "", 7, parent=PARENT)
    assert out.took("consent", "explicit_grant", "GRANTED")


def test_a_pin_request_is_not_cancelled_by_who_is_speaking(core: IdentityCore) -> None:
    """A parent's pending command (asked on the parent page) is not the speaker's: a child
    claimed and confirmed meanwhile is no context change for it."""
    core.execute_command(CommandAction.REQUEST, FORGET, "", "", 1, parent=PARENT)
    confirm(core, "mia", now=2)
    assert core.command_state == C.PENDING_CONFIRMATION


def test_an_unknown_named_requester_is_still_refused_with_the_pin(core: IdentityCore) -> None:
    out = core.execute_command(CommandAction.REQUEST, FORGET, "nobody", "", 1, parent=PARENT)
    assert not out.reply.accepted and "unknown user" in out.reply.message
