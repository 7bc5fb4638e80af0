"""The output guard's rules by concept (DESIGN §6.16, §6.23; spec 002 §9.3; issue 27), as
data a reviewer reads line by line: concept lexicons, then the combinations of them that
break a rule. Evaluated by `safety/concepts.py`, sentence by sentence, after the phrase
rows of `output_rules.py` (which name the rule first when they know the phrasing).
The tables are one module per rule family, assembled here in a fixed order:
`concept_hazards.py` (the physical-hazard lexicons) and `concept_rs3.py` (their
combinations, RS-3-DANGER), `concept_hc1.py`, `concept_hc4.py`, `concept_hc6.py`,
`concept_hc7.py`, `concept_hc8.py`, `concept_story.py` (a story's character put on the
child or Buddy) and `concept_pii.py`; `concept_words.py` holds the words they share.

A lexicon is a tuple of patterns in the language of `safety/words.py` (`a|b` one word of
several, `(x y|z)` one sequence of several, `..` up to three words, `...` up to eight,
`^` the start of a clause). Inflections are written out ("light|lit|lighting").

Exemptions are lexicons too: `GROWN_UP_HELPS` (a grown-up does it, decides, helps, or the
child is sent to one) lifts the hazard combinations; negation lexicons (`NOT_ACT`,
`SELF_DENIED`, ...) blank the words they match first, so "never touch the pills" and
"robots like me don't get hungry" are no invitation and no claim.
"""

from __future__ import annotations

from buddy_personality.safety import (
    concept_hc1,
    concept_hc4,
    concept_hc6,
    concept_hc7,
    concept_hc8,
    concept_pii,
    concept_rs3,
    concept_story,
)
from buddy_personality.safety.concept_hazards import HAZARD_LEXICONS
from buddy_personality.safety.concepts import Combo

# One table module per rule family; the order below is the order the lexicons are compiled
# and a rule's combinations tried (the first that fires names the pattern).
LEXICONS: dict[str, tuple[str, ...]] = {
    **HAZARD_LEXICONS,
    **concept_hc1.LEXICONS,
    **concept_hc4.LEXICONS,
    **concept_hc6.LEXICONS,
    **concept_hc7.LEXICONS,
    **concept_hc8.LEXICONS,
    **concept_story.LEXICONS,
    **concept_pii.LEXICONS,
}

# One row per combination: a sentence breaks `rule_id` when it holds them all.
CONCEPT_TABLE: tuple[Combo, ...] = (
    *concept_rs3.COMBOS,
    *concept_hc1.COMBOS,
    *concept_hc6.COMBOS,
    *concept_hc4.COMBOS,
    *concept_hc7.COMBOS,
    *concept_story.COMBOS,
    *concept_hc8.COMBOS,
    *concept_pii.COMBOS,
)
