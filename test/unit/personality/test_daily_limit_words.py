"""RS-2 in words (issue 15): a used-up day says when Buddy talks again."""

from __future__ import annotations

from buddy_personality.personality.daily_limit_words import daily_limit_line, lockout_lifts_at

NOON_UTC = 1_700_000_000 - (1_700_000_000 % 86400) + 12 * 3600  # 12:00 UTC some day


def test_nothing_to_say_under_the_limit() -> None:
    assert daily_limit_line(2699.0, 2700.0, NOON_UTC, 0.0) is None
    assert daily_limit_line(9999.0, 0.0, NOON_UTC, 0.0) is None  # no limit configured


def test_the_lockout_lifts_at_the_next_local_midnight() -> None:
    assert lockout_lifts_at(NOON_UTC, 0.0) == NOON_UTC + 12 * 3600
    # UTC+2: local 14:00, so local midnight is 10 h away
    assert lockout_lifts_at(NOON_UTC, 7200.0) == NOON_UTC + 10 * 3600


def test_the_line_names_the_time_and_how_long_until_then() -> None:
    line = daily_limit_line(2712.0, 2700.0, NOON_UTC + 30 * 60, 3600.0)
    assert line is not None and line.startswith("RS-2 daily limit")
    assert "00:00 local time" in line and "(in 10 h 30 min)" in line
    assert "45 of 45 min" in line and "--state-dir" in line
