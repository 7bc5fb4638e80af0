"""Memory (spec 002 §8): tiers, floors, eviction, reinforcement, consent (RS-5), storage."""

from __future__ import annotations

import json
import math

import pytest

from buddy_personality.personality.memory import (
    MAX_ENTRIES,
    TIERS,
    MemoryStore,
    validate_tag,
)

from .conftest import T0, make_engine

DAY = 86400.0


@pytest.mark.parametrize(("category", "tier", "half_life_days", "lam", "max_entries", "floor"), [
    ("name", "T0", math.inf, 0.0, 1, 1.0),
    ("ritual", "T1", 90, 8.91e-8, 5, 0.10),
    ("topic", "T2", 21, 3.82e-7, 20, 0.0),
    ("tone", "T3", 7, 1.15e-6, 3, 0.0),
    ("preference", "T4", 4, 2.01e-6, 10, 0.0),
])
def test_spec_8_2_tier_table(category: str, tier: str, half_life_days: float, lam: float,
                             max_entries: int, floor: float) -> None:
    t = TIERS[category]
    assert (t.tier_id, t.max_entries, t.floor) == (tier, max_entries, floor)
    assert t.decay_lambda == pytest.approx(lam, rel=0.005, abs=1e-12)
    if math.isfinite(half_life_days):
        store = MemoryStore(None, T0)
        store.remember("some_tag", category, 0.0, 0.0, T0)
        assert store.get("some_tag").current_strength(T0 + half_life_days * DAY) == (
            pytest.approx(max(0.5, floor), abs=1e-6))


def test_floors_name_never_decays_rituals_keep_a_trace_topics_vanish() -> None:
    store = MemoryStore(None, T0)
    for tag, cat in [("child_name_emma", "name"), ("fist_bump", "ritual"),
                     ("likes_dinosaurs", "topic"), ("prefers_silly", "preference")]:
        store.remember(tag, cat, 0.05, 0.0, T0)
    later = T0 + 3650 * DAY
    assert store.get("child_name_emma").current_strength(later) == 1.0
    assert store.get("fist_bump").current_strength(later) == pytest.approx(0.10)
    assert store.get("likes_dinosaurs").current_strength(later) < 1e-6
    assert store.get("prefers_silly").current_strength(later) < 1e-6


def test_reinforcement_restores_strength_and_counts() -> None:
    store = MemoryStore(None, T0)
    store.remember("likes_dinosaurs", "topic", 0.05, 0.0, T0)
    later = T0 + 21 * DAY
    result = store.remember("likes_dinosaurs", "topic", 0.08, 0.01, later)
    entry = store.get("likes_dinosaurs")
    assert result.reinforced and len(store) == 1
    assert entry.reinforcement_count == 1 and entry.created_ts == T0
    assert entry.current_strength(later) == 1.0 and entry.valence_bias == 0.08


def test_per_tier_maximum_evicts_the_weakest_of_that_tier() -> None:
    store = MemoryStore(None, T0)
    for k in range(3):  # T3 holds 3
        store.remember(f"tone_{k}", "tone", 0.0, 0.0, T0 + k * DAY)
    store.remember("likes_cats", "topic", 0.0, 0.0, T0)
    result = store.remember("tone_new", "tone", 0.0, 0.0, T0 + 5 * DAY)
    assert result.evicted == "tone_0"  # the oldest tone memory is the weakest
    assert {e.tag for e in store.entries()} == {"tone_1", "tone_2", "tone_new", "likes_cats"}


def test_only_one_name() -> None:
    store = MemoryStore(None, T0)
    store.remember("child_name_emma", "name", 0.0, 0.0, T0)
    assert store.remember("child_name_noah", "name", 0.0, 0.0, T0 + 1).evicted == (
        "child_name_emma")


def test_store_never_exceeds_fifty_entries() -> None:
    """§8.4: 50 entries at most (the §8.2 tier maxima add up to 39, so they bind first)."""
    store = MemoryStore(None, T0)
    cats = list(TIERS)
    for k in range(300):
        store.remember(f"tag_{k}", cats[k % len(cats)], 0.0, 0.0, T0 + k)
        assert len(store) <= MAX_ENTRIES
    assert len(store) == sum(t.max_entries for t in TIERS.values())


def test_global_cap_alone_evicts_lowest_strength(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a cap below the tier sums, the weakest entry of any tier goes."""
    import buddy_personality.personality.memory as mem
    monkeypatch.setattr(mem, "MAX_ENTRIES", 3)
    store = MemoryStore(None, T0)
    store.remember("old_topic", "topic", 0.0, 0.0, T0 - 30 * DAY)
    store.remember("a_ritual", "ritual", 0.0, 0.0, T0 - 30 * DAY)
    store.remember("new_topic", "topic", 0.0, 0.0, T0)
    assert store.remember("another", "preference", 0.0, 0.0, T0).evicted == "old_topic"


@pytest.mark.parametrize(("tag", "ok"), [
    ("likes_dinosaurs", True), ("child_name_emma", True), ("a2", True),
    ("x", False), ("Likes_Dinosaurs", False), ("likes dinosaurs", False),
    ("likes__dinos", False), ("_likes", False), ("likes_", False),
    ("the child said she is scared of the dark at night", False), ("a" * 49, False),
    ("2fast", False), ("emoji_🦖", False),
])
def test_only_short_snake_case_tags(tag: str, ok: bool) -> None:
    assert (validate_tag(tag) is None) is ok


@pytest.mark.parametrize("bias", [0.11, -0.2, math.nan, math.inf])
def test_bias_out_of_range_refused(bias: float) -> None:
    result = MemoryStore(None, T0).remember("likes_cats", "topic", bias, 0.0, T0)
    assert not result.stored and result.reason


def test_unknown_category_refused() -> None:
    assert MemoryStore(None, T0).remember("likes_cats", "gossip", 0.0, 0.0, T0).reason


# ---------------------------------------------------------------- storage
def test_saved_json_has_schema_version_and_reloads(tmp_path) -> None:
    path = tmp_path / "memory.json"
    store = MemoryStore(path, T0)
    store.remember("likes_dinosaurs", "topic", 0.05, 0.02, T0)
    store.remember("child_name_emma", "name", 0.05, 0.0, T0)
    store.save()
    data = json.loads(path.read_text())
    assert data["version"] == 1 and len(data["entries"]) == 2
    assert not list(tmp_path.glob(".memory.json.*.tmp"))  # atomic write left no temp file
    again = MemoryStore(path, T0 + 10)
    assert {e.tag for e in again.entries()} == {"likes_dinosaurs", "child_name_emma"}
    assert again.get("likes_dinosaurs").created_ts == T0


@pytest.mark.parametrize("content", [
    "{not json", "[]", json.dumps({"version": 99, "entries": []}),
    # bad entries inside a good envelope are quarantined one by one:
    # test_personality_state_files.py
])
def test_corrupt_file_is_moved_aside_and_the_store_starts_empty(tmp_path, content: str) -> None:
    path = tmp_path / "memory.json"
    path.write_text(content)
    store = MemoryStore(path, T0)
    assert len(store) == 0
    assert store.warnings and "corrupt" in store.warnings[0]
    aside = list(tmp_path.glob("memory.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text() == content  # nothing stored is lost
    assert not path.exists()


def test_reset_forgets_everything_on_disk(tmp_path) -> None:
    path = tmp_path / "memory.json"
    store = MemoryStore(path, T0)
    store.remember("likes_dinosaurs", "topic", 0.05, 0.02, T0)
    store.save()
    store.reset()
    assert len(store) == 0
    assert json.loads(path.read_text())["entries"] == []
    assert len(MemoryStore(path, T0)) == 0


# ---------------------------------------------------------------- consent gate (RS-5)
TAGS = [("likes_dinosaurs", "topic", 0.05, 0.02)]


def _consenting_engine(tmp_path, **kwargs):
    engine = make_engine(memory_path=tmp_path / "memory.json", **kwargs)
    engine.on_identity(T0, "emma")
    engine.on_consent(T0, [("emma", "memory", 2)])
    return engine


def test_memory_written_with_both_consents(tmp_path) -> None:
    engine = _consenting_engine(tmp_path, memory_consent=True)
    out = engine.on_memory_extract(T0, TAGS)
    assert out.memory_report.stored == ("likes_dinosaurs",)
    assert (tmp_path / "memory.json").exists()
    assert [m.tag for m in engine.list_memories(T0)] == ["likes_dinosaurs"]


@pytest.mark.parametrize(("param", "user", "consent", "reason"), [
    (False, "emma", [("emma", "memory", 2)], "parameter"),
    (True, "emma", [], "GRANTED"),
    (True, "emma", [("emma", "memory", 1)], "GRANTED"),  # PENDING
    (True, "emma", [("emma", "memory", 4)], "GRANTED"),  # REVOKED
    (True, "emma", [("emma", "photos", 2)], "GRANTED"),  # other scope
    (True, "emma", [("noah", "memory", 2)], "GRANTED"),  # other user
    (True, "", [("emma", "memory", 2)], "no identified user"),
])
def test_consent_refusal(tmp_path, param: bool, user: str, consent: list, reason: str) -> None:
    engine = make_engine(memory_path=tmp_path / "memory.json", memory_consent=param)
    engine.on_identity(T0, user)
    engine.on_consent(T0, consent)
    out = engine.on_memory_extract(T0, TAGS)
    assert out.memory_report.stored == () and reason in out.memory_report.refused_reason
    assert not (tmp_path / "memory.json").exists()
    assert engine.list_memories(T0) == []


def test_extract_for_another_user_refused(tmp_path) -> None:
    engine = _consenting_engine(tmp_path, memory_consent=True)
    out = engine.on_memory_extract(T0, TAGS, user_id="noah")
    assert out.memory_report.refused_reason


def test_invalid_tags_in_an_extract_are_reported_the_rest_stored(tmp_path) -> None:
    engine = _consenting_engine(tmp_path, memory_consent=True)
    out = engine.on_memory_extract(T0, [*TAGS, ("Emma said her address is", "topic", 0, 0)])
    assert out.memory_report.stored == ("likes_dinosaurs",)
    assert len(out.memory_report.rejected) == 1
    assert engine.stats.memory_refusals == {"invalid_tag": 1}


def test_memories_reload_after_restart(tmp_path) -> None:
    engine = _consenting_engine(tmp_path, memory_consent=True)
    engine.on_memory_extract(T0, TAGS)
    restarted = make_engine(T0 + DAY, memory_path=tmp_path / "memory.json")
    views = restarted.list_memories(T0 + DAY)
    assert [v.tag for v in views] == ["likes_dinosaurs"]
    assert views[0].strength == pytest.approx(0.5 ** (1 / 21), rel=1e-6)


def test_reset_memory_through_the_engine(tmp_path) -> None:
    engine = _consenting_engine(tmp_path, memory_consent=True)
    engine.on_memory_extract(T0, TAGS)
    engine.reset_memory(T0 + 1)
    assert engine.list_memories(T0 + 1) == []
    assert make_engine(memory_path=tmp_path / "memory.json").list_memories(T0) == []


def test_memory_bias_nudges_affect(tmp_path) -> None:
    """§8.3: Σ bias × strength × 0.02 per second; a +0.10 memory at strength 1: +0.002/s."""
    engine = _consenting_engine(tmp_path, memory_consent=True)
    plain = make_engine()
    engine.on_memory_extract(T0, [("child_name_emma", "name", 0.10, 0.0)])
    engine.snapshot(T0 + 1.0)
    plain.snapshot(T0 + 1.0)
    assert engine.valence - plain.valence == pytest.approx(0.002, rel=1e-9)


def test_profile_carries_the_strongest_tags_only(tmp_path) -> None:
    engine = _consenting_engine(tmp_path, memory_consent=True)
    engine.on_memory_extract(T0 - 20 * DAY, [("old_topic", "topic", 0.0, 0.0)])
    engine.on_memory_extract(T0, [("child_name_emma", "name", 0.0, 0.0),
                                  ("likes_trains", "topic", 0.0, 0.0)])
    tags = engine.llm_profile(T0).memory_tags
    assert tags[:2] in (("child_name_emma", "likes_trains"), ("likes_trains", "child_name_emma"))
    assert tags[-1] == "old_topic"


def test_revoked_consent_removes_tags_from_the_profile(tmp_path) -> None:
    """RS-5: tags reach the LLM profile only while consent is active."""
    engine = _consenting_engine(tmp_path, memory_consent=True)
    engine.on_memory_extract(T0, TAGS)
    assert engine.llm_profile(T0).memory_tags == ("likes_dinosaurs",)
    engine.on_consent(T0 + 1, [("emma", "memory", 4)])  # REVOKED
    assert engine.llm_profile(T0 + 1).memory_tags == ()
    assert [m.tag for m in engine.list_memories(T0 + 1)] == ["likes_dinosaurs"]  # kept
