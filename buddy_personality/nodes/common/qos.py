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

# The LLM bridge's conversation/events writer has a liveliness lease, and the personality
# node watches it with a subscription that requests the same lease. A SIGKILLed bridge is
# then noticed when that lease runs out, not when Fast DDS drops its participant (20 s:
# issue 19's phantom session ran ~24 s after the kill). Readers that request no lease
# (every other subscriber) are compatible with it; writers that offer none (tests, tools)
# simply never match the watch.
#
# MANUAL_BY_TOPIC, asserted by the bridge every BRIDGE_LIVELINESS_ASSERT_S, not AUTOMATIC:
# Fast DDS asserts AUTOMATIC liveliness with participant messages that a reader in the
# same participant ignores, so under `buddy run` (one process, one participant) only the
# messages themselves kept the writer alive, and a child who paused for ~6 s lost the
# session as `bridge_lost` (issue 19). An explicit assertion reaches readers in the same
# process and in others alike. A bridge whose executor stops turning also stops asserting,
# which is as good as gone for the child.
BRIDGE_LIVELINESS_LEASE_S = 2.0
BRIDGE_LIVELINESS_ASSERT_S = 1.0   # half the lease: one late assertion is not a lapse
_LEASE = Duration(seconds=BRIDGE_LIVELINESS_LEASE_S)
BRIDGE_EVENTS = QoSProfile(
    depth=EVENTS.depth,
    history=EVENTS.history,
    reliability=EVENTS.reliability,
    durability=EVENTS.durability,
    liveliness=LivelinessPolicy.MANUAL_BY_TOPIC,
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
