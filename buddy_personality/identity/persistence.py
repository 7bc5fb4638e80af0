"""Atomic JSON files (DESIGN §5 Persistence): temp file, fsync, rename, fsync the folder."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path


def atomic_write_json(path: Path | str, data: object) -> None:
    """Replace `path` with `data` as JSON; on any error the old file is left untouched."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2, sort_keys=True)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def move_aside(path: Path) -> Path:
    """Move a corrupt file out of the way (never delete what was stored)."""
    aside = path.with_name(f"{path.name}.corrupt-{os.getpid()}")
    with contextlib.suppress(OSError):
        os.replace(path, aside)
    return aside
