"""Guardrails (spec 002 §9): config toggles, duration and intensity caps, time limits."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from buddy_personality.state_files import Loaded, StateFile, finite


@dataclass(slots=True)
class GuardrailConfig:
    """spec 002 §9.5. All on by default; toggles are for development only.

    HC-1..HC-10 are not toggleable and have no field here.
    """

    negative_duration_caps: bool = True
    negative_intensity_caps: bool = True
    context_gate: bool = True
    session_time_limit_s: float = 900.0  # RS-1
    daily_time_limit_s: float = 2700.0  # RS-2
    memory_consent_required: bool = True  # RS-5

    def set_value(self, key: str, value: str) -> None:
        """Set one field from text (the set_guardrail service). Raises ValueError."""
        names = {f.name: f for f in fields(self)}
        if key not in names:
            raise ValueError(f"unknown guardrail key {key!r}; known: {sorted(names)}")
        text = value.strip().lower()
        if key.endswith("_s"):
            try:
                seconds = float(text)
            except ValueError as exc:
                raise ValueError(f"{key} needs a number of seconds, got {value!r}") from exc
            if not math.isfinite(seconds) or seconds <= 0.0:
                raise ValueError(f"{key} must be a positive finite number, got {value!r}")
            setattr(self, key, seconds)
            return
        if text in ("true", "1", "yes", "on"):
            setattr(self, key, True)
        elif text in ("false", "0", "no", "off"):
            setattr(self, key, False)
        else:
            raise ValueError(f"{key} needs true or false, got {value!r}")


@dataclass(slots=True, frozen=True)
class MoodCap:
    """spec 002 §9.1 row: continuous duration cap, intensity cap, recovery λ."""

    rule_id: str
    max_duration_s: float
    max_intensity: float
    recovery_lambda: float


# spec 002 §9.1; SURPRISED: 3.0 s, 0.8 startle rule. Its recovery λ is not given; we use
# SAD's 0.50 (the gentlest of the table), since SURPRISED is not a negative mood.
MOOD_CAPS: dict[str, MoodCap] = {
    "sad": MoodCap("CAP-SAD", 4.0, 0.70, 0.50),
    "scared": MoodCap("CAP-SCARED", 2.0, 0.60, 0.70),
    "angry": MoodCap("CAP-ANGRY", 2.0, 0.50, 0.70),
    "surprised": MoodCap("CAP-SURPRISED", 3.0, 0.80, 0.50),
}

USAGE_SCHEMA_VERSION = 1


class UsageFile(BaseModel):
    """The RS-2 usage file's schema: a wrong shape is moved aside, never trusted."""

    model_config = ConfigDict(strict=True, extra="ignore")
    version: Literal[1]
    local_day: int
    daily_conversation_s: Annotated[float, Field(ge=0.0), AfterValidator(finite)]
    last_boot_local_day: int | None = None
    # issue 16: today's limits as a parent lowered them (absent in older files: none)
    lowered_session_limit_s: Annotated[float, Field(gt=0.0), AfterValidator(finite)] | None = None
    lowered_daily_limit_s: Annotated[float, Field(gt=0.0), AfterValidator(finite)] | None = None
    # The engine time the counter covers up to (absent in older files). A restart that
    # resumes a session counts the downtime from here, not from the personality state
    # file's time: the two files are written one after the other, and a SIGKILL between
    # the writes counted up to 5 s twice (issue 14/19 fault tests).
    counted_until: Annotated[float, AfterValidator(finite)] | None = None


@dataclass(slots=True, frozen=True)
class LimitsOutcome:
    """What a parent's request to lower today's limits did (issue 16)."""

    success: bool
    message: str
    session_limit_s: float  # RS-1 limit in force afterwards
    daily_limit_s: float  # RS-2 limit in force afterwards


def _minutes(seconds: float) -> str:
    return f"{seconds / 60.0:g} min"


def lower_limits_check(session_now: float, daily_now: float, session_s: float | None,
                       daily_s: float | None) -> str | None:
    """Why a request to lower today's limits is refused, or None (spec 002 §9.3 RS-1 /
    RS-2: the limits are upper bounds; a parent may lower them for today, never raise
    them, not even back up to the configured value once lowered today)."""
    if session_s is None and daily_s is None:
        return "no limit given"
    for name, value, in_force in (("session", session_s, session_now),
                                  ("daily", daily_s, daily_now)):
        if value is None:
            continue
        if not math.isfinite(value) or value <= 0.0:
            return f"the {name} limit must be a positive number of seconds"
        if value > in_force:
            return (f"limits can only be lowered: today's {name} limit is "
                    f"{_minutes(in_force)}, so {_minutes(value)} would raise it "
                    "(it goes back to the usual limit at midnight)")
    return None
SECONDS_PER_DAY = 86400.0
# spec 002 §9.3 RS-2 fail-safe: a day whose counter was lost counts as this much talk,
# at least any daily limit (a limit is a number of seconds of one day).
USED_UP_S = SECONDS_PER_DAY


def local_day(now: float, utc_offset_s: float) -> int:
    """Days since the epoch in local time: changes at local midnight."""
    return math.floor((now + utc_offset_s) / SECONDS_PER_DAY)


def local_hour(now: float, utc_offset_s: float) -> float:
    return ((now + utc_offset_s) % SECONDS_PER_DAY) / 3600.0


class UsageCounter:
    """RS-1 session time and RS-2 daily conversation time (spec 002 §9.3, DESIGN §4.1).

    The daily counter is persisted (atomic JSON) and resets at local midnight; the
    caller supplies wall-clock seconds and the local UTC offset, so no clock is read.
    """

    # RS-2 write-through: while talking the counter is written every few seconds, so a
    # SIGKILL (or a power cut) loses at most this much talk; session end and shutdown
    # write at once. An atomic write of ~100 bytes every 5 s is cheap even on an SD card.
    SAVE_EVERY_S = 5.0

    __slots__ = (
        "_dirty_s",
        "_file",
        "counted_until",
        "daily_s",
        "day",
        "last_boot_day",
        "lowered_daily_s",
        "lowered_session_s",
        "save_due",
        "session_s",
        "set_aside",
        "unreadable_today",
        "utc_offset_s",
        "warnings",
    )

    def __init__(self, path: Path | None, utc_offset_s: float, now: float) -> None:
        self._file = (StateFile(path, "usage file", UsageFile.model_validate)
                      if path is not None else None)
        self.utc_offset_s = utc_offset_s
        self.day = local_day(now, utc_offset_s)
        self.daily_s = 0.0
        self.session_s = 0.0
        self.last_boot_day: int | None = None
        # issue 16: a parent's lower limits for today (None: the configured limit holds)
        self.lowered_session_s: float | None = None
        self.lowered_daily_s: float | None = None
        self.counted_until: float | None = None   # of the counter on disk (today's)
        self._dirty_s = 0.0
        self.save_due = False
        self.warnings: list[str] = []
        self.set_aside = 0    # corrupt files moved aside (diagnostics, issue 14)
        self.unreadable_today = False  # RS-2 counted as used up: today's counter was lost
        self._load(now)

    def _load(self, now: float) -> None:
        if self._file is None:
            return
        loaded = self._file.load()
        self.warnings.extend(self._file.warnings)
        self.set_aside = self._file.set_aside
        parsed = loaded.value
        if parsed is not None:
            self.last_boot_day = parsed.last_boot_local_day
            if parsed.local_day == self.day:
                self.daily_s = parsed.daily_conversation_s
                self.counted_until = parsed.counted_until
                self.lowered_session_s = parsed.lowered_session_limit_s
                self.lowered_daily_s = parsed.lowered_daily_limit_s
        if self._today_unknown(loaded):
            # spec 002 §9.3 RS-2, issue 31 item 4: fail towards the child's limit. A counter
            # that may have been today's and cannot be read counts as used up; never as 0.
            self.daily_s = max(self.daily_s, USED_UP_S)
            self.unreadable_today = True
            self.warnings.append(
                "RS-2: today's conversation counter could not be read and no good "
                "generation of today's is left; today counts as used up (it resets at "
                "local midnight)")

    def _today_unknown(self, loaded: Loaded[UsageFile]) -> bool:
        """An unreadable generation could hold today's counter, and the value in hand is
        not today's: its day is unknown, so it may be today (a file written today, or
        with a future or unknown time)."""
        if loaded.value is not None and loaded.value.local_day == self.day:
            return False  # today's last good value is known: used up to it (the rule)
        return any(math.isnan(m) or local_day(m, self.utc_offset_s) >= self.day
                   for m in loaded.unreadable_mtimes)

    def save(self, counted_until: float | None = None) -> None:
        """Write the counter; `counted_until` is the engine time it covers up to."""
        self._dirty_s = 0.0
        self.save_due = False
        if self._file is None:
            return
        self._file.save({
            "counted_until": counted_until,
            "version": USAGE_SCHEMA_VERSION,
            "local_day": self.day,
            "daily_conversation_s": self.daily_s,
            "last_boot_local_day": self.last_boot_day,
            "lowered_session_limit_s": self.lowered_session_s,
            "lowered_daily_limit_s": self.lowered_daily_s,
        })
        self.set_aside = self._file.set_aside

    def roll_day(self, now: float) -> bool:
        """Reset the daily counter at local midnight. True when the day changed."""
        day = local_day(now, self.utc_offset_s)
        if day == self.day:
            return False
        self.day = day
        self.daily_s = 0.0
        self.unreadable_today = False
        # issue 16: a parent lowers the limits for today; the RS-2 daily reset ends that
        self.lowered_session_s = None
        self.lowered_daily_s = None
        return True

    def add_conversation_time(self, dt: float) -> None:
        self.session_s += dt
        self.daily_s += dt
        self._dirty_s += dt
        if self._dirty_s >= self.SAVE_EVERY_S:
            self._dirty_s = 0.0
            self.save_due = True  # the engine writes it (now, or after publishing)
