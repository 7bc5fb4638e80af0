"""The table-driven machine itself: guards, refusals, tick-driven timeouts."""

from __future__ import annotations

from enum import IntEnum

import pytest

from buddy_personality.identity.fsm import Machine, MachineSpec, Transition


class S(IntEnum):
    A = 0
    B = 1
    C = 2


def is_ready(ctx: object) -> bool:
    return bool(getattr(ctx, "ready", False))


class Ctx:
    def __init__(self, ready: bool) -> None:
        self.ready = ready


SPEC = MachineSpec(
    name="toy",
    states=S,
    initial=S.A,
    events=frozenset({"go", "timeout"}),
    transitions=(Transition(S.A, "go", S.B, is_ready), Transition(S.B, "timeout", S.C)),
    timeouts={S.B: "timeout"},
    refusal_notes={(S.C, "go"): "C is final"},
)


def test_failed_guard_is_refused_with_its_name_and_state_kept() -> None:
    m = Machine(SPEC, {S.B: 5.0})
    r = m.fire("go", 0.0, Ctx(ready=False))
    assert not r.accepted and "is_ready" in r.reason
    assert m.state == S.A


def test_timeout_fires_only_when_due_via_tick() -> None:
    m = Machine(SPEC, {S.B: 5.0})
    assert m.fire("go", 10.0, Ctx(ready=True)).accepted
    assert m.deadline == 15.0
    assert m.tick(14.999) is None and m.state == S.B
    r = m.tick(15.0)
    assert r is not None and r.accepted and m.state == S.C
    assert m.deadline is None


def test_restart_timer_pushes_the_deadline() -> None:
    m = Machine(SPEC, {S.B: 5.0})
    m.fire("go", 0.0, Ctx(ready=True))
    m.restart_timer(4.0)
    assert m.tick(5.0) is None
    assert m.tick(9.0) is not None


def test_refusal_note_explains_a_deliberately_absent_row() -> None:
    m = Machine(SPEC)
    m.state = S.C
    r = m.fire("go", 0.0, Ctx(ready=True))
    assert not r.accepted and "C is final" in r.reason


def test_spec_rejects_rows_with_undeclared_events() -> None:
    with pytest.raises(ValueError, match="undeclared event"):
        MachineSpec("bad", S, S.A, frozenset({"go"}), (Transition(S.A, "jump", S.B),))


def test_spec_rejects_timeouts_without_a_row() -> None:
    with pytest.raises(ValueError, match="has no row"):
        MachineSpec(
            "bad", S, S.A, frozenset({"go"}), (Transition(S.A, "go", S.B),), timeouts={S.A: "go2"}
        )


@pytest.mark.parametrize("seconds", [0.0, -1.0, float("nan"), float("inf")])
def test_durations_must_be_positive_and_finite(seconds: float) -> None:
    with pytest.raises(ValueError):
        Machine(SPEC, {S.B: seconds})


def test_duration_for_a_state_without_timeout_is_an_error() -> None:
    with pytest.raises(ValueError, match="declares no timeout"):
        Machine(SPEC, {S.A: 1.0})
