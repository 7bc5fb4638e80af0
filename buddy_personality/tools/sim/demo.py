"""`buddy run --demo`: a scripted morning with Buddy in sim time, in seconds.

    buddy run --demo [--out DIR] [--seed N]

The whole graph runs in this process under sim time (tools/sim/sim_graph.py) through the
`morning` scenario (tools/sim/scenarios/day.py): boot, Buddy falling asleep (drowsy:
SLEEPY) and waking at once when the child says "hey buddy", a conversation about
dinosaurs until the RS-1 session limit, a button press, a low battery, a second
conversation until the RS-2 daily limit, and a refused wake during the lockout. The
replies come from a built-in SCRIPTED responder (a fake OpenAI-compatible server on
127.0.0.1 returning fixed answers), not from a language model.

Writes DIR/bag (MCAP: every /buddy topic and /clock; `buddy replay DIR/bag` replays it,
`buddy eval DIR/bag` evaluates it) and DIR/report.md (the timeline, the expected-timeline
checks, the spec 002 A.2 figures of `buddy eval`). Exit status 0 when every check holds,
1 when one does not, 2 when the demo could not run.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from buddy_personality.tools.sim.scenarios.checks import CheckResult

SCRIPTED_NOTE = ("replies come from a built-in SCRIPTED responder (fixed answers from a "
                 "fake OpenAI-compatible server on 127.0.0.1), not from a language model")
TIMELINE_KINDS = ("system", "layer", "child", "say", "started", "ended", "mood", "guardrail",
                  "button")


def default_out() -> Path:
    return Path(f"buddy_demo_{datetime.now().strftime('%Y%m%d_%H%M%S')}")


def _clock(t: float, t0: float) -> str:
    s = max(0.0, t - t0)
    return f"{int(s // 60):02d}:{s % 60:04.1f}"


def _fmt(value: Any, percent: bool = False) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if percent:
        return f"{value:.1%}"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def render_report(*, title: str, seed: int, start_s: float, duration_s: float,
                  wall_s: float, steps: int, bag: Path, events: Iterable[Any],
                  checks: Sequence[CheckResult], figures: dict[str, Any],
                  indicators: Sequence[tuple[str, str, str, float]]) -> str:
    """The markdown report (pure: everything comes in as arguments)."""
    events = list(events)
    start = datetime.fromtimestamp(start_s, tz=UTC).strftime("%Y-%m-%d %H:%M")
    lines = [
        f"# {title}",
        "",
        f"- **Scripted demo**: {SCRIPTED_NOTE}. The child, the TTS, the power monitor and "
        "the face board are scripted stand-ins too.",
        f"- Sim time: {duration_s / 60:.0f} min from {start} (UTC), seed {seed}; "
        f"ran in {wall_s:.1f} s of wall time ({steps} sim steps).",
        f"- Bag: `{bag}` (replay it with `buddy replay {bag}`, evaluate it with "
        f"`buddy eval {bag}`).",
        "",
        "## What happened",
        "",
    ]
    kinds = Counter(e.kind for e in events)
    rules = Counter(e.data.get("rule_id") for e in events if e.kind == "guardrail")
    lines += [
        f"- {kinds['started']} conversations, {kinds['child']} things said by the child, "
        f"{kinds['say']} lines spoken by Buddy.",
        f"- {kinds['mood']} mood changes; guardrail events: "
        + (", ".join(f"{r} x{n}" for r, n in sorted(rules.items())) or "none") + ".",
        "",
        "## Expected timeline (spec-derived checks)",
        "",
        "| | check | observed |",
        "| --- | --- | --- |",
    ]
    for c in checks:
        lines.append(f"| {'ok' if c.ok else '**FAIL**'} | {c.name} | {c.detail} |")
    lines += [
        "",
        "## Success indicators (`buddy eval`, spec 002 Appendix A.2)",
        "",
        "A 40-minute morning is a small sample: the indicators are defined over a day "
        "(docs/EVALUATION.md); `buddy eval --simulate-day` gives the day's figures.",
        "",
        "| indicator | value | criterion | |",
        "| --- | --- | --- | --- |",
    ]
    for key, label, op, threshold in indicators:
        pct = key in ("idle_aliveness", "greeting_accuracy")
        crit = f"{op} {threshold:.0%}" if pct else f"{op} {threshold:g}"
        met = (figures.get("pass") or {}).get(key)
        verdict = "n/a" if met is None else ("met" if met else "not met")
        lines.append(f"| {label} | {_fmt(figures.get(key), pct)} | {crit} | {verdict} |")
    shares = figures.get("mood_shares") or {}
    if shares:
        lines += ["", "Time in each mood: " + ", ".join(
            f"{mood} {share:.0%}" for mood, share in sorted(shares.items(),
                                                            key=lambda kv: -kv[1])
            if share >= 0.005) + "."]
    lines += ["", "## Timeline", "", "| sim time | event |", "| --- | --- |"]
    for e in events:
        if e.kind in TIMELINE_KINDS:
            lines.append(f"| {_clock(e.t, start_s)} | {e.text.replace('|', '/')} |")
    lines.append("")
    return "\n".join(lines)


def _progress(total_s: float) -> tuple[Any, Callable[[float, float], None] | None]:
    """A rich progress bar on a terminal (stderr), else nothing."""
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: PLC0415

    console = Console(stderr=True)
    if not console.is_terminal:
        return None, None
    bar = Progress(TextColumn("{task.description}"), BarColumn(),
                   TextColumn("{task.completed:>5.0f} / {task.total:.0f} s sim"),
                   TimeElapsedColumn(), transient=True, console=console)
    task = bar.add_task("demo morning (sim time)", total=total_s)

    def update(done: float, total: float) -> None:
        bar.update(task, completed=done, total=total)

    return bar, update


def run_demo(out: Path | None = None, seed: int = 1) -> int:
    from buddy_personality.tools.bags.bag_timeline import (  # noqa: PLC0415
        read_snapshots,
        read_speaking_starts,
    )
    from buddy_personality.tools.evaluation.evaluate import INDICATORS, evaluate  # noqa: PLC0415
    from buddy_personality.tools.sim.scenarios.checks import run_checks  # noqa: PLC0415
    from buddy_personality.tools.sim.scenarios.day import morning  # noqa: PLC0415
    from buddy_personality.tools.sim.scenarios.runner import (  # noqa: PLC0415
        run_scenario,
        write_scenario_bag,
    )
    from buddy_personality.tools.sim.scenarios.timeline import build_timeline  # noqa: PLC0415
    from buddy_personality.tools.sim.sim_graph import SimError  # noqa: PLC0415

    out = out or default_out()
    if out.exists() and any(out.iterdir()):
        print(f"buddy run --demo: {out} exists and is not empty; choose another --out",
              file=sys.stderr)
        return 2
    scenario = morning(seed)
    scenario.exclude_topics = ()  # the demo bag keeps everything (rviz markers too)
    print(f"buddy run --demo: {scenario.title}; {SCRIPTED_NOTE}", flush=True)
    wall = time.monotonic()
    bar, update = _progress(scenario.duration_s)
    try:
        if bar is not None:
            with bar:
                run = run_scenario(scenario, progress=update)
        else:
            run = run_scenario(scenario)
    except (SimError, ValueError) as exc:
        print(f"buddy run --demo: {exc}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    bag = write_scenario_bag(run, out / "bag")
    timeline = build_timeline(run.captures)
    checks = run_checks(scenario.name, timeline, scenario.setup.start_s)
    figures = evaluate(read_snapshots(bag), read_speaking_starts(bag))
    elapsed = time.monotonic() - wall
    report = out / "report.md"
    report.write_text(render_report(
        title=scenario.title, seed=seed, start_s=scenario.setup.start_s,
        duration_s=scenario.duration_s, wall_s=elapsed, steps=run.steps, bag=bag,
        events=timeline.events, checks=checks, figures=figures, indicators=INDICATORS))
    failed = [c for c in checks if not c.ok]
    print(f"buddy run --demo: {scenario.duration_s / 60:.0f} min of sim time in "
          f"{elapsed:.1f} s; {len(checks) - len(failed)}/{len(checks)} expected-timeline "
          f"checks hold", flush=True)
    for c in failed:
        print(f"  FAIL {c.name}: {c.detail}")
    print(f"  bag:    {bag}\n  report: {report}")
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="buddy run --demo", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, default=None, help="output directory")
    p.add_argument("--seed", type=int, default=1, help="seed of the scenario (default 1)")
    ns = p.parse_args(argv)
    return run_demo(ns.out, ns.seed)


if __name__ == "__main__":
    sys.exit(main())
