"""Read the personality snapshot stream of a rosbag2 bag (MCAP or sqlite3) as a timeline
for the spec 002 A.2 indicators."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rosbags.rosbag2 import Reader

from buddy_personality.msg_constants import Phase
from buddy_personality.tools.bags.typestore import buddy_typestore
from buddy_personality.tools.evaluation.metrics import Sample

SNAPSHOT_TYPE = "buddy_msgs/msg/PersonalitySnapshot"
SNAPSHOT_SUFFIX = "personality/snapshot"
PHASE_TYPE = "buddy_msgs/msg/ConversationPhase"
PHASE_SUFFIX = "conversation/phase"


class BagError(ValueError):
    """The bag cannot be evaluated (missing, unreadable, or no snapshots)."""


def _stamp(msg: object, stamp_ns: int) -> float:
    st = msg.header.stamp  # type: ignore[attr-defined]
    return st.sec + st.nanosec * 1e-9 if (st.sec or st.nanosec) else stamp_ns * 1e-9


def read_speaking_starts(path: Path | str) -> list[float] | None:
    """When each reply's SPEAKING phase began (DESIGN §6.13 arc), from the LLM bridge's
    `conversation/phase`; None when the bag did not record that topic."""
    store = buddy_typestore()
    starts: list[float] = []
    try:
        with Reader(Path(path)) as reader:
            conns = [c for c in reader.connections
                     if c.msgtype == PHASE_TYPE and c.topic.endswith(PHASE_SUFFIX)]
            if not conns:
                return None
            last = -1
            for conn, stamp_ns, raw in reader.messages(connections=conns):
                msg = store.deserialize_cdr(raw, conn.msgtype)
                if msg.phase == Phase.SPEAKING and last != Phase.SPEAKING:
                    starts.append(_stamp(msg, stamp_ns))
                last = msg.phase
    except Exception as exc:  # rosbags raises several unrelated types for a bad bag
        raise BagError(f"cannot read {path}: {exc}") from exc
    return sorted(starts)


def read_snapshots(path: Path | str, *,
                   progress: Callable[[int, int], None] | None = None) -> list[Sample]:
    """Every PersonalitySnapshot in the bag, in stamp order.

    The time of a sample is the snapshot's header stamp (the node clock, so sim time is
    kept); a zero stamp falls back to the bag's receive time. `progress(done, total)` is
    called every 1000 messages.
    """
    path = Path(path)
    if not path.exists():
        raise BagError(f"no bag at {path}")
    store = buddy_typestore()
    samples: list[Sample] = []
    try:
        with Reader(path) as reader:
            conns = [c for c in reader.connections
                     if c.msgtype == SNAPSHOT_TYPE and c.topic.endswith(SNAPSHOT_SUFFIX)]
            if not conns:
                raise BagError(f"{path} has no {SNAPSHOT_TYPE} on a .../{SNAPSHOT_SUFFIX} topic")
            total = sum(c.msgcount for c in conns)
            for i, (conn, stamp_ns, raw) in enumerate(reader.messages(connections=conns)):
                msg = store.deserialize_cdr(raw, conn.msgtype)
                samples.append(Sample(_stamp(msg, stamp_ns), msg.mood, msg.valence,
                                      msg.arousal, bool(msg.conversation_active),
                                      int(msg.layer), msg.intensity, int(msg.idle_state)))
                if progress is not None and i % 1000 == 0:
                    progress(i, total)
    except BagError:
        raise
    except Exception as exc:  # rosbags raises several unrelated types for a bad bag
        raise BagError(f"cannot read {path}: {exc}") from exc
    samples.sort(key=lambda s: s.t)
    return samples
