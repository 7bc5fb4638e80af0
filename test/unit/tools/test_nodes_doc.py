"""docs/NODES.md is generated from the code (issue 30 item 6): what each node does, its
topics, services and parameters come from the node modules, their ParamSpecs and the
graph table, so the page cannot go stale. Regenerate: scripts/gen_nodes_doc.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _generator():
    spec = importlib.util.spec_from_file_location("gen_nodes_doc",
                                                  ROOT / "scripts" / "gen_nodes_doc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_nodes_page_is_what_the_code_says() -> None:
    page = (ROOT / "docs" / "NODES.md").read_text(encoding="utf-8")
    assert page == _generator().render(), (
        "docs/NODES.md is out of date: run .venv/bin/python scripts/gen_nodes_doc.py")


def test_the_page_names_every_node_its_topics_and_parameters() -> None:
    from buddy_personality.nodes.bringup import NODE_CLASSES
    from buddy_personality.security.graph import NODES

    page = _generator().render()
    for name in NODE_CLASSES:
        assert f"## `{name}`" in page
        for topic in NODES[name].publishes + NODES[name].subscribes:
            assert f"`{topic}`" in page
    # the personality axes say they are fixed at runtime (spec 002 PE-4)
    assert "| `axes.energy` | `0.4` | 0.0..1.0, read-only |" in page
