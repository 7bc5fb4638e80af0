"""Figures of layer 0 over a corpus of child lines (issue 15, spec 002 A.2 "server
resilience"): how often nothing was understood, which moods the replies carry, how often
a reply repeats within a session, and how many replies end with a question (§12.4).

`python -m buddy_personality.cognition.layer0.figures CORPUS.yaml` prints them as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

import yaml

from buddy_personality.cognition.layer0.respond import REPEAT_WINDOW, Layer0, Layer0Answer
from buddy_personality.cognition.layer0.table import YAML_LOADER


@dataclass(slots=True)
class CorpusFigures:
    lines: int = 0
    sessions: int = 0
    generic: int = 0
    moods: dict[str, int] = field(default_factory=dict)
    intents: dict[str, int] = field(default_factory=dict)
    ending_with_question: int = 0
    repeats_within_window: int = 0
    unanswered: list[str] = field(default_factory=list)   # lines the fallback answered

    @property
    def generic_share(self) -> float:
        return self.generic / self.lines if self.lines else 0.0

    @property
    def top_mood_share(self) -> float:
        return max(self.moods.values()) / self.lines if self.lines else 0.0

    @property
    def question_share(self) -> float:
        return self.ending_with_question / self.lines if self.lines else 0.0

    def as_dict(self) -> dict[str, object]:
        out = asdict(self)
        out.update(generic_share=round(self.generic_share, 3),
                   top_mood_share=round(self.top_mood_share, 3),
                   question_share=round(self.question_share, 3),
                   distinct_moods=len(self.moods), repeat_window=REPEAT_WINDOW)
        return out


def load_sessions(path: Path) -> list[list[str]]:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=YAML_LOADER)
    return [[str(line) for line in s["lines"]] for s in data["sessions"]]


def run_sessions(sessions: list[list[str]], seed: int = 0, name: str = "",
                 memories_allowed: bool = False,
                 layer0: Layer0 | None = None) -> tuple[CorpusFigures, list[list[Layer0Answer]]]:
    layer0 = layer0 or Layer0()
    rng = random.Random(seed)
    figures = CorpusFigures(sessions=len(sessions))
    moods: Counter[str] = Counter()
    intents: Counter[str] = Counter()
    answers: list[list[Layer0Answer]] = []
    for k, lines in enumerate(sessions):
        got = [layer0.answer(line, rng, f"corpus-{k}", name, memories_allowed)
               for line in lines]
        answers.append(got)
        for i, (line, a) in enumerate(zip(lines, got, strict=True)):
            figures.lines += 1
            moods[a.emotion] += 1
            intents[a.intent] += 1
            if a.generic:
                figures.generic += 1
                figures.unanswered.append(line)
            if a.text.rstrip().endswith("?"):
                figures.ending_with_question += 1
            if a.text in (b.text for b in got[max(0, i - REPEAT_WINDOW + 1):i]):
                figures.repeats_within_window += 1
    figures.moods = dict(moods.most_common())
    figures.intents = dict(intents.most_common())
    return figures, answers


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    figures, _ = run_sessions(load_sessions(args.corpus), args.seed)
    print(json.dumps(figures.as_dict(), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
