"""Persistent semantic memory (spec 002 §8; DESIGN §6.1 wall-clock timestamps, RS-5)."""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from buddy_personality.state_files import (
    StateFile,
    atomic_write_json,
    finite,
    validation_reason,
)

SCHEMA_VERSION = 1
MAX_ENTRIES = 50  # spec 002 §8.4
DAY_S = 86400.0
BIAS_LIMIT = 0.10  # spec 002 §8.1: biases in [-0.10, +0.10]
# HC-3: only short semantic labels, never transcripts (MemoryTag.msg: snake_case, 2-48 chars)
TAG_PATTERN = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
TAG_MIN_LEN = 2
TAG_MAX_LEN = 48
SOURCES = frozenset({"llm_extract", "rule_infer"})
# issue 16: which household users an entry came from (user ids are at most 64 characters,
# identity node's MAX_TEXT); a household is small, so a few ids per entry are plenty.
USER_ID_MAX_LEN = 64
MAX_USERS_PER_ENTRY = 16


@dataclass(slots=True, frozen=True)
class Tier:
    """spec 002 §8.2 row."""

    tier_id: str
    half_life_s: float  # math.inf: never decays
    max_entries: int
    floor: float

    @property
    def decay_lambda(self) -> float:
        return 0.0 if math.isinf(self.half_life_s) else math.log(2.0) / self.half_life_s


# spec 002 §8.2
TIERS: dict[str, Tier] = {
    "name": Tier("T0", math.inf, 1, 1.0),
    "ritual": Tier("T1", 90 * DAY_S, 5, 0.10),
    "topic": Tier("T2", 21 * DAY_S, 20, 0.0),
    "tone": Tier("T3", 7 * DAY_S, 3, 0.0),
    "preference": Tier("T4", 4 * DAY_S, 10, 0.0),
}


@dataclass(slots=True)
class MemoryEntry:
    """spec 002 §8.1. Timestamps are wall-clock seconds (DESIGN §6.1)."""

    tag: str
    category: str
    valence_bias: float
    arousal_bias: float
    initial_strength: float
    created_ts: float
    last_reinforced_ts: float
    reinforcement_count: int
    decay_lambda: float
    source: str
    # issue 16: the household users this memory came from, oldest first. Empty: stored
    # before users were kept (shown under "Everyone", kept when one child is forgotten).
    users: list[str] = field(default_factory=list)

    def current_strength(self, now: float) -> float:
        """Exponential decay since the last reinforcement, never below the tier floor."""
        age_s = max(0.0, now - self.last_reinforced_ts)
        s = self.initial_strength * math.exp(-self.decay_lambda * age_s)
        return max(TIERS[self.category].floor, s)


_Finite = Annotated[float, AfterValidator(finite)]


class StoredEntry(BaseModel):
    """One stored memory as the file holds it (spec 002 §8.1). Strict: a number where a
    name belongs, a list where a number belongs, are refused, not coerced."""

    model_config = ConfigDict(strict=True, extra="ignore")
    tag: str
    category: Literal["name", "ritual", "topic", "tone", "preference"]
    valence_bias: Annotated[_Finite, Field(ge=-BIAS_LIMIT, le=BIAS_LIMIT)]
    arousal_bias: Annotated[_Finite, Field(ge=-BIAS_LIMIT, le=BIAS_LIMIT)]
    initial_strength: Annotated[_Finite, Field(ge=0.0, le=1.0)]
    created_ts: _Finite
    last_reinforced_ts: _Finite
    reinforcement_count: int = Field(ge=0)
    source: Literal["llm_extract", "rule_infer"]
    # issue 16: optional, so files written before it load unchanged (no users recorded)
    users: Annotated[list[Annotated[str, Field(min_length=1, max_length=USER_ID_MAX_LEN)]],
                     Field(max_length=MAX_USERS_PER_ENTRY)] = Field(default_factory=list)


class StoredMemory(BaseModel):
    """The memory file's envelope; its entries are checked one by one (StoredEntry), so
    one bad entry is quarantined and the good ones are kept."""

    model_config = ConfigDict(strict=True, extra="ignore")
    version: Literal[1]
    entries: list[Any]
    session_count: int = Field(default=0, ge=0)
    total_conversation_s: Annotated[_Finite, Field(ge=0.0)] = 0.0
    created_ts: _Finite | None = None


def _json_safe(item: Any) -> Any:
    """The entry as stored, or its text when it holds what JSON cannot (NaN)."""
    try:
        json.dumps(item, allow_nan=False)
    except (TypeError, ValueError):
        return repr(item)
    return item


def validate_tag(tag: str) -> str | None:
    """The reason a tag is refused, or None if it is a short snake_case label."""
    if not isinstance(tag, str):
        return "not a string"
    if not TAG_MIN_LEN <= len(tag) <= TAG_MAX_LEN:
        return f"length {len(tag)} outside [{TAG_MIN_LEN}, {TAG_MAX_LEN}]"
    if not TAG_PATTERN.match(tag):
        return "not a snake_case label"
    return None


def _check_bias(name: str, value: float) -> float:
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} is not finite")
    if abs(value) > BIAS_LIMIT + 1e-12:
        raise ValueError(f"{name} {value} outside [-{BIAS_LIMIT}, {BIAS_LIMIT}]")
    return value


@dataclass(slots=True, frozen=True)
class StoreResult:
    """Outcome of one `remember` call."""

    stored: bool
    reinforced: bool
    evicted: str | None
    reason: str | None  # why it was refused


@dataclass(slots=True, frozen=True)
class ForgetUserResult:
    """What forgetting one household user did (issue 16)."""

    removed: tuple[str, ...]  # tags deleted: that user was their only source
    kept_shared: tuple[str, ...]  # tags kept: another user shares them


class MemoryStore:
    """At most 50 entries, per-tier caps, lowest-strength eviction, atomic JSON file."""

    def __init__(self, path: Path | None, now: float) -> None:
        self._path = path
        self._file = (StateFile(path, "memory file", StoredMemory.model_validate)
                      if path is not None else None)
        self._entries: dict[str, MemoryEntry] = {}
        self.session_count = 0
        self.total_conversation_s = 0.0
        self.created_ts = now
        self.version = 0  # bumped on every change, for the engine's bias cache
        self.warnings: list[str] = []
        self.quarantined = 0  # bad entries set aside at the last load (issue 19)
        self.set_aside = 0    # corrupt files moved aside (diagnostics, issue 14)
        self._load(now)

    # -- queries -----------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._entries)

    def get(self, tag: str) -> MemoryEntry | None:
        return self._entries.get(tag)

    def entries(self) -> list[MemoryEntry]:
        return list(self._entries.values())

    def strongest(self, now: float, limit: int | None = None) -> list[tuple[MemoryEntry, float]]:
        """(entry, strength), strongest first; ties by tag for determinism."""
        ranked = sorted(
            ((e, e.current_strength(now)) for e in self._entries.values()),
            key=lambda es: (-es[1], es[0].tag),
        )
        return ranked if limit is None else ranked[:limit]

    def bias(self, now: float) -> tuple[float, float]:
        """Σ bias × strength over entries above the §8.3 threshold (before MEMORY_WEIGHT)."""
        bv = 0.0
        ba = 0.0
        for e in self._entries.values():
            s = e.current_strength(now)
            if s > 0.05:
                bv += e.valence_bias * s
                ba += e.arousal_bias * s
        return bv, ba

    # -- changes -----------------------------------------------------------------------
    def remember(self, tag: str, category: str, valence_bias: float, arousal_bias: float,
                 now: float, source: str = "llm_extract", user: str = "") -> StoreResult:
        """Add a tag, or reinforce it if known, noting the household `user` it came from.
        Refusals carry a reason; nothing raises."""
        reason = validate_tag(tag)
        user = user.strip() if isinstance(user, str) else ""
        if reason is None and len(user) > USER_ID_MAX_LEN:
            reason = f"user id longer than {USER_ID_MAX_LEN} characters"
        if reason is None and category not in TIERS:
            reason = f"unknown category {category!r}"
        if reason is None and source not in SOURCES:
            reason = f"unknown source {source!r}"
        if reason is None:
            try:
                valence_bias = _check_bias("valence_bias", valence_bias)
                arousal_bias = _check_bias("arousal_bias", arousal_bias)
            except (TypeError, ValueError) as exc:
                reason = str(exc)
        if reason is not None:
            return StoreResult(False, False, None, reason)
        tier = TIERS[category]
        existing = self._entries.get(tag)
        if existing is not None:
            # spec 002 §8.1: reinforcement restores full strength and restarts decay.
            existing.category = category
            existing.decay_lambda = tier.decay_lambda
            existing.valence_bias = valence_bias
            existing.arousal_bias = arousal_bias
            existing.initial_strength = 1.0
            existing.last_reinforced_ts = now
            existing.reinforcement_count += 1
            # An entry from before users were kept stays unattributed: its first sources
            # are unknown, so forgetting one child must not delete it (issue 16).
            if user and existing.users and user not in existing.users:
                existing.users.append(user)
                del existing.users[:-MAX_USERS_PER_ENTRY]
            self.version += 1
            return StoreResult(True, True, None, None)
        evicted = None
        same_tier = [e for e in self._entries.values() if e.category == category]
        if len(same_tier) >= tier.max_entries:
            evicted = self._evict(same_tier, now)
        elif len(self._entries) >= MAX_ENTRIES:
            evicted = self._evict(list(self._entries.values()), now)
        self._entries[tag] = MemoryEntry(
            tag=tag, category=category, valence_bias=valence_bias, arousal_bias=arousal_bias,
            initial_strength=1.0, created_ts=now, last_reinforced_ts=now,
            reinforcement_count=0, decay_lambda=tier.decay_lambda, source=source,
            users=[user] if user else [],
        )
        self.version += 1
        return StoreResult(True, False, evicted, None)

    def _evict(self, candidates: list[MemoryEntry], now: float) -> str:
        """spec 002 §8.4: the lowest current strength goes (oldest reinforcement on ties)."""
        victim = min(candidates,
                     key=lambda e: (e.current_strength(now), e.last_reinforced_ts, e.tag))
        del self._entries[victim.tag]
        return victim.tag

    def reset(self) -> None:
        """'Forget everything' (spec 002 §8.5): wipe entries and counters, then save."""
        self._entries.clear()
        self.session_count = 0
        self.total_conversation_s = 0.0
        self.version += 1
        self.save(forgetting=True)

    def forget_user(self, user: str) -> ForgetUserResult:
        """Forget one household user (issue 16, parent command forget_child): remove the
        user from every entry; delete an entry left with no user. Entries that record no
        user are kept. Saved at once, like 'forget everything'."""
        removed: list[str] = []
        kept: list[str] = []
        for tag, entry in list(self._entries.items()):
            if user not in entry.users:
                continue
            entry.users.remove(user)
            if entry.users:
                kept.append(tag)
            else:
                del self._entries[tag]
                removed.append(tag)
        if removed or kept:
            self.version += 1
        self.save(forgetting=True)
        return ForgetUserResult(tuple(removed), tuple(kept))

    # -- persistence -------------------------------------------------------------------
    def save(self, forgetting: bool = False) -> None:
        """Write the store (keeping the file it replaces as the previous generation);
        `forgetting`: a forget (spec 002 §8.5), so no copy of the old store stays."""
        if self._file is None:
            return
        self._file.save({
            "version": SCHEMA_VERSION,
            "entries": [asdict(e) for e in self._entries.values()],
            "session_count": self.session_count,
            "total_conversation_s": self.total_conversation_s,
            "created_ts": self.created_ts,
        })
        if forgetting:
            self._file.drop_previous()

    def _load(self, now: float) -> None:
        if self._file is None:
            return
        stored = self._file.load().value
        self.warnings.extend(self._file.warnings)
        self.set_aside = self._file.set_aside
        if stored is None:
            return
        entries, bad = self._parse(stored.entries)
        self._entries = {e.tag: e for e in entries}
        self.session_count = stored.session_count
        self.total_conversation_s = stored.total_conversation_s
        self.created_ts = stored.created_ts if stored.created_ts is not None else now
        if bad:
            self._quarantine(bad, len(stored.entries), now)

    def _quarantine(self, bad: list[dict[str, Any]], total: int, now: float) -> None:
        """Keep the bad entries in a side file (nothing stored is lost), rewrite the store
        with the good ones, and say how many were dropped."""
        assert self._path is not None
        self.quarantined = len(bad)
        side = self._path.with_name(f"{self._path.name}.quarantine-{int(now)}")
        n = 0
        while side.exists():
            n += 1
            side = self._path.with_name(f"{self._path.name}.quarantine-{int(now)}-{n}")
        try:
            atomic_write_json(side, {"version": SCHEMA_VERSION, "quarantined": bad})
            self.save()
            where = f"kept in {side.name}"
        except (OSError, ValueError) as exc:
            where = f"could not be set aside ({exc}); the file is left as it was"
        self.warnings.append(
            f"memory file {self._path}: {len(bad)} of {total} entries dropped as invalid, "
            f"{len(self._entries)} kept; the dropped ones are {where} "
            f"(first: {bad[0]['reason']})")

    @staticmethod
    def _parse(raw: list[Any]) -> tuple[list[MemoryEntry], list[dict[str, Any]]]:
        """The good entries, and the bad ones with their reasons (issue 19)."""
        out: list[MemoryEntry] = []
        bad: list[dict[str, Any]] = []
        seen: set[str] = set()
        for index, item in enumerate(raw):
            try:
                e = StoredEntry.model_validate(item)
                reason = validate_tag(e.tag)
                if reason is None and e.tag in seen:
                    reason = "a second entry for this tag"
                if reason is None and len(out) >= MAX_ENTRIES:
                    reason = f"past the {MAX_ENTRIES}-entry limit (spec 002 §8.4)"
            except ValidationError as err:
                reason = validation_reason(err)
            if reason is not None:
                bad.append({"index": index, "reason": reason, "entry": _json_safe(item)})
                continue
            seen.add(e.tag)
            out.append(MemoryEntry(
                tag=e.tag, category=e.category, valence_bias=e.valence_bias,
                arousal_bias=e.arousal_bias, initial_strength=e.initial_strength,
                created_ts=e.created_ts, last_reinforced_ts=e.last_reinforced_ts,
                reinforcement_count=e.reinforcement_count,
                decay_lambda=TIERS[e.category].decay_lambda, source=e.source,
                users=list(dict.fromkeys(e.users)),
            ))
        return out, bad
