"""One typed JSON state file, used by every store that Buddy keeps between runs (issue 28
item 2, issue 31 item 4; DESIGN §5 Persistence: "JSON with a schema version, written to a
temp file, fsynced, renamed; a corrupt file is moved aside"; DESIGN §1.5 "nothing already
stored is lost"). ROS-free; reads no clock.

`StateFile(path, what, parse)` does, for every store alike:

- Size limit: a file over `max_bytes` (1 MiB unless the store says otherwise) is refused
  before it is read, like a corrupt one. The largest legitimate file, a full memory
  store (50 entries, spec 002 §8.4), is about 15 kB; a 100 MB file once took the
  process to 1.2 GB.
- Stale temp files: a write goes to `.<name>.<random>.tmp` next to the file and is
  renamed; a SIGKILL between the two leaves the temp behind. The owner removes them
  when it loads the file at start-up (only the owner writes, so none is in flight then).
- Schema: `parse` (a pydantic `model_validate`, or any callable raising ValueError,
  TypeError, KeyError or ValidationError) turns the JSON value into the store's record.
- Two generations: every save first keeps the file it replaces as `<name>.prev` (a hard
  link, so the current file exists at every instant), then renames the new one in. A
  current file that cannot be read is quarantined (`<name>.corrupt-<mtime>`, counted in
  `set_aside`, one log line) and the previous generation is used, and copied back as the
  current file so that other readers see it too.
- Neither generation readable: the store starts empty, or, with `keep_in_place` (the
  household file: a PIN must not silently vanish), the files stay where they are and
  every later `save` is refused, so nothing is written over them.
- Atomic write: temp file, fsync, rename, fsync of the folder; on any error the previous
  file is left untouched.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from pydantic import ValidationError

MAX_STATE_FILE_BYTES = 1 << 20  # 1 MiB; documented in README "State files"
PREVIOUS_SUFFIX = ".prev"

T = TypeVar("T")
Generation = Literal["current", "previous", "absent", "unreadable"]


class StateFileRefused(OSError):
    """A save refused because the file on disk could not be read (`keep_in_place`)."""


@dataclass(slots=True)
class Loaded(Generic[T]):
    """What `StateFile.load` found."""

    value: T | None
    generation: Generation  # which file `value` came from; "unreadable": a file, no value
    # wall-clock mtimes of the generations that could not be read (the RS-2 counter asks
    # whether an unreadable one could have been today's, spec 002 §9.3)
    unreadable_mtimes: list[float] = field(default_factory=list)


def read_state_json(path: Path, max_bytes: int = MAX_STATE_FILE_BYTES) -> Any | None:
    """The file's JSON value, None if absent. Raises ValueError if too large, unreadable
    or not JSON."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ValueError(f"unreadable: {exc}") from exc
    if size > max_bytes:
        raise ValueError(f"{size} bytes, over the {max_bytes}-byte limit for a state file")
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


def json_object(data: Any) -> dict[str, Any]:
    """A parse step: the top level must be a JSON object."""
    if not isinstance(data, dict):
        raise ValueError("top level is not an object")
    return data


def quarantine(path: Path) -> Path:
    """Move a bad file aside as `<name>.corrupt-<its mtime>[-n]` (never deleted: nothing
    stored is lost). Raises OSError when it cannot be moved."""
    stamp = int(path.stat().st_mtime)
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 0
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    os.replace(path, target)
    return target


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_tmp(target: Path, write: Callable[[Any], None], binary: bool = False) -> Path:
    """A fsynced temp file beside `target` holding what `write(file)` wrote."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")) as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(tmp)


def atomic_write_json(path: Path | str, data: object, indent: int = 1) -> None:
    """Replace `path` with `data` as JSON (NaN and infinities refused: not JSON), one
    generation only (side files, the acks of the parent page)."""
    _commit(Path(path), lambda f: _dump(data, f, indent))


def atomic_write_bytes(path: Path | str, data: bytes) -> None:
    """Replace `path` with `data` by the same atomic write (a cache file)."""
    _commit(Path(path), lambda f: f.write(data), binary=True)


def _commit(target: Path, write: Callable[[Any], None],
            before: Callable[[], None] | None = None, binary: bool = False) -> None:
    """The atomic write: a fsynced temp file beside `target`, then `before()` (a save's
    rotation), the rename, the folder's fsync. On any error the temp file is removed and
    `target` is as it was."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _write_tmp(target, write, binary)
    try:
        if before is not None:
            before()
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(target.parent)


def _dump(data: object, f: Any, indent: int) -> None:
    json.dump(data, f, indent=indent, sort_keys=True, allow_nan=False)
    f.write("\n")


def _stat_key(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


class StateFile(Generic[T]):
    """One JSON state file and its previous generation (see the module docstring)."""

    def __init__(self, path: Path | str, what: str, parse: Callable[[Any], T], *,
                 max_bytes: int = MAX_STATE_FILE_BYTES, keep_in_place: bool = False,
                 indent: int = 1) -> None:
        self.path = Path(path)
        self.what = what                  # "usage file": the log lines name the store
        self.parse = parse
        self.max_bytes = max_bytes
        self.keep_in_place = keep_in_place
        self.indent = indent
        self.warnings: list[str] = []     # the owner logs them (one line each)
        self.set_aside = 0                # bad files quarantined or left in place
        self.fell_back = 0                # loads served by the previous generation
        self.unreadable = False           # keep_in_place and nothing readable: no saves
        self._good: tuple[int, int, int] | None = None  # stat of a current known good

    @property
    def previous_path(self) -> Path:
        return self.path.with_name(self.path.name + PREVIOUS_SUFFIX)

    # -- reading ---------------------------------------------------------------------
    def _parse_file(self, path: Path) -> T | None:
        """The parsed file, None if absent; raises ValueError with a one-line reason."""
        data = read_state_json(path, self.max_bytes)
        if data is None:
            return None
        try:
            return self.parse(data)
        except ValidationError as err:
            raise ValueError(validation_reason(err)) from None
        except (KeyError, TypeError) as exc:
            raise ValueError(f"wrong shape: {exc}") from None

    def read(self) -> T | None:
        """The current file, strictly: None if absent, ValueError if unreadable. No side
        effects (tools that must not write over what they cannot read)."""
        return self._parse_file(self.path)

    def load(self) -> Loaded[T]:
        """Start-up read by the file's owner: stale temps removed, the current file or
        else the previous generation, a bad file quarantined (see the module docstring)."""
        for tmp in [*clean_stale_tmp(self.path), *clean_stale_tmp(self.previous_path)]:
            self.warnings.append(f"removed {tmp.name}, left by an interrupted write")
        self.unreadable = False
        try:
            value = self._parse_file(self.path)
        except ValueError as exc:
            return self._current_bad(str(exc).splitlines()[0])
        if value is None:
            return Loaded(None, "absent")
        self._good = _stat_key(self.path)
        return Loaded(value, "current")

    def _current_bad(self, reason: str) -> Loaded[T]:
        mtimes = [_mtime(self.path)]
        prev_reason = ""
        try:
            previous = self._parse_file(self.previous_path)
        except ValueError as exc:
            previous, prev_reason = None, str(exc).splitlines()[0]
            mtimes.append(_mtime(self.previous_path))
        if previous is not None:
            aside = self._set_aside(self.path)
            self.fell_back += 1
            # never copy over a bad file that could not be moved aside (nothing is lost)
            restored = "" if aside.startswith("could not") else self._restore_previous()
            self.warnings.append(
                f"{self.what} {self.path} is corrupt ({reason}); {aside}; using the previous "
                f"generation {self.previous_path.name}{restored}")
            return Loaded(previous, "previous", mtimes)
        prev_said = (f"the previous generation is unreadable too ({prev_reason})"
                     if prev_reason else "no previous generation")
        if self.keep_in_place:
            self.unreadable = True
            self.set_aside += 1
            self.warnings.append(
                f"{self.what} {self.path} is corrupt ({reason}) and {prev_said}; left in "
                "place, and nothing is written over it until it is repaired or removed")
            return Loaded(None, "unreadable", mtimes)
        aside = self._set_aside(self.path)
        if prev_reason:
            aside += f"; previous generation {self._set_aside(self.previous_path)}"
        self.warnings.append(f"{self.what} {self.path} is corrupt ({reason}) and "
                             f"{prev_said}; {aside}; starting empty")
        return Loaded(None, "unreadable", mtimes)

    def _set_aside(self, path: Path) -> str:
        self.set_aside += 1
        try:
            return f"moved to {quarantine(path)}"
        except OSError as err:
            return f"could not move it aside: {err}"

    def _restore_previous(self) -> str:
        """Copy the previous generation back as the current file (atomic)."""
        try:
            text = self.previous_path.read_text(encoding="utf-8")
            _commit(self.path, lambda f: f.write(text))
        except OSError as err:
            return f" (could not restore it as {self.path.name}: {err})"
        self._good = _stat_key(self.path)
        return f", restored as {self.path.name}"

    # -- writing ---------------------------------------------------------------------
    def save(self, data: object) -> None:
        """Write `data` as the current file, keeping the file it replaces as the previous
        generation. Raises OSError (StateFileRefused after an unreadable keep_in_place
        load) or ValueError (data that is not JSON); on error nothing on disk changed."""
        if self.unreadable:
            raise StateFileRefused(f"{self.what} {self.path} could not be read at start-up; "
                                   "not writing over it")
        _commit(self.path, lambda f: _dump(data, f, self.indent), self._rotate)
        self._good = _stat_key(self.path)

    def drop_previous(self) -> None:
        """Remove the previous generation (after 'forget everything', spec 002 §8.5: what
        was forgotten must not stay behind in a backup)."""
        with contextlib.suppress(FileNotFoundError):
            self.previous_path.unlink()
        _fsync_dir(self.path.parent)

    def _rotate(self) -> None:
        """Make the current file the previous generation, if it is a good one."""
        current, previous = self.path, self.previous_path
        key = _stat_key(current)
        if key is None:   # a fresh start (or the file was removed on purpose): no old
            with contextlib.suppress(FileNotFoundError):  # generation to fall back to
                previous.unlink()
            return
        if key != self._good:   # changed behind our back: keep it only if it is good
            try:
                self._parse_file(current)
            except ValueError as exc:
                aside = self._set_aside(current)
                self.warnings.append(f"{self.what} {current} was changed into an unreadable "
                                     f"file ({str(exc).splitlines()[0]}); {aside}")
                return
        link = previous.with_name(f".{previous.name}.{os.getpid()}.tmp")
        with contextlib.suppress(FileNotFoundError):
            link.unlink()
        try:
            try:
                os.link(current, link)
            except OSError:   # a file system without hard links: a copy does as well
                shutil.copyfile(current, link)
            os.replace(link, previous)
        except BaseException:
            with contextlib.suppress(OSError):
                link.unlink()
            raise


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return math.nan
