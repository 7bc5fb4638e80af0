"""RS-2 (spec 002 §9.3: 45 minutes of conversation a day) in words for a person: whether
today's time is used up and when Buddy talks again (the next local midnight, when the
engine rolls the daily counter). Issue 15: the counter persists across runs, so a
developer who tested for 45 minutes found Buddy silent the next run with no word why.
"""

from __future__ import annotations

import time

from buddy_personality.personality.guardrails import SECONDS_PER_DAY, local_day


def lockout_lifts_at(now: float, utc_offset_s: float) -> float:
    """The next local midnight (s since the epoch), when the daily counter resets."""
    return (local_day(now, utc_offset_s) + 1) * SECONDS_PER_DAY - utc_offset_s


def daily_limit_line(daily_s: float, limit_s: float, now: float,
                     utc_offset_s: float) -> str | None:
    """One line when today's conversation time is used up, else None."""
    if limit_s <= 0 or daily_s < limit_s:
        return None
    lifts = lockout_lifts_at(now, utc_offset_s)
    clock = time.strftime("%H:%M", time.gmtime(lifts + utc_offset_s))
    left_min = max(0, round((lifts - now) / 60.0))
    return (f"RS-2 daily limit: Buddy talks again at {clock} local time (in "
            f"{left_min // 60} h {left_min % 60:02d} min); {daily_s / 60.0:.0f} of "
            f"{limit_s / 60.0:.0f} min used today (`buddy run --state-dir DIR` gives a "
            "development run a fresh counter)")
