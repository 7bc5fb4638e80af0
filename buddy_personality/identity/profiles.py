"""Household profiles: one JSON file with a schema version, written atomically.

DESIGN §4.3: profiles (name, role parent/child, birthdate, addressing preference) change
only through the Pending Profile Update FSM. So this store offers reads, and one mutation,
`apply`, which the core calls only while that FSM is in APPROVED. A write either replaces
the whole file or leaves it untouched (temp file, fsync, rename), so a rejected, cancelled
or failed update never partially applies (spec 004, Pending Profile Update invariants).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from buddy_personality.state_files import MAX_STATE_FILE_BYTES, clean_stale_tmp

from .enums import ROLES
from .persistence import atomic_write_json, move_aside

SCHEMA_VERSION = 1
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

    @field_validator("schema_version")
    @classmethod
    def _known_version(cls, v: int) -> int:
        if v != SCHEMA_VERSION:
            raise ValueError(f"unsupported schema_version {v} (expected {SCHEMA_VERSION})")
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

    def __init__(self, path: Path | str | None, profiles: list[Profile] | None = None) -> None:
        """Open `path` (None keeps profiles in memory only, for tests and the simulator)."""
        self.path = Path(path) if path is not None else None
        self.warnings: list[str] = []
        self._profiles: dict[str, Profile] = {}
        if profiles is not None:
            self._profiles = {p.user_id: p for p in profiles}
        elif self.path is not None:
            self._load()

    # -- reading ------------------------------------------------------------------

    def _load(self) -> None:
        assert self.path is not None
        if not self.path.exists():
            self.warnings.append(f"no household file at {self.path}; starting empty")
            return
        for tmp in clean_stale_tmp(self.path):
            self.warnings.append(f"removed {tmp.name}, left by an interrupted write")
        try:
            if self.path.stat().st_size > MAX_STATE_FILE_BYTES:  # issue 19: size limit
                raise ValueError(f"over the {MAX_STATE_FILE_BYTES}-byte limit for a state file")
            model = _HouseholdModel.model_validate_json(self.path.read_bytes())
        except (ValidationError, ValueError, OSError) as exc:
            # DESIGN §5 Persistence: a corrupt file is moved aside, never lost.
            aside = move_aside(self.path)
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            self.warnings.append(f"corrupt household file moved to {aside}: {first}")
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
        if self.path is not None:
            write_household(self.path, list(profiles.values()))
        self._profiles = profiles


def _profile_json(p: Profile) -> dict[str, object]:
    return {
        "user_id": p.user_id,
        "name": p.name,
        "role": p.role,
        "birthdate": p.birthdate.isoformat() if p.birthdate else None,
        "addressing": p.addressing,
    }


def write_household(path: Path | str, profiles: list[Profile]) -> None:
    """Atomically write a household file (also used by setup tooling to create one)."""
    data = {
        "schema_version": SCHEMA_VERSION,
        "profiles": [_profile_json(p) for p in sorted(profiles, key=lambda p: p.user_id)],
    }
    _HouseholdModel.model_validate(data)  # never write a file we could not read back
    atomic_write_json(path, data, indent=2)
