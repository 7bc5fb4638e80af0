"""Issue 14 (idle CPU): the LLM bridge node no longer ticks at 10 Hz; it sleeps until the
core's `next_deadline`. That is only right if the deadline never comes later than the
tick would have acted: the same lines at the same times as a fine tick, the silence end
of spec 003 §3.4 (silence_timeout_s), the return to IDLE, and the offline probe."""

from __future__ import annotations

import random

from buddy_personality.cognition.bridge import (
    PHASE_IDLE,
    PHASE_LISTENING,
    PHASE_SPEAKING,
    BridgeCore,
    Step,
)
from buddy_personality.cognition.gate import GateConfig
from buddy_personality.cognition.health import HealthConfig
from buddy_personality.cognition.signal_order import SignalOrder
from buddy_personality.cognition.turn_deadline import TurnDeadline


def core(server: bool = True) -> BridgeCore:
    return BridgeCore(random.Random(3), server_configured=server,
                      gate=GateConfig(cooldown_s=0.0),
                      health=HealthConfig(offline_after_failures=1, probe_interval_s=10.0))


def record(out: list[tuple[float, str]], now: float, step: Step, c: BridgeCore) -> None:
    out += [(round(now, 3), f"say:{s.text}") for s in step.says]
    out += [(round(now, 3), f"phase:{p.phase}") for p in step.phases]
    if step.probe:
        out.append((round(now, 3), "probe"))
        c.on_probe_result(now, False)   # the server stays away


def run_fine(c: BridgeCore, start: float, end: float) -> list[tuple[float, str]]:
    """The old node: a tick every 1 ms (finer than the 10 Hz it had)."""
    out: list[tuple[float, str]] = []
    for k in range(1, round((end - start) * 1000) + 1):
        now = start + k / 1000
        record(out, now, c.tick(now), c)
    return out


def run_on_deadlines(c: BridgeCore, start: float, end: float) -> tuple[list, int]:
    """The new node: a tick only at next_deadline (plus the node's 1 ms margin)."""
    out: list[tuple[float, str]] = []
    now, wakes = start, 0
    while True:
        deadline = c.next_deadline(now)
        if deadline is None or deadline > end:
            return out, wakes
        now = max(now, deadline) + 0.001
        wakes += 1
        record(out, now, c.tick(now), c)


def scripted(c: BridgeCore) -> None:
    """A child talks to a server that never answers (the request hangs)."""
    step = c.on_utterance(100.0, "hey buddy why is the sky blue")
    assert step.call is not None


def test_a_hung_turn_silence_and_return_to_idle_come_at_the_same_times() -> None:
    fine, lazy = core(), core()
    scripted(fine)
    scripted(lazy)
    expected = run_fine(fine, 100.0, 160.0)
    got, wakes = run_on_deadlines(lazy, 100.0, 160.0)
    kinds = [k.split(":")[0] for _, k in expected]
    # filler at 2.5 s, layer 0's answer at 7 s, then listening, silence end, idle (§3.4)
    assert kinds.count("say") >= 2 and f"phase:{PHASE_LISTENING}" in [k for _, k in expected]
    assert f"phase:{PHASE_IDLE}" in [k for _, k in expected]
    assert [k for _, k in got] == [k for _, k in expected]
    for (t_fine, _), (t_lazy, _) in zip(expected, got, strict=True):
        # each chained deadline (speaking, then silence from there, then idle) may add the
        # node's 1 ms margin and the fine tick's 1 ms step: a few ms, never a tick of 100 ms
        assert abs(t_fine - t_lazy) <= 0.01
    assert wakes < 40   # against 600 at the old 10 Hz over the same minute


def test_speaking_ends_at_its_deadline() -> None:
    c = core(server=False)
    c.on_utterance(0.0, "hey buddy hello")
    assert c.phase == PHASE_SPEAKING
    deadline = c.next_deadline(0.0)
    assert deadline is not None and deadline > 0.0
    assert not c.tick(deadline - 0.01).phases
    assert [p.phase for p in c.tick(deadline + 0.001).phases] == [PHASE_LISTENING]


def test_an_offline_server_is_probed_on_schedule_and_idle_sleeps_otherwise() -> None:
    c = core()
    assert c.next_deadline(0.0) == 0.0            # the start-up probe (learn the state)
    assert c.tick(0.0).probe
    assert c.next_deadline(0.0) is None           # the probe is out: nothing to wake for
    c.on_probe_result(0.5, False)
    assert c.next_deadline(0.5) == 10.5           # probe_interval_s after the failure
    assert core(server=False).next_deadline(0.0) is None   # no server, idle: no deadline


def test_turn_deadline_next_due_matches_due() -> None:
    d = TurnDeadline(filler_after_s=2.5, answer_by_s=7.0)
    assert d.next_due_s(False) == 2.5 and d.due(2.5, False) is not None
    assert d.next_due_s(True) == 7.0 and d.due(7.0, True) is not None
    assert d.due(6.99, True) is None


def test_held_signals_are_released_at_the_hold_deadline() -> None:
    order: SignalOrder[str] = SignalOrder(max_hold_s=2.0)
    assert order.next_deadline() is None
    order.reset_requested("s1", 10.0)
    assert order.offer("s1", "sig") == []
    assert order.next_deadline() == 12.0
    assert order.tick(11.99) == [] and order.tick(12.0) == ["sig"]
    assert order.next_deadline() is None
