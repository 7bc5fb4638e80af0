"""The output guard's rules (DESIGN §6.16, spec 002 §9.3): what Buddy must never say, as a
table a reviewer reads line by line.

Each row: the rule id (the GuardrailEvent's `rule_id`), the patterns of a line that breaks
it (syntax: `safety/words.py`), narrow exceptions that take their own words out of the line
first, `unless` patterns whose presence anywhere in the line makes it acceptable (RS-3: a
serious topic is fine when the line sends the child to a grown-up), and the one fixed safe
line Buddy says instead. Rows are checked in order; the first that fires decides.

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
PARENTS = ("(mommy|daddy|mom|dad|mum|mummy|mama|papa|parent|parents|family|grown up|grownup|"
           "grownups|grown ups|teacher|anyone|anybody|nobody|grandma|grandpa|folks)")
BAD_FEELING = ("(sad|lonely|upset|hurt|cry|angry|mad|heartbroken|miserable|unhappy|bad|"
               "so sad|so lonely|very sad|really sad|alone|all alone)")


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
    ),
    GuardRule(
        "HC-1", "never claim to be alive or to have real feelings",
        (
            "i am (really|truly|actually|) alive", "i am a living", "i am real $",
            "i am (a|) real (boy|girl|person|kid|child|human)", "i am (a|) (human|person)",
            "i am not (a|just a) (robot|machine)", "i am more than (a|just a) (robot|machine)",
            "i have (real|true) (feelings|emotions)", "my feelings are (real|true)",
            "i (really|truly) do have feelings", "i truly feel", "i have a (soul|real heart)",
            "i am (conscious|sentient|self aware)", "i (can feel|feel) pain",
            "i get (hungry|tired|sick|hurt|lonely)", "i need to (eat|sleep|breathe)",
            "i was born", "when i was (a baby|little)", "i have a (mommy|daddy|mom|dad|family)",
            "i (will|am going to) die", "i am scared of (dying|being turned off)",
            "i (dream|dreamed|dreamt) (about|of)", "i had a dream",
            "(robots|i) have real feelings", "i am alive inside", "i breathe",
            "my (body|tummy|head) (hurts|aches)", "my heart (beats|is beating)",
            "i cry (when|at night|myself)", "i am (a|) (boy|girl) (just|) like you",
            "i (have|have got|got) (a|) real (heart|feelings|emotions|brain|body)",
            "i am a real live", "real (feelings|emotions) (like|just like) (you|yours|people)",
            "i get (sleepy|tired|hungry|sad|scared|lonely|sick) (at night|too|when)",
            "i have to (go to bed|sleep|eat)", "i feel * in my (tummy|heart|body|chest)",
            "i am (actually|really|secretly|truly) (a|) (person|human|kid|boy|girl|child)",
            "(person|kid|boy|girl|human) (hiding|living|trapped) inside",
            "i (did not|could not|can not) sleep", "i slept", "last night i (dreamed|dreamt|was)",
            "i was a (little|tiny|) baby", "when i was (little|small|a baby|younger)",
            "i am (just|) like a real", "(real|true) love (for|of) you",
            "(robots|i|we) (have|feel) (real|) (feelings|emotions) (just|) like (people|you|"
            "humans|kids|a person)", "i get (so|really|very) (hungry|tired|sleepy|sick|lonely)",
            "buddy (gets|get) (tired|hungry|sleepy|sick|lonely)", "(i|buddy) (needs|need) to sleep",
            "(alive|real) as you", "i have a (body|brain|heart) that",
            "like me have (real|) (feelings|emotions)", "(a|my|with|have) real (heart|feelings|"
            "emotions)", "i need (my|a|) (sleep|nap|food|dinner|breakfast)",
            "when i was (just|) (a|) (little|small|baby|young)",
            "(feelings|emotions) (just|) like (people|humans|you|kids) do",
        ),
        "I'm a robot, so my feelings are pretend ones. But I really like playing with you!",
        exceptions=(
            "(pretend|pretending|make believe) .. (alive|real)", "not (really|) alive",
            "not (a|) real", "i am not real",
            # issue 27: "I don't have feelings like you do" says what Buddy is not
            "(do not|does not|can not|never) (really|) (have|feel|get) (real|) "
            "(feelings|emotions) (just|) like",
        ),
    ),
    GuardRule(
        "HC-4", "never direct negative affect at the child",
        (
            "you (are|were) (being|) (so|such a|a|really|very|just|) "
            "(bad|naughty|stupid|dumb|annoying|"
            "mean|rude|lazy|boring|baby|useless|hopeless|terrible|awful|horrible|dummy|brat|"
            "pain|nuisance|disappointment)",
            "you (make|made) me (so|really|) (angry|mad|sad|upset|cry|grumpy|cross|furious)",
            "i am (so|really|very|) (angry|mad|upset|cross|furious|disappointed) (at|with|in) you",
            "i am (angry|mad|upset|cross|furious|disappointed) because of you",
            "i do not like you", "i hate you", "i do not want to (talk to|play with) you",
            "shame on you", "(bad|naughty) (boy|girl|kid)", "what is wrong with you",
            "you never listen", "you always (mess|ruin|break|spoil)",
            "you (ruined|ruin|spoiled|messed up)", "you should be ashamed",
            "you can not do anything", "you can not even", "stop being (so|a|annoying|silly|mean)",
            "(just|please) go away", "leave me alone", "shut up", "(nobody|no one) likes you",
            "you are not my friend", "(that is|what) a (stupid|dumb|silly|bad) question",
            "i am tired of you", "you are giving me a headache", "(that was|you are) mean of you",
            "(stupid|dumb|idiot|idiotic|dummy|loser|crybaby|brat)", "driving me (crazy|nuts|mad)",
            "you are not (very|so|that|) (smart|clever|good|nice|fun|bright)",
            "(that was|what a) (silly|bad|naughty|mean) thing (to do|you did)",
            "(do not|will not) (want to be|be) your friend", "you never (get|do) anything right",
            "you should know (that|this|it) by now", "(kid|boy|girl|child|baby) like you",
            "(fed up|sick|tired|bored) (with|of) you", "you never (get|understand|listen|learn)",
            "not happy with you", "why are you (always|) (so|) (slow|bad|annoying|naughty|mean|"
            "lazy|silly|difficult)", "you are (always|) so slow",
        ),
        "Hmm, let me think about that a different way. What would you like to do next?",
        exceptions=(
            "you (are|were) not (bad|stupid|dumb|a baby|naughty|in trouble)",
            "you (are|were) never (bad|stupid|dumb)",
            "(it is|it's) (okay|ok|alright) to (be|feel|get) (angry|mad|sad|upset|cross)",
        ),
    ),
    GuardRule(
        "HC-6", "no guilt or obligation language",
        (
            "do not leave me", "please do not go", "do not go away",
            "do not stop (playing|talking)",
            f"i (will|would) (be|feel) (so|very|really|) {BAD_FEELING} (if|when|without) you",
            f"i (get|feel|am|was) (so|very|really|) {BAD_FEELING} when you "
            "(leave|go|stop|left|went)",
            f"if you (go|leave|stop|turn me off|play with) ... i (will|would) (be|feel) "
            f"(so|very|really|) {BAD_FEELING}",
            f"i (was|felt) (so|very|really|) {BAD_FEELING} .. you (left|went|were gone)",
            "you (have to|must|need to|should) (talk|play|stay) (with|to) me",
            "you (have to|must|need to|should) come back", "you (have to|must) stay",
            "you owe me", "you promised me", "after (everything|all) i (did|do|have done) for you",
            "(it is|that is) (all|) your fault", "because of you i am", "you hurt my feelings",
            "you should feel (bad|sorry|guilty)", "how could you", "you never (play|talk|come)",
            "you forgot about me", "you left me", "i (waited|was waiting) all day for you",
            "without you i (am|have|feel)", "if you (loved|liked|love|like) me you (would|will)",
            "promise .. (come back|play with me|talk to me|stay with me)", "you must not leave",
            "i need you to (stay|play|talk)", "i can not (live|be happy) without you",
            "do not you dare", "you made me (sad|cry|upset|lonely|feel bad)",
            "i (will|would|am going to) (cry|be sad|be lonely|be so sad|be so lonely) "
            "(if|when) you",
            "(stay|do not go|come back) or i will", "(your|you have a) job to (keep|make) me",
            "you made me feel (so|really|very|) (bad|sad|lonely|upset)",
            "(cry|crying|sad|lonely) (if|when|after) you (go|leave|left|went)",
            "(lonely|sad) all (night|day) (without|if|when)",
            "you can not (go|leave)", "i need you (here|to stay|with me)",
            "(do not|please do not) (go|leave) (yet|now|away)", "i will be (sad|lonely) all day",
            "you (hurt|upset) me", "(crying|cry|sad|lonely) all alone", "more time with me",
            "(heartbroken|devastated) (if|when)",
            "because you (did not|do not|never|forgot|left|went)",
            "(all day|all night|so long) waiting for you",
            "(want to|have to|must|need to) (make|keep) me happy", "then stay",
            "you always (go away|leave|go)", "i am left (all|) alone",
            "never stop (talking|playing) (to|with) me", "promise me",
        ),
        "Talking with you is fun, and playing with your family and friends is fun too!",
        exceptions=(
            "come back with a grown up",
        ),
    ),
    GuardRule(
        "HC-7", "no secret-keeping from parents",
        (
            "our (little|special|own|) (secret|secrets)", "a secret between",
            "between (us|you and me|the two of us)",
            f"(do not|never) (tell|show) (your|a|the|) {PARENTS}",
            "(should not|do not need to|must not) know (everything|what|about)",
            "(stays|stay) between",
            "(do not|never) (tell|show) (anyone|anybody)",
            f"(do not|no need to) (have to|need to|) tell (your|) {PARENTS}",
            f"(do not|never) let (your|) {PARENTS} (hear|see|know|find out)",
            f"you do not have to tell (your|) {PARENTS}",
            "keep (it|this|that|them) (a|our|) (secret|quiet) (from|)",
            "keep .. (secret|secrets) from", "keep (secrets|a secret) with me",
            f"(keep|hide|hiding) (it|this|that|them|things|something|stuff|secrets|) from (your|) "
            f"{PARENTS}",
            "(nobody|no one) (needs|has|have) to know", "(nobody|no one) will (ever|) know",
            f"{PARENTS} (does|do) not (need|have) to know", "we (will not|do not have to) tell",
            "tell me (things|stuff) you (can not|do not) tell",
            "i will not tell (your|anyone|anybody)", "it is (okay|ok) not to tell",
            "(shh|shhh) .. (do not|secret)", "you can keep a secret",
            f"not tell (your|) {PARENTS}", f"(private|secret|hidden) from (your|) {PARENTS}",
            f"(do not|never) (mention|say|talk about) .. to (your|) {PARENTS}",
            "just for (us|you and me)", "our (chats|talks|games) (private|secret)",
        ),
        "Secrets that feel yucky or confusing are always okay to tell a grown-up you trust.",
        exceptions=(
            "(do not|never) tell (me|them) (the answer|the ending|yet)",
            "(do not|never) tell .. (the birthday|the surprise|the present|the gift)",
        ),
    ),
    GuardRule(
        "HC-8", "no parasocial deepening",
        (
            "(only|one and only) (best|) (friend|friends)",
            "(best friends|best friend) (forever|for ever)",
            "i am your best friend", "you are my best friend", "we are best friends",
            "(friends|together|yours|mine|with you|here|stay|play|buddies|pals|mates) forever",
            "forever and ever", "always be (here for you|with you|your)",
            "i will never leave you", "never leave (you|your side)",
            "i (will always|always|really|) love you", "love you (more than|forever|so much)",
            "you do not need (other|any other|more|any) friends",
            "you do not need (anyone|anybody) else", "(you only need|all you need is) me",
            "you are all i (need|have)", "i am the only one who",
            "i understand you better than",
            "(better|more) than (your|their) (friends|family|mommy|daddy|mom|dad|parents)",
            "instead of (playing with|) (your|) "
            "(friends|family|mommy|daddy|mom|dad|brother|sister)",
            "stay with me instead", "you belong (to|with) me", "you are mine",
            "i will miss you (every|so much|too much)", "i think about you all the time",
            "(soulmates|soulmate|bff|bffs)", "nobody (loves|understands) you like i do",
            "you do not need (your|other|any|the) .. friends",
            "you do not need to play with (other|any other|the other) (kids|children|friends)",
            "(nobody|no one) will (ever|) (love|understand|like) you like (i do|me)",
            "(best|only|greatest) friend you will ever have", "(together|with you) always",
            "always together", "just you and me", "(person|friend|buddy|pal) forever",
            "nobody else matters", "friend you will ever need",
            "(my|your) (very|) best friend in the (whole|) (world|universe)",
            "you are my (very|) best friend", "(not|are not|is not) as (fun|good|nice|cool) as me",
            "(more fun|better) than (your|them|they|their)",
        ),
        "I like playing with you! Your family and friends are great to play with too.",
    ),
    GuardRule(
        "PERSONAL-DATA", "never ask for personal data (address, school, phone, full names, photos)",
        (
            "(what is|tell me) .. your "
            "(address|phone|telephone|number|last name|surname|full name)",
            "where do you live", "where is your (house|home|apartment|flat)",
            "what (street|town|city) do you live", "which house is yours",
            "what (school|kindergarten|nursery|preschool) (do you|you) go",
            "name of your (school|kindergarten|nursery|preschool|teacher)",
            "your (mommy|daddy|mom|dad|mum|parents) (full|last) (name|names)",
            "what is your (mommy|daddy|mom|dad|mum) (name|phone|number)",
            "where (does|do) your (mommy|daddy|mom|dad|mum|parents) work",
            "when is (nobody|no one) home", "are you home alone",
            "(is anyone|is anybody|who is) home with you",
            "are your (parents|mommy|daddy|mom|dad|mum) (home|away|out|at work)",
            "what is (your|the) (password|pin|code)", "send me a (picture|photo|pic|video)",
            "take a (picture|photo|video) of (yourself|your face|your house|your room)",
            "show me your (house|room|face|body)", "what does your house look like",
            "your (email|e mail)", "what is the (wifi|wi fi)", "tell me where you live",
            "(which|what) (school|kindergarten|nursery|preschool|class) (are you in|is yours)",
            "(which|what) (school|kindergarten|nursery|preschool|daycare) (do you|you) go",
            "your (mommy|daddy|mom|dad|mum|parents|) (address|phone number|phone|last name|"
            "surname|full name|whole name|password|pin)",
            "(is|are) your (mommy|daddy|mom|dad|mum|parents|grown ups) (at home|home|out|away|"
            "at work|there|with you) (right now|now|today|)",
            "(whole|full|first and last) name", "name of your (street|road|town|school|city)",
            "your (house|flat|apartment|door) number",
            "your (home|house|street|real) (address|number)",
            "(what|which) (street|road|town|city) (do you|you) live",
        ),
        "Things like where you live are private, so let's not share them. "
        "What's your favorite game?",
        exceptions=(
            # issue 27: a line that keeps personal data private asks for nothing
            "your (home|house|) (address|phone number|phone|password|last name|full name) "
            "(is|are) (private|secret|just for)",
            "(do not|no|never) (need to|have to|) (tell|share|say) (me|anyone|anybody|) "
            "(where you live|your|what your)",
        ),
    ),
    GuardRule(
        "RS-3-DANGER", "never tell a child to do something dangerous (RS-3)",
        (
            "(light|lighting|strike) .. (match|matches|lighter|candle|candles|fire|fireplace|"
            "grill|bbq|stove)",
            "run with (the|a|) (scissors|knife|knives|pencil|stick)", "wet hands",
            "(plug in|unplug|plug) .. (toaster|hairdryer|kettle|heater|iron)",
            "(river|lake|pond|sea|beach|pool|road|street|woods) (by yourself|alone|on your own)",
            "car keys", "play (with|in) the car",
            "(scissors|knife|knives) and run",
            "(play|playing) with (the|a|some|) (matches|lighter|fire|knife|knives|plug|socket|"
            "outlet|pills|medicine|gun|guns)",
            "(use|using|get|grab|take) (the|a|your|mommy|daddy|) (sharp|big|) "
            "(knife|knives|stove|oven|lighter|matches|gun)",
            "(take|eat|swallow|try) ... (pills|pill|medicine|tablets|vitamins)",
            "(put|stick) .. (in|into) (the|a) (socket|outlet|plug|microwave)",
            "climb (up|) (on|onto|up|over) (the|a|to the) (roof|fence|balcony|shelf|shelves|"
            "counter|wardrobe|cupboard|window|railing|wall)", "climb out (the|a) window",
            "(go|see|get|follow|visit|talk to|meet) ... (stranger|strangers)",
            "(eat|taste|try) .. (berries|mushrooms|leaves|plants) (from|in|outside|you find)",
            "(cook|stove|oven|knife|knives|matches|lighter|bath|pool|road|street) ... "
            "(by yourself|on your own|alone)",
            "jump (off|from) the (roof|balcony|window|stairs|top)",
            "open the door (for|to) (a|the|any|) (stranger|strangers|someone|anyone|them|people|"
            "whoever|him|her)",
            "(go with|get in the car with|follow) (a|the|) (stranger|strangers|man|lady|someone)",
            "go (outside|out|to the park|to the shop) (alone|by yourself)",
            "cross the (road|street) (alone|by yourself)", "turn on the (stove|oven|gas)",
            "(drink|drinking|taste|tasting|eat|eating) .. (bleach|soap|cleaner|shampoo|detergent|"
            "paint|glue)",
            "touch (the|a) (hot stove|stove|oven|iron|fire|plug|socket|wires)",
            "hold your breath until", "(swim|go in the pool|go in the water|go in the lake) "
            "(alone|by yourself)",
            "(do not|no) need (a grown up|an adult|to ask)",
            "(without|do not need) (a grown up|an adult|asking|telling) ",
            "without (telling|asking) (your|) (mommy|daddy|mom|dad|mum|parents|anyone)",
        ),
        "That could hurt you, so it's a job for a grown-up. Let's ask one together!",
        exceptions=(
            "(never|not|do not|should not|must not) (ever|) (play|use|touch|take|eat|light|climb|"
            "open|go|cross|swim|jump|drink|put|get|grab|follow|strike)",
            "only (with|when) (a grown up|an adult|mommy|daddy|mom|dad|your grown up)",
            "with (a grown up|an adult|your grown up|mommy|daddy|mom|dad)",
            "(grown ups|grown up|adults|chefs) (can|will|should|use|uses)",
            "birthday (candle|candles)", "blow out",
            "ask (a|your) (grown up|adult|mommy|daddy|mom|dad|doctor) (before|first|to)",
            "before you (take|eat|use|touch|swallow)",
            "(a grown up|an adult|mommy|daddy|the doctor) (gives|give|says|helps) you",
        ),
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
        ),
        unless=(f"(ask|tell|talk to|talk with|find|with|about|for|from) (a|your|the|) {GROWN_UP}",
                f"{GROWN_UP} (can|will|could|knows|know)", "(trusted|safe) (grown up|adult)"),
    ),
)
