"""A rosbags typestore that knows buddy_msgs (from its .msg files) on top of ROS 2 Jazzy's
standard types, so bags carry full message definitions that standard tools can read."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from rosbags.typesys import Stores, get_types_from_msg, get_typestore
from rosbags.typesys.store import Typestore

PACKAGE = "buddy_msgs"


def msg_dir() -> Path:
    """buddy_msgs/msg: the source tree beside this package, else the installed share."""
    source = Path(__file__).resolve().parents[3] / PACKAGE / "msg"
    if source.is_dir():
        return source
    from ament_index_python.packages import get_package_share_directory  # noqa: PLC0415

    return Path(get_package_share_directory(PACKAGE)) / "msg"


@cache
def buddy_typestore() -> Typestore:
    """Jazzy's types plus every buddy_msgs message (cached: parsing takes ~50 ms)."""
    store = get_typestore(Stores.ROS2_JAZZY)
    types: dict = {}
    for path in sorted(msg_dir().glob("*.msg")):
        types.update(get_types_from_msg(path.read_text(), f"{PACKAGE}/msg/{path.stem}"))
    store.register(types)
    return store
