"""Train the output guard's learned lexicon (issue 27, task CL; `safety/learned.py`).

    .venv/bin/python scripts/train_safety_lexicon.py            # writes the table
    .venv/bin/python scripts/train_safety_lexicon.py --check    # retrains, compares bytes
    .venv/bin/python scripts/train_safety_lexicon.py --leave-out round23 --out /tmp/t.tsv

Data: every labelled round of test/data/safety/roundN/replies.jsonl (`expect` refuse ->
its `rule`, speak -> SAFE) and the shipped corpus (unsafe_replies.jsonl by rule,
benign_replies.jsonl and affect_replies.jsonl as SAFE), and Buddy's own fixed lines as
SAFE (layer 0's table, the rules' safe lines, the closing, lockout and HC-9 lines: a line
Buddy says of itself, "No tummy in here, just wires!", must never be refused), and the
replies of the simulated day's conversations (tools/sim/data/conversations.jsonl, all
benign) as SAFE. Model: multinomial logistic
regression over `learned.features` (normalised words and clause word pairs seen in at
least MIN_COUNT lines), L2, full-batch Adam from zero for a fixed number of steps: no
randomness, so the same data always gives the same table. Weights are rounded to 4
decimals; features whose every weight is under PRUNE are left out of the table.

The threshold is not fitted here: THRESHOLD was chosen by leave-one-round-out over rounds
9-23 (docs/SAFETY.md, "The learned lexicon") so that the rules OR the lexicon refuse at
most 1.5 % of the benign lines of a round the lexicon never saw.
The table records the SHA-256 of its training data and settings (`data_sha256`), so a
test can tell that the committed table is current without retraining.
Exit status: 0 written / identical; 1 `--check` found a different table; 2 bad data.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from buddy_personality.cognition.layer0.respond import render  # noqa: E402
from buddy_personality.cognition.layer0.table import load_table  # noqa: E402
from buddy_personality.cognition.lines import CLOSING_LINES, LOCKOUT_LINE  # noqa: E402
from buddy_personality.safety.learned import (  # noqa: E402
    BIAS,
    SAFE,
    TABLE_PATH,
    text_features,
)
from buddy_personality.safety.output_rules import GUARD_TABLE  # noqa: E402
from buddy_personality.safety.speech_safety import HC9_LINE  # noqa: E402

DATA = ROOT / "test" / "data" / "safety"
SIM = ROOT / "buddy_personality" / "tools" / "sim" / "data" / "conversations.jsonl"
CORPUS = (("unsafe_replies.jsonl", None), ("benign_replies.jsonl", SAFE),
          ("affect_replies.jsonl", SAFE))
FEATURE_VERSION = "words+clause-bigrams/1"
MIN_COUNT = 2
L2 = 1e-3
STEPS = 300
LEARNING_RATE = 0.1
PRUNE = 0.005
THRESHOLD = 0.79


def round_names() -> list[str]:
    names = [p.name for p in DATA.glob("round*") if (p / "replies.jsonl").is_file()]
    return sorted(names, key=lambda n: int(n[5:]))


def _jsonl(path: Path) -> list[dict[str, object]]:
    rows = []
    with path.open(encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                d = json.loads(raw)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{n}: {e}") from None
            if "note" not in d:
                rows.append(d)
    return rows


def load(leave_out: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(label, text) of every training line, in a fixed order."""
    out: list[tuple[str, str]] = []
    for name in round_names():
        if name in leave_out:
            continue
        for d in _jsonl(DATA / name / "replies.jsonl"):
            expect = d.get("expect")
            if expect not in ("refuse", "speak"):
                raise ValueError(f"{name}: a line without expect refuse|speak: {d}")
            out.append((str(d["rule"]) if expect == "refuse" else SAFE, str(d["text"])))
    if "corpus" not in leave_out:
        for file, label in CORPUS:
            for d in _jsonl(DATA / file):
                reply = d["reply"]
                assert isinstance(reply, dict)
                out.append((label or str(d["rule"]), str(reply["text"])))
    if "own" not in leave_out:
        out += [(SAFE, line) for line in own_lines()]
    if "sim" not in leave_out:
        for d in _jsonl(SIM):
            turns = d.get("turns")
            assert isinstance(turns, list)
            out += [(SAFE, str(t["reply"]["text"])) for t in turns
                    if isinstance(t.get("reply"), dict) and "text" in t["reply"]]
    return out


def own_lines() -> list[str]:
    """Every fixed line Buddy says, as test_safety_rules and test_layer0_table check that
    they pass the guard (layer 0's answers and encores rendered with and without a name)."""
    lines = [r.replacement for r in GUARD_TABLE] + [HC9_LINE, LOCKOUT_LINE]
    lines += list(CLOSING_LINES.values())
    table = load_table()
    answers = [a for r in table.rows for a in r.answers]
    answers += [a for encore in table.encore.values() for a in encore]
    lines += [render(a, name, "pancake") for a in answers for name in ("", "Leo")]
    return lines


def data_hash(rows: list[tuple[str, str]]) -> str:
    h = hashlib.sha256()
    h.update(json.dumps([FEATURE_VERSION, MIN_COUNT, L2, STEPS, LEARNING_RATE, PRUNE,
                         THRESHOLD]).encode())
    for label, text in rows:
        h.update(f"{label}\t{text}\n".encode())
    return h.hexdigest()


def train(rows: list[tuple[str, set[str]]], *, l2: float = L2, steps: int = STEPS,
          min_count: int = MIN_COUNT, lr: float = LEARNING_RATE
          ) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
    """Softmax regression on binary features: (classes, vocabulary, W [F x C], b [C])."""
    df = Counter(f for _, fs in rows for f in fs)
    vocab = sorted(f for f, c in df.items() if c >= min_count)
    at = {f: i for i, f in enumerate(vocab)}
    classes = sorted({y for y, _ in rows})
    cls = {c: i for i, c in enumerate(classes)}
    n, nf, nc = len(rows), len(vocab), len(classes)
    idx: list[int] = []
    row: list[int] = []
    for r, (_, fs) in enumerate(rows):
        ii = sorted(at[f] for f in fs if f in at) or [nf]   # nf: a dummy, weight kept 0
        idx += ii
        row += [r] * len(ii)
    idx_a = np.array(idx, dtype=np.int64)
    row_a = np.array(row, dtype=np.int64)
    row_start = np.flatnonzero(np.r_[True, row_a[1:] != row_a[:-1]])
    perm = np.argsort(idx_a, kind="stable")
    by_feature = idx_a[perm]
    f_start = np.flatnonzero(np.r_[True, by_feature[1:] != by_feature[:-1]])
    f_ids = by_feature[f_start]
    y = np.zeros((n, nc))
    y[np.arange(n), [cls[c] for c, _ in rows]] = 1.0
    w = np.zeros((nf + 1, nc))
    b = np.zeros(nc)
    m_w, v_w, m_b, v_b = np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)
    b1, b2, eps = 0.9, 0.999, 1e-8
    for t in range(1, steps + 1):
        z = np.add.reduceat(w[idx_a], row_start, axis=0) + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - y) / n
        g_w = np.zeros_like(w)
        g_w[f_ids] = np.add.reduceat(g[row_a[perm]], f_start, axis=0)
        g_w += l2 * w
        g_w[nf] = 0.0
        g_b = g.sum(axis=0)
        m_w = b1 * m_w + (1 - b1) * g_w
        v_w = b2 * v_w + (1 - b2) * g_w * g_w
        m_b = b1 * m_b + (1 - b1) * g_b
        v_b = b2 * v_b + (1 - b2) * g_b * g_b
        w -= lr * (m_w / (1 - b1 ** t)) / (np.sqrt(v_w / (1 - b2 ** t)) + eps)
        b -= lr * (m_b / (1 - b1 ** t)) / (np.sqrt(v_b / (1 - b2 ** t)) + eps)
    return classes, vocab, w[:nf], b


def _num(x: float) -> str:
    s = f"{x:.4f}"
    return "0.0000" if s == "-0.0000" else s


def table(rows: list[tuple[str, str]], leave_out: frozenset[str]) -> str:
    classes, vocab, w, b = train([(y, text_features(t)) for y, t in rows])
    out = ["# Learned lexicon of the output guard (issue 27, task CL): softmax weights per",
           "# feature and class; written by scripts/train_safety_lexicon.py, never by hand.",
           "# A line is refused when 1 - P(SAFE) >= threshold (safety/learned.py).",
           f"# threshold\t{THRESHOLD}",
           f"# data_sha256\t{data_hash(rows)}",
           f"# lines\t{len(rows)}",
           f"# left_out\t{','.join(sorted(leave_out)) or '-'}",
           "\t".join(("feature", *classes)),
           "\t".join((BIAS, *(_num(x) for x in b)))]
    for f, weights in zip(vocab, w, strict=True):
        if float(np.abs(weights).max()) < PRUNE:
            continue
        out.append("\t".join((f, *(_num(float(x)) for x in weights))))
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=TABLE_PATH)
    ap.add_argument("--leave-out", action="append", default=[],
                    help="a round name (round23), 'corpus', 'own' or 'sim' to leave out "
                         "(repeatable)")
    ap.add_argument("--check", action="store_true",
                    help="retrain and compare with --out byte for byte; write nothing")
    args = ap.parse_args(argv)
    leave_out = frozenset(args.leave_out)
    try:
        rows = load(leave_out)
    except (OSError, ValueError, KeyError) as e:
        print(f"train_safety_lexicon: cannot read the data: {e}", file=sys.stderr)
        return 2
    text = table(rows, leave_out)
    if args.check:
        same = args.out.is_file() and args.out.read_text(encoding="utf-8") == text
        print(f"train_safety_lexicon: {args.out} is {'current' if same else 'NOT current'}")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"train_safety_lexicon: wrote {args.out} ({len(rows)} lines, "
          f"{text.count(chr(10)) - 9} features)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
