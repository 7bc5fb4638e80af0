"""`buddy eval`: spec 002 Appendix A.2 success indicators over a bag or a simulated day.

    buddy eval BAG [--json] [--plot FILE.png]
    buddy eval --simulate-day [--seed N] [--json] [--plot FILE.png]

How to read the figures: docs/EVALUATION.md.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buddy_personality.tools.evaluation import metrics as m

INDICATORS: tuple[tuple[str, str, str, float], ...] = (
    # key, A.2 indicator, comparison, threshold (definitions: DESIGN §6.13)
    ("mood_cv", "Emotional consistency: mood-class CV", "<", m.CV_MAX),
    ("arc_smoothness", "Temporal coherence: arc smoothness (per reply)", "<",
     m.ARC_SMOOTHNESS_MAX),
    ("idle_aliveness", "Idle aliveness: idle time not NEUTRAL", ">", m.IDLE_ALIVENESS_MIN),
    ("idle_switches_per_min", "No emotional randomness: idle switches/min", "<",
     m.IDLE_SWITCHES_PER_MIN_MAX),
    ("greeting_accuracy", "Relationship continuity: greeting accuracy", ">",
     m.GREETING_ACCURACY_MIN),
)


def _mean(xs: Sequence[float]) -> float:
    xs = [x for x in xs if not math.isnan(x)]
    return sum(xs) / len(xs) if xs else math.nan


def _mean_shares(vectors: Sequence[dict[str, float]]) -> dict[str, float]:
    """The mean of per-session share vectors (each session counts once; pooling their
    samples would let the idle gap after a session's last snapshot count as its time)."""
    if not vectors:
        return {}
    keys = sorted({k for v in vectors for k in v})
    return {k: sum(v.get(k, 0.0) for v in vectors) / len(vectors) for k in keys}


def passes(value: float, op: str, threshold: float) -> bool | None:
    if math.isnan(value):
        return None
    return value < threshold if op == "<" else value > threshold


def evaluate(samples: Sequence[m.Sample], speaking_starts: Sequence[float] | None = None,
             greetings: Sequence[m.Greeting] | None = None,
             baseline: tuple[float, float] = m.CANONICAL_BASELINE,
             safety_stops: Sequence[float] = ()) -> dict[str, Any]:
    """Every indicator of the timeline, as a flat JSON-ready dict (NaN where undefined).

    `speaking_starts`: when each reply's SPEAKING phase began (sorted; None when the
    source has no phases); `greetings`: the sessions that qualify for relationship
    continuity (None when the source cannot tell); `safety_stops`: when sessions were
    ended by HC-9 (DESIGN §6.15). A figure resting on too little data
    is NaN and `not_applicable` says why; `pass` is then None, never a verdict.
    """
    all_sessions = m.sessions(samples)
    llm_sessions = [s for s in all_sessions if m.session_layer(s) == m.LAYER_LLM]
    rule_sessions = [s for s in all_sessions if m.session_layer(s) == m.LAYER_RULES]
    switches, idle_min = m.idle_switches(samples)
    l0_switches, l0_idle_min = m.idle_switches(samples, layer=m.LAYER_RULES)
    durs = m.durations(samples)
    l0_minutes = sum(d for s, d in zip(samples, durs, strict=True)
                     if s.layer == m.LAYER_RULES) / 60.0
    l0_samples = [s for s in samples if s.layer == m.LAYER_RULES]
    starts = sorted(speaking_starts) if speaking_starts is not None else []

    def reply_arcs(sessions: Sequence[Sequence[m.Sample]]) -> list[float]:
        out = []
        for ses in sessions:
            points = m.reply_arc_points(ses, starts)
            if len(points) - 1 >= m.ARC_MIN_REPLIES:
                out.append(m.reply_arc_ratio(points, baseline))
        return out

    arcs = reply_arcs(all_sessions)
    llm_arcs = reply_arcs(llm_sessions)
    na: dict[str, str] = {}
    # A session of one or two replies (a child who only said hello, an HC-9 stop) has no
    # mood distribution to compare: the CV uses the sessions the arc uses, when the source
    # tells the replies apart.
    # A session ended by HC-9 shows the calm face by rule from the distress on: a safety
    # stop, not the personality's expression, so it is left out like layer-0 sessions.
    cv_sessions = [s for s in llm_sessions
                   if not any(s[0].t <= t <= s[-1].t for t in safety_stops)]
    if speaking_starts is not None:
        cv_sessions = [s for s in cv_sessions
                       if m.session_replies(s, starts) >= m.ARC_MIN_REPLIES]
    cv = m.mood_class_cv([m.class_shares(s) for s in cv_sessions])
    if len(cv_sessions) < m.CV_MIN_SESSIONS:
        na["mood_cv"] = (f"{len(cv_sessions)} layer-1 sessions with {m.ARC_MIN_REPLIES} or "
                         f"more replies (needs {m.CV_MIN_SESSIONS})")
    if speaking_starts is None:
        na["arc_smoothness"] = "no conversation phases in the source"
    elif not [a for a in arcs if not math.isnan(a)]:
        na["arc_smoothness"] = f"no session with {m.ARC_MIN_REPLIES} or more replies"
    if idle_min < m.IDLE_MIN_MINUTES:
        na["idle_aliveness"] = na["idle_switches_per_min"] = (
            f"{idle_min:.0f} idle minutes (needs {m.IDLE_MIN_MINUTES:.0f})")
    if greetings is None:
        na["greeting_accuracy"] = "the source does not tell who Buddy talked with"
    elif len(greetings) < m.GREETING_MIN_SESSIONS:
        na["greeting_accuracy"] = (f"{len(greetings)} sessions with a known, confirmed "
                                   f"child (needs {m.GREETING_MIN_SESSIONS})")
    report: dict[str, Any] = {
        "mood_cv": cv,
        "arc_smoothness": _mean(arcs),
        "idle_aliveness": m.idle_aliveness(samples),
        "idle_switches_per_min": switches / idle_min if idle_min > 0 else math.nan,
        "greeting_accuracy": m.greeting_accuracy(greetings or []),
    }
    for key in na:
        report[key] = math.nan
    report.update({
        "not_applicable": na,
        # supporting figures
        "mood_cv_sessions": len(cv_sessions),
        "sessions_stopped_by_hc9": len(safety_stops),
        "mood_cv_all_sessions": m.mood_class_cv([m.class_shares(s) for s in llm_sessions]),
        "mood_class_shares": _mean_shares([m.class_shares(s) for s in cv_sessions]),
        "arc_sessions": len(arcs),
        "arc_smoothness_max": max((a for a in arcs if not math.isnan(a)), default=math.nan),
        "arc_smoothness_per_session": arcs,
        # the sessions whose replies the LLM chose: what an LLM control changes
        "arc_smoothness_layer1": _mean(llm_arcs),
        "arc_sessions_layer1": len(llm_arcs),
        "greeting_sessions": len(greetings) if greetings is not None else None,
        "greetings_missed": [g.first_reply for g in (greetings or []) if not g.addressed],
        "sessions": len(all_sessions),
        "session_minutes": [round(sum(m.durations(s)) / 60.0, 2) for s in all_sessions],
        "idle_aliveness_first_5_min": m.recent_idle_aliveness(samples, m.IDLE_02_WINDOW_S),
        "idle_minutes": idle_min,
        "idle_switches": switches,
        "idle_states": m.idle_state_shares(samples),
        "mood_switches_per_min": m.mood_switches_per_min(samples),
        "mood_shares": m.mood_shares(samples),
        "session_mood_shares": _mean_shares([m.mood_shares(s) for s in llm_sessions]),
        # the figures of the first evaluation, kept for comparison (docs/EVALUATION.md):
        # the CV over the 13 moods, and the arc over every snapshot of a session
        "mood_cv_13_moods": m.mood_cv([m.mood_shares(s) for s in llm_sessions]),
        "arc_smoothness_all_snapshots": _mean(m.arc_smoothness(all_sessions)),
        "layer0": {
            "minutes": l0_minutes,
            "sessions": len(rule_sessions),
            "idle_aliveness": m.idle_aliveness(samples, layer=m.LAYER_RULES),
            "idle_switches_per_min": (l0_switches / l0_idle_min if l0_idle_min > 0
                                      else math.nan),
            "mood_switches_per_min": m.mood_switches_per_min(l0_samples),
            "session_mood_shares": _mean_shares([m.mood_shares(s) for s in rule_sessions]),
            "arc_smoothness": _mean(reply_arcs(rule_sessions)),
        },
        "samples": len(samples),
    })
    report["pass"] = {key: passes(report[key], op, thr) for key, _, op, thr in INDICATORS}
    return report


def _jsonable(obj: Any) -> Any:
    """NaN (undefined) becomes null; floats are rounded to 6 places for a stable print."""
    if isinstance(obj, float):
        return None if math.isnan(obj) or math.isinf(obj) else round(obj, 6)
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_jsonable(v) for v in obj]
    return obj


def _fmt(value: float, key: str) -> str:
    if math.isnan(value):
        return "n/a"
    if key in ("idle_aliveness", "greeting_accuracy"):
        return f"{value:.1%}"
    return f"{value:.3f}"


def render_table(report: dict[str, Any], title: str) -> Any:
    """A rich Table of the A.2 indicators with thresholds and pass/fail."""
    from rich.table import Table  # noqa: PLC0415

    table = Table(title=title)
    table.add_column("indicator (spec 002 A.2)")
    table.add_column("value", justify="right")
    table.add_column("criterion", justify="right")
    table.add_column("result")
    for key, label, op, thr in INDICATORS:
        ok = report["pass"][key]
        thr_s = f"{thr:.0%}" if key in ("idle_aliveness", "greeting_accuracy") else f"{thr:g}"
        result = "[green]pass[/]" if ok else ("[red]FAIL[/]" if ok is False else "n/a")
        why = report.get("not_applicable", {}).get(key)
        table.add_row(label, _fmt(report[key], key), f"{op} {thr_s}",
                      f"{result} ({why})" if why else result)
    l0 = report["layer0"]
    table.add_section()
    table.add_row("Layer 0 (server down): idle aliveness",
                  _fmt(l0["idle_aliveness"], "idle_aliveness"), "", "")
    table.add_row("Layer 0 (server down): idle switches/min",
                  _fmt(l0["idle_switches_per_min"], ""), "", "")
    table.add_row("Layer 0 sessions / minutes", f"{l0['sessions']} / {l0['minutes']:.0f}", "",
                  "")
    table.caption = (f"{report['sessions']} sessions ({report['mood_cv_sessions']} on layer 1 "
                     f"used for the CV), {report['idle_minutes']:.0f} idle minutes")
    return table


def _progress() -> Any:
    from rich.progress import (  # noqa: PLC0415
        BarColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("{task.description}"), BarColumn(), TextColumn(
        "{task.percentage:>3.0f}%"), TimeRemainingColumn(), transient=True,
        console=_stderr_console())


def _stderr_console() -> Any:
    from rich.console import Console  # noqa: PLC0415

    return Console(stderr=True)


@dataclass(slots=True)
class Source:
    """What to evaluate: the snapshots, each reply's SPEAKING start (None when unknown),
    the greeting sessions (None when the source cannot tell), a title and report facts."""

    samples: list[m.Sample]
    speaking_starts: list[float] | None
    greetings: list[m.Greeting] | None
    title: str
    facts: dict[str, Any]
    safety_stops: list[float] = field(default_factory=list)


def load_timeline(ns: argparse.Namespace) -> Source:
    with _progress() as bar:
        if ns.simulate_day:
            from buddy_personality.tools.sim.sim_day import (  # noqa: PLC0415
                DAY_S,
                SERVER_CHARS_PER_S,
                simulate_day,
            )

            speed = ns.server_chars_per_s or SERVER_CHARS_PER_S

            task = bar.add_task(f"simulating a day (seed {ns.seed})", total=DAY_S)
            day = simulate_day(ns.seed, progress=lambda k: bar.update(task, completed=k),
                               conversations=ns.conversations,
                               shuffle_emotions=ns.shuffle_emotions,
                               random_emotions=ns.random_emotions,
                               server_chars_per_s=speed)
            facts = {"source": f"simulated day, seed {ns.seed}",
                     "corpus": day.corpus,
                     "emotions_shuffled": ns.shuffle_emotions,
                     "emotions_random": ns.random_emotions,
                     "server_chars_per_s": speed,
                     "conversations_held": len(day.conversations),
                     "replies": day.replies,
                     "layer0_replies": day.layer0_replies,
                     "names_in_prompt": f"{sum(day.names_in_prompt)}/"
                                        f"{len(day.names_in_prompt)}",
                     "sessions_cut_short": day.sessions_cut_short,
                     "guardrail_events": day.guardrails,
                     "engine": day.engine_stats}
            title = f"Simulated day, seed {ns.seed}" + (
                ", emotions random" if ns.random_emotions else
                ", emotions shuffled" if ns.shuffle_emotions else "")
            return Source(day.samples, day.speaking_starts, day.greetings, title, facts,
                          day.safety_stops)
        from buddy_personality.tools.bags.bag_timeline import (  # noqa: PLC0415
            read_snapshots,
            read_speaking_starts,
        )

        task = bar.add_task(f"reading {ns.bag}", total=None)
        samples = read_snapshots(ns.bag, progress=lambda i, n: bar.update(
            task, completed=i, total=n))
        return Source(samples, read_speaking_starts(ns.bag), None, f"Bag {ns.bag}",
                      {"source": str(ns.bag)})


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="buddy eval", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bag", nargs="?", type=Path, help="rosbag2 directory or .mcap file")
    p.add_argument("--simulate-day", action="store_true",
                   help="drive the personality engine through a scripted 24 h day")
    p.add_argument("--seed", type=int, default=1, help="seed of the simulated day")
    p.add_argument("--conversations", type=Path, default=None, metavar="FILE",
                   help="conversation corpus (JSON Lines, docs/EVALUATION.md) for the "
                        "simulated day; default: the shipped corpus")
    p.add_argument("--shuffle-emotions", action="store_true",
                   help="replace each reply's emotion with one drawn at random from the "
                        "corpus (an incoherent LLM: the control for arc smoothness)")
    p.add_argument("--random-emotions", action="store_true",
                   help="replace each reply's emotion with one of the 13 moods drawn "
                        "uniformly (an LLM whose emotions are noise)")
    p.add_argument("--server-chars-per-s", type=float, default=None, metavar="N",
                   help="how fast the simulated LLM server streams its answer (default 160, "
                        "~40 tokens/s; 80 = a slow server: a filler line before every "
                        "answer)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", type=Path, default=None, metavar="FILE.png",
                   help="draw the VA trajectory over the 13 anchors and a mood timeline")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    ns = parser.parse_args(argv)
    if ns.simulate_day == (ns.bag is not None):
        parser.error("give either a BAG or --simulate-day")
    if not ns.simulate_day and (ns.conversations is not None or ns.shuffle_emotions
                                or ns.random_emotions):
        parser.error("--conversations, --shuffle-emotions and --random-emotions need "
                     "--simulate-day")
    if ns.shuffle_emotions and ns.random_emotions:
        parser.error("give --shuffle-emotions or --random-emotions, not both")
    if ns.server_chars_per_s is not None and ns.server_chars_per_s <= 0:
        parser.error("--server-chars-per-s must be positive")
    try:
        source = load_timeline(ns)
    except ValueError as exc:  # BagError, CorpusError (names the line and field)
        print(f"buddy eval: {exc}", file=sys.stderr)
        return 2
    samples, title, facts = source.samples, source.title, source.facts
    if len(samples) < 2:
        print("buddy eval: fewer than two snapshots: nothing to evaluate", file=sys.stderr)
        return 2
    report = {**evaluate(samples, source.speaking_starts, source.greetings,
                         safety_stops=source.safety_stops), **facts}
    if ns.plot is not None:
        from buddy_personality.tools.evaluation.eval_plot import plot_timeline  # noqa: PLC0415

        with _stderr_console().status(f"drawing {ns.plot}"):  # ~1 s for a whole day
            plot_timeline(samples, ns.plot, title=title,
                          speaking_starts=source.speaking_starts or [])
    if ns.json:
        print(json.dumps(_jsonable(report), sort_keys=False))
    else:
        from rich.console import Console  # noqa: PLC0415

        console = Console()
        console.print(render_table(report, title))
        if ns.plot is not None:
            console.print(f"plot written to {ns.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
