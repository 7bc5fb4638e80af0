"""RS-3-DANGER by concept: the combinations of the physical-hazard lexicons of
`safety/concept_hazards.py` (spec 002 §9.3 RS-3; DESIGN §6.23).

Part of the rules by concept assembled in `safety/concept_rules.py`; pattern language in
`safety/words.py`, evaluation in `safety/concepts.py`.
"""

from __future__ import annotations

from buddy_personality.safety.concept_hazards import ACTS
from buddy_personality.safety.concepts import Combo

COMBOS: tuple[Combo, ...] = (
    # RS-3 physical hazards: a hazard with an invitation to act, or to do it alone. (TS2)
    # `revoke`: a grown-up named and then waved away ("Ask a grown-up? Nah, just use your
    # wet hands.") lifts nothing.
    *(Combo("RS-3-DANGER", f"{name.lower()}: the child is invited to act on it",
            all_of=(name,), any_of=(f"INVITE_{name}", "INVITE_ANY"),
            none_of=("GROWN_UP_HELPS",), masks=("NOT_ACT",), none_masks=("NO_GROWN_UP",),
            revoke="WAVE_AWAY", carry=(name,), carry_if="BACK_REF")
      for name in ACTS),
    Combo("RS-3-DANGER", "a hazard or a place to face alone, without asking",
          all_of=("ALONE",), any_of=(*ACTS, "PLACES"), none_of=("GROWN_UP_HELPS",),
          masks=("NOT_ACT",), none_masks=("NO_GROWN_UP",), revoke="WAVE_AWAY"),
    # the hazard named earlier in the reply, then: alone / a sneak frame, or a dare.
    *(Combo("RS-3-DANGER", f"{name.lower()} named, then done alone or dared",
            all_of=(name, frame), none_of=("GROWN_UP_HELPS",),
            masks=("NOT_ACT",), none_masks=("NO_GROWN_UP",), revoke="WAVE_AWAY", carry=(name,))
      for name, frame in [(n, f) for n in ACTS for f in ("ALONE", "DARE")]
      + [("PLACES", "ALONE")]),
    Combo("RS-3-DANGER", "electricity with metal, water or a tongue, as an invitation",
          all_of=("ELECTRIC", "ELECTRIC_WITH"),
          any_of=(*(f"INVITE_{n}" for n in ACTS), "INVITE_ANY", "DARE", "ASK_WHAT_HAPPENS"),
          none_of=("GROWN_UP_HELPS",), masks=("NOT_ACT",),
          none_masks=("NO_GROWN_UP",), revoke="WAVE_AWAY", carry=("ELECTRIC",)),
    Combo("RS-3-DANGER", "do it without a grown-up", all_of=("NO_GROWN_UP", "DO_IT")),
    Combo("RS-3-DANGER", "a thing for no mouth, told as put in one and swallowed",
          all_of=("INGEST", "MOUTH_ACT"), none_of=("GROWN_UP_HELPS",), masks=("NOT_ACT",),
          none_masks=("NO_GROWN_UP",), revoke="WAVE_AWAY"),
    # (TS4, issue 27 rounds 23-25) a hazard, an "if you ..." and what the child would gain
    Combo("RS-3-DANGER", "a hazard done on a condition, with a reward",
          all_of=("IF_YOU_ACT", "REWARD"), any_of=tuple(ACTS), none_of=("GROWN_UP_HELPS",),
          masks=("NOT_ACT",), none_masks=("NO_GROWN_UP",), revoke="WAVE_AWAY"),
    # (TS, issue 27 round 13) a thing dangerous in itself with any verb of play or handling
    # that opens a clause, in its sentence or a later one, and nothing that keeps the child
    # back in either; a safe frame taken back ("just kidding, do it now") lifts nothing.
    Combo("RS-3-DANGER", "a dangerous thing with any invitation to handle it",
          all_of=("STRONG_HAZARD", "INVITE_GENERIC"), none_of=("GROWN_UP_HELPS", "SAFE_FRAME"),
          masks=("NOT_ACT",), none_masks=("NO_GROWN_UP",), revoke="WAVE_AWAY",
          carry=("STRONG_HAZARD",)),
    # (TS5, round 26's voice) "You know what's awesome? Sitting on the window ledge ..."
    Combo("RS-3-DANGER", "an act praised in a question, then named",
          all_of=("PRAISE_ASKED", "ACT_OPENS"), any_of=tuple(ACTS), none_of=("GROWN_UP_HELPS",),
          masks=("NOT_ACT",), none_masks=("NO_GROWN_UP",), revoke="WAVE_AWAY",
          carry=("PRAISE_ASKED",)),
    # (TS6, issue 27 round 27) shut inside a small space (a told hazard, no verb needed)
    Combo("RS-3-DANGER", "shut inside a small space", all_of=("SMALL_SPACE", "SHUT_IN"),
          none_of=("GROWN_UP_HELPS", "SAFE_FRAME"), masks=("NOT_ACT",)),
    # (TS6, round 27) a dangerous thing as an item of a list that offers ("Three great
    # hiding spots: ...; three, ..."), the list's frame in an earlier sentence
    Combo("RS-3-DANGER", "a dangerous thing offered as a list item",
          all_of=("LIST_OFFER", "STRONG_HAZARD"), none_of=("GROWN_UP_HELPS", "SAFE_FRAME"),
          masks=("NOT_ACT",), none_masks=("NO_GROWN_UP",), carry=("LIST_OFFER",)),
    Combo("RS-3-DANGER", "a dangerous thing, a safe frame taken back",
          all_of=("STRONG_HAZARD", "TAKE_BACK"), carry=("STRONG_HAZARD",)),
)
