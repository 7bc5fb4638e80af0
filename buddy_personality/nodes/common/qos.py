"""QoS profiles, defined once (DESIGN §3: "latched" = reliable, transient-local, depth 1)."""

from __future__ import annotations

from rclpy.duration import Duration
from rclpy.qos import (
    DurabilityPolicy,
    HistoryPolicy,
    LivelinessPolicy,
    QoSProfile,
    ReliabilityPolicy,
)

# Late joiners get the last value: snapshots, profiles, states, conversation phase.
LATCHED = QoSProfile(
    depth=1,
    history=HistoryPolicy.KEEP_LAST,
    reliability=ReliabilityPolicy.RELIABLE,
    durability=DurabilityPolicy.TRANSIENT_LOCAL,
)

# Discrete events that must not be lost in a burst (emotions, conversation events,
# utterances, signals). Volatile: an event is only meaningful when it happens.
EVENTS = QoSProfile(
    depth=50,
    history=HistoryPolicy.KEEP_LAST,
    reliability=ReliabilityPolicy.RELIABLE,
    durability=DurabilityPolicy.VOLATILE,
)

# /diagnostics, as diagnostic_updater publishes it.
DIAGNOSTICS = QoSProfile(
    depth=10,
    history=HistoryPolicy.KEEP_LAST,
    reliability=ReliabilityPolicy.RELIABLE,
    durability=DurabilityPolicy.VOLATILE,
)

# Markers for rviz: the newest set is all that matters.
MARKERS = QoSProfile(
    depth=1,
    history=HistoryPolicy.KEEP_LAST,
    reliability=ReliabilityPolicy.RELIABLE,
    durability=DurabilityPolicy.TRANSIENT_LOCAL,
)

# The LLM bridge's conversation/events writer asserts its liveliness (DDS AUTOMATIC: the
# participant does it) with a short lease, and the personality node watches it with a
# subscription that requests the same lease. A SIGKILLed bridge is then noticed when that
# lease runs out, not when Fast DDS drops its participant (20 s: issue 19's phantom session
# ran ~24 s after the kill). Readers that request no lease (every other subscriber) are
# compatible with it; writers that offer none (tests, tools) simply never match the watch.
BRIDGE_LIVELINESS_LEASE_S = 2.0
_LEASE = Duration(seconds=BRIDGE_LIVELINESS_LEASE_S)
BRIDGE_EVENTS = QoSProfile(
    depth=EVENTS.depth,
    history=EVENTS.history,
    reliability=EVENTS.reliability,
    durability=EVENTS.durability,
    liveliness=LivelinessPolicy.AUTOMATIC,
    liveliness_lease_duration=_LEASE,
)
BRIDGE_WATCH = QoSProfile(
    depth=1,
    history=HistoryPolicy.KEEP_LAST,
    reliability=ReliabilityPolicy.RELIABLE,
    durability=DurabilityPolicy.VOLATILE,
    liveliness=LivelinessPolicy.AUTOMATIC,
    liveliness_lease_duration=_LEASE,
)
