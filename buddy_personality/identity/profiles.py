"""Household profiles: one JSON file with a schema version, written atomically.

DESIGN §4.3: profiles (name, role parent/child, birthdate, addressing preference) change
only through the Pending Profile Update FSM. So this store offers reads, and one mutation,
`apply`, which the core calls only while that FSM is in APPROVED. A write either replaces
the whole file or leaves it untouched (temp file, fsync, rename), so a rejected, cancelled
or failed update never partially applies (spec 004, Pending Profile Update invariants).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from buddy_personality.state_files import StateFile, StateFileRefused

from .enums import ROLES
from .parent_pin import PinHash

# 2 added `parent_pin` (erratum 18); version 1 files (no PIN) are read as they are.
SCHEMA_VERSION = 2
READABLE_VERSIONS = (1, 2)
MAX_FILE_BYTES = 1 << 20  # a household file is a few KB; a bigger one is not ours
MAX_TEXT = 64  # names and addressing forms are short spoken words
PROFILE_FIELDS = ("name", "role", "birthdate", "addressing")
AGE_FIELDS = frozenset({"birthdate"})  # spec 004 §1.2 Age Mutation Guards


class _ProfileModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user_id: str = Field(min_length=1, max_length=MAX_TEXT)
    name: str = Field(min_length=1, max_length=MAX_TEXT)
    role: Literal["parent", "child"]
    birthdate: dt.date | None = None
    addressing: str | None = Field(default=None, max_length=MAX_TEXT)


class _HouseholdModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int
    profiles: list[_ProfileModel]
    parent_pin: dict[str, Any] | None = None  # PinHash.to_json(): salted scrypt, never the PIN

    @field_validator("schema_version")
    @classmethod
    def _known_version(cls, v: int) -> int:
        if v not in READABLE_VERSIONS:
            raise ValueError(f"unsupported schema_version {v} (expected {READABLE_VERSIONS})")
        return v

    @field_validator("parent_pin")
    @classmethod
    def _plausible_pin(cls, v: dict[str, Any] | None) -> dict[str, Any] | None:
        if v is not None:
            PinHash.from_json(v)  # ValueError -> ValidationError
        return v


@dataclass(slots=True, frozen=True)
class Profile:
    """One household member."""

    user_id: str
    name: str
    role: str
    birthdate: dt.date | None = None
    addressing: str | None = None


def validate_field(field: str, value: str, today: dt.date | None) -> tuple[object, str]:
    """Parse a requested profile value; return (parsed, "") or (None, reason)."""
    text = value.strip()
    if field not in PROFILE_FIELDS:
        return None, f"unknown profile field {field!r}"
    if field in ("name", "addressing"):
        if not text or len(text) > MAX_TEXT:
            return None, f"{field} must be 1..{MAX_TEXT} characters"
        return text, ""
    if field == "role":
        if text not in ROLES:
            return None, f"role must be one of {sorted(ROLES)}"
        return text, ""
    try:
        born = dt.date.fromisoformat(text)
    except ValueError:
        return None, "birthdate must be YYYY-MM-DD"
    if born.year < 1900 or (today is not None and born > today):
        return None, "birthdate is not plausible"
    return born, ""


class ProfileStore:
    """The household profile file. Reads are free; `apply` is the only write."""

    def __init__(self, path: Path | str | None, profiles: list[Profile] | None = None,
                 parent_pin: PinHash | None = None) -> None:
        """Open `path` (None keeps profiles in memory only, for tests and the simulator)."""
        self.path = Path(path) if path is not None else None
        self.warnings: list[str] = []
        self.set_aside = 0    # corrupt files moved aside (diagnostics, issue 14)
        # issue 31 item 4: no readable generation at start-up; the file is left in place
        # and never written over (the PIN must not silently vanish)
        self.unreadable = False
        self.absent = False  # no household file yet (a first run)
        self._profiles: dict[str, Profile] = {}
        self._pin = parent_pin  # in-memory stores only; a file store reads it fresh
        if profiles is not None:
            self._profiles = {p.user_id: p for p in profiles}
        elif self.path is not None:
            self._load()

    # -- reading ------------------------------------------------------------------

    def _load(self) -> None:
        assert self.path is not None
        state_file = household_file(self.path)
        loaded = state_file.load()
        self.warnings.extend(state_file.warnings)
        self.set_aside = state_file.set_aside
        self.unreadable = state_file.unreadable
        model = loaded.value
        if loaded.generation == "absent":
            # issue 30: a first run has no household yet; that is a hint for the parent
            # (how to add a child), not a warning for the whole session
            self.absent = True
        if model is None:
            return
        ids = [p.user_id for p in model.profiles]
        if len(ids) != len(set(ids)):
            self.warnings.append("duplicate user_id in household file; later entries win")
        for p in model.profiles:
            self._profiles[p.user_id] = Profile(
                p.user_id, p.name, p.role, p.birthdate, p.addressing
            )

    def get(self, user_id: str) -> Profile | None:
        return self._profiles.get(user_id)

    def parent_pin(self) -> PinHash | None:
        """The stored PIN hash, read fresh from the file (so `buddy parent set-pin` works
        while the node runs). Raises ValueError/OSError when the file cannot be read."""
        if self.path is None:
            return self._pin
        return read_parent_pin(self.path)

    def __contains__(self, user_id: object) -> bool:
        return user_id in self._profiles

    def user_ids(self) -> list[str]:
        return sorted(self._profiles)

    def find_by_name(self, name: str) -> Profile | None:
        """The profile whose name or addressing form matches `name` (case-insensitive)."""
        wanted = name.strip().casefold()
        if not wanted:
            return None
        matches = [
            p
            for p in self._profiles.values()
            if wanted in (p.name.casefold(), (p.addressing or "").casefold(), p.user_id.casefold())
        ]
        # An ambiguous name resolves to nobody (spec 004 Summary: ambiguity -> safety).
        return matches[0] if len(matches) == 1 else None

    # -- writing (Pending Profile Update FSM, APPROVED only) -------------------------

    def apply(self, user_id: str, field: str, value: object) -> None:
        """Write one approved change; on any error nothing changes (memory or disk)."""
        current = self._profiles[user_id]
        updated = replace(current, **{field: value})
        profiles = dict(self._profiles)
        profiles[user_id] = updated
        self._write_all(profiles)

    def put(self, profile: Profile) -> None:
        """Add or replace one member (issue 30: a parent's household form; the core calls
        it only while the Pending Profile Update FSM is in APPROVED). Atomic, like apply."""
        profiles = dict(self._profiles)
        profiles[profile.user_id] = profile
        self._write_all(profiles)

    def remove(self, user_id: str) -> None:
        """Remove one member (issue 30), atomically; on any error nothing changes."""
        profiles = dict(self._profiles)
        profiles.pop(user_id, None)
        self._write_all(profiles)

    def _write_all(self, profiles: dict[str, Profile]) -> None:
        if self.path is not None:
            if self.unreadable:
                raise StateFileRefused(f"household file {self.path} could not be read at "
                                       "start-up; not writing over it")
            with household_lock(self.path):
                # Keep the PIN as it is on disk now, not as it was when the node started;
                # a file that became unreadable is not written over (OSError: refused).
                write_household(self.path, list(profiles.values()), _pin_on_disk(self.path))
        self._profiles = profiles

    def profiles(self) -> list[Profile]:
        return [self._profiles[k] for k in sorted(self._profiles)]


def _profile_json(p: Profile) -> dict[str, object]:
    return {
        "user_id": p.user_id,
        "name": p.name,
        "role": p.role,
        "birthdate": p.birthdate.isoformat() if p.birthdate else None,
        "addressing": p.addressing,
    }


def household_file(path: Path | str) -> StateFile[_HouseholdModel]:
    """The household file as a state file (buddy_personality.state_files): size limit,
    schema, a previous generation; with nothing readable it stays in place (`keep_in_place`)
    so a lost PIN is an error a parent sees, never a household without a PIN."""
    return StateFile(path, "household file", _HouseholdModel.model_validate,
                     max_bytes=MAX_FILE_BYTES, keep_in_place=True, indent=2)


def _read_model(path: Path) -> _HouseholdModel:
    """The current file, strictly (raises ValueError when unreadable)."""
    model = household_file(path).read()
    if model is None:
        raise FileNotFoundError(f"no household file at {path}")
    return model


def read_parent_pin(path: Path | str) -> PinHash | None:
    """The PIN hash in a household file; None when there is no file or no PIN."""
    target = Path(path)
    if not target.exists():
        return None
    model = _read_model(target)
    return PinHash.from_json(model.parent_pin) if model.parent_pin else None


def _pin_on_disk(path: Path) -> PinHash | None:
    try:
        return read_parent_pin(path)
    except (ValidationError, ValueError) as exc:
        raise StateFileRefused(f"household file {path} is unreadable ({exc}); "
                               "not writing over it") from exc


def read_household(path: Path | str) -> tuple[list[Profile], PinHash | None]:
    """Profiles and PIN of a household file (raises on a corrupt one: tools must not
    overwrite what they cannot read)."""
    target = Path(path)
    if not target.exists():
        return [], None
    model = _read_model(target)
    profiles = [Profile(p.user_id, p.name, p.role, p.birthdate, p.addressing)
                for p in model.profiles]
    pin = PinHash.from_json(model.parent_pin) if model.parent_pin else None
    return profiles, pin


@contextlib.contextmanager
def household_lock(path: Path | str) -> Iterator[None]:
    """An advisory lock beside the household file: the identity node and `buddy parent
    set-pin` never interleave a read-modify-write."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.with_name(f".{target.name}.lock"), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def write_household(path: Path | str, profiles: list[Profile],
                    parent_pin: PinHash | None = None) -> None:
    """Atomically write a household file (also used by setup tooling to create one)."""
    data: dict[str, object] = {
        "schema_version": SCHEMA_VERSION,
        "profiles": [_profile_json(p) for p in sorted(profiles, key=lambda p: p.user_id)],
    }
    if parent_pin is not None:
        data["parent_pin"] = parent_pin.to_json()
    _HouseholdModel.model_validate(json.loads(json.dumps(data)))  # never write what we
    household_file(path).save(data)                                # could not read back


def set_parent_pin(path: Path | str, pin_hash: PinHash) -> None:
    """Store a new PIN hash, keeping the profiles (atomic, under the household lock)."""
    with household_lock(path):
        profiles, _ = read_household(path)
        write_household(path, profiles, pin_hash)
