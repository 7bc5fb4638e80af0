"""Read the personality snapshot stream of a rosbag2 bag (MCAP or sqlite3) as a timeline
for the spec 002 A.2 indicators."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rosbags.rosbag2 import Reader

from buddy_personality.tools.bags.typestore import buddy_typestore
from buddy_personality.tools.evaluation.metrics import Sample

SNAPSHOT_TYPE = "buddy_msgs/msg/PersonalitySnapshot"
SNAPSHOT_SUFFIX = "personality/snapshot"


class BagError(ValueError):
    """The bag cannot be evaluated (missing, unreadable, or no snapshots)."""


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
                st = msg.header.stamp
                t = st.sec + st.nanosec * 1e-9 if (st.sec or st.nanosec) else stamp_ns * 1e-9
                samples.append(Sample(t, msg.mood, msg.valence, msg.arousal,
                                      bool(msg.conversation_active), int(msg.layer),
                                      msg.intensity))
                if progress is not None and i % 1000 == 0:
                    progress(i, total)
    except BagError:
        raise
    except Exception as exc:  # rosbags raises several unrelated types for a bad bag
        raise BagError(f"cannot read {path}: {exc}") from exc
    samples.sort(key=lambda s: s.t)
    return samples
