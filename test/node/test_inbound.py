"""nodes/common/inbound.py and isolation.py (issue 31 item 1, DESIGN §5 bad input).

The checks in front of every subscription: NaN and infinities refused, out-of-range
numbers clamped or refused as RANGES says, unknown enum values refused, oversize strings
truncated, each counted; and an executor on which one node's raising callback is counted
for that node, not the end of the spin.
"""

from __future__ import annotations

import importlib
import math
from pathlib import Path

import pytest
from rclpy.node import Node
from support.inbound_topics import inbound_topics

from buddy_msgs.msg import (
    ConsentRecord,
    ConsentState,
    FaceState,
    GovernorSignal,
    IdentityEvent,
    MemoryExtract,
    MemoryTag,
    PersonalitySnapshot,
    SystemEvent,
    Utterance,
)
from buddy_personality.nodes.bringup import NODE_CLASSES
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.executor import make_executor
from buddy_personality.nodes.common.inbound import (
    TEXT_DEFAULT_MAX,
    UNDOCUMENTED,
    InboundChecks,
    checked,
    message_check,
    text_limit,
)
from buddy_personality.nodes.common.isolation import callback_faults
from buddy_personality.nodes.common.rejections import RejectionLog

pytestmark = pytest.mark.ros

MSG_DIR = Path(__file__).resolve().parents[2] / "buddy_msgs" / "msg"


def through(msg: object) -> tuple[list[object], RejectionLog]:
    """`msg` through the checks of its type: what reached the callback, what was counted."""
    got: list[object] = []
    log = RejectionLog(lambda _line: None)
    checked(type(msg), got.append, lambda: log)(msg)
    return got, log


def _inbound_types() -> list[type]:
    types = {cls for subs in inbound_topics().values() for _topic, cls in subs}
    types |= {getattr(importlib.import_module("buddy_msgs.msg"), p.stem)
              for p in MSG_DIR.glob("*.msg")}
    return sorted(types, key=lambda cls: f"{cls.__module__}.{cls.__name__}")


@pytest.mark.parametrize("msg_type", _inbound_types(), ids=lambda cls: cls.__name__)
def test_every_float_field_a_node_hears_has_a_documented_range(msg_type: type) -> None:
    """No float reaches a node unbounded: every float field of every buddy_msgs message
    and of every message type a node subscribes to (read from the nodes' code) has its
    range in RANGES."""
    message_check(msg_type)
    prefix = f"{msg_type.__module__.split('.')[0]}/{msg_type.__name__}."
    assert not {f for f in UNDOCUMENTED if f.startswith(prefix)}


def test_every_node_checks_its_subscriptions() -> None:
    assert all(issubclass(cls, InboundChecks) for cls in NODE_CLASSES.values())


def test_the_dashboards_overflow_is_clamped_before_the_node() -> None:
    # the attack of issue 31: intensity 1e308 passed isfinite and round(x*20) overflowed
    got, log = through(FaceState(intensity=1e308, mood="happy"))
    assert [m.intensity for m in got] == [1.0]
    assert log.counts == {"clamped": 1}


@pytest.mark.parametrize(("value", "cause"), [
    (math.nan, "nan"), (math.inf, "infinite"), (-math.inf, "infinite")])
def test_non_finite_numbers_are_refused_whatever_the_field(value: float, cause: str) -> None:
    for msg in (FaceState(intensity=value), PersonalitySnapshot(valence=value),
                GovernorSignal(reward=value, session_id="s")):
        got, log = through(msg)
        assert got == [] and log.counts == {cause: 1}


def test_a_request_out_of_range_is_refused_and_a_state_clamped() -> None:
    # spec 001 §3: the governor refuses a signal outside its range ...
    got, log = through(GovernorSignal(reward=1e308, session_id="s"))
    assert got == [] and log.counts == {"out_of_range": 1}
    # ... spec 004: a claim with an impossible confidence, under identity's own counter
    got, log = through(IdentityEvent(kind=IdentityEvent.SATELLITE_IDENTITY, confidence=1.7))
    assert got == [] and log.counts == {"bad_confidence": 1}
    # a state is shown clamped; -0.0 is in range and passes as it is
    got, log = through(PersonalitySnapshot(valence=-1e308, arousal=-0.0, mood="happy"))
    assert [(m.valence, m.arousal) for m in got] == [(-1.0, 0.0)]
    assert log.counts == {"clamped": 1}


def test_a_range_the_core_applies_is_passed_on() -> None:
    # issue 19: the face core clamps a battery level itself and counts battery_clamped
    got, log = through(SystemEvent(kind=SystemEvent.LOW_BATTERY, battery_pct=250.0))
    assert [m.battery_pct for m in got] == [250.0] and log.total == 0


def test_unknown_enum_values_are_refused() -> None:
    for msg in (SystemEvent(kind=200), FaceState(conv_state=99),
                IdentityEvent(kind=255, confidence=1.0),
                ConsentState(records=[ConsentRecord(state=9)])):
        got, log = through(msg)
        assert got == [] and log.counts == {"unknown_enum": 1}, msg


def test_oversize_strings_and_sequences_are_truncated_and_counted() -> None:
    mega = "x" * 1_000_000
    got, log = through(Utterance(text=mega, session_id=mega, confidence=1.0, is_final=True))
    assert len(got) == 1
    assert 2000 < len(got[0].text) < 10_000          # longer than any node's own bound
    assert len(got[0].session_id) == text_limit("buddy_msgs/Utterance", "session_id") == 128
    assert log.counts == {"truncated": 2}
    tags = [MemoryTag(tag=mega, category="topic", valence_bias=5.0)] * 1000
    got, log = through(MemoryExtract(tags=tags, session_id="s"))
    assert len(got[0].tags) == 64 and len(got[0].tags[0].tag) == TEXT_DEFAULT_MAX
    # a bias outside ±0.1 goes on: the personality's store refuses that one tag itself
    assert got[0].tags[0].valence_bias == 5.0


def test_a_node_refuses_and_counts_before_its_callback(ros) -> None:
    class Probe(InboundChecks, Node):
        pass

    node = ros.add(Probe("inbound_probe", **ros.node_kwargs()))
    seen: list[FaceState] = []
    node.create_subscription(FaceState, "face/state", seen.append, qos.EVENTS)
    pub = ros.publisher(FaceState, "face/state")
    pub.publish(FaceState(intensity=math.nan))
    pub.publish(FaceState(intensity=1e308))
    assert ros.spin_until(lambda: len(seen) == 1)
    assert seen[0].intensity == 1.0
    assert node.inbound_rejections().counts == {"nan": 1, "clamped": 1}


def test_a_raising_callback_is_counted_for_its_node_and_the_spin_goes_on(ros) -> None:
    executor = make_executor(context=ros.context)
    bad = Node("raises", **ros.node_kwargs())
    good = Node("counts", **ros.node_kwargs())
    ticks: list[int] = []

    def boom() -> None:
        raise OverflowError("cannot convert float infinity to integer")

    bad.create_timer(0.01, boom)
    good.create_timer(0.01, lambda: ticks.append(1))
    executor.add_node(bad)
    executor.add_node(good)
    try:
        for _ in range(200):
            executor.spin_once(timeout_sec=0.05)   # raised before issue 31
            if len(ticks) >= 5 and callback_faults(bad) is not None \
                    and callback_faults(bad).total >= 5:
                break
        faults = callback_faults(bad)
        assert faults is not None and faults.total >= 5
        assert "OverflowError" in faults.last
        assert callback_faults(good) is None and len(ticks) >= 5
    finally:
        executor.shutdown()
        bad.destroy_node()
        good.destroy_node()
