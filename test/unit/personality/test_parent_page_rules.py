"""The engine's side of two parent actions (issue 16; DESIGN §4.6): lowering today's
RS-1 / RS-2 limits (spec 002 §9.3, §9.5: the configured limits are upper bounds a parent
may lower for today, never raise) and forgetting one child's memories (spec 002 §8.5
"Parent deletion", for one household user; §8.1 entries now note which users they came
from)."""

from __future__ import annotations

import json

import pytest

from buddy_personality.personality.engine import InputRejected
from buddy_personality.personality.memory import MemoryStore

from .conftest import T0, make_engine

DAY = 86400.0


def rs(out, rule: str) -> list[str]:
    return [e.action for e in out.guardrail_events if e.rule_id == rule]


# ---------------------------------------------------------------- lower today's limits
def test_lowering_holds_the_smaller_of_configured_and_lowered(tmp_path) -> None:
    engine = make_engine(usage_path=tmp_path / "usage.json")
    assert (engine.session_limit_s, engine.daily_limit_s) == (900.0, 2700.0)  # §9.3
    _, outcome = engine.lower_limits(T0, 600.0, None)
    assert outcome.success and "10 min a talk" in outcome.message
    assert (engine.session_limit_s, engine.daily_limit_s) == (600.0, 2700.0)
    assert (outcome.session_limit_s, outcome.daily_limit_s) == (600.0, 2700.0)
    _, outcome = engine.lower_limits(T0 + 1, None, 1200.0)
    assert outcome.success and (engine.session_limit_s, engine.daily_limit_s) == (600.0, 1200.0)
    assert engine.guardrails.session_time_limit_s == 900.0  # the configuration is untouched


@pytest.mark.parametrize(("session", "daily", "words"), [
    (901.0, None, "only be lowered"),       # above the spec's RS-1
    (None, 2701.0, "only be lowered"),      # above the spec's RS-2
    (600.0, 3600.0, "only be lowered"),     # one raise refuses the whole request
    (None, None, "no limit"),
    (0.0, None, "positive"),
    (float("nan"), None, "positive"),
    (None, float("inf"), "positive"),
])
def test_raising_or_nonsense_is_refused_and_changes_nothing(session, daily, words) -> None:
    engine = make_engine()
    _, outcome = engine.lower_limits(T0, session, daily)
    assert not outcome.success and words in outcome.message
    assert (engine.session_limit_s, engine.daily_limit_s) == (900.0, 2700.0)
    assert engine.stats.guardrail_triggers["limits_refused"] == 1


def test_once_lowered_today_a_limit_is_not_raised_back() -> None:
    """Never raised within the day, not even back toward the configured limit: the safe
    side (DESIGN §1.4); it returns to the usual limit at the RS-2 daily reset."""
    engine = make_engine()
    engine.lower_limits(T0, 300.0, None)
    _, outcome = engine.lower_limits(T0 + 1, 600.0, None)
    assert not outcome.success and "today's session limit is 5 min" in outcome.message
    assert engine.session_limit_s == 300.0
    _, same = engine.lower_limits(T0 + 2, 300.0, None)
    assert same.success  # asking for the limit in force is not a raise


def test_a_session_past_the_new_limit_ends_by_rs1() -> None:
    """A session already over the new limit ends by RS-1's normal path (spec 002 §9.3)."""
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    for s in range(1, 121):
        assert rs(engine.tick(T0 + s), "RS-1") == []
    out, outcome = engine.lower_limits(T0 + 120.5, 60.0, None)
    assert outcome.success and rs(out, "RS-1") == ["end_session"]
    assert rs(engine.tick(T0 + 122), "RS-1") == []  # once per session


def test_a_lowered_daily_limit_refuses_the_next_session() -> None:
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    for s in range(1, 301):
        engine.tick(T0 + s)
    engine.on_conversation_ended(T0 + 300, "s1")
    _, outcome = engine.lower_limits(T0 + 301, None, 240.0)
    assert outcome.success
    out = engine.on_conversation_started(T0 + 302, "s2")
    assert rs(out, "RS-2") == ["refuse_session"]


def test_lowered_limits_survive_a_restart_and_end_at_the_daily_reset(tmp_path) -> None:
    """Kept with the RS-2 usage file (DESIGN §4.1: survives restarts, resets at local
    midnight)."""
    usage = tmp_path / "usage.json"
    engine = make_engine(usage_path=usage)
    engine.lower_limits(T0, 600.0, 1800.0)
    saved = json.loads(usage.read_text())
    assert saved["lowered_session_limit_s"] == 600.0 and saved["version"] == 1
    again = make_engine(T0 + 60, usage_path=usage)
    assert (again.session_limit_s, again.daily_limit_s) == (600.0, 1800.0)
    tomorrow = make_engine(T0 + DAY, usage_path=usage)  # a restart on the next day
    assert (tomorrow.session_limit_s, tomorrow.daily_limit_s) == (900.0, 2700.0)
    again.tick(T0 + DAY)  # running across midnight
    assert (again.session_limit_s, again.daily_limit_s) == (900.0, 2700.0)


def test_a_usage_file_from_before_still_loads(tmp_path) -> None:
    usage = tmp_path / "usage.json"
    day = int((T0) // DAY)
    usage.write_text(json.dumps({"version": 1, "local_day": day, "daily_conversation_s": 90.0,
                                 "last_boot_local_day": day}))
    engine = make_engine(usage_path=usage)
    assert engine.usage.daily_s == 90.0 and engine.warnings == []
    assert engine.daily_limit_s == 2700.0


@pytest.mark.parametrize("bad", [-5.0, 0.0, "600", [600]])
def test_a_bad_lowered_limit_in_the_file_is_moved_aside(tmp_path, bad) -> None:
    """The usage file is schema-checked (DESIGN §5 Persistence): never trusted."""
    usage = tmp_path / "usage.json"
    usage.write_text(json.dumps({"version": 1, "local_day": int(T0 // DAY),
                                 "daily_conversation_s": 90.0, "lowered_daily_limit_s": bad}))
    engine = make_engine(usage_path=usage)
    assert any("corrupt" in w for w in engine.warnings)
    assert engine.daily_limit_s == 2700.0


# ---------------------------------------------------------------- forget one child
TAG = ("likes_dinosaurs", "topic", 0.05, 0.02)


def _household_engine(tmp_path):
    engine = make_engine(memory_path=tmp_path / "memory.json", memory_consent=True)
    engine.on_consent(T0, [("mia", "memory", 2), ("leo", "memory", 2)])
    return engine


def _say(engine, user: str, tags, now: float = T0) -> None:
    engine.on_identity(now, user)
    engine.on_memory_extract(now, tags)


def test_each_entry_records_who_it_came_from(tmp_path) -> None:
    engine = _household_engine(tmp_path)
    _say(engine, "mia", [TAG, ("favourite_colour_blue", "preference", 0.02, 0.0)])
    _say(engine, "leo", [TAG], T0 + 1)
    users = {m.tag: m.users for m in engine.list_memories(T0 + 1)}
    assert users == {"likes_dinosaurs": ("mia", "leo"), "favourite_colour_blue": ("mia",)}
    stored = json.loads((tmp_path / "memory.json").read_text())
    assert {e["tag"]: e["users"] for e in stored["entries"]} == {
        "likes_dinosaurs": ["mia", "leo"], "favourite_colour_blue": ["mia"]}


def test_forgetting_a_child_removes_only_that_child(tmp_path) -> None:
    engine = _household_engine(tmp_path)
    _say(engine, "mia", [TAG, ("favourite_colour_blue", "preference", 0.02, 0.0)])
    _say(engine, "leo", [TAG, ("likes_trains", "topic", 0.03, 0.0)], T0 + 1)
    _, result = engine.forget_user(T0 + 2, "mia")
    assert result.removed == ("favourite_colour_blue",)
    assert result.kept_shared == ("likes_dinosaurs",)
    on_disk = json.loads((tmp_path / "memory.json").read_text())["entries"]
    assert {e["tag"]: e["users"] for e in on_disk} == {
        "likes_dinosaurs": ["leo"], "likes_trains": ["leo"]}
    _, result = engine.forget_user(T0 + 3, "leo")
    assert set(result.removed) == {"likes_dinosaurs", "likes_trains"}
    assert json.loads((tmp_path / "memory.json").read_text())["entries"] == []


def test_entries_without_a_recorded_child_are_kept(tmp_path) -> None:
    """A file from before users were kept loads (no version bump) and shows its entries
    under "Everyone"; forgetting one child keeps them (forget everything removes them)."""
    path = tmp_path / "memory.json"
    path.write_text(json.dumps({"version": 1, "entries": [
        {"tag": "likes_dinosaurs", "category": "topic", "valence_bias": 0.05,
         "arousal_bias": 0.0, "initial_strength": 1.0, "created_ts": T0 - 10,
         "last_reinforced_ts": T0 - 10, "reinforcement_count": 0, "decay_lambda": 0.0,
         "source": "llm_extract"}]}))
    engine = make_engine(memory_path=path, memory_consent=True)
    assert engine.warnings == [] and engine.list_memories(T0)[0].users == ()
    engine.on_consent(T0, [("mia", "memory", 2)])
    _say(engine, "mia", [TAG])  # reinforced: its first sources stay unknown
    assert engine.list_memories(T0)[0].users == ()
    _, result = engine.forget_user(T0 + 1, "mia")
    assert result.removed == () and len(MemoryStore(path, T0)) == 1


def test_forget_user_needs_a_user() -> None:
    engine = make_engine()
    with pytest.raises(InputRejected):
        engine.forget_user(T0, " ")


@pytest.mark.parametrize("users", [[""], ["x" * 65], "mia", [1], ["u"] * 17])
def test_a_bad_users_field_quarantines_the_entry(tmp_path, users) -> None:
    path = tmp_path / "memory.json"
    path.write_text(json.dumps({"version": 1, "entries": [
        {"tag": "likes_dinosaurs", "category": "topic", "valence_bias": 0.05,
         "arousal_bias": 0.0, "initial_strength": 1.0, "created_ts": T0,
         "last_reinforced_ts": T0, "reinforcement_count": 0, "source": "llm_extract",
         "users": users}]}))
    store = MemoryStore(path, T0)
    assert len(store) == 0 and store.quarantined == 1
