"""The tone half of the layer-0 table (issue 30 item 3, DESIGN erratum 15; tone.py): the
hard cues that send a line to a hard row, and the calm answer of a cheerful row with its
rules (weak matches, cheer cues, the negative lexicon, calm cues), read from answers.yaml
into checked records."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

import yaml

from buddy_personality.cognition.layer0.tone import CHEER_MOODS, stem
from buddy_personality.cognition.layer0.words import (
    YAML_LOADER,
    TableError,
    normalize_words,
)
from buddy_personality.cognition.layer0.words import strings as _strings
from buddy_personality.cognition.vocabulary import MOOD_INTENSITY_CAP, MOOD_SET

if TYPE_CHECKING:
    from buddy_personality.cognition.layer0.table import IntentRow

KINDS: frozenset[str] = frozenset({
    "safety", "serious", "request", "social", "feeling", "fact", "topic", "reply",
    "fallback",
})
ABOUT_SLOT = "{about}"    # a calm answer's slot for the row's "about" ("your pet")


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
    # Someone else's deed told after the child's own ("i built a tower and my brother
    # knocked it over"): calm, whatever the deed (calm: deed).
    deed: Deed | None = None


@dataclass(slots=True, frozen=True)
class Deed:
    """ "and" / "then" / "but" + someone (a pronoun, or a determiner and a word) + a past
    verb (one in -ed, or one of `pasts`) that is not in `glad` ("and mummy loved it")."""

    after: frozenset[str]
    someone: frozenset[str]
    determiners: frozenset[str]
    pasts: frozenset[str]
    glad: frozenset[str]

    def heard(self, words: list[str]) -> bool:
        for i, w in enumerate(words[:-2]):
            if w not in self.after:
                continue
            j = i + 1
            if words[j] in self.determiners:
                j += 2
            elif words[j] not in self.someone:
                continue
            if j < len(words) and words[j] not in self.glad and (
                    words[j] in self.pasts or (len(words[j]) > 4 and words[j].endswith("ed"))):
                return True
        return False


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


def parse_calm(data: dict[str, Any]) -> CalmTone | None:
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
                              for w in normalize_words(v)),
                    _deed(raw.get("deed")))


def _deed(raw: Any) -> Deed | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise TableError("calm: deed must be a mapping")

    def words(key: str) -> frozenset[str]:
        return frozenset(w for v in _strings(raw, key, "calm: deed") for w in normalize_words(v))

    return Deed(words("after"), words("someone"), words("determiners"), words("pasts"),
                words("glad"))


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


def parse_hard_cues(data: dict[str, Any], rows: tuple[IntentRow, ...]) -> HardCues | None:
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
