"""`buddy run --state-dir DIR` (issue 15): every file Buddy remembers between runs goes
into DIR, so a development run leaves the household's real files alone."""

from __future__ import annotations

from pathlib import Path

from buddy_personality.nodes.state_files import STATE_FILES, state_dir_overrides


def test_every_state_file_goes_into_the_directory(tmp_path: Path) -> None:
    target = tmp_path / "dev" / "state"
    overrides = state_dir_overrides(target)
    assert target.is_dir()
    paths = [Path(p) for params in overrides.values() for p in params.values()]
    assert len(paths) == sum(len(f) for f in STATE_FILES.values())
    assert all(p.parent == target.resolve() for p in paths)
    # the household file and the HC-9 alert log are each one file that two nodes use (one
    # writes, the other reads); every other file has one owner
    names = [p.name for p in paths]
    assert {n for n in names if names.count(n) > 1} == {"household.json", "safety_alerts.jsonl"}


def test_the_overrides_name_real_parameters_of_the_nodes() -> None:
    """A row that names a parameter the node does not declare would be ignored."""
    from buddy_personality.nodes.identity_node import PARAMETERS as IDENTITY
    from buddy_personality.nodes.llm_bridge_node import PARAMETERS as BRIDGE
    from buddy_personality.nodes.parent_dashboard_node import PARAMETERS as DASHBOARD
    from buddy_personality.nodes.personality_node import PARAMETERS as PERSONALITY

    declared = {"identity": {s.name for s in IDENTITY},
                "personality": {s.name for s in PERSONALITY},
                "llm_bridge": {s.name for s in BRIDGE},
                "parent_dashboard": {s.name for s in DASHBOARD}}
    for node, params in STATE_FILES.items():
        assert set(params) <= declared[node], node
