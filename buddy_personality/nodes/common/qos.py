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


# -- each topic's profile, chosen once (issue 28 item 4) -------------------------------
# Every endpoint of the nodes, tools and benchmarks takes its profile from here
# with `of(topic)`, so a writer and its readers cannot disagree (the parent dashboard once
# read face/state as EVENTS while the face driver published it LATCHED: the dashboard
# missed the face a late join should have shown). Names as in security/graph.py NODES.
# The one exception is the bridge's liveliness pair (BRIDGE_EVENTS / BRIDGE_WATCH above):
# the bridge writes conversation/events with BRIDGE_EVENTS, which every plain reader
# (EVENTS, no lease) accepts; only the personality's watch asks for the lease.
TOPICS: dict[str, QoSProfile] = {
    # state: a late joiner needs the last value at once
    "personality/snapshot": LATCHED,      # mood and scene: the face, the bridge, the dashboard
    "personality/llm_profile": LATCHED,   # the prompt profile in force for the bridge
    "personality/usage": LATCHED,         # RS-1/RS-2 talk and limits in force (dashboard)
    "conversation/phase": LATCHED,        # the face and the console show the current phase
    "governor/state": LATCHED,            # the bridge must know the budget before a turn
    "identity/state": LATCHED,            # who talks, for every node that names the child
    "consent/state": LATCHED,             # the consents in force, not just their changes
    "face/state": LATCHED,                # what the face shows now (dashboard, console)
    # markers: rviz wants the newest set, also after it joins
    "personality/affect_markers": MARKERS,
    # events: meaningful when they happen; a burst must not be lost
    "personality/mood_changed": EVENTS,   # one per mood change (console, bags)
    "personality/guardrail": EVENTS,      # each guardrail hit is reported once
    "personality/ai_emotion": EVENTS,     # the bridge's emotion for one turn
    "personality/emotion_applied": EVENTS,  # the personality's answer to one ai_emotion
    # conversation/events: EVENTS for every reader; the bridge writes BRIDGE_EVENTS
    # (same reliability/durability, plus the liveliness lease the personality watches)
    "conversation/events": EVENTS,
    "memory/extract": EVENTS,             # a fact to remember, once
    "governor/signal": EVENTS,            # each signal counts toward the budget
    "tts/say": EVENTS,                    # each line is spoken once, in order
    "tts/speaking": EVENTS,               # edges (start/stop), not a level
    "tts/energy": EVENTS,                 # ~20 Hz mouth loudness while speaking
    "tts/played": EVENTS,                 # echo reference chunks, in order (erratum 24)
    "face/gesture": EVENTS,               # one gesture per request
    "face/button": EVENTS,                # each press is an action
    "face/touch": EVENTS,                 # each touch is an action
    "system/events": EVENTS,              # errors and notices, each once
    "identity/events": EVENTS,            # speaker/enrolment events from the bridge
    "identity/system_events": EVENTS,     # the identity node's notices
    "consent/events": EVENTS,             # each consent answer is an action
    "speech/activity": EVENTS,            # VAD edges (start/stop)
    "speech/utterance": EVENTS,           # each heard or typed line, once
    # diagnostics and the log, as their standard writers offer them
    "/diagnostics": DIAGNOSTICS,          # diagnostic_updater's profile
    "/rosout": EVENTS,                    # readers only: rclpy's own writer is reliable
                                          # and transient-local, which an EVENTS reader takes
}


def of(topic: str) -> QoSProfile:
    """The profile of `topic` (relative to the robot's namespace, as the nodes name it;
    a fully qualified "/<ns>/name" is accepted too)."""
    if topic in TOPICS:
        return TOPICS[topic]
    parts = topic.lstrip("/").split("/", 1)
    if topic.startswith("/") and len(parts) == 2 and parts[1] in TOPICS:
        return TOPICS[parts[1]]
    raise KeyError(f"no QoS for topic {topic!r}: add it to TOPICS in "
                   f"buddy_personality/nodes/common/qos.py (every topic's profile is "
                   f"chosen there, once)")
