"""The asr node's gate and server health (DESIGN §4.7, erratum 24): Buddy may be audible
while it speaks plus a tail; the ears fault is raised once per outage, retried with
backoff, cleared; a slow server is told once per slow episode (issue 31 item 7)."""

from __future__ import annotations

import pytest

from buddy_personality.speech.ears import (
    CLEAR,
    ECHO_LEFT,
    RAISE,
    WITHOUT_REFERENCE,
    EarsHealth,
    SlowServer,
    SpeakingGate,
    child_evidence,
)


def test_buddy_audible_while_speaking_and_for_the_tail() -> None:
    g = SpeakingGate(tail_s=0.4)
    assert not g.buddy_audible(10.0)
    g.on_speaking(10.0, True)
    assert g.buddy_audible(10.5)
    g.on_speaking(12.0, False)
    assert g.buddy_audible(12.39) and not g.buddy_audible(12.41)


def test_fault_raised_once_backoff_doubles_to_the_cap_then_clears() -> None:
    h = EarsHealth(backoff_initial_s=1.0, backoff_max_s=4.0)
    assert h.on_failure(0.0) == RAISE
    assert not h.probe_due(0.9) and h.probe_due(1.0)
    delays = []
    t = 1.0
    for _ in range(4):
        h.probe_started(t)
        assert h.on_failure(t) is None            # said once, not again
        delays.append(h.backoff_s)
    assert delays == [2.0, 4.0, 4.0, 4.0]
    assert h.on_success(20.0) == CLEAR
    assert h.on_success(21.0) is None and not h.probe_due(1e9)
    assert h.on_failure(30.0) == RAISE            # a new outage is said again


@pytest.mark.parametrize("speaking_first", [False, True])
def test_gate_open_before_buddy_ever_spoke(speaking_first: bool) -> None:
    g = SpeakingGate()
    if speaking_first:
        g.on_speaking(0.0, False)
        assert not g.buddy_audible(1.0)
    else:
        assert not g.buddy_audible(-1e6)


def test_a_slow_request_is_told_once_and_a_prompt_answer_ends_the_episode() -> None:
    slow = SlowServer(after_s=4.0)
    assert slow.check(None, 100.0) is None               # no request running
    assert slow.check(10.0, 13.9) is None
    assert slow.check(10.0, 14.0) == RAISE
    assert slow.check(10.0, 20.0) is None                # said once
    assert slow.on_answer(25.0) is None                  # the slow answer itself
    assert slow.check(40.0, 50.0) is None                # still the same slow episode
    assert slow.on_answer(0.3) == CLEAR
    assert slow.check(60.0, 65.0) == RAISE               # a new episode is said again


@pytest.mark.parametrize(("buddy", "echo_like", "unreferenced", "expected"), [
    # Buddy silent: the VAD's word stands (a frame with no played audio near it is the
    # normal case then, not a missing reference)
    (False, False, True, (0.9, None)),
    (False, False, False, (0.9, None)),
    # what the canceller left follows Buddy's voice: Buddy's voice only (erratum 24)
    (True, True, False, (None, ECHO_LEFT)),
    (False, True, False, (None, ECHO_LEFT)),
    # Buddy speaks but nothing it played reached the canceller: uncancelled, no evidence
    (True, False, True, (None, WITHOUT_REFERENCE)),
    # Buddy speaks, the frame was cancelled and is not echo: the child's evidence counts
    (True, False, False, (0.9, None)),
])
def test_frames_that_are_no_evidence_of_a_child(buddy: bool, echo_like: bool,
                                                unreferenced: bool,
                                                expected: tuple[float | None, str | None]
                                                ) -> None:
    """Erratum 24: Buddy listens while it speaks, but its own voice is never a child."""
    assert child_evidence(0.9, buddy_audible=buddy, echo_like=echo_like,
                          unreferenced=unreferenced) == expected
