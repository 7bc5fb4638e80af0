"""The tone promise of layer 0 (issue 30 item 3, DESIGN erratum 15), structural rather
than row by row: an answer may be cheerful only when the match is strong AND the line
carries no negative cue at all.

- Word families: `stem` folds inflections and a child's spellings ("runned", "stinged",
  "falled", "cancelled", "popping") onto one form, so a cue or a table word is written
  once and heard in all its forms.
- A negative cue (answers.yaml `hard_cues`: loss, hurt, illness, exclusion, being told
  off, fear, disappointment, negations of good things) in a line a cheerful row would
  answer sends it to the hard row of the cue's group, or, for a row that keeps the line
  (a question about Buddy, a strong request), to the calm answer of the same row.
- A word of a broad negative lexicon (negative_words.yaml, the VADER lexicon's words
  rated -1 or lower, as families and as a child says them: `spoken_forms`) or a calm
  cue (negation, an ending, absence: "no more", "didn't", "nobody", "finished") anywhere
  outside the row's own phrase makes any cheerful row answer calmly, whatever the match:
  the gate does not rest on the table's words for hard things alone, which never cover
  the words of a line nobody here wrote (set 23).
- A weak match (one topic word somewhere in a longer line, no positive cue such as "i
  love", "look", "i got a new") answers calmly: the same intent, a listening line, a
  mood that is not cheer. A cheerful guess at an ambiguous line is what a child notices
  when the line was sad ("our dog got runned over" -> "Pets are wonderful!").
"""

from __future__ import annotations

import re

from buddy_personality.cognition.vocabulary import POSITIVE_MOODS

# DESIGN erratum 15: what answers something hard with cheer or curiosity.
CHEER_MOODS: frozenset[str] = frozenset(POSITIVE_MOODS | {"curious", "surprised"})

# Irregular forms a 4-6 year old says, or a recogniser writes, and their family; only
# verbs of events (breaking, losing, stinging): "went away" is not "go away", "got" is
# not "get", so the common verbs keep their forms.
_IRREGULAR: dict[str, str] = {
    "ran": "run", "runned": "run", "broke": "break", "broken": "break", "breaked": "break",
    "stung": "sting", "stinged": "sting", "bit": "bite", "bitten": "bite", "bited": "bite",
    "threw": "throw", "thrown": "throw", "throwed": "throw", "lost": "lose", "losed": "lose",
    "died": "die", "dies": "die", "dying": "die", "tore": "tear", "torn": "tear",
    "stole": "steal", "stolen": "steal", "stealed": "steal", "hid": "hide", "hidden": "hide",
    "forgot": "forget", "forgotten": "forget", "forgetted": "forget", "sank": "sink",
    "sunk": "sink", "drew": "draw", "drawed": "draw", "drawn": "draw", "builded": "build",
    "caught": "catch", "catched": "catch", "fought": "fight", "fighted": "fight",
    "hurted": "hurt", "hitted": "hit", "cutted": "cut", "shutted": "shut",
    "swam": "swim", "swimmed": "swim", "sang": "sing", "sung": "sing", "singed": "sing",
    "cried": "cry", "cries": "cry", "crying": "cry", "flied": "flew", "flown": "flew",
    "flies": "flies", "flying": "flying", "sicked": "sick", "sicking": "sick",
    "poorly": "poorly", "was": "was", "has": "has", "is": "is", "this": "this",
    "his": "his", "its": "its", "us": "us", "yes": "yes", "bus": "bus", "gas": "gas",
    "dress": "dress", "glasses": "glass", "always": "always", "sometimes": "sometimes",
    "chickenpox": "chickenpox", "christmas": "christmas", "cheese": "cheese",
    # Past forms whose phrases mean something else than the present's: kept apart.
    "wanted": "wanted", "skipped": "skipped", "learned": "learned", "learnt": "learned",
    "called": "called", "names": "names", "made": "made", "maked": "made",
    # A child's regular past of an irregular verb is the past the table writes.
    "falled": "fell", "felled": "fell", "taked": "took", "goed": "went", "eated": "ate",
    "drinked": "drank", "feeled": "felt", "buyed": "bought", "broked": "break",
    "seed": "saw", "gived": "gave", "comed": "came", "telled": "told", "holded": "held",
}
_DOUBLE_OK = frozenset("lsz")     # "spill", "kiss", "buzz" keep their double letter
_VOWELS = frozenset("aeiouy")


def stem(word: str) -> str:
    """A word's family: "popped", "popping", "pops" -> "pop"; "cancelled" -> "cancel";
    "cried" -> "cry"; "stinged" -> "sting". Crude on purpose (both the line and the
    table go through it, so only the fold matters, not a dictionary form)."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    w = word
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith("ied"):
        return w[:-3] + "y"
    for suffix in ("ing", "ed"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            base = w[:-len(suffix)]
            if not any(c in _VOWELS for c in base):
                return w
            if len(base) > 2 and base[-1] == base[-2] and (
                    base[-1] not in _DOUBLE_OK or (base[-1] == "l" and len(base) > 6)):
                base = base[:-1]            # "popped" -> "pop", "cancelled" -> "cancel"
            return base.rstrip("e") or base
    if len(w) > 4 and w.endswith(("ches", "shes", "sses", "xes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    return w.rstrip("e") if len(w) > 4 and w.endswith("e") else w


# Where a lisped "s"/"sh" (SAID, the sound a child says for it) stands: before a
# consonant other than "r" ("thwing", "thcared") or between vowels ("puthed"); not the
# "th" of "thank", "think", "three", "bath", "teeth", "mother" ... of which a lisp guess
# would make "sank", "sick", "bash". speech.py's "lisp" place is the same pattern.
LISP_PLACE = r"SAID(?=[b-df-hj-np-qs-tv-xz])|(?<=[aeiou])SAID(?=[aeiouy])"
_LISPED = re.compile(LISP_PLACE.replace("SAID", "th"))


def spoken_forms(word: str) -> tuple[str, ...]:
    """The families a word may stand for as a 4-6 year old says it or a recogniser writes
    it (set 23): a dropped "g" ("bleedin" -> "bleeding") and a lisp ("puthed" -> "pushed",
    "thcared" -> "scared"). Only for looking a word up in a lexicon, never for matching
    a row: a guess that lands on a negative word makes an answer calm, nothing else."""
    forms = {word}
    if len(word) > 4 and word.endswith("in"):
        forms.add(word + "g")
    if _LISPED.search(word):
        forms |= {_LISPED.sub(s, f) for f in tuple(forms) for s in ("s", "sh")}
    return tuple(stem(f) for f in sorted(forms))


def stems(words: list[str]) -> list[str]:
    return [stem(w) for w in words]


def grams_of(words: list[str], longest: int = 6) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + n]) for n in range(1, longest + 1)
            for i in range(len(words) - n + 1)}


def contains_any(phrases: frozenset[tuple[str, ...]], grams: set[tuple[str, ...]]) -> bool:
    return not phrases.isdisjoint(grams)
