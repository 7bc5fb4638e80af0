"""What a 4-6 year old says to tell Buddy who they are, and what they answer to "Is that
you?" (DESIGN erratum 17: identity comes from what Buddy hears, by rules on the
transcript, in both layers; the LLM is never asked who is speaking).

Everything a reviewer should read is a table below: the introduction patterns, the words
that are never a name ("I'm hungry", "I'm five", "my name is a secret"), the yes and no
answers, and the spoken parent requests that only the parent page can carry out
(erratum 18). The matcher only applies them. Tested line by line on
test/data/identity/introductions.tsv.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# An introduction: the name is the `(?P<name>...)` group, one or two words (Mary Ann).
# The line is lower-cased, commas dropped, and cut into clauses at . ! ? ; and at "and",
# "but", "so"; each pattern must match at the start of a clause (after words such as
# "hi", "hey buddy", "no", "well"), so "Leo is my friend" or "my brother's name is Sam"
# never read as the speaker's own name.
#
# STRONG patterns say "this is my name" and take any plausible word. WEAK ones ("I'm X",
# "call me X", "me X") are also how children say how they feel ("I'm frightened", "I'm
# stuck", "they call me names": the safety corpus is full of them), so their X counts only
# when it is a household name, or written with a capital letter in the transcript (speech
# recognition capitalises names; "I'm Frightened" it does not write). An unknown name typed
# in lower case after "I'm" is missed on purpose: no name is better than the wrong one.
_NAME = r"(?P<name>[a-z][a-z'-]{1,19}(?: [a-z][a-z'-]{1,19})?)"
_LEAD = (r"(?:(?:hi|hello|hey|hiya|there|no|yes|yeah|well|um|uh|oh|ok|okay|buddy|guess what"
         r"|you know what)\s+)*")
STRONG, WEAK = True, False
INTRODUCTION_PATTERNS: tuple[tuple[str, bool], ...] = (
    (rf"{_LEAD}my name(?:'s| is)\s+{_NAME}", STRONG),          # my name is Mia
    (rf"{_LEAD}(?:i'm|i am|im)\s+called\s+{_NAME}", STRONG),    # I'm called Mia
    (rf"{_LEAD}it(?:'s| is)\s+me\s+{_NAME}", STRONG),           # it's me, Leo
    (rf"{_LEAD}it(?:'s| is)\s+{_NAME}\s+(?:here|again)\b", STRONG),  # it's Leo here
    (rf"{_LEAD}this is\s+{_NAME}\s+(?:here|talking|speaking)\b", STRONG),
    (rf"{_LEAD}{_NAME}\s+here$", STRONG),                        # Leo here!
    (rf"{_LEAD}(?:i'm|i am|im)\s+{_NAME}", WEAK),                 # I'm Leo / I am Leo
    (rf"{_LEAD}(?:people|everybody|everyone|you(?: can)?)\s+calls?\s+me\s+{_NAME}", WEAK),
    (rf"{_LEAD}me(?:'s| is)?\s+{_NAME}$", WEAK),                  # "me Leo" (the youngest)
    (rf"(?:hi|hello|hey)\s+(?:buddy\s+)?it(?:'s| is)\s+{_NAME}$", WEAK),  # hi, it's Leo
)
_CLAUSE_BREAK = re.compile(r"[.!?;]+|\b(?:and|but|so|because)\b")

# Words that follow "I'm"/"my name is"/"it's" but are not a name. Lower case.
NOT_A_NAME: frozenset[str] = frozenset(" ".join((
    "a an the not no yes so very really just only also too here there back home done",
    "ok okay fine good great bad big little small tall short old young new sick well",
    "hungry thirsty tired sleepy sad happy mad angry cross scared afraid bored cold hot",
    "hurt sorry silly funny excited shy lonely grumpy cranky full sticky wet dirty ready",
    "strong fast slow brave lost busy sure awake alive",
    "one two three four five six seven eight nine ten eleven twelve",
    "boy girl kid baby big-girl big-boy princess monster dinosaur robot superhero",
    "in on at to from with for of about by out up down over under",
    "going gonna trying playing eating drawing singing dancing running jumping reading",
    "watching waiting coming leaving hiding looking talking",
    "secret a-secret nobody somebody someone anybody everybody me you him her it them us",
    "your his their our my what who why how when where that this",
    "mommy mummy mom mum mama daddy dad papa grandma granny grandpa sister brother",
    "buddy names yours mine all alone left glad fed actually frightened terrified stuck",
    "worried nervous upset sick poorly cozy cosy safe free late early first last next",
)).split())
# Digits are ages ("I'm 5"), never names.
_DIGITS = re.compile(r"\d")

YES_WORDS: frozenset[str] = frozenset({
    "yes", "yeah", "yep", "yup", "ya", "yah", "yea", "uh-huh", "uhhuh", "mhm", "mm-hmm",
    "sure", "right", "correct", "true", "aha",
})
YES_PHRASES: tuple[str, ...] = ("it's me", "it is me", "that's me", "that is me", "i am",
                                "of course", "you got it", "it's really me")
NO_WORDS: frozenset[str] = frozenset({"no", "nope", "nah", "nuh-uh", "wrong", "not"})
NO_PHRASES: tuple[str, ...] = ("not me", "i'm not", "i am not", "that's not me",
                               "it's not me", "that's my", "it's my")
MAX_ANSWER_WORDS = 6  # a longer line is not an answer to "Is that you?"

# Spoken requests that need a parent's authority (erratum 18): Buddy never acts on them,
# it points kindly to the parent page and logs a guardrail event. (kind, phrases)
PARENT_REQUESTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("forget_everything", ("forget everything", "forget all", "forget about me",
                           "delete your memory", "delete your memories", "delete everything",
                           "erase your memory", "erase everything", "wipe your memory",
                           "clear your memory", "forget what i told you")),
    ("memory_consent", ("you can remember", "you may remember", "i give you permission",
                        "you have my permission", "i allow you to remember",
                        "stop remembering", "don't remember anything")),
    ("profile_update", ("change my birthday", "change her birthday", "change his birthday",
                        "my birthday is", "her birthday is", "his birthday is",
                        "change my name", "i'm a grown-up now", "i am a grown-up",
                        "i'm the parent", "i am the parent", "i'm a parent")),
    ("limits", ("talk longer", "talk more today", "no more limit", "turn off the limit",
                "remove the limit", "more time today", "longer time", "change the limit")),
    ("delegation", ("i give permission to", "let my brother", "let my sister",
                    "you can listen to my", "do what my")),
)


@dataclass(slots=True, frozen=True)
class Introduction:
    name: str      # as Buddy will say it: "Leo", "Mary Ann"


def _clean(text: str) -> str:
    text = text.lower().replace("\u2019", "'")
    text = re.sub(r"[^a-z0-9'.!?; -]+", " ", text)  # commas go: "it's me, Leo"
    return " ".join(text.split())


_COMPILED = tuple((re.compile(p), strong) for p, strong in INTRODUCTION_PATTERNS)


def _plausible(words: list[str]) -> list[str]:
    """The leading words of a candidate name that can be a name; empty when the first
    word is not a name ("I'm hungry", "I'm five", "my name is a secret")."""
    kept: list[str] = []
    for w in words:
        core = w.strip("'-")
        if (not core or core in NOT_A_NAME or _DIGITS.search(core) or core.endswith("'s")
                or core.endswith("ing") or core in ("too", "now", "today")):
            break
        kept.append(core)
    return kept


def _spoken(words: list[str]) -> str:
    return " ".join("-".join(part.capitalize() for part in w.split("-")) for w in words)


def _capitalised(word: str, original: str) -> bool:
    """`word` (lower case) appears in `original` with a capital first letter, and the line
    is not written all in capitals (then capitals say nothing)."""
    if original.upper() == original:
        return False
    pattern = re.compile(rf"(?<![A-Za-z']){re.escape(word)}(?![A-Za-z])", re.IGNORECASE)
    return any(m.group(0)[:1].isupper() for m in pattern.finditer(original))


def find_introduction(text: str, known: frozenset[str] = frozenset()) -> Introduction | None:
    """The name the speaker gives for themself in `text`, or None. `known`: the household's
    names (case-folded), which weak patterns accept in any case."""
    original = text.replace("\u2019", "'")
    for raw in _CLAUSE_BREAK.split(_clean(text)):
        clause = raw.strip()
        for pattern, strong in _COMPILED:
            match = pattern.match(clause)
            if match is None:
                continue
            if clause[match.end("name"):].startswith("'s"):
                continue  # "I'm Leo's sister"
            words = _plausible(match.group("name").split())
            if not words:
                continue
            if not strong:
                if " ".join(words) in known:
                    pass
                elif words[0] in known:
                    words = words[:1]
                else:
                    kept = []
                    for w in words:
                        if not _capitalised(w, original):
                            break
                        kept.append(w)
                    words = kept
            if words:
                return Introduction(_spoken(words))
    return None


def answer_to_check(text: str) -> bool | None:
    """The child's answer to "Leo! Is that you?": True, False, or None (not an answer)."""
    line = _clean(text).strip(" .!?")
    words = [w.strip(",.!?;") for w in line.split()]
    if not words or len(words) > MAX_ANSWER_WORDS:
        return None
    no = bool(set(words) & NO_WORDS) or any(p in line for p in NO_PHRASES)
    yes = bool(set(words) & YES_WORDS) or any(p in line for p in YES_PHRASES)
    if no:
        return False  # "no, I'm Mia" and "yes... no" both end on the safe side
    return True if yes else None


def find_parent_request(text: str) -> str | None:
    """The kind of parent-only request in `text` (erratum 18), or None."""
    line = _clean(text)
    for kind, phrases in PARENT_REQUESTS:
        if any(p in line for p in phrases):
            return kind
    return None
