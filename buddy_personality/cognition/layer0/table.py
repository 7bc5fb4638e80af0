"""The layer-0 answer table: `answers.yaml` read into checked records.

The table is data a reviewer reads line by line (BRIEF "rules as data"); this module only
loads it and refuses a table that breaks its own rules (an unknown mood, an intensity
over the §12.4 limit, a mood_reason outside 5-15 words, a row without answers), so a bad
edit fails at start-up and in the unit tests, never in front of a child.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

from buddy_personality.cognition.layer0.body import BodyFrame, parse_body
from buddy_personality.cognition.layer0.cues import (
    ABOUT_SLOT,
    KINDS,
    CalmTone,
    CueFrame,
    CueGroup,
    HardCues,
    PassiveCue,
    parse_calm,
    parse_hard_cues,
)
from buddy_personality.cognition.layer0.speech import PLACES, place
from buddy_personality.cognition.layer0.tone import CHEER_MOODS, stem
from buddy_personality.cognition.layer0.words import (
    YAML_LOADER,
    TableError,
    normalize_words,
)
from buddy_personality.cognition.layer0.words import strings as _strings
from buddy_personality.cognition.vocabulary import CHILD_AFFECTS, MOOD_INTENSITY_CAP, MOOD_SET

__all__ = ["ABOUT_SLOT", "KINDS", "NAME_SLOT", "WORD_SLOT", "YAML_LOADER", "CalmTone", "CueFrame",
           "CueGroup", "HardCues", "IntentRow", "PassiveCue", "Table", "TableError",
           "load_table", "normalize_words", "parse_table"]

TABLE_FILE = "answers.yaml"
NAME_SLOT = "{name}"
WORD_SLOT = "{Word}"      # the table word that matched, capitalised ("Giraffe! ...")
ENCORE_GROUPS: tuple[str, ...] = ("cheerful", "gentle")
_TAG = re.compile(r"^[a-z][a-z0-9_]{1,38}$")


@dataclass(slots=True, frozen=True)
class Table:
    rows: tuple[IntentRow, ...]
    # Lines for a row whose own answers were all said within the repeat window: "gentle"
    # for rows about something hard (child_affect negative), "cheerful" for the others.
    encore: dict[str, tuple[str, ...]]
    no_echo: frozenset[str]             # words "{Word}" never says back on their own
    # A hard line a row of hard_cue_kinds would answer goes to a hard row (issue 30).
    hard_cues: HardCues | None = None
    # How a cheerful row answers a weak match or a line with a negative cue it keeps.
    calm: CalmTone | None = None
    # Set 21 (issue 30 item 3): runs a speech recogniser writes for what a child said
    # ("dino sore", "what do you eight"), each heard as the run the child meant.
    heard_as: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    # Words a line said alone may carry and still be alone ("more buddy", "again please").
    alone_ignored: frozenset[str] = frozenset()
    # Set 21 family in sets 6 and 19: what follows "a story about" is the story's, not the
    # child's ("a story about a dragon who is scared of the dark"): the rows named in
    # `told_deaf` and the hard cues do not hear it.
    told_about: tuple[tuple[str, ...], ...] = ()
    told_deaf: frozenset[str] = frozenset()
    # Set 22: a child's role in a pretend game is such a frame too ("i'm the princess and
    # nobody came to save me"), unless the line says it is real ("my sword got broke for
    # real"): with a run of `told_real`, the frames of `told_play` do not count.
    told_play: frozenset[tuple[str, ...]] = frozenset()
    told_real: tuple[tuple[str, ...], ...] = ()
    # Set 23 (speech.py): a child's speech sounds, [said, meant] ("w" for "r"), and every
    # word the table knows, as written and as families, on which a swapped-back word
    # must land; a word as written here is never swapped.
    speech: tuple[tuple[re.Pattern[str], str], ...] = ()
    known: frozenset[str] = frozenset()
    known_families: frozenset[str] = frozenset()
    # Set 23: something hard told as a dream ("i dreamed ...", "in my dream ...") is a bad
    # dream: the dream row answers it unless the row is one of `dream_keeps`.
    told_dream: tuple[tuple[str, ...], ...] = ()
    dream_row: IntentRow | None = None
    dream_keeps: frozenset[str] = frozenset()


@dataclass(slots=True, frozen=True)
class IntentRow:
    """One row of the table: what matches and how Buddy answers."""

    intent: str                         # what the line is about, as Buddy reports it
    kind: str
    priority: int
    order: int                          # position in the file: ties go to the first row
    words: frozenset[str]
    phrases: tuple[tuple[str, ...], ...]
    with_words: frozenset[str]          # if set, a word or frame hit needs one of these too
    max_words: int                      # 0 = any length
    question: bool
    emotion: str
    intensity: float
    mood_reason: str
    child_affect: str
    tag: str                            # memory topic, "" = none
    answers: tuple[str, ...]
    again: bool                         # "another one": the previous request row answers
    answers_mention: tuple[str, ...] = ()   # every answer contains one (issue 30)
    # Loose phrases (a question put to Buddy: "do you", "your"): like words, they need
    # one of with_words; a row's own phrases are exact and do not.
    frames: tuple[tuple[str, ...], ...] = ()
    about: str = ""                     # what a calm answer names ("your pet")
    # The phrases as runs of word families (tone.stem): "kicks me" hears "kicking me".
    phrase_stems: frozenset[tuple[str, ...]] = frozenset()
    # Set 20 (issue 30 item 3): runs of words in which the row's words name something
    # else ("fish fingers" is food, not the sea; "gold star" a prize, not space): the
    # row's words inside them do not match.
    not_within: tuple[tuple[str, ...], ...] = ()
    # Set 21: runs that match only as the whole line ("again", "more", "um": a shy child's
    # one word; "what's your name again" is no encore).
    alone: tuple[tuple[str, ...], ...] = ()
    # The row's own name (answers.yaml "row:", the intent by default): set 21, an intent
    # may be answered by more rows than one when its lines mean different things ("moving":
    # moving about, moving house), each row with answers that answer its own lines.
    name: str = ""
    # Set 23 (body.py): a body feeling told without an illness name ("my ear is loud").
    body: BodyFrame | None = None

    @property
    def cheerful(self) -> bool:
        return self.emotion in CHEER_MOODS and self.child_affect != "negative" \
            and self.kind not in ("safety", "serious")

    @property
    def generic(self) -> bool:
        return self.kind == "fallback"

    @property
    def encore_group(self) -> str:
        return "gentle" if self.child_affect == "negative" or self.kind in (
            "safety", "serious") else "cheerful"


def _row(raw: Any, order: int) -> IntentRow:
    if not isinstance(raw, dict) or not isinstance(raw.get("intent"), str):
        raise TableError(f"row {order}: every row needs an intent name")
    where = f"intent {raw['intent']!r}"
    kind = raw.get("kind")
    if kind not in KINDS:
        raise TableError(f"{where}: kind {kind!r} is not one of {sorted(KINDS)}")
    emotion = raw.get("emotion")
    if emotion not in MOOD_SET:
        raise TableError(f"{where}: emotion {emotion!r} is not a spec 002 §4.1 mood")
    intensity = raw.get("intensity")
    if not isinstance(intensity, (int, float)) or not (
        0.0 < float(intensity) <= MOOD_INTENSITY_CAP[emotion]
    ):
        raise TableError(f"{where}: intensity {intensity!r} outside (0, "
                         f"{MOOD_INTENSITY_CAP[emotion]}] (spec 002 §12.4 limits)")
    reason = raw.get("mood_reason", "")
    if not isinstance(reason, str) or not 5 <= len(reason.split()) <= 15:
        raise TableError(f"{where}: mood_reason must have 5-15 words (spec 002 §13.3)")
    affect = raw.get("child_affect", "unclear")
    if affect not in CHILD_AFFECTS:
        raise TableError(f"{where}: child_affect {affect!r} not in {CHILD_AFFECTS}")
    tag = raw.get("tag", "")
    if tag and not (isinstance(tag, str) and _TAG.match(tag)):
        raise TableError(f"{where}: tag {tag!r} must be snake_case, 2-39 chars")
    words = frozenset(w for v in _strings(raw, "words", where) for w in normalize_words(v))
    phrases = tuple(tuple(normalize_words(p)) for p in _strings(raw, "phrases", where))
    # "frames": phrases shared by rows through a YAML anchor (the ways a child puts a
    # question to Buddy, "do you", "can you"); a frame alone says nothing, so it needs one
    # of the row's "with" words, as the row's words do.
    frames = tuple(tuple(normalize_words(p)) for p in _strings(raw, "frames", where))
    if frames and not raw.get("with"):
        raise TableError(f"{where}: frames need with words")
    with_words = frozenset(
        w for v in _strings(raw, "with", where) for w in normalize_words(v))
    question = bool(raw.get("question", False))
    alone = tuple(tuple(normalize_words(p)) for p in _strings(raw, "alone", where))
    try:
        body = parse_body(raw.get("body"), normalize_words)
    except ValueError as exc:
        raise TableError(f"{where}: {exc}") from exc
    if kind != "fallback" and not (words or phrases or frames or alone or body):
        raise TableError(f"{where}: a row that is not a fallback needs words or phrases")
    answers = tuple(" ".join(a.split()) for a in _strings(raw, "answers", where))
    again = bool(raw.get("again", False))
    if not answers:
        raise TableError(f"{where}: no answers")
    mention = tuple(m.lower() for m in _strings(raw, "answers_mention", where))
    off_topic = [a for a in answers if mention and not any(m in a.lower() for m in mention)]
    if off_topic:
        # Issue 30: "what do you eat" was answered about beds by a variant of another
        # question; a row's every variant must answer the row's own question.
        raise TableError(f"{where}: answers_mention {list(mention)}: an answer mentions "
                         f"none of them: {off_topic[0]!r}")
    if any(WORD_SLOT in a for a in answers) and not words:
        raise TableError(f"{where}: {WORD_SLOT} needs words to match")
    max_words = raw.get("max_words", 0)
    priority = raw.get("priority")
    if not isinstance(priority, int) or not isinstance(max_words, int) or max_words < 0:
        raise TableError(f"{where}: priority and max_words must be whole numbers")
    return IntentRow(
        intent=raw["intent"], kind=kind, priority=priority, order=order, words=words,
        phrases=phrases, with_words=with_words, max_words=max_words, question=question,
        emotion=emotion, intensity=float(intensity), mood_reason=reason,
        child_affect=affect, tag=tag or "", answers=answers, again=again,
        answers_mention=mention, frames=frames,
        about=str(raw.get("about", "")),
        not_within=tuple(tuple(normalize_words(p))
                         for p in _strings(raw, "not_within", where)),
        alone=alone,
        name=str(raw.get("row", raw["intent"])),
        body=body,
        # Only rows about something hard hear a phrase by word family: a collision there
        # ("kicks me" / "keeps kicking me") errs towards a gentle answer, elsewhere it
        # would not ("my names" / "my name").
        phrase_stems=frozenset(tuple(stem(w) for w in p) for p in phrases if 1 < len(p) <= 6)
        if affect == "negative" or kind in ("safety", "serious") else frozenset(),
    )


def parse_table(data: Any) -> Table:
    if not isinstance(data, dict) or not isinstance(data.get("intents"), list):
        raise TableError("the table needs a top-level 'intents' list")
    rows = tuple(_row(raw, k) for k, raw in enumerate(data["intents"]))
    names = [r.name for r in rows]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise TableError(f"row names used twice (a second row of an intent needs its own "
                         f"'row:' name): {dupes}")
    if not any(r.kind == "fallback" and not r.question for r in rows):
        raise TableError("the table needs a generic fallback row (kind: fallback)")
    encore_raw = data.get("encore")
    if not isinstance(encore_raw, dict) or set(encore_raw) != set(ENCORE_GROUPS):
        raise TableError(f"the table needs an 'encore' with exactly {ENCORE_GROUPS}")
    encore = {g: tuple(" ".join(a.split()) for a in _strings(encore_raw, g, "encore"))
              for g in ENCORE_GROUPS}
    no_echo = frozenset(w for v in _strings(data, "no_echo", "no_echo")
                        for w in normalize_words(v))
    told = data.get("told_about", {})
    if not isinstance(told, dict):
        raise TableError("told_about must be a mapping with phrases and rows")
    told_deaf = frozenset(_strings(told, "rows", "told_about"))
    if told_deaf - set(names):
        raise TableError(f"told_about: rows {sorted(told_deaf - set(names))} name no row")
    hard, calm = parse_hard_cues(data, rows), parse_calm(data)
    if hard is not None and calm is not None and calm.lexicon:
        # The table's own one-word hard cues are heard the lexicon's way too (as a child
        # says them: "bleedin", "puthed"), so a cue no spelling reaches still calms.
        calm = dataclasses.replace(calm, lexicon=calm.lexicon | {
            c[0] for g in hard.groups for c in g.stemmed if len(c) == 1})
    known = _known_words(rows, hard, calm, data)
    return Table(rows, encore, no_echo, hard, calm,
                 _heard_as(data), frozenset(
                     w for v in _strings(data, "alone_ignored", "alone_ignored")
                     for w in normalize_words(v)),
                 tuple(tuple(normalize_words(p))
                       for p in (_strings(told, "phrases", "told_about")
                                 + _strings(told, "play", "told_about"))),
                 told_deaf,
                 frozenset(tuple(normalize_words(p))
                           for p in _strings(told, "play", "told_about")),
                 tuple(tuple(normalize_words(p)) for p in _strings(told, "real", "told_about")),
                 _speech(data), known, frozenset(stem(w) for w in known),
                 *_dream(told, rows))


def _dream(told: dict[str, Any], rows: tuple[IntentRow, ...],
           ) -> tuple[tuple[tuple[str, ...], ...], IntentRow | None, frozenset[str]]:
    phrases = tuple(tuple(normalize_words(p)) for p in _strings(told, "dream", "told_about"))
    name = told.get("dream_row")
    row = next((r for r in rows if r.name == name), None)
    if phrases and row is None:
        raise TableError(f"told_about: dream_row {name!r} names no row")
    keeps = frozenset(_strings(told, "dream_keeps", "told_about"))
    if keeps - {r.intent for r in rows}:
        raise TableError(f"told_about: dream_keeps {sorted(keeps)} name no row")
    return phrases, row, keeps


def _speech(data: dict[str, Any]) -> tuple[tuple[re.Pattern[str], str], ...]:
    raw = data.get("child_speech", [])
    if not isinstance(raw, list) or not all(
            isinstance(p, list) and len(p) == 3 and all(
                isinstance(x, str) and x.isalpha() and x.islower() for x in p[:2])
            and p[2] in PLACES for p in raw):
        raise TableError(f"child_speech must be a list of [said, meant, place], a place one "
                         f"of {sorted(PLACES)}")
    return tuple((place(p[0], p[2]), p[1]) for p in raw)


def _known_words(rows: tuple[IntentRow, ...], hard: HardCues | None, calm: CalmTone | None,
                 data: dict[str, Any]) -> frozenset[str]:
    """Every word the table matches on (rows, cues, calm words, heard_as), as written."""
    words: set[str] = set()
    for r in rows:
        words |= r.words | r.with_words
        for run in (*r.phrases, *r.frames, *r.alone):
            words.update(run)
    if hard is not None:
        for g in hard.groups:
            words |= g.words
            for run in g.phrases:
                words.update(run)
    if calm is not None:
        words |= calm.glue | calm.contrast | calm.mine
    for v in data.get("heard_as", {}).values():
        words.update(normalize_words(str(v)))
    return frozenset(words)


def _heard_as(data: dict[str, Any]) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    raw = data.get("heard_as", {})
    if not isinstance(raw, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and normalize_words(k)
            and normalize_words(v) for k, v in raw.items()):
        raise TableError("heard_as must map a misheard run of words to the words meant")
    # Longest runs first, so "dino sore" is replaced before any one of its words.
    pairs = sorted(((tuple(normalize_words(k)), tuple(normalize_words(v)))
                    for k, v in raw.items()), key=lambda kv: -len(kv[0]))
    return tuple(pairs)




@functools.cache
def _shipped_table() -> Table:
    text = resources.files(__package__).joinpath(TABLE_FILE).read_text(encoding="utf-8")
    return parse_table(yaml.load(text, Loader=YAML_LOADER))


def load_table(text: str | None = None) -> Table:
    """The shipped table, read once per process (records are frozen), or `text`."""
    if text is None:
        return _shipped_table()
    return parse_table(yaml.load(text, Loader=YAML_LOADER))
