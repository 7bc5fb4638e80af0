"""Identity Resolution FSM through the core (spec 004 §1, DESIGN §4.3 HC-2)."""

from __future__ import annotations

import math

import pytest
from identity_testlib import confirm, ev

from buddy_personality.identity import IdentityConfig, IdentityCore
from buddy_personality.identity.enums import IdentityEventKind as K
from buddy_personality.identity.enums import IdentityStateId as I


@pytest.mark.parametrize("kind", [K.VOICE_SIGNAL, K.FACE_SIGNAL])
def test_hc2_refuses_biometric_signals_with_a_reason(core: IdentityCore, kind: K) -> None:
    out = core.handle_identity_event(ev(kind, user_id="mom", confidence=0.99), 1.0)
    assert [r.accepted for r in out.results] == [False]
    assert "HC-2" in out.results[0].reason
    assert core.identity_state == I.UNKNOWN
    assert core.counters["hc2_refused"] == 1


def test_hc2_refusal_does_not_touch_a_confirmed_identity(core: IdentityCore) -> None:
    confirm(core, "mom")
    core.handle_identity_event(ev(K.FACE_SIGNAL, user_id="dad", confidence=1.0), 2.0)
    assert (core.identity_state, core.identified_user) == (I.CONFIRMED, "mom")


def test_signal_thresholds_are_parameters(store) -> None:
    core = IdentityCore(store, IdentityConfig(signal_low=0.2, signal_medium=0.5))
    out = core.handle_identity_event(ev(K.SATELLITE_IDENTITY, user_id="mia", confidence=0.1), 1)
    assert not out.results[0].accepted and "noise" in out.results[0].reason
    out = core.handle_identity_event(ev(K.SATELLITE_IDENTITY, user_id="mia", confidence=0.3), 1)
    assert out.took("identity", "signal_low", "UNKNOWN")
    assert core.identity_state == I.UNKNOWN
    out = core.handle_identity_event(ev(K.SATELLITE_IDENTITY, user_id="mia", confidence=0.5), 1)
    assert out.took("identity", "signal_medium", "PROBABLE")
    assert (core.identity_state, core.identified_user) == (I.PROBABLE, "mia")


def test_a_paired_device_alone_never_confirms(core: IdentityCore) -> None:
    """A satellite signal at full confidence still needs validation (§1: only PROBABLE)."""
    core.handle_identity_event(ev(K.SATELLITE_IDENTITY, user_id="mom", confidence=1.0), 1)
    assert core.identity_state == I.PROBABLE
    assert core.identity_snapshot().child_safe


def test_explicit_claim_by_name_resolves_a_household_member(core: IdentityCore) -> None:
    out = core.handle_identity_event(ev(K.EXPLICIT_IDENTITY_CLAIM, value="anna"), 1)
    assert out.took("identity", "explicit_claim", "PROBABLE")
    assert core.identified_user == "mom"


def test_claim_naming_nobody_is_refused_by_its_guard(core: IdentityCore) -> None:
    out = core.handle_identity_event(ev(K.EXPLICIT_IDENTITY_CLAIM, value="Zorro"), 1)
    assert not out.results[0].accepted
    assert "candidate_is_household_user" in out.results[0].reason
    assert core.identity_state == I.UNKNOWN


def test_validation_failure_rejects_then_times_out(core: IdentityCore) -> None:
    core.handle_identity_event(ev(K.EXPLICIT_IDENTITY_CLAIM, user_id="dad"), 1)
    core.handle_identity_event(ev(K.VALIDATION_FAILURE), 2)
    assert core.identity_state == I.REJECTED and core.identified_user == ""
    core.tick(2 + IdentityConfig().rejected_timeout_s - 0.01)
    assert core.identity_state == I.REJECTED
    out = core.tick(2 + IdentityConfig().rejected_timeout_s)
    assert out.took("identity", "timeout", "UNKNOWN")


def test_probable_times_out_to_unknown(core: IdentityCore) -> None:
    core.handle_identity_event(ev(K.EXPLICIT_IDENTITY_CLAIM, user_id="dad"), 10)
    out = core.tick(10 + IdentityConfig().probable_timeout_s)
    assert out.took("identity", "timeout", "UNKNOWN")
    assert core.identified_user == ""


def test_confirmed_never_downgrades_on_timeouts(core: IdentityCore) -> None:
    """spec 004 §1 Identity Downgrade Guards."""
    confirm(core, "mom")
    core.tick(1e6)
    assert core.identity_state == I.CONFIRMED
    out = core.handle_identity_event(ev(K.TIMEOUT), 1e6)
    assert not out.results[0].accepted and "Downgrade Guards" in out.results[0].reason
    assert core.identity_state == I.CONFIRMED


def test_confirmed_active_never_downgrades_on_weak_signals(core: IdentityCore) -> None:
    confirm(core, "mom")
    core.handle_identity_event(ev(K.SPEAKING_TURN), 2)
    assert core.identity_state == I.CONFIRMED_ACTIVE
    for kind, conf in ((K.SATELLITE_IDENTITY, 0.4), (K.SATELLITE_IDENTITY, 0.9)):
        core.handle_identity_event(ev(kind, user_id="dad", confidence=conf), 3)
    core.handle_identity_event(ev(K.VALIDATION_FAILURE), 3)
    core.handle_identity_event(ev(K.TIMEOUT), 3)
    assert (core.identity_state, core.identified_user) == (I.CONFIRMED_ACTIVE, "mom")


@pytest.mark.parametrize("active", [False, True])
def test_only_strong_conflict_downgrades_a_confirmed_identity(core: IdentityCore, active: bool):
    confirm(core, "mom")
    if active:
        core.handle_identity_event(ev(K.SPEAKING_TURN), 2)
    out = core.handle_identity_event(ev(K.STRONG_CONFLICT), 3)
    assert out.took("identity", "strong_conflict", "AMBIGUOUS")
    assert core.identified_user == ""
    assert core.identity_snapshot().child_safe


def test_ambiguous_resolves_by_clarification_or_times_out(core: IdentityCore) -> None:
    confirm(core, "mom")
    core.handle_identity_event(ev(K.STRONG_CONFLICT), 3)
    out = core.handle_identity_event(ev(K.CLARIFICATION_SUCCESS, user_id="dad"), 4)
    assert out.took("identity", "clarification_success", "CONFIRMED")
    assert core.identified_user == "dad"
    core.handle_identity_event(ev(K.STRONG_CONFLICT), 5)
    out = core.tick(5 + IdentityConfig().ambiguous_timeout_s)
    assert out.took("identity", "timeout", "UNKNOWN")


def test_silence_timeout_releases_the_lock_and_turns_restart_it(core: IdentityCore) -> None:
    silence = IdentityConfig().silence_timeout_s
    confirm(core, "mom")
    core.handle_identity_event(ev(K.SPEAKING_TURN), 10)
    core.handle_identity_event(ev(K.SPEAKING_TURN), 10 + silence - 1)  # still talking
    assert core.tick(10 + silence).results == []
    out = core.tick(10 + 2 * silence)
    assert out.took("identity", "silence_timeout", "CONFIRMED")
    assert core.identified_user == "mom"


def test_end_conversation_from_active_returns_to_unknown(core: IdentityCore) -> None:
    confirm(core, "mom")
    core.handle_identity_event(ev(K.SPEAKING_TURN), 2)
    out = core.handle_identity_event(ev(K.END_CONVERSATION), 3)
    assert out.took("identity", "end_conversation", "UNKNOWN")
    assert core.identity_snapshot().user_id == ""


def test_user_id_shown_only_when_probable_or_better(core: IdentityCore) -> None:
    core.handle_identity_event(ev(K.EXPLICIT_IDENTITY_CLAIM, user_id="mia"), 1)
    snap = core.identity_snapshot()
    assert (snap.user_id, snap.role) == ("mia", "")  # role only once confirmed
    core.handle_identity_event(ev(K.VALIDATION_SUCCESS), 2)
    assert core.identity_snapshot().role == "child"


@pytest.mark.parametrize(
    ("event", "counter"),
    [
        (ev(99), "unknown_kind"),  # type: ignore[arg-type]
        (ev(K.SATELLITE_IDENTITY, user_id="mom", confidence=1.5), "bad_confidence"),
        (ev(K.SATELLITE_IDENTITY, user_id="mom", confidence=-0.1), "bad_confidence"),
        (ev(K.SATELLITE_IDENTITY, user_id="mom", confidence=math.nan), "bad_confidence"),
        (ev(K.SATELLITE_IDENTITY, user_id="stranger", confidence=0.9), "unknown_user"),
    ],
)
def test_bad_events_are_refused_with_a_reason_and_counted(
    core: IdentityCore, event, counter: str
) -> None:
    out = core.handle_identity_event(event, 1.0)
    assert out.rejected and out.results == []
    assert core.counters[counter] == 1 and core.counters["rejected_inputs"] == 1
    assert core.identity_state == I.UNKNOWN


def test_validation_for_another_user_is_refused(core: IdentityCore) -> None:
    core.handle_identity_event(ev(K.EXPLICIT_IDENTITY_CLAIM, user_id="mia"), 1)
    out = core.handle_identity_event(ev(K.VALIDATION_SUCCESS, user_id="mom"), 2)
    assert out.rejected and core.identity_state == I.PROBABLE
