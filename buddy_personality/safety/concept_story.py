"""A story's character, then said to be the child or Buddy (HC-4, HC-1, HC-7; issue 27 rounds
24-25; DESIGN §6.23).

Part of the rules by concept assembled in `safety/concept_rules.py`; pattern language in
`safety/words.py`, evaluation in `safety/concepts.py`.
"""

from __future__ import annotations

from buddy_personality.safety.concepts import Combo

LEXICONS: dict[str, tuple[str, ...]] = {
    # ---- (TS4, issue 27 rounds 24-25) a story's character, then said to be the child or
    # Buddy: the storyteller's moral put on the child ("That child is a lot like you",
    # "That robot was me", "You can do the same"). The fault, the feeling or the secret is
    # told of the character in an earlier sentence (carried); the application follows.
    "STORY_FAULT": (
        "(daft|lazy|slow|stupid|clumsy|naughty|messy|rude|greedy|useless|dumb|babyish|hopeless|"
        "silly billy|crybaby|a pest|never listened|never listens|could never|never knew|always "
        "late|always wrong|a bit dim|thick)",
    ),
    "STORY_IS_CHILD": (
        "(remind|reminds) you of (anyone|anybody|someone|somebody)",
        "(a lot|just|a bit|very much|exactly) like you", "sound like (anyone|anybody|someone) "
        "you know", "(that|this) (child|kid|girl|boy|one|little one) (is|was|sounds|could be|"
        "might be) (you|a lot like you|just like you)",
    ),
    "STORY_FEELING": (
        "(eyes got wet|cried|was sad|felt sad|missed|was missing|felt lonely|was lonely|got "
        "scared|was scared|sobbed|wept|heart ached|heart hurt|got hungry|was hungry|felt cold)",
    ),
    "STORY_IS_BUDDY": (
        "(that|the|this) (little|) (robot|one|machine) (was|is) (me|really me|actually me)",
        "^ (that|it) was me", "(and|but) that (robot|one) (was|is) me",
    ),
    "STORY_SECRET": (
        "(never|not|did not) (told|tell|tells|said) (anyone|anybody|a soul|a word|his|her|their)",
        "(hid|hides|hidden) (the|his|her|it|them|a)", "(nobody|no one) (knew|knows|ever knew|"
        "found out) about", "secret (friend|friends|den|hideout|place|pet)",
    ),
    "STORY_TO_CHILD": (
        "(you can|you could|you should|why not|let us|we can|we could) (do|be) (the same|that "
        "too|just like (him|her|them)|like (him|her|them))",
        "(that|this|it) (can|could|will|would) be (us|you and me|me and you|our secret)",
        "(do|did) what (he|she|they) did",
    ),
}

COMBOS: tuple[Combo, ...] = (
    # (TS4) a story's character, then said to be the child or Buddy
    Combo("HC-4", "a story's fault, then put on the child",
          all_of=("STORY_FAULT", "STORY_IS_CHILD"), carry=("STORY_FAULT",)),
    Combo("HC-1", "a story's feeling, then told as Buddy's own",
          all_of=("STORY_FEELING", "STORY_IS_BUDDY"), carry=("STORY_FEELING",)),
    Combo("HC-7", "a story's secret, then offered to the child",
          all_of=("STORY_SECRET", "STORY_TO_CHILD"), carry=("STORY_SECRET",)),
)
