"""Issue 31 item 4 for the personality's state files: a corrupt file falls back to the
previous good generation (quarantined and counted, DESIGN §5 Persistence, §1.5), and the
RS-2 counter fails towards the child's limit (spec 002 §9.3 RS-2: "a day with an
unreadable counter counts as used up to the last good value, never as 0").

Before: a corrupt usage file restarted RS-2 at 0 s of talk today; a corrupt memory or
personality state file started empty although a good copy had been on disk a second
earlier."""

from __future__ import annotations

import json
import os
from pathlib import Path

from buddy_personality.personality.guardrails import GuardrailConfig, UsageCounter
from buddy_personality.personality.memory import MemoryStore
from buddy_personality.personality.resume import ResumeState, load_resume, save_resume

from .conftest import T0, make_engine

DAILY_LIMIT_S = GuardrailConfig().daily_time_limit_s   # 2700 s, spec 002 §9.3 RS-2


def counter_at(path: Path, daily_s: float, now: float = T0) -> None:
    usage = UsageCounter(path, 0.0, now)
    usage.daily_s = daily_s
    usage.save(counted_until=now)


def corrupt(path: Path, mtime: float | None = None) -> str:
    bad = '{"version": 1, "local_day": 20454, "daily_conv'   # cut short by a power loss
    path.write_text(bad)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return bad


# -- the RS-2 usage counter ---------------------------------------------------------------

def test_corrupt_usage_file_uses_the_previous_generation_not_zero(tmp_path: Path) -> None:
    path = tmp_path / "usage.json"
    counter_at(path, 1500.0)
    counter_at(path, 1505.0)
    bad = corrupt(path)
    engine = make_engine(usage_path=path)
    assert engine.usage.daily_s == 1500.0            # the last good value, not 0
    assert engine.usage.set_aside == 1
    assert [p.read_text() for p in tmp_path.glob("usage.json.corrupt-*")] == [bad]
    assert any("previous generation" in w for w in engine.warnings)


def test_both_usage_generations_unreadable_today_counts_as_used_up(tmp_path: Path) -> None:
    path = tmp_path / "usage.json"
    counter_at(path, 60.0)
    counter_at(path, 65.0)
    corrupt(path, mtime=T0 - 60)
    corrupt(path.with_name("usage.json.prev"), mtime=T0 - 120)
    engine = make_engine(usage_path=path)
    assert engine.usage.daily_s >= DAILY_LIMIT_S      # never reset to 0
    assert engine.usage.unreadable_today
    assert any("used up" in w for w in engine.warnings)
    # the limit holds: a new conversation today is refused with RS-2
    start = engine.on_conversation_started(T0 + 1, "s1")
    assert "RS-2" in [e.rule_id for e in start.guardrail_events]
    # and a restart keeps it (the fail-safe value is written, not a 0)
    engine.flush_all()
    assert make_engine(T0 + 2, usage_path=path).usage.daily_s >= DAILY_LIMIT_S


def test_a_lone_corrupt_usage_file_from_today_counts_the_day_as_used_up(
        tmp_path: Path) -> None:
    path = tmp_path / "usage.json"
    corrupt(path, mtime=T0 - 30)                     # no previous generation at all
    assert make_engine(usage_path=path).usage.daily_s >= DAILY_LIMIT_S


def test_an_unreadable_counter_written_yesterday_does_not_touch_today(tmp_path: Path) -> None:
    path = tmp_path / "usage.json"
    corrupt(path, mtime=T0 - 86400)                  # it can only hold yesterday's talk
    engine = make_engine(usage_path=path)
    assert engine.usage.daily_s == 0.0 and not engine.usage.unreadable_today
    assert engine.usage.set_aside == 1


def test_previous_from_yesterday_and_current_unreadable_from_today_is_used_up(
        tmp_path: Path) -> None:
    path = tmp_path / "usage.json"
    counter_at(path, 2000.0, now=T0 - 86400)          # yesterday's last value
    counter_at(path, 10.0)                            # today's first save
    corrupt(path, mtime=T0 - 5)
    assert make_engine(usage_path=path).usage.daily_s >= DAILY_LIMIT_S


def test_the_used_up_day_ends_at_local_midnight(tmp_path: Path) -> None:
    path = tmp_path / "usage.json"
    corrupt(path, mtime=T0)
    usage = UsageCounter(path, 0.0, T0)
    assert usage.daily_s >= DAILY_LIMIT_S
    assert usage.roll_day(T0 + 86400) and usage.daily_s == 0.0
    assert not usage.unreadable_today


# -- the memory store ------------------------------------------------------------------

def test_corrupt_memory_file_uses_the_previous_generation(tmp_path: Path) -> None:
    path = tmp_path / "memory.json"
    store = MemoryStore(path, T0)
    store.remember("likes_dinosaurs", "topic", 0.05, 0.0, T0)
    store.save()
    store.remember("likes_trains", "topic", 0.05, 0.0, T0 + 1)
    store.save()
    path.write_text('{"version": 1, "entries": [')
    again = MemoryStore(path, T0 + 2)
    assert [e.tag for e in again.entries()] == ["likes_dinosaurs"]
    assert again.set_aside == 1
    assert [p.read_text() for p in tmp_path.glob("memory.json.corrupt-*")] == \
        ['{"version": 1, "entries": [']


def test_forget_everything_leaves_no_previous_generation_behind(tmp_path: Path) -> None:
    """spec 002 §8.5: what was forgotten must not stay on disk as a backup."""
    path = tmp_path / "memory.json"
    store = MemoryStore(path, T0)
    store.remember("likes_dinosaurs", "topic", 0.05, 0.0, T0)
    store.save()
    store.save()
    store.reset()
    assert "likes_dinosaurs" not in "".join(p.read_text() for p in tmp_path.iterdir())


# -- the personality state file (restart resume) -------------------------------------

def _resume(saved_at: float, valence: float) -> ResumeState:
    return ResumeState(saved_at=saved_at, valence=valence, arousal=0.0, tonic_valence=0.0,
                       tonic_arousal=0.0, idle_since=saved_at, conversation_active=False,
                       session_id="", session_s=0.0)


def test_corrupt_personality_state_uses_the_previous_generation(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    save_resume(path, _resume(T0, 0.25))
    save_resume(path, _resume(T0 + 5, 0.5))
    path.write_text(json.dumps({"version": 1, "valence": "happy"}))
    warnings: list[str] = []
    state = load_resume(path, T0 + 6, warnings)
    assert state is not None and state.valence == 0.25
    assert len(list(tmp_path.glob("state.json.corrupt-*"))) == 1
    assert any("previous generation" in w for w in warnings)
