"""Corrupt-file handling for the identity stores; atomic writes come from
buddy_personality.atomic_json (DESIGN §5 Persistence), shared with the personality core."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from buddy_personality.atomic_json import atomic_write_json

__all__ = ["atomic_write_json", "move_aside"]


def move_aside(path: Path) -> Path:
    """Move a corrupt file out of the way (never delete what was stored)."""
    aside = path.with_name(f"{path.name}.corrupt-{os.getpid()}")
    with contextlib.suppress(OSError):
        os.replace(path, aside)
    return aside
