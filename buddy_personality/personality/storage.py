"""Reading stored JSON and corrupt-file recovery (DESIGN §5 Persistence); writing is
buddy_personality.atomic_json, shared with the identity core."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from buddy_personality.atomic_json import atomic_write_json
from buddy_personality.state_files import clean_stale_tmp, read_state_json

__all__ = ["atomic_write_json", "clean_stale_tmp", "move_aside", "read_json_object"]


def move_aside(path: Path, stamp: float) -> Path:
    """Keep a corrupt file for inspection instead of deleting it (nothing stored is lost)."""
    target = path.with_name(f"{path.name}.corrupt-{int(stamp)}")
    n = 0
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{int(stamp)}-{n}")
    os.replace(path, target)
    return target


def read_json_object(path: Path) -> dict[str, Any] | None:
    """The file's JSON object, None if absent. Raises ValueError if unreadable, over the
    state-file size limit, or not an object."""
    data = read_state_json(path)
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError("top level is not an object")
    return data
