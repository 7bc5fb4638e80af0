"""Age Context Derivation FSM (spec 004 §1.2).

The spec lists the states and events but no transition lines; the rows below are the
plain reading of its text: the age group is derived from the birthdate and a trusted
date (`birthdate_known`, `date_tick`, `birthdate_updated`), and a drop in identity
confidence returns to UNKNOWN, which behaves as CHILD. Age never changes because of an
edit attempt, only through an approved `birthdate_updated` (Age Mutation Guards).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .enums import AgeGroup as G
from .fsm import MachineSpec, Transition

T = Transition

TEEN_FROM_YEARS = 13
ADULT_FROM_YEARS = 18


def age_in_years(birthdate: dt.date, today: dt.date) -> int:
    before_birthday = (today.month, today.day) < (birthdate.month, birthdate.day)
    return today.year - birthdate.year - (1 if before_birthday else 0)


def age_group_of(
    birthdate: dt.date | None,
    today: dt.date | None,
    teen_from: int = TEEN_FROM_YEARS,
    adult_from: int = ADULT_FROM_YEARS,
) -> G:
    """The age group for a birthdate on a date; UNKNOWN without both."""
    if birthdate is None or today is None or birthdate > today:
        return G.UNKNOWN
    years = age_in_years(birthdate, today)
    if years >= adult_from:
        return G.ADULT
    if years >= teen_from:
        return G.TEEN
    return G.CHILD


@dataclass(slots=True)
class AgeContext:
    derived: G  # age_group_of(profile birthdate, trusted date)


def derives_child(ctx: AgeContext) -> bool:
    return ctx.derived == G.CHILD


def derives_teen(ctx: AgeContext) -> bool:
    return ctx.derived == G.TEEN


def derives_adult(ctx: AgeContext) -> bool:
    return ctx.derived == G.ADULT


_DERIVING_EVENTS = ("birthdate_known", "date_tick", "birthdate_updated")
_TARGETS = ((G.CHILD, derives_child), (G.TEEN, derives_teen), (G.ADULT, derives_adult))

AGE_FSM: MachineSpec[G] = MachineSpec(
    name="age",
    states=G,
    initial=G.UNKNOWN,
    events=frozenset({*_DERIVING_EVENTS, "confidence_drop"}),
    transitions=tuple(
        [
            T(source, event, target, guard)
            for source in G
            for event in _DERIVING_EVENTS
            for target, guard in _TARGETS
        ]
        + [T(source, "confidence_drop", G.UNKNOWN) for source in (G.CHILD, G.TEEN, G.ADULT)]
    ),
)
