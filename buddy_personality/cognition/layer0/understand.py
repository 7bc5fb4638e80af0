"""What a child's line is about, by the rows of the layer-0 table (PE-7: rules).

Deterministic: the same words always give the same understanding. Every row whose words
or phrases appear matches; the highest priority wins (the first row written on a tie).
The topic row (for a memory tag) and whether the child likes or dislikes it are read
from the same line, so "I don't like broccoli" is a dislike of food, not food.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from buddy_personality.cognition.layer0.speech import as_meant
from buddy_personality.cognition.layer0.table import (
    CalmTone,
    HardCues,
    IntentRow,
    PassiveCue,
    Table,
    normalize_words,
)
from buddy_personality.cognition.layer0.tone import grams_of, spoken_forms, stems

QUESTION_WORDS: frozenset[str] = frozenset({
    "why", "what", "how", "where", "who", "when", "which", "whats", "wheres", "whos",
    "hows", "can", "could", "do", "does", "did", "is", "are", "will", "would",
})
# How the child says they like or dislike the topic of the line (memory tag polarity).
LIKE_WORDS: frozenset[str] = frozenset({"like", "love", "favourite", "favorite", "enjoy",
                                        "likes", "loves", "best"})
DISLIKE_PHRASES: tuple[tuple[str, ...], ...] = (
    ("dont", "like"), ("do", "not", "like"), ("hate",), ("yucky",), ("yuck",),
    ("dont", "want"), ("gross",),
)
POLARITY_LIKE, POLARITY_DISLIKE, POLARITY_NONE = "likes", "dislikes", ""


def _variants(word: str) -> tuple[str, ...]:
    """The word and its singular forms, so the table lists each word once."""
    out = [word]
    if len(word) > 4 and word.endswith("ies"):
        out.append(word[:-3] + "y")
    if len(word) > 4 and word.endswith("es"):
        out.append(word[:-2])
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        out.append(word[:-1])
    return tuple(out)


def _contains(words: list[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return n > 0 and any(tuple(words[i:i + n]) == phrase for i in range(len(words) - n + 1))


@dataclass(slots=True, frozen=True)
class Understanding:
    row: IntentRow            # the row that answers
    topic: IntentRow | None   # the best row with a memory tag, if any
    polarity: str             # POLARITY_*: how the child feels about that topic
    matched: tuple[str, ...]  # every matching intent, best first (for diagnostics)
    word: str                 # the table word of `row` found in the line ("" = a phrase)
    # Issue 30 item 3 (tone.py): the row answers with its calm, never-cheerful line (a
    # weak match, or a negative cue in a line the row keeps).
    calm: bool = False


def is_question(text: str, words: list[str]) -> bool:
    return text.rstrip().endswith("?") or bool(words and words[0] in QUESTION_WORDS)


def _singular(word: str) -> str:
    """"dreams" -> "dream", so a phrase is written once ("bad dream" hears "bad dreams")."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") \
        else word


# A young child drops the "am/is/are" (set 17: "i all by myself", "i sad", "you funny",
# "it windy"): a line that starts so is also heard with it, so the table's "im ..."
# phrases need no second spelling.
COPULA: dict[str, str] = {"i": "im", "me": "im", "you": "youre", "it": "its", "he": "hes",
                          "him": "hes", "she": "shes", "her": "shes", "we": "were",
                          "they": "theyre", "that": "thats", "there": "theres"}
# ... unless the next word is a verb or the copula itself ("i like", "you are").
NOT_AFTER_COPULA: frozenset[str] = frozenset({
    "am", "is", "are", "was", "were", "be", "do", "did", "does", "dont", "didnt", "can",
    "cant", "could", "will", "would", "have", "had", "has", "got", "like", "love", "want",
    "wanna", "need", "know", "think", "go", "went", "saw", "see", "made", "make", "said",
    "say", "play", "played", "get", "gets", "ate", "eat", "a", "an", "the", "to", "and",
    "too", "should", "may", "might", "must", "let", "lets", "keep", "keeps", "put", "took",
    "take", "give", "gave", "found", "find", "feel", "felt", "hate", "wish", "hope",
    "lost", "broke", "forgot", "rode", "fell", "won", "ran", "drew", "threw", "bit", "hit",
    "cut", "hurt", "built", "sang", "swam", "caught", "came", "stole", "told", "heard",
    "never", "just", "always", "only", "also", "really", "still", "already", "nearly"})


# ... and the "i" before a verb (set 20: "dont know", "cant find mummy"): a line that
# starts with one of these is also heard with "i" in front, so "i dont know" is written once.
SUBJECT_DROPPED: frozenset[str] = frozenset({
    "dont", "didnt", "cant", "couldnt", "wont", "want", "wanna", "miss", "hate"})


def _with_subject(words: list[str]) -> list[str] | None:
    return ["i", *words] if len(words) > 1 and words[0] in SUBJECT_DROPPED else None


def _with_copula(words: list[str]) -> list[str] | None:
    if len(words) > 1 and words[0] in COPULA and words[1] not in NOT_AFTER_COPULA \
            and not words[1].endswith("ed"):
        return [COPULA[words[0]], *words[1:]]
    return None


def _ngrams(words: list[str], longest: int = 6) -> set[tuple[str, ...]]:
    """Every run of up to `longest` words, as said and with plurals made singular (and
    with a dropped copula put back)."""
    out: set[tuple[str, ...]] = set()
    spoken = [x for x in (_with_copula(words), _with_subject(words)) if x]
    for seq in (words, [_singular(w) for w in words], *spoken):
        out |= {tuple(seq[i:i + n]) for n in range(1, longest + 1)
                for i in range(len(seq) - n + 1)}
    return out


def row_matches(row: IntentRow, text: str, words: list[str], forms: set[str],
                grams: set[tuple[str, ...]] | None = None,
                family_grams: set[tuple[str, ...]] | None = None,
                bare: tuple[str, ...] | None = None) -> bool:
    """`forms` holds the line's words, their singulars and their families (tone.stem):
    a row's word is heard in a child's inflections and spellings ("drawed" -> "draw",
    "stinged" -> "sting"); the row's own words are matched as written, so "colouring"
    in one row does not take "colour" from another."""
    if row.alone and (bare if bare is not None else tuple(words)) in row.alone:
        return True
    if row.max_words and len(words) > row.max_words:
        return False
    if row.question:
        return is_question(text, words)
    grams = grams if grams is not None else _ngrams(words)
    seq = words
    if row.not_within and any(p in grams for p in row.not_within):
        # The row's words and phrases are heard outside those runs only.
        seq = _outside(words, row.not_within)
        kept = [w for w in seq if w != "_"]
        forms = {v for w in kept for v in _variants(w)} | set(stems(kept))
        grams = _ngrams(seq)
        family_grams = grams_of(stems(seq)) if family_grams is not None else None
    if row.with_words:
        # A word or a frame ("do you") needs one of the row's with words ("eat"); the
        # row's own phrases are exact and answer alone ("what do robots eat").
        loose = bool(row.words & forms) or any(
            p in grams for p in row.frames)
        if loose and row.with_words & forms:
            return True
    elif row.words & forms:
        return True
    if family_grams is not None and not row.phrase_stems.isdisjoint(family_grams):
        return True
    if row.body is not None and row.body.hears(seq):
        return True
    return any((p in grams) if len(p) <= 6 else _contains(seq, p) for p in row.phrases)


def _outside(words: list[str], phrases: tuple[tuple[str, ...], ...]) -> list[str]:
    """The line's words with every occurrence of `phrases` (a row's not_within) blanked
    to "_", so no phrase is heard across the gap."""
    keep = [True] * len(words)
    _unkeep(words, phrases, keep)
    return [w if k else "_" for w, k in zip(words, keep, strict=True)]


def _unkeep(seq: list[str], phrases: Iterable[tuple[str, ...]], keep: list[bool]) -> None:
    """Mark every word of every occurrence of `phrases` in `seq` as not kept."""
    for p in phrases:
        n = len(p)
        for i in range(len(seq) - n + 1):
            if tuple(seq[i:i + n]) == p:
                keep[i:i + n] = [False] * n


def matched_word(row: IntentRow, words: list[str], no_echo: frozenset[str]) -> str:
    """The first table word of `row` in the line that may be said back ("" if none)."""
    for w in words:
        for v in _variants(w):
            if v in row.words:
                return "" if v in no_echo else v
    return ""


def _masked(words: list[str], own: list[tuple[str, ...]],
            not_cues: tuple[tuple[str, ...], ...]) -> list[str]:
    """The line's word families with the words of `own` phrases (as said) and of
    `not_cues` (as families) blanked: a cue there was named on purpose ("lost my tooth")
    or is no cue ("i can't wait")."""
    fam = stems(words)
    keep = [True] * len(words)
    for seq, phrases in ((words, own), (fam, not_cues)):
        _unkeep(seq, phrases, keep)
    return [f if k else "_" for f, k in zip(fam, keep, strict=True)]


def cue_masked(cues: HardCues, words: list[str], own: list[tuple[str, ...]]) -> list[str]:
    """The line's word families as the cues hear them: `own` phrases, hard_cue_not and
    the words a hard_cue_frame does not hear blanked to "_"."""
    masked = _masked(words, own, cues.not_stemmed)
    unheard = frozenset(w for f in cues.frames if f.applies(words) for w in f.words)
    return ["_" if w in unheard else w for w in masked] if unheard else masked


def felt_negative(calm: CalmTone, words: list[str], masked: list[str]) -> bool:
    """A word of the negative lexicon, as the child may have said it (tone.spoken_forms),
    or a calm cue (negation, an ending, absence), where `masked` (cue_masked) hears; or
    someone else's deed told after the child's own (calm: deed)."""
    if not calm.calm_cues.isdisjoint(grams_of(masked)):
        return True
    if calm.deed is not None and calm.deed.heard(words):
        return True
    return any(m != "_" and w not in calm.lexicon_not
               and not calm.lexicon.isdisjoint(spoken_forms(w))
               for w, m in zip(words, masked, strict=True))


def negative_cue_row(cues: HardCues, words: list[str],
                     own: list[tuple[str, ...]]) -> IntentRow | None:
    """The hard row of the first cue group heard in the line (answers.yaml hard_cues),
    by word families ("got canceled", "runned over"), outside `own`; None if none."""
    masked = _masked(words, own, cues.not_stemmed)
    # Set 22: a question about the world is wondering, not a fear or a loss; a correction
    # of Buddy's words says "not" about them (hard_cue_frames).
    frames = [f for f in cues.frames if f.applies(words)]
    deaf = frozenset(r for f in frames for r in f.rows)
    unheard = frozenset(w for f in frames for w in f.words)
    if unheard:
        masked = ["_" if w in unheard else w for w in masked]
    grams = grams_of(masked)
    said = grams_of(words)
    row = next((g.row for g in cues.groups
                if g.row.name not in deaf and not g.stemmed.isdisjoint(grams)
                and g.not_with.isdisjoint(said)), None)
    if row is None and cues.passive is not None:
        row = _passive_row(cues.passive, words, masked)
    return row


def _passive_row(cue: PassiveCue, words: list[str], masked: list[str]) -> IntentRow | None:
    """ "got" + a past participle ("got crumpled", "got all squashed", "got runned over"):
    something happened to a thing, which a 4-6 year old tells when it went wrong."""
    for i, w in enumerate(words):
        if w not in cue.verbs or masked[i] == "_":
            continue
        j = i + 1
        while j < len(words) and words[j] in cue.skip:
            j += 1
        if j < len(words) and words[j] not in cue.glad and (
                words[j] in cue.participles or (len(words[j]) > 4 and words[j].endswith("ed"))):
            return cue.row
    return None


def _strong(row: IntentRow, table: Table, words: list[str], grams: set[tuple[str, ...]],
            text: str) -> bool:
    """A match that may be answered with cheer (tone.py): a phrase or a frame of the row,
    a short line of the topic and glue words, a kind the weak rule does not cover, or a
    cheer cue in the line."""
    calm = table.calm
    if calm is None or row.kind not in calm.weak_kinds:
        return True
    if is_question(text, words) and not (
            row.kind in calm.phrase_weak_kinds and not calm.mine.isdisjoint(words)):
        # A question about the topic wants its answer ("why do cats purr"); a question
        # about the child's own ("why is my cat so skinny") may be a worry.
        return True
    if len(words) <= calm.short and (row.kind not in calm.phrase_weak_kinds or all(
            w in calm.glue or w in row.words or any(v in row.words for v in _variants(w))
            for w in words)):
        # "dinosaurs!", "i like cats", "i ate a pancake": every word is the topic or glue;
        # "the park was closed" says more than the topic, and that more may be hard.
        return True
    # What is said before "but" / "until" / "wait" is taken back by what follows ("i love
    # my blanket but it has a big hole"): only the words after the last one count.
    last = max((i for i, w in enumerate(words) if w in calm.contrast), default=-1)
    tail = _ngrams(words[last + 1:]) if last >= 0 else grams
    if row.kind not in calm.phrase_weak_kinds and (
            any(p in tail for p in row.phrases) or any(p in tail for p in row.frames)):
        return True
    return not calm.cheer_cues.isdisjoint(grams_of(stems(words[last + 1:])))


def heard(words: list[str], heard_as: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...],
          ) -> list[str]:
    """The line with every run a recogniser mishears replaced by the run the child said
    (answers.yaml heard_as; set 21: "tell me a storey bout dino sore")."""
    for said, meant in heard_as:
        n, i, out = len(said), 0, []
        while i < len(words):
            if tuple(words[i:i + n]) == said:
                out.extend(meant)
                i += n
            else:
                out.append(words[i])
                i += 1
        words = out
    return words


def told_part_blanked(words: list[str], told_about: tuple[tuple[str, ...], ...],
                      ) -> list[str] | None:
    """The line with what follows its first "a story about" (answers.yaml told_about)
    blanked to "_": the story's words, not the child's; None when there is none."""
    for i in range(len(words)):
        for p in told_about:
            end = i + len(p)
            if tuple(words[i:end]) == p:
                return words[:end] + ["_"] * (len(words) - end)
    return None


def _dreamt(table: Table, words: list[str], best: IntentRow, calm: bool,
            hard_words: bool) -> tuple[IntentRow, bool]:
    """Set 23: something hard told as a dream ("i dreamed the teacher shouted at me", "in
    my dream i was falling") is a bad dream, met by the table's dream row (answers.yaml
    told_about: dream_row), not by the row of what happened in it; a row of `dream_keeps`
    (a fear, a sadness, a loss) already meets it, and a safety row keeps it (a dream may
    be how a child first tells what happened: "i dreamed a big boy pushed me")."""
    row = table.dream_row
    if row is None or best.intent in table.dream_keeps or best.kind == "safety" or \
            told_part_blanked(words, table.told_dream) is None:
        return best, calm
    hard = best.child_affect == "negative" or best.kind == "serious"
    return (row, False) if hard or hard_words else (best, calm)


def understand(text: str, table: Table) -> Understanding:
    rows = table.rows
    words = as_meant(heard(normalize_words(text), table.heard_as), table.speech, table.known,
                     table.known_families)
    forms = {v for w in words for v in _variants(w)} | set(stems(words))
    matching = [r for r in rows if r.kind != "fallback" or r.question]
    grams = _ngrams(words)
    family = grams_of(stems(words))
    bare = tuple(w for w in words if w not in table.alone_ignored)
    frames = table.told_about
    if any(r in grams for r in table.told_real):
        # Set 22: what the child says is real breaks out of the game ("for real").
        frames = tuple(p for p in frames if p not in table.told_play)
    told = told_part_blanked(words, frames)
    # ... and a game whose told part is hard is played along with calmly (no cheer).
    played = told is not None and told != told_part_blanked(
        words, tuple(p for p in frames if p not in table.told_play))
    if told is None:
        hits = [r for r in matching if row_matches(r, text, words, forms, grams, family, bare)]
    else:
        kept = [w for w in told if w != "_"]
        told_forms = {v for w in kept for v in _variants(w)} | set(stems(kept))
        told_grams, told_family = _ngrams(told), grams_of(stems(told))
        hits = [r for r in matching if (
            row_matches(r, text, told, told_forms, told_grams, told_family, bare)
            if r.name in table.told_deaf
            else row_matches(r, text, words, forms, grams, family, bare))]
    hits.sort(key=lambda r: (-r.priority, r.order))
    fallback = next(r for r in rows if r.kind == "fallback" and not r.question)
    best = hits[0] if hits else fallback
    cues = table.hard_cues
    calm = hard_words = False
    hard = best.child_affect == "negative" or best.kind in ("safety", "serious")
    if cues is not None and not hard:
        # Issue 30 / DESIGN erratum 15: something hard said about a topic is not met with
        # the topic's cheer ("my ice cream fell on the floor", "my balloon flew away").
        # A cue inside the row's own phrase was named on purpose ("lost my tooth").
        own = [p for p in best.phrases if p in grams]
        heard_words = told if told is not None else words
        cue_row = negative_cue_row(cues, heard_words, own)
        strong = _strong(best, table, words, grams, text)
        # Not for a row that names the hard feeling as over or answers a question to
        # Buddy (hard_cue_exempt: "my cut doesn't hurt anymore", "do robots get sad").
        felt = table.calm is not None and best.intent not in cues.exempt and felt_negative(
            table.calm, heard_words, cue_masked(cues, heard_words, own))
        named = any(p in grams for p in best.phrases + best.frames)
        if cue_row is not None and best.intent not in cues.exempt and (
                best.kind in cues.kinds or not named):
            # A request heard by one word only ("the girls said i can't be in their
            # game") is no request: the hard row answers.
            best = cue_row
        elif best.cheerful and (cue_row is not None or felt or not strong or (
                played and negative_cue_row(cues, words, own) is not None)):
            calm = table.calm is not None
        hard_words = felt or cue_row is not None
    best, calm = _dreamt(table, words, best, calm, hard_words)
    topic = next((r for r in hits if r.tag), None)
    polarity = POLARITY_NONE
    if topic is not None:
        if any(_contains(words, p) for p in DISLIKE_PHRASES):
            polarity = POLARITY_DISLIKE
        elif LIKE_WORDS & set(words):
            polarity = POLARITY_LIKE
    return Understanding(best, topic, polarity, tuple(r.intent for r in hits),
                         matched_word(best, words, table.no_echo), calm)
