"""Reading and writing whole bags for replay and scenarios (rosbags; MCAP or sqlite3).

`read_bag` returns every message raw (as recorded) with its type and receive time, plus
the bag's `custom_data` (where the sim keeps its `SimSetup`). `write_bag` writes raw
messages to an MCAP bag with full message definitions (the typestore of `buddy record`),
so `ros2 bag info`, Foxglove and `buddy eval` read it. `plain` turns a deserialized
message into nested dicts and lists of plain values, for comparing and reporting.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buddy_personality.tools.bags.typestore import buddy_typestore

BAG_VERSION = 9  # rosbag2 metadata version of Jazzy (as buddy record writes)


class BagError(ValueError):
    """The bag cannot be read (missing, not a bag, corrupt, or an unknown type)."""


@dataclass(slots=True, frozen=True)
class BagMessage:
    topic: str
    type_name: str
    t_ns: int      # receive time (the recorder's clock: sim time for sim bags)
    data: bytes    # CDR as it travelled


@dataclass(slots=True)
class BagContents:
    path: Path
    messages: list[BagMessage]
    types: dict[str, str]          # topic -> type name
    custom_data: dict[str, str] = field(default_factory=dict)

    def topic_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for m in self.messages:
            counts[m.topic] = counts.get(m.topic, 0) + 1
        return counts


def _custom_data(reader: Any, path: Path) -> dict[str, str]:
    """rosbag2 metadata custom_data (a bag directory; a bare .mcap has none, unless its
    directory holds the metadata.yaml)."""
    meta = getattr(getattr(reader, "storage", None), "metadata", None)
    custom = getattr(meta, "custom", None)
    if custom:
        return {str(k): str(v) for k, v in custom.items()}
    if path.is_file() and (path.parent / "metadata.yaml").is_file():
        from rosbags.rosbag2 import Reader  # noqa: PLC0415

        try:
            with Reader(path.parent) as parent:
                return _custom_data(parent, path.parent)
        except Exception:  # a stray metadata.yaml is not ours to judge
            return {}
    return {}


def read_bag(path: Path | str, *,
             progress: Callable[[int, int], None] | None = None) -> BagContents:
    """Every message of the bag in receive-time order (stable for equal times)."""
    from rosbags.rosbag2 import Reader  # noqa: PLC0415

    path = Path(path)
    if not path.exists():
        raise BagError(f"no bag at {path}")
    messages: list[BagMessage] = []
    try:
        with Reader(path) as reader:
            types = {c.topic: c.msgtype for c in reader.connections}
            custom = _custom_data(reader, path)
            total = reader.message_count
            for i, (conn, t_ns, raw) in enumerate(reader.messages()):
                messages.append(BagMessage(conn.topic, conn.msgtype, int(t_ns), bytes(raw)))
                if progress is not None and i % 500 == 0:
                    progress(i, total)
    except Exception as exc:  # rosbags raises several unrelated types for a bad bag
        raise BagError(f"cannot read {path}: {exc}") from exc
    messages.sort(key=lambda m: m.t_ns)  # sorted() is stable: recorded order kept
    return BagContents(path, messages, types, custom)


def _qos_entry(durable: bool) -> Any:
    """rosbag2 offered_qos_profiles entry: reliable, keep last; transient local for
    latched topics (so `ros2 bag play` republishes them the way they were offered)."""
    from rosbags.interfaces import (  # noqa: PLC0415
        Qos,
        QosDurability,
        QosHistory,
        QosLiveliness,
        QosReliability,
        QosTime,
    )

    zero = QosTime(0, 0)
    return Qos(QosHistory.KEEP_LAST, 1 if durable else 50, QosReliability.RELIABLE,
               QosDurability.TRANSIENT_LOCAL if durable else QosDurability.VOLATILE,
               zero, zero, QosLiveliness.AUTOMATIC, zero, False)


def write_bag(path: Path | str, messages: Iterable[BagMessage], *,
              latched: Iterable[str] = (), custom_data: Mapping[str, str] | None = None,
              compress: bool = False) -> Path:
    """Write `messages` (in the given order) to a new MCAP bag directory at `path`.

    `latched` names the topics offered transient-local. `compress` zstd-compresses the
    whole file (rosbag2 file compression; rosbags and `ros2 bag` read it transparently).
    """
    from rosbags.rosbag2 import (  # noqa: PLC0415
        CompressionFormat,
        CompressionMode,
        StoragePlugin,
        Writer,
    )

    path = Path(path)
    if path.exists():
        raise FileExistsError(f"{path} already exists")
    store = buddy_typestore()
    latched = frozenset(latched)
    writer = Writer(path, version=BAG_VERSION, storage_plugin=StoragePlugin.MCAP)
    if compress:
        writer.set_compression(CompressionMode.FILE, CompressionFormat.ZSTD)
    for key, value in (custom_data or {}).items():
        writer.set_custom_data(key, value)
    connections: dict[str, Any] = {}
    with writer:
        for m in messages:
            conn = connections.get(m.topic)
            if conn is None:
                if m.type_name not in store.fielddefs:
                    from buddy_personality.tools.bags.record import ensure_type  # noqa: PLC0415

                    ensure_type(store, m.type_name)
                conn = writer.add_connection(
                    m.topic, m.type_name, typestore=store,
                    offered_qos_profiles=[_qos_entry(m.topic in latched)])
                connections[m.topic] = conn
            writer.write(conn, m.t_ns, m.data)
    return path


def deserialize(type_name: str, data: bytes) -> Any:
    """CDR -> a rosbags message object (raises BagError for an unknown type)."""
    store = buddy_typestore()
    if type_name not in store.fielddefs:
        from buddy_personality.tools.bags.record import ensure_type  # noqa: PLC0415

        try:
            ensure_type(store, type_name)
        except LookupError as exc:
            raise BagError(str(exc)) from exc
    return store.deserialize_cdr(data, type_name)


_PLAIN = (str, int, float, bool, bytes, type(None))


def plain(value: Any) -> Any:
    """A rosbags message (or a part of one) as dicts, lists and plain values."""
    if isinstance(value, _PLAIN):
        return value
    names = _field_names(type(value))
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    tolist = getattr(value, "tolist", None)  # numpy arrays and scalars
    if callable(tolist):
        return tolist()
    return value


_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    """The message fields of a rosbags message class (cached), None for other types."""
    try:
        return _FIELDS[cls]
    except KeyError:
        names = (tuple(f.name for f in dataclasses.fields(cls)
                       if not f.name.startswith("__"))
                 if dataclasses.is_dataclass(cls) else None)
        _FIELDS[cls] = names
        return names
