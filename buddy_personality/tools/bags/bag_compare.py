"""Compare recorded and replayed outputs topic by topic (pure functions, no ROS).

A message is flattened into field paths (`header.stamp`, `records[0].scope`, ...); time
stamps (`builtin_interfaces/Time`) become seconds. Two streams of one topic are aligned
in order (difflib, on the fields that are not stamps), then compared pair by pair:

- strings, integers and booleans exactly;
- floats within `tolerance` (absolute);
- stamps, and the receive time, within the slack the caller gives for that moment (one
  sim step: replay cannot place a message more precisely than the step it ran in);
- a message present on one side only is reported as missing or extra.

Topic rules cover what is not a plain event stream: a state topic that is also refreshed
on a wall-clock timer is compared as the state it settled on at each sim step
(`settled`) and as its sequence of changes (`dedupe`), fields that hold wall-clock or
machine-specific values are ignored, and a topic that carries both inputs and outputs
keeps only the outputs (`keep`).
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

RECEIVED = "(received)"  # pseudo-field: the receive time of the message


@dataclass(slots=True, frozen=True)
class Record:
    """One message of a topic: receive time (s) and flattened fields."""

    t: float
    fields: Mapping[str, Any]


@dataclass(slots=True, frozen=True)
class TopicRule:
    ignore: frozenset[str] = frozenset()  # field paths that are not compared
    dedupe: bool = False   # compare the sequence of changes (state refreshed by a timer)
    settled: bool = False  # only the last message of each receive time (sim step) counts
    keep: Callable[[Mapping[str, Any]], bool] | None = None  # outputs of a mixed topic
    why: str = ""


@dataclass(slots=True, frozen=True)
class Mismatch:
    index: int            # index in the recorded stream (-1: only replayed)
    t: float              # recorded receive time (replayed one for an extra message)
    path: str             # field path, or "" for a whole missing / extra message
    recorded: Any
    replayed: Any

    @property
    def kind(self) -> str:
        if not self.path:
            return "missing" if self.replayed is None else "extra"
        return "field"


@dataclass(slots=True)
class TopicResult:
    topic: str
    recorded: int
    replayed: int
    mismatched: int = 0     # messages with at least one difference (incl. missing/extra)
    missing: int = 0
    extra: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)  # first ones, capped

    @property
    def ok(self) -> bool:
        return self.mismatched == 0


@dataclass(slots=True)
class CompareReport:
    topics: list[TopicResult]
    not_compared: dict[str, str] = field(default_factory=dict)  # topic -> why
    t0: float = 0.0  # times in the text are shown relative to this

    @property
    def ok(self) -> bool:
        return all(t.ok for t in self.topics)

    @property
    def failed(self) -> list[TopicResult]:
        return [t for t in self.topics if not t.ok]


# -- flattening ----------------------------------------------------------------------


def _is_time(value: Mapping[str, Any]) -> bool:
    return set(value) == {"sec", "nanosec"}


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Nested dicts and lists -> {path: leaf}; Time dicts -> float seconds."""
    out: dict[str, Any] = {}
    if isinstance(value, Mapping):
        if _is_time(value) and prefix:
            out[prefix] = value["sec"] + value["nanosec"] * 1e-9
            return out
        for key, sub in value.items():
            out.update(flatten(sub, f"{prefix}.{key}" if prefix else str(key)))
        if not value and prefix:
            out[prefix] = {}
        return out
    if isinstance(value, (list, tuple)):
        out[f"{prefix}.len" if prefix else "len"] = len(value)
        for i, sub in enumerate(value):
            out.update(flatten(sub, f"{prefix}[{i}]"))
        return out
    out[prefix] = value
    return out


def is_stamp(path: str) -> bool:
    return path == RECEIVED or path.endswith("stamp")


# -- comparison ----------------------------------------------------------------------


def _equal(a: Any, b: Any, tolerance: float) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, float) or isinstance(b, float):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            return False
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return abs(a - b) <= tolerance
    return a == b


def _content_key(fields: Mapping[str, Any], ignore: frozenset[str]) -> tuple[Any, ...]:
    """What a message says apart from its stamps, floats coarsened, for alignment."""
    items = []
    for path, value in sorted(fields.items()):
        if path in ignore or is_stamp(path):
            continue
        if isinstance(value, float) and math.isfinite(value):
            key: Any = round(value, 3)
        elif isinstance(value, (dict, list)):
            key = repr(value)
        else:
            key = value
        items.append((path, key))
    return tuple(items)


def apply_rule(records: Sequence[Record], rule: TopicRule) -> list[Record]:
    """Filter a mixed topic to its outputs; reduce a refreshed state to its changes."""
    kept = [r for r in records if rule.keep is None or rule.keep(r.fields)]
    if rule.settled:
        kept = [r for k, r in enumerate(kept) if k + 1 == len(kept) or kept[k + 1].t != r.t]
    if not rule.dedupe:
        return kept
    out: list[Record] = []
    last: tuple[Any, ...] | None = None
    for r in kept:
        key = _content_key(r.fields, rule.ignore)
        if key != last:
            out.append(r)
            last = key
    return out


def diff_pair(rec: Record, rep: Record, *, tolerance: float, slack: float,
              ignore: frozenset[str] = frozenset()) -> list[tuple[str, Any, Any]]:
    """The differing fields of two messages: [(path, recorded, replayed)]."""
    diffs: list[tuple[str, Any, Any]] = []
    # The receive time stands in for a stamp only when the message has none: a latched
    # value is received when the recorder joined, whatever its stamp says.
    has_stamp = any(is_stamp(p) for p in rec.fields)
    if not has_stamp and abs(rec.t - rep.t) > slack + 1e-9:
        diffs.append((RECEIVED, rec.t, rep.t))
    for path in sorted(set(rec.fields) | set(rep.fields)):
        if path in ignore:
            continue
        a = rec.fields.get(path, _ABSENT)
        b = rep.fields.get(path, _ABSENT)
        if a is _ABSENT or b is _ABSENT:
            diffs.append((path, a, b))
        elif is_stamp(path) and isinstance(a, (int, float)) and isinstance(b, (int, float)):
            if abs(a - b) > slack + 1e-9:
                diffs.append((path, a, b))
        elif not _equal(a, b, tolerance):
            diffs.append((path, a, b))
    return diffs


class _Absent:
    def __repr__(self) -> str:
        return "(absent)"


_ABSENT = _Absent()


def compare_topic(topic: str, recorded: Sequence[Record], replayed: Sequence[Record], *,
                  tolerance: float = 1e-6,
                  stamp_slack: Callable[[float], float] = lambda _t: 0.0,
                  rule: TopicRule | None = None, max_mismatches: int = 20) -> TopicResult:
    """Align the two streams of one topic and list their differences."""
    rule = rule or TopicRule()
    rec = apply_rule(recorded, rule)
    rep = apply_rule(replayed, rule)
    result = TopicResult(topic, len(rec), len(rep))

    def note(m: Mismatch) -> None:
        if len(result.mismatches) < max_mismatches:
            result.mismatches.append(m)

    def pair(i: int, j: int) -> None:
        diffs = diff_pair(rec[i], rep[j], tolerance=tolerance,
                          slack=stamp_slack(rec[i].t), ignore=rule.ignore)
        if diffs:
            result.mismatched += 1
            for path, a, b in diffs:
                note(Mismatch(i, rec[i].t, path, a, b))

    def missing(i: int) -> None:
        result.mismatched += 1
        result.missing += 1
        note(Mismatch(i, rec[i].t, "", dict(rec[i].fields), None))

    def extra(j: int) -> None:
        result.mismatched += 1
        result.extra += 1
        note(Mismatch(-1, rep[j].t, "", None, dict(rep[j].fields)))

    keys_a = [_content_key(r.fields, rule.ignore) for r in rec]
    keys_b = [_content_key(r.fields, rule.ignore) for r in rep]
    matcher = difflib.SequenceMatcher(a=keys_a, b=keys_b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op in ("equal", "replace"):
            n = min(i2 - i1, j2 - j1)
            for k in range(n):
                pair(i1 + k, j1 + k)
            for i in range(i1 + n, i2):
                missing(i)
            for j in range(j1 + n, j2):
                extra(j)
        elif op == "delete":
            for i in range(i1, i2):
                missing(i)
        elif op == "insert":
            for j in range(j1, j2):
                extra(j)
    result.mismatches.sort(key=lambda m: (m.t, m.index))
    return result


def compare(recorded: Mapping[str, Sequence[Record]], replayed: Mapping[str, Sequence[Record]],
            *, rules: Mapping[str, TopicRule] | None = None, tolerance: float = 1e-6,
            stamp_slack: Callable[[float], float] = lambda _t: 0.0,
            max_mismatches: int = 20, t0: float = 0.0,
            not_compared: Mapping[str, str] | None = None) -> CompareReport:
    """Compare every recorded topic with its replayed stream (a topic that was recorded
    but never replayed compares against an empty stream)."""
    rules = rules or {}
    results = [
        compare_topic(topic, recorded[topic], replayed.get(topic, ()), tolerance=tolerance,
                      stamp_slack=stamp_slack, rule=rules.get(topic),
                      max_mismatches=max_mismatches)
        for topic in sorted(recorded)
    ]
    skipped = dict(not_compared or {})
    for topic in sorted(set(replayed) - set(recorded)):
        skipped.setdefault(topic, "replayed but not in the bag")
    return CompareReport(results, skipped, t0)


# -- presentation --------------------------------------------------------------------


def _short(value: Any, width: int = 60) -> str:
    if value is _ABSENT:
        return "(absent)"
    if isinstance(value, float):
        text = f"{value:.6g}"
    elif isinstance(value, dict):
        text = ", ".join(f"{k}={_short(v, 20)}" for k, v in value.items()
                         if not is_stamp(k) and not k.startswith("header"))
        text = "{" + text + "}"
    else:
        text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def format_mismatch(m: Mismatch, t0: float) -> str:
    when = f"t={m.t - t0:+.3f}s"
    where = f"#{m.index}" if m.index >= 0 else "#-"
    if m.kind == "missing":
        return f"  {where} {when}  missing in replay: {_short(m.recorded, 90)}"
    if m.kind == "extra":
        return f"  {where} {when}  extra in replay: {_short(m.replayed, 90)}"
    numeric = (isinstance(m.recorded, (int, float)) and isinstance(m.replayed, (int, float))
               and not isinstance(m.recorded, bool))
    if numeric and is_stamp(m.path):  # times read better relative to the bag's start
        return (f"  {where} {when}  {m.path}: recorded {m.recorded - t0:+.3f}s, "
                f"replayed {m.replayed - t0:+.3f}s")
    delta = f"  (|diff| {abs(m.recorded - m.replayed):.3g})" if numeric else ""
    return (f"  {where} {when}  {m.path}: recorded {_short(m.recorded)}, "
            f"replayed {_short(m.replayed)}{delta}")


def format_report(report: CompareReport, max_per_topic: int = 5) -> str:
    """A readable diff: per failing topic its counts and first mismatches."""
    lines: list[str] = []
    failed = report.failed
    total = sum(t.recorded for t in report.topics)
    if not failed:
        lines.append(f"MATCH: {len(report.topics)} topics, {total} recorded messages "
                     "replayed identically")
    else:
        lines.append(f"MISMATCH on {len(failed)} of {len(report.topics)} compared topics "
                     f"({total} recorded messages)")
    for t in report.topics:
        status = "ok" if t.ok else "DIFFERS"
        detail = (f"{t.mismatched} differing ({t.missing} missing, {t.extra} extra)"
                  if not t.ok else "")
        lines.append(f"{status:>7}  {t.topic}  recorded {t.recorded}, replayed {t.replayed}"
                     + (f"; {detail}" if detail else ""))
        for m in t.mismatches[:max_per_topic]:
            lines.append(format_mismatch(m, report.t0))
        hidden = len(t.mismatches) - max_per_topic
        if not t.ok and (hidden > 0 or t.mismatched > len(t.mismatches)):
            lines.append("  ... (more differences not shown)")
    for topic, why in sorted(report.not_compared.items()):
        lines.append(f"{'skipped':>7}  {topic}  ({why})")
    return "\n".join(lines)


def report_json(report: CompareReport) -> dict[str, Any]:
    def value(v: Any) -> Any:
        if v is _ABSENT:
            return "(absent)"
        if isinstance(v, float) and not math.isfinite(v):
            return None
        if isinstance(v, dict):
            return {k: value(x) for k, x in v.items()}
        return v

    return {
        "match": report.ok,
        "topics": {
            t.topic: {
                "ok": t.ok, "recorded": t.recorded, "replayed": t.replayed,
                "mismatched": t.mismatched, "missing": t.missing, "extra": t.extra,
                "first_mismatches": [
                    {"index": m.index, "t": round(m.t - report.t0, 6), "kind": m.kind,
                     "path": m.path, "recorded": value(m.recorded),
                     "replayed": value(m.replayed)}
                    for m in t.mismatches],
            } for t in report.topics
        },
        "not_compared": dict(report.not_compared),
    }
