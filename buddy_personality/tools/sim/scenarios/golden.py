"""Regenerate the golden bags under test/data/ from the committed scenarios.

    python -m buddy_personality.tools.sim.scenarios.golden [--out test/data] [--only NAME]
                                                       [--check-only]
    (or: make golden)

Each scenario (`day.py`) runs under sim time; its expected timeline (`checks.py`, derived
from the spec) is checked, and only when every check passes is its bag written, as
`<out>/golden_<name>/` (rosbag2 directory: metadata.yaml with the sim setup in
custom_data, and a zstd-compressed MCAP). test/replay/test_golden_replay.py replays them.
Regenerate after an intended change of engine behaviour, and say why in the commit.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from buddy_personality.tools.sim.scenarios.checks import run_checks
from buddy_personality.tools.sim.scenarios.day import SCENARIOS
from buddy_personality.tools.sim.scenarios.runner import (
    Scenario,
    ScenarioRun,
    run_scenario,
    write_scenario_bag,
)
from buddy_personality.tools.sim.scenarios.timeline import build_timeline

GOLDEN: dict[str, int] = {"morning": 1, "layer0_visit": 3}  # scenario -> seed
DEFAULT_OUT = Path(__file__).resolve().parents[4] / "test" / "data"


def bag_path(out: Path, name: str) -> Path:
    return out / f"golden_{name}"


def _run_with_progress(scenario: Scenario) -> ScenarioRun:
    """Run a scenario with a progress bar in sim seconds (on a terminal only)."""
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: PLC0415

    console = Console(stderr=True)
    if not console.is_terminal:
        return run_scenario(scenario)
    with Progress(TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.completed:>5.0f} / {task.total:.0f} s sim"),
                  TimeElapsedColumn(), transient=True, console=console) as bar:
        task = bar.add_task(f"scenario {scenario.name}", total=scenario.duration_s)
        return run_scenario(scenario, progress=lambda done, total: bar.update(
            task, completed=done, total=total))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m buddy_personality.tools.sim.scenarios.golden",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="directory of the bags")
    p.add_argument("--only", choices=sorted(GOLDEN), action="append", default=None)
    p.add_argument("--check-only", action="store_true", help="run and check, write nothing")
    ns = p.parse_args(argv)
    failed = False
    for name in ns.only or sorted(GOLDEN):
        scenario = SCENARIOS[name](GOLDEN[name])
        run = _run_with_progress(scenario)
        results = run_checks(name, build_timeline(run.captures), scenario.setup.start_s)
        print(f"{name}: {scenario.duration_s:.0f} s of sim time in {run.wall_s:.1f} s "
              f"({run.steps} steps)")
        for r in results:
            print(f"  {'ok  ' if r.ok else 'FAIL'} {r.name}: {r.detail}")
        if not all(r.ok for r in results):
            failed = True
            print(f"  {name}: expected timeline not met; bag not written")
            continue
        if ns.check_only:
            continue
        path = bag_path(ns.out, name)
        if path.exists():
            shutil.rmtree(path)
        ns.out.mkdir(parents=True, exist_ok=True)
        write_scenario_bag(run, path, compress=True)
        size = sum(f.stat().st_size for f in path.iterdir())
        print(f"  wrote {path} ({size / 1024:.0f} KiB)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
