"""The Today panel's limits come from the personality node's latched personality/usage (issue
16): the RS-1 / RS-2 limits in force, today's lowered ones included (DESIGN §4.6: the page
shows what the graph reports and decides nothing)."""

from __future__ import annotations

from buddy_personality.dashboard.graph_view import GraphView
from buddy_personality.dashboard.sessions import SessionLog


def view() -> GraphView:
    return GraphView(sessions=SessionLog(None, now=0.0, retention_days=14.0))


def test_limits_in_force_follow_the_reports_and_open_the_form() -> None:
    v = view()
    assert not v.usage_view.can_lower and not v.usage_view.known
    v.on_limits(900.0, 2700.0, can_lower=True)
    assert v.usage_view.known and v.usage_view.can_lower
    v.on_limits(600.0, 1800.0, can_lower=True)  # a parent lowered them
    assert (v.usage_view.session_limit_s, v.usage_view.daily_limit_s) == (600.0, 1800.0)


def test_an_unchanged_report_does_not_wake_the_open_pages() -> None:
    """Diagnostics arrive every second; the page is pushed only what changed."""
    v = view()
    v.on_limits(900.0, 2700.0, can_lower=True)
    version = v.feed.version
    for _ in range(5):
        v.on_limits(900.0, 2700.0, can_lower=True)
    assert v.feed.version == version
    v.on_limits(900.0, 1200.0, can_lower=True)
    assert v.feed.version == version + 1


def test_nonsense_is_ignored() -> None:
    v = view()
    v.on_limits(float("nan"), float("inf"))
    assert not v.usage_view.known
