"""The core's enums carry the same numbers as the buddy_msgs constants."""

from __future__ import annotations

from enum import IntEnum

import pytest

from buddy_personality.identity import enums as E

msg = pytest.importorskip("buddy_msgs.msg")
srv = pytest.importorskip("buddy_msgs.srv")


def _same(enum: type[IntEnum], cls: type, prefix: str = "") -> None:
    for member in enum:
        assert getattr(cls, prefix + member.name) == member.value, (enum.__name__, member.name)


def test_identity_state_constants() -> None:
    _same(E.IdentityStateId, msg.IdentityState)
    _same(E.AddressingState, msg.IdentityState, "ADDRESSING_")
    _same(E.AgeGroup, msg.IdentityState, "AGE_")
    _same(E.ConversationMode, msg.IdentityState)


def test_event_kinds() -> None:
    _same(E.IdentityEventKind, msg.IdentityEvent)
    _same(E.ConsentEventKind, msg.ConsentEvent)
    assert msg.ConsentEvent.SCOPE_MEMORY == E.SCOPE_MEMORY
    assert msg.SystemEvent.BIRTHDAY_GREETING == 7


def test_consent_record_states() -> None:
    _same(E.ConsentStateId, msg.ConsentRecord)


def test_service_constants() -> None:
    _same(E.CommandAction, srv.ExecuteCommand.Request)
    _same(E.CommandState, srv.ExecuteCommand.Response)
    assert srv.ExecuteCommand.Request.CMD_FORGET_EVERYTHING == E.CMD_FORGET_EVERYTHING
    _same(E.ProfileAction, srv.RequestProfileUpdate.Request)
    _same(E.ProfileUpdateState, srv.RequestProfileUpdate.Response)
    _same(E.ConsentAction, srv.RequestConsent.Request)
    _same(E.DelegateAction, srv.Delegate.Request)
    _same(E.DelegationState, srv.Delegate.Response)
