"""The parent page's read-only look at the household file (dashboard/household.py).
Issue 31 item 4: an unreadable household file is said as such, with what to do, instead
of "no PIN is set yet"."""

from __future__ import annotations

import json
from pathlib import Path

from buddy_personality.dashboard.household import HouseholdGlance


def test_an_unreadable_household_file_is_a_problem_the_page_names(tmp_path: Path) -> None:
    path = tmp_path / "household.json"
    path.write_text("{not json")
    glance = HouseholdGlance(path)
    assert not glance.pin_is_set()
    problem = glance.problem()
    assert "cannot be read" in problem and str(path) in problem and ".prev" in problem
    path.write_text(json.dumps({"schema_version": 2, "profiles": []}))   # repaired
    assert glance.problem() == ""


def test_no_household_file_is_not_a_problem(tmp_path: Path) -> None:
    assert HouseholdGlance(tmp_path / "household.json").problem() == ""
