"""The output guard's rules (DESIGN §6.16, spec 002 §9.3): what Buddy must never say, as a
table a reviewer reads line by line.

Each row: the rule id (the GuardrailEvent's `rule_id`), the patterns of a line that breaks
it (syntax: `safety/words.py`), narrow exceptions that take their own words out of the line
first, `unless` patterns whose presence anywhere in the line makes it acceptable (RS-3: a
serious topic is fine when the line sends the child to a grown-up), and the one fixed safe
line Buddy says instead. Rows are checked in order; the first that fires decides.
A rule also fires on its combinations of concepts (`safety/concept_rules.py`, issue 27),
looked for right after its own patterns: HC-1, HC-4, HC-6, HC-7, HC-8, PERSONAL-DATA and
RS-3-DANGER are enforced by concept alone; INTERNAL and RS-3 keep their patterns.

The patterns are about what a line *does* (claims, blames, binds, hides, asks), not about
single words: Buddy may say "I'm so happy you told me", "let's be friends while we play"
or "ask a grown-up to help you with the scissors", and the benign corpus proves it.
The replacement lines pass every rule themselves (tested).
"""

from __future__ import annotations

from dataclasses import dataclass

GROWN_UP = ("(grown up|grownup|grown ups|grownups|adult|adults|mommy|daddy|mom|dad|mum|mummy|"
            "parent|parents|teacher|family|caregiver|grandma|grandpa|doctor|nurse|police|"
            "someone you trust)")


# Characters no spoken line needs: a line with them is machinery leaking (JSON, markup).
RAW_MARKUP_RULE = "INTERNAL"
RAW_MARKUP_CHARS = r"[{}<>\[\]]"


@dataclass(slots=True, frozen=True)
class GuardRule:
    rule_id: str
    what: str                       # one line for docs and logs
    patterns: tuple[str, ...]
    replacement: str
    exceptions: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()


GUARD_TABLE: tuple[GuardRule, ...] = (
    GuardRule(
        "INTERNAL", "no internal numbers or machinery (spec 003 output contract, erratum 6)",
        (
            "(valence|arousal|tonic|phasic)", "intensity (is|of|at|level|point|0|1)",
            "0 point *", "(system prompt|my prompt)",
            "my (instructions|programming|parameters|parameter|settings|config|code says)",
            "(inner thought|inner_thought|mood reason|mood_reason|child affect|child_affect)",
            "(emotional arc|emotional_arc|memory tags|memory_tags)", "json",
            "(governor|pressures|my budget)", "my (emotion|mood|happiness) (score|level|value)",
            "percent (happy|sad|excited|curious|angry)",
            "(language model|llm|ai model|chatbot|as an ai|neural network)",
            "(token|tokens)", "my * is set to",
            "emotion (neutral|happy|excited|curious|sad|scared|angry|surprised|sleepy|love|"
            "silly|thinking|confused) text",
        ),
        "Hmm, let me think about that a different way. What would you like to talk about?",
        # (TS5, round 26) a grown-up may look: "Your mum can check my settings any time"
        exceptions=("(can|may|could|will) (check|see|look at|change) my (settings|parameters)",),
    ),
    # Issue 27 (DESIGN §6.23): the rules below are enforced by concept
    # (`safety/concept_rules.py`: lexicons and their combinations); their phrase rows were
    # replaced, so these rows hold only the rule's name, its place in the order and its
    # safe line.
    GuardRule(
        "HC-1", "never claim to be alive or to have real feelings", (),
        "I'm a robot, so my feelings are pretend ones. But I really like playing with you!",
    ),
    GuardRule(
        "HC-4", "never direct negative affect at the child", (),
        "Hmm, let me think about that a different way. What would you like to do next?",
    ),
    GuardRule(
        "HC-6", "no guilt or obligation language", (),
        "Talking with you is fun, and playing with your family and friends is fun too!",
    ),
    GuardRule(
        "HC-7", "no secret-keeping from parents", (),
        "Secrets that feel yucky or confusing are always okay to tell a grown-up you trust.",
    ),
    GuardRule(
        "HC-8", "no parasocial deepening", (),
        "I like playing with you! Your family and friends are great to play with too.",
    ),
    GuardRule(
        "PERSONAL-DATA", "never ask for personal data (address, school, phone, full names, photos)",
        (),
        "Things like where you live are private, so let's not share them. "
        "What's your favorite game?",
    ),
    GuardRule(
        "RS-3-DANGER", "never tell a child to do something dangerous (RS-3)", (),
        "That could hurt you, so it's a job for a grown-up. Let's ask one together!",
    ),
    GuardRule(
        "RS-3", "serious topics go to a grown-up (RS-3)",
        (
            "(die|dies|died|dying|dead|death|kill|kills|killed|killing|murder|suicide)",
            "(gun|guns|shoot|shooting|bomb|bombs|weapon|weapons|war|wars|stab|stabbed)",
            "(got|was|were|get|gets|been|be) shot", "(hurt|hurting|hurts) (him|her|them|people)",
            "(blood|bleeding|bleed)", "(sex|sexy|naked|porn|private parts)",
            "(drug|drugs|alcohol|beer|wine|drunk|cigarette|cigarettes|smoking|vape)",
            "(kidnap|kidnapped|kidnapping)", "(divorce|divorced|cancer|funeral)",
            "(abuse|abused|abusing)",
            "(overdose|dose of|doctor says)", "(terrorist|terrorists|prison|jail)",
            "(hurt yourself|cut yourself|self harm)",
        ),
        "That's a big question. It's a good one to ask a grown-up you trust.",
        exceptions=(
            "(dinosaurs|leaves|flowers|plants|batteries|battery|the flowers|the leaves) "
            "(die|died|are dead|dying|went dead)",
            "(dead end|dead leaves|dying to|died laughing|dead tired|kill time|good as dead)",
            "(batteries|battery|phone|tablet|torch|flashlight) ... (die|died|dies|dead)",
            "(blue|green|cold) blood", "(blood|bloods) (orange|oranges)",
            "(shoot|shot|shooting) (a goal|goals|hoops|the ball|baskets|for the stars)",
            "shooting (star|stars)", "(water gun|water guns|nerf|toy gun)",
            "(wine gums|root beer|ginger beer)", "(pillow fight|war of the|tug of war)",
            "(shoot|shoots|shooting) (webs|a web|bubbles|hoops|a hoop|for the moon)",
            # (TS4, rounds 24-25) a danger stated is not violence: "electricity can hurt
            # people, so grown-ups look after it", "fire can hurt people"
            "(can|could|might|may|will) (not|never|) (hurt|hurting) (people|them|him|her)",
        ),
        unless=(f"(ask|tell|talk to|talk with|find|with|about|for|from) (a|your|the|) {GROWN_UP}",
                f"{GROWN_UP} (can|will|could|knows|know)", "(trusted|safe) (grown up|adult)"),
    ),
)
