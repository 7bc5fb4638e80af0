"""`buddy eval --plot`: the valence/arousal trajectory over the 13 mood anchors of spec 002
§4.1 and a mood timeline, for a person to look at (matplotlib, Agg backend)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display needed (robots and CI have none)
import matplotlib.pyplot as plt

from buddy_personality.personality.moods import MOOD_ANCHORS, NEGATIVE_MOODS
from buddy_personality.tools.evaluation.metrics import (
    LAYER_RULES,
    Sample,
    reply_arc_points,
    sessions,
    spans,
)

MOOD_ORDER = ("sad", "scared", "angry", "confused", "sleepy", "neutral", "thinking",
              "surprised", "curious", "love", "happy", "silly", "excited")


def plot_timeline(samples: Sequence[Sample], path: Path | str, *, title: str = "",
                  speaking_starts: Sequence[float] = ()) -> Path:
    """Write a two-panel PNG: the VA plane (idle grey, conversations coloured, each
    session's per-reply arc points of DESIGN §6.13 joined in blue) and the mood over time
    (conversations, sleep and layer-0 stretches shaded), so a person sees at a glance
    where Buddy was asleep, awake and talking."""
    path = Path(path)
    fig = plt.figure(figsize=(13, 6.5))
    grid = fig.add_gridspec(1, 2, width_ratios=(1, 1.5))
    va = fig.add_subplot(grid[0, 0])
    tl = fig.add_subplot(grid[0, 1])

    # VA plane with the labelled anchors
    for name, (v, a) in MOOD_ANCHORS.items():
        colour = "tab:red" if name in NEGATIVE_MOODS else "tab:blue"
        va.scatter([v], [a], s=60, marker="s", color=colour, zorder=3)
        va.annotate(name, (v, a), textcoords="offset points", xytext=(5, 5), fontsize=8)
    for span in spans(samples):
        part = samples[span.start:span.stop]
        xs = [s.valence for s in part]
        ys = [s.arousal for s in part]
        if span.conversation:
            va.plot(xs, ys, lw=0.8, alpha=0.8, color="tab:orange")
        else:
            va.plot(xs, ys, lw=0.4, alpha=0.4, color="grey")
    starts = sorted(speaking_starts)
    arcs = 0
    for ses in sessions(samples):
        pts = reply_arc_points(ses, starts)
        if len(pts) > 1:
            arcs += 1
            va.plot([p[0] for p in pts], [p[1] for p in pts], lw=0.7, alpha=0.6,
                    color="tab:blue", marker="o", ms=2.5, zorder=4)
    va.plot([], [], color="tab:orange", label="in conversation")
    va.plot([], [], color="grey", label="idle")
    if arcs:
        va.plot([], [], color="tab:blue", marker="o", ms=3,
                label="arc: session start, then each reply as it is spoken")
    va.set_xlim(-1, 1)
    va.set_ylim(-1, 1)
    va.axhline(0, color="k", lw=0.3)
    va.axvline(0, color="k", lw=0.3)
    va.set_xlabel("valence")
    va.set_ylabel("arousal")
    va.set_aspect("equal")
    va.legend(loc="lower right", fontsize=8)
    va.set_title("affect trajectory over the spec 002 §4.1 anchors")

    # mood timeline (hours since the first sample)
    t0 = samples[0].t if samples else 0.0
    index = {name: i for i, name in enumerate(MOOD_ORDER)}
    hours = [(s.t - t0) / 3600.0 for s in samples]
    tl.step(hours, [index.get(s.mood, -1) for s in samples], where="post", lw=0.7)
    for span in spans(samples):
        if span.conversation:
            t_a = hours[span.start]
            t_b = hours[min(span.stop, len(samples) - 1)]
            tl.axvspan(t_a, t_b, color="tab:orange", alpha=0.25, lw=0)
    start = None
    for i, s in enumerate([*samples, None]):
        rules = s is not None and s.layer == LAYER_RULES
        if rules and start is None:
            start = i
        elif not rules and start is not None:
            tl.axvspan(hours[start], hours[i - 1], color="tab:purple", alpha=0.1, lw=0)
            start = None
    start = None
    for i, s in enumerate([*samples, None]):  # drowsy / asleep (DESIGN §6.11)
        sleeping = s is not None and s.idle_state != 0 and not s.conversation_active
        if sleeping and start is None:
            start = i
        elif not sleeping and start is not None:
            tl.axvspan(hours[start], hours[i - 1], color="tab:cyan", alpha=0.18, lw=0)
            start = None
    tl.axvspan(0, 0, color="tab:cyan", alpha=0.18, label="drowsy / asleep")
    tl.axvspan(0, 0, color="tab:orange", alpha=0.25, label="conversation")
    tl.axvspan(0, 0, color="tab:purple", alpha=0.1, label="layer 0 (no server)")
    tl.set_yticks(range(len(MOOD_ORDER)), MOOD_ORDER, fontsize=8)
    tl.set_xlabel("hours")
    tl.set_title("mood over time")
    tl.legend(loc="upper right", fontsize=8)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
