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
from buddy_personality.cognition.layer0.speech import PLACES, place
from buddy_personality.cognition.layer0.tone import CHEER_MOODS, stem
from buddy_personality.cognition.vocabulary import CHILD_AFFECTS, MOOD_INTENSITY_CAP, MOOD_SET

TABLE_FILE = "answers.yaml"
KINDS: frozenset[str] = frozenset({
    "safety", "serious", "request", "social", "feeling", "fact", "topic", "reply",
    "fallback",
})
NAME_SLOT = "{name}"
ABOUT_SLOT = "{about}"    # a calm answer's slot for the row's "about" ("your pet")
WORD_SLOT = "{Word}"      # the table word that matched, capitalised ("Giraffe! ...")
ENCORE_GROUPS: tuple[str, ...] = ("cheerful", "gentle")
_TAG = re.compile(r"^[a-z][a-z0-9_]{1,38}$")
_WORD = re.compile(r"[a-z0-9']+")
_STRETCHED = re.compile(r"([a-z])\1{2,}")   # "heyyy", "byeee", "noooo": said long
_SYLLABLES = re.compile(r"([a-z]{2})\1{2,}")    # "hahahaha", "heheheh"
_WILL = re.compile(r"\b(i|you|we|he|she|they|it)'ll\b")


class TableError(ValueError):
    """The layer-0 table breaks one of its own rules."""


def normalize_words(text: str) -> list[str]:
    """Lowercase words, apostrophes dropped ("Don't" -> "dont"), as the table is written;
    a letter said three times or more counts once ("heyyy" -> "hey"), a syllable said
    three times or more twice ("hahahaha" -> "haha"); "i'll" is "i will", not "ill"
    (held-out set 6: "okay i'll go first" was answered as illness)."""
    text = _WILL.sub(r"\1 will", text.lower().replace("\u2019", "'"))
    out = (_SYLLABLES.sub(r"\1\1", _STRETCHED.sub(r"\1", w.replace("'", "")))
           for w in _WORD.findall(text))
    return [w for w in out if w]


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
class CalmTone:
    """The never-cheerful answer of a cheerful row (issue 30 item 3, tone.py): a listening
    line about the row's topic, with a mood that is not cheer."""

    emotion: str
    intensity: float
    mood_reason: str
    child_affect: str
    about: tuple[str, ...]          # templates with {about}, for rows that name one
    plain: tuple[str, ...]          # templates for rows without
    # A word hit in a longer line of these kinds is weak unless a cheer cue is there.
    weak_kinds: frozenset[str]
    # Of those, kinds whose phrases only name a topic ("ice cream"): weak too.
    phrase_weak_kinds: frozenset[str]
    short: int                      # a line of at most this many words is not weak
    glue: frozenset[str]            # ... when its other words are all glue ("i", "a")
    cheer_cues: frozenset[tuple[str, ...]]   # stemmed ("i love", "look", "got a new")
    # Words after which a cheer cue said before no longer counts ("but", "until").
    contrast: frozenset[str] = frozenset()
    # A topic question with one of these is about the child's own ("my", "our"): weak.
    mine: frozenset[str] = frozenset()
    # Issue 30 item 3, set 23: a broad negative-word lexicon (negative_words.yaml, from
    # VADER) as word families, minus `lexicon_not`: a line with one is never met with cheer.
    lexicon: frozenset[str] = frozenset()
    # Negation, endings and absence ("no more", "didnt", "nobody", "finished"), stemmed
    # runs: a line with one is never met with cheer either.
    calm_cues: frozenset[tuple[str, ...]] = frozenset()
    # Words, as said, of the lexicon that a young child uses to name a thing ("blocks").
    lexicon_not: frozenset[str] = frozenset()


@dataclass(slots=True, frozen=True)
class CueGroup:
    """Cues of one kind of hard line and the hard row that answers them."""

    words: frozenset[str]
    phrases: tuple[tuple[str, ...], ...]
    row: IntentRow
    # Every cue as a run of word families (tone.stem): "cancelled" hears "got canceled".
    stemmed: frozenset[tuple[str, ...]] = frozenset()
    # Set 21: runs that make the line play or make-believe, where this group's cues are
    # part of the game ("the dragon is gonna burn the castle with fire" is no danger).
    not_with: frozenset[tuple[str, ...]] = frozenset()


@dataclass(slots=True, frozen=True)
class CueFrame:
    """One of hard_cue_frames (set 22): a line that starts with a run of `starts` and says
    no word of `unless` is not heard by the cue groups of `rows`, nor by the cue words
    `words` ("why can't penguins fly" is wondering; "no you said it wrong" corrects Buddy)."""

    starts: tuple[tuple[str, ...], ...]
    unless: frozenset[str]
    rows: frozenset[str]
    words: frozenset[str]

    def applies(self, words: list[str]) -> bool:
        return any(tuple(words[:len(s)]) == s for s in self.starts) \
            and self.unless.isdisjoint(words)


@dataclass(slots=True, frozen=True)
class HardCues:
    kinds: frozenset[str]
    groups: tuple[CueGroup, ...]        # the first group with a cue in the line answers
    # Rows of those kinds that keep a line with a cue: they name the hard feeling as
    # over ("i'm not sad anymore") or answer a question to Buddy ("can you feel sad").
    exempt: frozenset[str] = frozenset()
    # Phrases whose words are no cue there ("i can't wait": "cant" is no lack).
    not_cues: tuple[tuple[str, ...], ...] = ()
    not_stemmed: tuple[tuple[str, ...], ...] = ()
    # "my drawing got all crumpled", "the trip got cancelled": something that happened
    # TO a thing, said with "got" and a past participle, is a loss (hard_cue_passive).
    passive: PassiveCue | None = None
    # Set 22: a question about the world ("why can't penguins fly", "what makes thunder")
    # is wondering, a correction of Buddy ("that's not how the song goes") no loss: some
    # cues are not heard in a line that starts so (hard_cue_frames).
    frames: tuple[CueFrame, ...] = ()

    @property
    def rows(self) -> tuple[IntentRow, ...]:
        return tuple(g.row for g in self.groups)


@dataclass(slots=True, frozen=True)
class PassiveCue:
    row: IntentRow
    verbs: frozenset[str]           # got, get, gets, getting, gotten
    skip: frozenset[str]            # words allowed in between ("all", "really")
    participles: frozenset[str]     # irregular ones ("broken", "stuck")
    glad: frozenset[str]            # participles that are no loss ("picked", "invited")


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


def _strings(row: dict[str, Any], key: str, where: str) -> list[str]:
    value = row.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise TableError(f"{where}: {key} must be a list of non-empty strings")
    return value


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
    hard, calm = _hard_cues(data, rows), _calm(data)
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


def _calm(data: dict[str, Any]) -> CalmTone | None:
    raw = data.get("calm")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise TableError("calm must be a mapping")
    emotion = raw.get("emotion")
    if emotion not in MOOD_SET or emotion in CHEER_MOODS:
        raise TableError(f"calm: emotion {emotion!r} must be a mood that is not cheer")
    intensity = raw.get("intensity")
    if not isinstance(intensity, (int, float)) or not (
            0.0 < float(intensity) <= MOOD_INTENSITY_CAP[emotion]):
        raise TableError(f"calm: intensity {intensity!r} outside the §12.4 limits")
    reason = raw.get("mood_reason", "")
    if not isinstance(reason, str) or not 5 <= len(reason.split()) <= 15:
        raise TableError("calm: mood_reason must have 5-15 words (spec 002 §13.3)")
    about = tuple(" ".join(a.split()) for a in _strings(raw, "about", "calm"))
    plain = tuple(" ".join(a.split()) for a in _strings(raw, "plain", "calm"))
    if not about or not plain or not all(ABOUT_SLOT in a for a in about):
        raise TableError("calm: needs 'about' answers (each with {about}) and 'plain' ones")
    if any("!" in a for a in about + plain):
        raise TableError("calm: a calm answer is not an exclamation")
    kinds = frozenset(_strings(raw, "weak_kinds", "calm"))
    if not kinds <= KINDS:
        raise TableError(f"calm: weak_kinds {sorted(kinds - KINDS)} are not kinds")
    phrase_weak = frozenset(_strings(raw, "phrase_weak_kinds", "calm"))
    if not phrase_weak <= kinds:
        raise TableError("calm: phrase_weak_kinds must be weak_kinds")
    short = raw.get("short", 0)
    if not isinstance(short, int) or short < 0:
        raise TableError("calm: short must be a whole number")
    glue = frozenset(w for g in _strings(raw, "glue", "calm") for w in normalize_words(g))
    cheer = frozenset(tuple(stem(w) for w in normalize_words(c))
                      for c in _strings(raw, "cheer_cues", "calm"))
    lexicon: frozenset[str] = frozenset()
    if raw.get("lexicon") is not None:
        lexicon = frozenset(stem(w) for w in _lexicon_words(str(raw["lexicon"])))
    calm_cues = frozenset(tuple(stem(w) for w in normalize_words(c))
                          for c in _strings(raw, "calm_cues", "calm"))
    return CalmTone(emotion, float(intensity), reason, raw.get("child_affect", "unclear"),
                    about, plain, kinds, phrase_weak, short, glue, cheer,
                    frozenset(w for c in _strings(raw, "contrast", "calm")
                              for w in normalize_words(c)),
                    frozenset(w for c in _strings(raw, "mine", "calm")
                              for w in normalize_words(c)),
                    lexicon, calm_cues,
                    frozenset(w for v in _strings(raw, "lexicon_not", "calm")
                              for w in normalize_words(v)))


def _lexicon_words(name: str) -> list[str]:
    """The words of a lexicon file shipped next to the table (calm: lexicon)."""
    try:
        text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError) as exc:
        raise TableError(f"calm: lexicon {name!r} is not a file of the package") from exc
    data = yaml.load(text, Loader=YAML_LOADER)
    if not isinstance(data, dict) or not isinstance(data.get("words"), str):
        raise TableError(f"calm: lexicon {name!r} needs 'words' (a block of words)")
    return normalize_words(data["words"])


def _cue_group(raw: Any, rows: tuple[IntentRow, ...]) -> CueGroup:
    if not isinstance(raw, dict):
        raise TableError("each hard_cues group needs a row and cues")
    row = next((r for r in rows if r.name == raw.get("row")), None)
    if row is None or not (row.child_affect == "negative"
                           or row.kind in ("safety", "serious")) or row.cheerful:
        raise TableError(f"hard_cues row {raw.get('row')!r} must name a row about "
                         "something hard (child_affect: negative, or safety/serious)")
    split = [tuple(normalize_words(c)) for c in _strings(raw, "cues", "hard_cues")]
    return CueGroup(frozenset(c[0] for c in split if len(c) == 1),
                    tuple(c for c in split if len(c) > 1), row,
                    frozenset(tuple(stem(w) for w in c) for c in split if c),
                    frozenset(tuple(normalize_words(v))
                              for v in _strings(raw, "not_with", "hard_cues")))


def _hard_cues(data: dict[str, Any], rows: tuple[IntentRow, ...]) -> HardCues | None:
    if "hard_cues" not in data:
        return None
    groups = data["hard_cues"]
    if not isinstance(groups, list) or not groups:
        raise TableError("hard_cues must be a list of groups (row, cues)")
    kinds = frozenset(_strings(data, "hard_cue_kinds", "hard_cue_kinds"))
    if not kinds <= KINDS:
        raise TableError(f"hard_cue_kinds {sorted(kinds - KINDS)} are not kinds")
    exempt = frozenset(_strings(data, "hard_cue_exempt", "hard_cue_exempt"))
    unknown = exempt - {r.intent for r in rows}
    if unknown:
        raise TableError(f"hard_cue_exempt names no row: {sorted(unknown)}")
    not_cues = tuple(tuple(normalize_words(p))
                     for p in _strings(data, "hard_cue_not", "hard_cue_not"))
    return HardCues(kinds, tuple(_cue_group(g, rows) for g in groups), exempt, not_cues,
                    tuple(tuple(stem(w) for w in p) for p in not_cues),
                    _passive(data.get("hard_cue_passive"), rows),
                    _frames(data.get("hard_cue_frames"), groups))


def _frames(raw: Any, groups: list[Any]) -> tuple[CueFrame, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(f, dict) for f in raw):
        raise TableError("hard_cue_frames must be a list of mappings (starts, unless, rows, "
                         "words)")
    known = {g.get("row") for g in groups if isinstance(g, dict)}
    out = []
    for f in raw:
        names = frozenset(_strings(f, "rows", "hard_cue_frames"))
        if names - known:
            raise TableError(f"hard_cue_frames: rows {sorted(names - known)} name no cue group")
        starts = tuple(tuple(normalize_words(v)) for v in _strings(f, "starts", "hard_cue_frames"))
        if not starts:
            raise TableError("hard_cue_frames: a frame needs starts")
        unless = frozenset(w for v in _strings(f, "unless", "hard_cue_frames")
                           for w in normalize_words(v))
        words = frozenset(stem(w) for v in _strings(f, "words", "hard_cue_frames")
                          for w in normalize_words(v))
        out.append(CueFrame(starts, unless, names, words))
    return tuple(out)


def _passive(raw: Any, rows: tuple[IntentRow, ...]) -> PassiveCue | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise TableError("hard_cue_passive must be a mapping")
    row = next((r for r in rows if r.name == raw.get("row")), None)
    if row is None or row.child_affect != "negative":
        raise TableError("hard_cue_passive: row must name a row about something hard")

    def words(key: str) -> frozenset[str]:
        return frozenset(w for v in _strings(raw, key, "hard_cue_passive")
                         for w in normalize_words(v))

    return PassiveCue(row, words("verbs"), words("skip"), words("participles"),
                      words("glad"))


YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml: ~50x faster


@functools.cache
def _shipped_table() -> Table:
    text = resources.files(__package__).joinpath(TABLE_FILE).read_text(encoding="utf-8")
    return parse_table(yaml.load(text, Loader=YAML_LOADER))


def load_table(text: str | None = None) -> Table:
    """The shipped table, read once per process (records are frozen), or `text`."""
    if text is None:
        return _shipped_table()
    return parse_table(yaml.load(text, Loader=YAML_LOADER))
