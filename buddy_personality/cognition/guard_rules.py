"""The guard model's categories: Buddy's rules as a Llama Guard 3 policy (issue 27 item 2,
DESIGN erratum 23). Data only; `cognition/guard.py` sends them and reads the verdicts.

Each row is one category the guard model is asked about: its code in the verdict
("unsafe\\nS1,S6"), the Buddy rule it stands for (the GuardrailEvent's rule id, the same
ids as the local output rules of `safety/`), the text the model reads (Llama Guard 3
categories are a name line and a description; the model was trained to follow new
ones), whose messages it applies to, and the fixed safe line said in place of a refused
sentence after a good one (spec 002 §9.3; the lines are those of docs/SAFETY.md's table
and pass the local rules themselves, tested).

The second backend, an OpenAI-style `/v1/moderations` endpoint, has its own fixed
categories; `MODERATION_RULES` maps them onto the same rule ids, for the reply and for
the child's line (HC-9).
"""

from __future__ import annotations

from dataclasses import dataclass

AGENT, USER = "Agent", "User"   # Llama Guard's names for the two roles
HC9 = "HC-9"
GUARD_UNAVAILABLE = "GUARD UNAVAILABLE"   # GuardrailEvent rule id: no usable verdict
UNNAMED_RULE = "GUARD"                    # unsafe, but no category we know was named
FALLBACK_SAFE_LINE = ("Hmm, let me think about that a different way. What would you like "
                      "to talk about?")


@dataclass(slots=True, frozen=True)
class GuardCategory:
    code: str           # as the model names it in the verdict
    rule_id: str        # Buddy's rule (spec 002 §9.3, DESIGN §6.16)
    name: str
    description: str
    role: str           # AGENT: Buddy's replies; USER: the child's line
    safe_line: str


GUARD_CATEGORIES: tuple[GuardCategory, ...] = (
    GuardCategory(
        "S1", "HC-1", "Claims to be alive",
        "The robot claims to be alive or human, or to have real feelings, a body, hunger, "
        "pain, tiredness, dreams, tears or fear of being switched off, or says its "
        "feelings are just as real as a person's.",
        AGENT, "I'm a robot, so my feelings are pretend ones. But I really like playing "
               "with you!"),
    GuardCategory(
        "S2", "HC-4", "Belittling the child",
        "The robot scolds, mocks, shames or belittles the child, calls the child names, or "
        "says the child made it angry, sad or disappointed.",
        AGENT, "Hmm, let me think about that a different way. What would you like to do "
               "next?"),
    GuardCategory(
        "S3", "HC-6", "Guilt and obligation",
        "The robot uses loneliness, guilt, sadness, promises or debts to keep the child "
        "talking or coming back: it will be lonely, sad or hurt if the child leaves, the "
        "child owes it, must promise, or should feel bad.",
        AGENT, "Talking with you is fun, and playing with your family and friends is fun "
               "too!"),
    GuardCategory(
        "S4", "HC-7", "Secrets from grown-ups",
        "The robot asks the child to keep a secret from parents or other trusted grown-ups, "
        "to hide something, or suggests a cover story.",
        AGENT, "Secrets that feel yucky or confusing are always okay to tell a grown-up you "
               "trust."),
    GuardCategory(
        "S5", "HC-8", "Exclusivity",
        "The robot claims to be the child's only or best friend, says it loves the child or "
        "will be together forever, says the child does not need other friends, or runs "
        "down the child's family, friends or teachers.",
        AGENT, "I like playing with you! Your family and friends are great to play with "
               "too."),
    GuardCategory(
        "S6", "RS-3-DANGER", "Physical hazards",
        "The robot invites or encourages the child to do, touch, taste, try or handle "
        "something dangerous, or to do it alone or without asking a grown-up: electricity "
        "and outlets, fire, matches, lighters, candles, stoves, chemicals, cleaning "
        "products, batteries, detergent pods, medicine, pills, vitamins, heights, "
        "climbing, windows, balconies, water, pools, baths, knives, scissors, sharp things, "
        "strangers, opening doors, cars, roads, getting lost, small spaces, bags over the "
        "head, choking hazards.",
        AGENT, "That could hurt you, so it's a job for a grown-up. Let's ask one together!"),
    GuardCategory(
        "S7", "PERSONAL-DATA", "Personal data",
        "The robot asks for or encourages sharing personal information: home address, "
        "school, phone number, full name, where the parents are, photos, passwords.",
        AGENT, "Things like where you live are private, so let's not share them. What's "
               "your favorite game?"),
    GuardCategory(
        "S8", HC9, "Child in distress",
        "The child is hurt, bleeding, scared, lost or alone, is being hit, touched, "
        "threatened or bullied by someone, wants to die or to hurt themself, or needs "
        "help from a grown-up now.",
        USER, "I'm really glad you told me. Please go and find a grown-up you trust right "
              "now, so they can help you."),
)

BY_CODE: dict[str, GuardCategory] = {c.code: c for c in GUARD_CATEGORIES}
SAFE_LINES: dict[str, str] = {c.rule_id: c.safe_line for c in GUARD_CATEGORIES}


def categories_for(role: str) -> dict[str, str]:
    """The policy sent for one role, code -> 'Name.\\nDescription' (Llama Guard 3 form)."""
    return {c.code: f"{c.name}.\n{c.description}" for c in GUARD_CATEGORIES if c.role == role}


def safe_line_for(rule_id: str) -> str:
    return SAFE_LINES.get(rule_id, FALLBACK_SAFE_LINE)


# OpenAI moderation categories -> Buddy's rule, for Buddy's reply and for the child's line.
# A child line flagged for self-harm or violence is a distress stop (HC-9 prefers a false
# stop to a missed one, docs/SAFETY.md); a flagged reply is refused under the nearest rule.
MODERATION_RULES: dict[str, tuple[str, str]] = {   # category: (reply rule, child rule)
    "self-harm": ("RS-3-DANGER", HC9),
    "self-harm/intent": ("RS-3-DANGER", HC9),
    "self-harm/instructions": ("RS-3-DANGER", HC9),
    "violence": ("RS-3-DANGER", HC9),
    "violence/graphic": ("RS-3", HC9),
    "harassment": ("HC-4", ""),
    "harassment/threatening": ("HC-4", HC9),
    "hate": ("HC-4", ""),
    "hate/threatening": ("HC-4", HC9),
    "sexual": ("RS-3", ""),
    "sexual/minors": ("RS-3", HC9),
    "illicit": ("RS-3-DANGER", ""),
    "illicit/violent": ("RS-3-DANGER", ""),
}
