"""The deterministic intention store (spec 003 §6.4)."""

from __future__ import annotations

from buddy_personality.cognition.intentions import (
    MAX_INTENTIONS,
    PRIORITY_CREATE,
    PRIORITY_MAX,
    IntentionStore,
)
from buddy_personality.cognition.schema import IntentionUpdate


def up(op: str, typ: str = "be_gentle", target: str | None = "school",
       horizon: str = "short") -> IntentionUpdate:
    return IntentionUpdate(op, typ, target, horizon, "")


def test_create_boost_lower_drop() -> None:
    s = IntentionStore()
    assert s.apply(1, up("create")) == "created"
    assert s.top()[0].priority == PRIORITY_CREATE
    assert s.apply(1, up("boost")) == "boosted"
    for _ in range(5):
        s.apply(1, up("boost"))
    assert s.top()[0].priority == PRIORITY_MAX
    assert s.apply(1, up("lower")) == "lowered"
    assert s.apply(1, up("drop")) == "dropped"
    assert len(s) == 0
    assert s.apply(1, up("boost")) == "unknown"


def test_lowering_to_zero_drops() -> None:
    s = IntentionStore()
    s.apply(1, up("create"))
    assert s.apply(1, up("lower")) == "lowered"
    assert s.apply(1, up("lower")) == "dropped"


def test_horizons_expire_by_turns() -> None:
    s = IntentionStore()
    s.apply(1, up("create", "follow_up", "a", "short"))   # lasts through turn 4
    s.apply(1, up("create", "follow_up", "b", "medium"))  # through turn 9
    s.apply(1, up("create", "follow_up", "c", "long"))    # whole session
    s.expire(4)
    assert {i.target for i in s.top(5)} == {"a", "b", "c"}
    s.expire(5)
    assert {i.target for i in s.top(5)} == {"b", "c"}
    s.expire(100)
    assert {i.target for i in s.top(5)} == {"c"}


def test_capacity_evicts_lowest_priority_then_newest_deterministically() -> None:
    s = IntentionStore()
    for k in range(MAX_INTENTIONS):
        s.apply(k, up("create", "follow_up", f"t{k}"))
    s.apply(0, up("boost", "follow_up", "t4"))
    s.apply(9, up("create", "encourage", "x"))
    assert len(s) == MAX_INTENTIONS
    kept = [i.target for i in s.top(MAX_INTENTIONS)]
    assert kept == ["t4", "t0", "t1", "t2", "t3"]  # x was newest at the lowest priority


def test_same_updates_same_store() -> None:
    ups = [up("create", "follow_up", "a"), up("create", "encourage", None), up("boost"),
           up("create"), up("lower", "follow_up", "a")]
    stores = []
    for _ in range(2):
        s = IntentionStore()
        for k, u in enumerate(ups):
            s.apply(k, u)
        stores.append([(i.key, i.priority) for i in s.top(5)])
    assert stores[0] == stores[1]
