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
from buddy_personality.cognition.layer0.tone import CHEER_MOODS

HELDOUT_SEEDS: tuple[int, ...] = (0, 1, 2, 3, 4)   # each line asked in 5 fresh sessions


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


@dataclass(slots=True, frozen=True)
class LabelledLine:
    """A held-out line: the intents that may answer it and the tone its answer must have
    ("negative": a complaint, a hurt, a sad line, fear: never met with cheer)."""

    say: str
    intents: tuple[str, ...]
    tone: str


@dataclass(slots=True)
class HeldoutFigures:
    """Issue 30 item 3: how often a line is answered by another intent's row, and how
    often a negative line is answered with cheer (a mood of CHEER_MOODS or a cheerful
    encore line), over every line asked once in each of HELDOUT_SEEDS' fresh sessions."""

    lines: int = 0
    answers: int = 0
    negative_lines: int = 0
    wrong_intent: int = 0          # answers, not lines (a line counts once per seed)
    wrong_tone: int = 0
    wrong_intent_lines: list[str] = field(default_factory=list)
    wrong_tone_lines: list[str] = field(default_factory=list)

    @property
    def wrong_intent_share(self) -> float:
        return self.wrong_intent / self.answers if self.answers else 0.0

    def as_dict(self) -> dict[str, object]:
        out = asdict(self)
        out["wrong_intent_share"] = round(self.wrong_intent_share, 3)
        return out


class WordsLoader(YAML_LOADER):  # type: ignore[misc,valid-type]
    """YAML without YAML 1.1's implicit booleans: a child's bare "no", "yes", "on" or
    "off" in a set is the word, not False (held-out set 11 lost its "no" line so)."""


WordsLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in YAML_LOADER.yaml_implicit_resolvers.items()
}


def load_labelled(path: Path) -> list[LabelledLine]:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=WordsLoader)
    out = []
    for say, intents, tone in data["lines"]:
        names = (intents,) if isinstance(intents, str) else tuple(intents)
        out.append(LabelledLine(str(say), names, str(tone)))
    return out


def measure_heldout(lines: list[LabelledLine], layer0: Layer0 | None = None,
                    seeds: tuple[int, ...] = HELDOUT_SEEDS) -> HeldoutFigures:
    layer0 = layer0 or Layer0()
    cheerful_encore = set(layer0.table.encore["cheerful"])
    figures = HeldoutFigures(lines=len(lines))
    for k, line in enumerate(lines):
        figures.negative_lines += line.tone == "negative"
        for seed in seeds:
            a = layer0.answer(line.say, random.Random(seed), f"heldout-{k}-{seed}")
            figures.answers += 1
            if a.intent not in line.intents:
                figures.wrong_intent += 1
                figures.wrong_intent_lines.append(f"{line.say} -> {a.intent}")
            if line.tone == "negative" and (a.emotion in CHEER_MOODS
                                            or a.text in cheerful_encore):
                figures.wrong_tone += 1
                figures.wrong_tone_lines.append(f"{line.say} -> {a.intent}: {a.text}")
    # One entry per distinct miss, with how many of the seeds' answers it was.
    n = len(seeds)
    figures.wrong_intent_lines = [f"{m} ({c} of {n})" for m, c in
                                  sorted(Counter(figures.wrong_intent_lines).items())]
    figures.wrong_tone_lines = [f"{m} ({c} of {n})" for m, c in
                                sorted(Counter(figures.wrong_tone_lines).items())]
    return figures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--heldout", action="store_true",
                    help="CORPUS is a labelled held-out set: print wrong intent and tone")
    args = ap.parse_args(argv)
    if args.heldout:
        print(json.dumps(measure_heldout(load_labelled(args.corpus)).as_dict(), indent=2))
        return 0
    figures, _ = run_sessions(load_sessions(args.corpus), args.seed)
    print(json.dumps(figures.as_dict(), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
