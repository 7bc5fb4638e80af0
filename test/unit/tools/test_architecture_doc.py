"""docs/ARCHITECTURE.md's package diagram is generated from the imports (issues 28 and 30
item 6), so it cannot go stale; and the ROS-free cores import no node (DESIGN §1.1)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CORES = ("personality", "governor", "identity", "cognition", "safety", "face", "speech")


def _generator():
    spec = importlib.util.spec_from_file_location(
        "gen_architecture_diagram", ROOT / "scripts" / "gen_architecture_diagram.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_diagram_is_what_the_imports_say() -> None:
    gen = _generator()
    page = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert page == gen.rendered_page(page), (
        "docs/ARCHITECTURE.md's diagram is stale: run scripts/gen_architecture_diagram.py")


def test_no_core_imports_a_node() -> None:
    units, found = _generator().edges()
    assert set(CORES) <= set(units)
    assert not [(a, b) for a, b in found if a in CORES and b == "nodes"]
