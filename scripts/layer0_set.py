#!/usr/bin/env python3
"""Measure layer 0 on one labelled set of child lines (issue 30 item 3), exactly as
test/unit/cognition/test_layer0_tone.py does: every line asked once in each of
HELDOUT_SEEDS' fresh sessions, with the shipped table.

    .venv/bin/python scripts/layer0_set.py test/data/layer0/heldout_4.yaml
    .venv/bin/python scripts/layer0_set.py SET.yaml --json

The set is YAML in the format of test/data/layer0/heldout_1.yaml (its header explains
the labels): `lines:` a list of [what the child says, intent or list of intents, tone].

Figures (targets in docs/EVALUATION.md): wrong intent = answers (lines x seeds) given by a
row the label does not name, over all answers; wrong tone = answers to a line labelled
negative that are cheerful (a mood of CHEER_MOODS or a line of the cheerful encore, every
variant counts: DESIGN erratum 15). Labels that name no row of the table are listed too:
such a line can only be a miss. Exit 0 when measured (whatever the figures), 2 when the
file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # run from any directory

from buddy_personality.cognition.layer0 import Layer0
from buddy_personality.cognition.layer0.figures import (
    HELDOUT_SEEDS,
    LabelledLine,
    WordsLoader,
    measure_heldout,
)
from buddy_personality.cognition.layer0.table import load_table

TARGET_WRONG_INTENT = 0.05   # issue 30 item 3
TARGET_WRONG_TONE = 0


def load_set(path: Path) -> tuple[list[LabelledLine], list[str]]:
    """The set's lines as figures.load_labelled reads them; an entry that is not
    [say, intent(s), tone] is set aside with the reason, not measured (and not fatal)."""
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=WordsLoader)
    if isinstance(data, list):      # a bare list of lines is read the same way
        data = {"lines": data}
    if not isinstance(data, dict) or not isinstance(data.get("lines"), list):
        raise ValueError("the set needs a top-level 'lines' list")
    lines: list[LabelledLine] = []
    bad: list[str] = []
    for k, raw in enumerate(data["lines"]):
        entry = raw
        if isinstance(raw, dict):     # {say: ..., intent: ..., tone: ...} is accepted too
            entry = [next((raw[key] for key in ("say", "line", "text") if key in raw), None),
                     next((raw[key] for key in ("intent", "intents") if key in raw), None),
                     raw.get("tone")]
        if not (isinstance(entry, list) and len(entry) == 3 and entry[0] is not None
                and isinstance(entry[1], (str, list)) and entry[1]
                and isinstance(entry[2], str)):
            bad.append(f"entry {k}: {entry!r}")
            continue
        say, intents, tone = entry
        names = (intents,) if isinstance(intents, str) else tuple(str(i) for i in intents)
        lines.append(LabelledLine(str(say), names, str(tone)))
    return lines, bad


def measure(path: Path) -> dict[str, object]:
    lines, bad = load_set(path)
    for item in bad:
        print(f"layer0_set: {path}: not measured, not [say, intent, tone]: {item}",
              file=sys.stderr)
    table = load_table()
    figures = measure_heldout(lines, Layer0(table))
    known = {r.intent for r in table.rows}
    unknown = sorted({i for line in lines for i in line.intents} - known)
    out = figures.as_dict()
    out.update(
        set=str(path), seeds=list(HELDOUT_SEEDS), unknown_labels=unknown,
        malformed_entries=bad,
        wrong_intent_percent=round(100.0 * figures.wrong_intent_share, 1),
        tones=dict(Counter(line.tone for line in lines)),
        meets_targets=(figures.wrong_intent_share < TARGET_WRONG_INTENT
                       and figures.wrong_tone <= TARGET_WRONG_TONE and not unknown
                       and not bad),
    )
    return out


def _print_table(out: dict[str, object]) -> None:
    print(f"set {out['set']}: {out['lines']} lines ({out['negative_lines']} negative), "
          f"{out['answers']} answers (seeds {out['seeds']})")
    print(f"  wrong intent   {out['wrong_intent']} / {out['answers']} = "
          f"{out['wrong_intent_percent']} %   (target < {100 * TARGET_WRONG_INTENT:.0f} %)")
    print(f"  cheerful answers to negative lines   {out['wrong_tone']}   "
          f"(target {TARGET_WRONG_TONE})")
    for key, title in (("malformed_entries", "entries not measured (not [say, intent, tone])"),
                       ("unknown_labels", "labels naming no row of the table"),
                       ("wrong_intent_lines", "wrong intent (line -> the row that answered)"),
                       ("wrong_tone_lines", "cheer to a negative line")):
        items = out[key]
        assert isinstance(items, list)
        if items:
            print(f"  {title}:")
            for item in items:
                print(f"    {item}")
    print("  meets the targets" if out["meets_targets"] else "  MISSES the targets")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set", type=Path, help="a labelled set (heldout_*.yaml format)")
    ap.add_argument("--json", action="store_true", help="one JSON object")
    args = ap.parse_args(argv)
    try:
        out = measure(args.set)
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        print(f"layer0_set: cannot read {args.set}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out))
    else:
        _print_table(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
