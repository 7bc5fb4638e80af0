"""Reading the state files a person may edit or a crash may leave (issue 19; DESIGN §5
Persistence): the memory store, the RS-2 usage counter, the household profiles and the
birthday greeting log.

- Size limit: a state file over `MAX_STATE_FILE_BYTES` (1 MiB) is refused before it is
  read, and moved aside like a corrupt one. The largest legitimate file, a full memory
  store (50 entries, spec 002 §8.4), is about 15 kB; a 100 MB file once took the
  process to 1.2 GB.
- Stale temp files: `atomic_write_json` writes `.<name>.<random>.tmp` next to the file
  and renames it; a SIGKILL between the two leaves the temp file behind. The owner of a
  file removes its stale temp files when it loads the file at start-up (only the owner
  writes it, so no write of its own can be in flight then).
"""

from __future__ import annotations

import contextlib
import json
import math
from pathlib import Path
from typing import Any

from pydantic import ValidationError

MAX_STATE_FILE_BYTES = 1 << 20  # 1 MiB; documented in README "State files"


def read_state_json(path: Path) -> Any | None:
    """The file's JSON value, None if absent. Raises ValueError if too large, unreadable
    or not JSON (the caller moves it aside)."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ValueError(f"unreadable: {exc}") from exc
    if size > MAX_STATE_FILE_BYTES:
        raise ValueError(f"{size} bytes, over the {MAX_STATE_FILE_BYTES}-byte limit for a "
                         "state file")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"unreadable: {exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc}") from exc
    except RecursionError as exc:  # "[[[[..." nested past Python's limit
        raise ValueError("not JSON: nested too deeply") from exc
    if data is None:  # None means "no file" to callers; a file of `null` is a bad file
        raise ValueError("the file holds null")
    return data


def clean_stale_tmp(path: Path) -> list[Path]:
    """Remove the temp files an interrupted atomic write of `path` left; returns them."""
    removed: list[Path] = []
    if not path.parent.is_dir():
        return removed
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(OSError):
            tmp.unlink()
            removed.append(tmp)
    return removed


def validation_reason(exc: ValidationError) -> str:
    """One short line for a log: where the first error is and what it is."""
    errors = exc.errors()
    if not errors:
        return "invalid"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "top level"
    more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first.get('msg', 'invalid')}{more}"


def finite(value: float) -> float:
    """A pydantic AfterValidator: NaN and infinities are not stored numbers."""
    if not math.isfinite(value):
        raise ValueError("not a finite number")
    return value
