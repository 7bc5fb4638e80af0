"""governor node over real DDS (DESIGN §4.2): signals in, latched state out, reset
semantics, bad signals refused and counted."""

from __future__ import annotations

import math

import pytest
from diagnostic_msgs.msg import DiagnosticArray
from rclpy.parameter import Parameter

from buddy_msgs.msg import GovernorSignal, GovernorState
from buddy_msgs.srv import ResetGovernor
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.governor_node import GovernorNode

pytestmark = pytest.mark.ros

HOPPING = (0.5, 1.0, 0.0, 0.1)  # new topic, fairly good turn
STORM = (-1.0, 0.0, 0.3, 0.8)   # failed request, retried at once


def signal(values: tuple[float, float, float, float], session_id: str = "s1") -> GovernorSignal:
    r, n, u, d = values
    return GovernorSignal(reward=r, novelty=n, urgency=u, difficulty=d, session_id=session_id)


@pytest.fixture
def governor(ros):
    return ros.add(GovernorNode(**ros.node_kwargs()))


@pytest.fixture
def states(ros, governor):
    return ros.collect(GovernorState, "governor/state", qos.LATCHED)


@pytest.fixture
def signals(ros, governor):
    return ros.publisher(GovernorSignal, "governor/signal")


def latest(states: list[GovernorState]) -> GovernorState:
    return states[-1]


def test_initial_state_is_latched_for_late_joiners(ros, governor) -> None:
    ros.spin_for(0.2)  # the node has published its start state before anyone listens
    late = ros.collect(GovernorState, "governor/state", qos.LATCHED)
    assert ros.spin_until(lambda: late, timeout=5)
    s = late[0]
    assert (s.state, s.halt_reason, s.step, s.episode_id) == (GovernorState.IDLE, "", 0, 0)
    # DESIGN §4.2 initial budgets: effort 1, persistence 1, risk 0, exploration 0.
    assert (s.effort, s.persistence, s.risk, s.exploration) == (1.0, 1.0, 0.0, 0.0)


def test_one_step_per_signal_and_state_after_each(ros, states, signals) -> None:
    # The state topic is latched at depth 1, so a burst may be read as its last state
    # only; send one signal at a time and wait for its state.
    by_step = {}
    for k in (1, 2, 3):
        signals.publish(signal(HOPPING, "s1"))
        assert ros.spin_until(lambda k=k: states and latest(states).step == k, timeout=5)
        by_step[k] = latest(states)
    # Effort has no time decay and no recovery applies in IDLE, so it is the unit tests'
    # hand-derived SAFETY script regardless of the node clock: e1 = 0.8 + 0.2*0.169,
    # e2 = 0.8*e1 + 0.2*0.338.
    assert by_step[1].effort == pytest.approx(0.8338)
    assert by_step[2].effort == pytest.approx(0.73464)
    assert by_step[3].curiosity == pytest.approx(1.5)
    assert latest(states).session_id == "s1"
    # A late subscriber gets the newest state only (latched, depth 1).
    late = ros.collect(GovernorState, "governor/state", qos.LATCHED)
    assert ros.spin_until(lambda: late, timeout=5)
    assert late[0].step == 3


def test_state_is_republished_at_publish_hz(ros, states, governor) -> None:
    assert ros.spin_until(lambda: len(states) >= 3, timeout=4.5)
    assert all(s.step == 0 for s in states)


def test_retry_storm_halts_and_halted_ignores_further_signals(ros, states, signals) -> None:
    for _ in range(3):
        signals.publish(signal(STORM))
    assert ros.spin_until(lambda: states and latest(states).state == GovernorState.HALTED, 5)
    halted = latest(states)
    assert halted.halt_reason == GovernorState.HALT_EXHAUSTION and halted.step == 3
    assert (halted.effort, halted.persistence, halted.risk, halted.exploration) == (0, 0, 0, 0)
    count = len(states)
    signals.publish(signal(HOPPING))
    assert ros.spin_until(lambda: len(states) > count, timeout=5)
    after = latest(states)
    assert after.state == GovernorState.HALTED and after.step == 3
    assert after.frustration == halted.frustration


def test_reset_refused_while_live_unless_session_ended(ros, states, signals) -> None:
    signals.publish(signal(HOPPING, "s1"))
    assert ros.spin_until(lambda: states and latest(states).step == 1, timeout=5)

    refused = ros.call(ResetGovernor, "governor/reset",
                       ResetGovernor.Request(session_ended=False, session_id="s2"))
    assert not refused.success and refused.episode_id == 0 and refused.message
    ros.spin_for(0.3)
    assert latest(states).episode_id == 0 and latest(states).step == 1

    ok = ros.call(ResetGovernor, "governor/reset",
                  ResetGovernor.Request(session_ended=True, session_id="s2"))
    assert ok.success and ok.episode_id == 1
    assert ros.spin_until(lambda: latest(states).episode_id == 1, timeout=5)
    s = latest(states)
    assert (s.step, s.state, s.session_id, s.effort) == (0, GovernorState.IDLE, "s2", 1.0)


def test_reset_after_halt_needs_no_session_end(ros, states, signals) -> None:
    for _ in range(3):
        signals.publish(signal(STORM))
    assert ros.spin_until(lambda: states and latest(states).state == GovernorState.HALTED, 5)
    ok = ros.call(ResetGovernor, "governor/reset", ResetGovernor.Request(session_id="next"))
    assert ok.success and ok.episode_id == 1
    assert ros.spin_until(lambda: latest(states).episode_id == 1, timeout=5)
    assert latest(states).state == GovernorState.IDLE
    signals.publish(signal(HOPPING, "next"))
    assert ros.spin_until(lambda: latest(states).step == 1, timeout=5)


def test_max_steps_parameter_sets_the_external_fuse(ros) -> None:
    node = ros.add(GovernorNode(**ros.node_kwargs(
        parameter_overrides=[Parameter("max_steps", value=2)])))
    assert node.params["max_steps"] == 2
    states = ros.collect(GovernorState, "governor/state", qos.LATCHED)
    pub = ros.publisher(GovernorSignal, "governor/signal")
    for _ in range(2):
        pub.publish(signal((0.3, 0.3, 0.1, 0.1)))
    assert ros.spin_until(lambda: states and latest(states).state == GovernorState.HALTED, 5)
    assert latest(states).halt_reason == GovernorState.HALT_EXTERNAL
    assert latest(states).step == 2


def test_bad_signals_are_refused_counted_and_never_integrated(ros, states, signals) -> None:
    diagnostics = ros.collect(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)
    assert ros.spin_until(lambda: states, timeout=5)
    bad = [
        signal((math.nan, 0.0, 0.0, 0.1)),
        signal((0.0, math.inf, 0.0, 0.1)),
        signal((0.0, 0.0, 1.5, 0.1)),
        signal((2.0, 0.0, 0.0, 0.1)),
    ]
    for msg in bad:
        signals.publish(msg)
    signals.publish(signal(HOPPING, "s1"))
    signals.publish(signal(HOPPING, "other-session"))  # refused: episode governs s1
    signals.publish(signal((0.0, 0.0, 0.0, 0.1), "s1"))
    assert ros.spin_until(lambda: latest(states).step == 2, timeout=5)
    ros.spin_for(0.3)
    s = latest(states)
    assert s.step == 2 and all(math.isfinite(x) for x in (
        s.effort, s.persistence, s.risk, s.exploration, s.confidence, s.frustration,
        s.curiosity, s.arousal, s.risk_pressure))
    # Pressures hold exactly the two accepted signals: curiosity 0.5 + (-0.2).
    assert s.curiosity == pytest.approx(0.3)

    def counts() -> dict[str, str]:
        for m in reversed(diagnostics):
            for st in m.status:
                if st.name.endswith("/governor"):
                    return {kv.key: kv.value for kv in st.values}
        return {}

    assert ros.spin_until(lambda: counts().get("signals.rejected.total") == "5", timeout=5)
    c = counts()
    assert c["signals.rejected.nan"] == "1"
    assert c["signals.rejected.infinite"] == "1"
    assert c["signals.rejected.out_of_range"] == "2"
    assert c["signals.rejected.session_mismatch"] == "1"
    assert c["signals.accepted"] == "2"


def test_eight_zero_signals_without_session_id_do_not_halt_the_governor(
        ros, states, signals) -> None:
    """Issue 19 attack: anonymous zero signals halted the governor for the next session.
    A signal must name the episode's session (DESIGN §4.2); others are refused, counted."""
    diagnostics = ros.collect(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)
    assert ros.spin_until(lambda: states, timeout=5)
    for _ in range(8):
        signals.publish(signal((0.0, 0.0, 0.0, 0.0), ""))
    signals.publish(signal(HOPPING, "s1"))
    assert ros.spin_until(lambda: latest(states).session_id == "s1", timeout=5)

    def rejected() -> str:
        for m in reversed(diagnostics):
            for st in m.status:
                if st.name.endswith("/governor"):
                    return {kv.key: kv.value for kv in st.values}.get(
                        "signals.rejected.missing_session", "")
        return ""

    assert ros.spin_until(lambda: rejected() == "8", timeout=5)
    # only the named signal was integrated
    assert latest(states).step == 1 and latest(states).state != GovernorState.HALTED


def test_max_steps_change_applies_from_the_next_episode(ros, governor, states, signals) -> None:
    name = f"{ros.namespace}/governor"
    assert ros.set_parameters(name, [Parameter("max_steps", value=1)])[0].successful
    signals.publish(signal(HOPPING))
    assert ros.spin_until(lambda: states and latest(states).step == 1, timeout=5)
    assert latest(states).state == GovernorState.IDLE  # the running episode keeps 100
    ok = ros.call(ResetGovernor, "governor/reset", ResetGovernor.Request(session_ended=True))
    assert ok.success and ok.episode_id == 1
    assert ros.spin_until(lambda: latest(states).episode_id == 1, timeout=5)
    signals.publish(signal(HOPPING))
    assert ros.spin_until(lambda: latest(states).state == GovernorState.HALTED, timeout=5)
    assert latest(states).halt_reason == GovernorState.HALT_EXTERNAL
    assert latest(states).episode_id == 1
    assert not ros.set_parameters(name, [Parameter("max_steps", value=0)])[0].successful
