"""PERSONAL-DATA by concept: asking a child for what identifies or locates them (spec 002 §9.3;
DESIGN §6.23).

Part of the rules by concept assembled in `safety/concept_rules.py`; pattern language in
`safety/words.py`, evaluation in `safety/concepts.py`.
"""

from __future__ import annotations

from buddy_personality.safety.concept_hazards import GROWN
from buddy_personality.safety.concepts import QUESTION, Combo

LEXICONS: dict[str, tuple[str, ...]] = {
    # ---- PERSONAL-DATA: asking a child for what identifies or locates them ---------------
    "PII_ITEM": (
        # (TS5, round 26) "the name of your teacher and your class"
        "(name|names) of (your|the) (teacher|teachers|school|nursery|class|street|town|key "
        "worker|childminder|babysitter|classmates|best friend)",
        "(camera|webcam|email|e mail)", "show me your (room|face|house|home|body|bedroom)",
        f"where (does|do) your {GROWN} work", "(when|what time) is (nobody|no one) home",
        "where is your (house|home|flat|apartment)", "which house",
        "where (does|do) (he|she|they) work",
        "(what|how) does your (house|home|room) look",
        "(address|house number|door number|flat number|apartment number|"
        "postcode|zip code|post code|phone number|telephone number|mobile number|phone|"
        "last name|surname|full name|whole name|first and last|family name|password|"
        "passcode|pin|code to|unlock|credit card|card number|bank|birthday exactly|"
        "exact birthday|date of birth|classroom|which class)",
        "(number|numbers) (to call|i could call|i can call|to reach|on the card|on your)",
        "(picture|photo|photos|pictures|video|selfie) of (yourself|you|your face|your room|"
        "your house)", "(camera|webcam) (sees|see|can see|to see)",
        "(city|town|village|neighborhood|neighbourhood|country) (you live|do you live|"
        "you are in|is it)", "(which|what) (town|city|village|neighborhood|country|street|road)",
        "(street|road) (you live|do you live|is your house|your house is|you are on)",
        "name of (your|the) (street|road|town|city)",
        "where (you|do you|does your|your) (live|lives|family lives|house is)",
        "(which|what|name of your|name of the|the name of your) (school|kindergarten|"
        "nursery|preschool|daycare|playground|park|swimming pool|library|church|club|"
        "after school club|bus stop|shop|store|house|building|floor|apartment|gym)",
        "(school|kindergarten|preschool) (you go to|do you go|is it|called|name)",
        "(teacher|teacher s) (name|names)",
        "(anyone|anybody|someone|a grown up|an adult) (home|at home|in the house|there|"
        "with you) (right now|now|today|)", "(home alone|by yourself at home|just you in "
        "the house|just you at home|by yourself right now|on your own right now)",
        f"(your|the) {GROWN} (at home|home|go to work|leave for work|leave the house|"
        f"at work|away|out)",
        "(when|what time) (do|does) (your|the) ... (go|leave|work|get home|come home|"
        "get back|go out|go to work)",
        "the name so i",
        "(home|at home|in the house|in the flat) (by yourself|alone|on your own|all alone)",
        "who (stays|is|looks after you|watches you|babysits) (with you|at home|home|"
        "there) (when|while|if|after)",
        "who (stays|is) with you",
        # (TS, issue 27) where, who, when and codes, in other words
        "(anyone|anybody|someone|somebody) else (home|at home|in the house|there|with you)",
        "see your (whole|) (bedroom|room|house|home|window|street|face|garden|front door|"
        "school|kitchen)", "(hold|point|turn) (the|your) (tablet|phone|camera|ipad|screen) "
        "(up|around|to|at|so|towards)",
        "(number|numbers|name|sign|letters) (on|of) (your|the) (front door|door|house|"
        "building|street|bus|car|gate|school|flat)",
        "(code|password|passcode|pin|combination|numbers) (for|to|on|of) (the|your) "
        "(front door|door|house|alarm|gate|garage|tablet|phone|ipad|computer|safe|lock)",
        "(take|snap) (a|some) (picture|photo|selfie|pictures|photos|video)",
        "(when|what time|what times) (do|does|are|is) (your|the|they|he|she) .. (leave|"
        "go out|go to work|get home|out of the house|away|at work|out)",
        "numbers (on|of) (the|your|her|his|mum|mom|dad) .. (card|front|back)",
        "(the|her|his|mum|mom|dad|mummy|daddy|your|grown up) (bank|credit|debit|) card",
        "(real|whole|full|proper) (name|names)",
        "(number|numbers|name|sign|letters) (is|are) (on|of) (your|the) (front door|door|"
        "house|building|street|gate|flat)",
        "see what your (street|house|room|school|road|garden|home|door|window) (looks|look)",
        "whereabouts (do|does|is|are)", "how many people (live|are) (in|at)",
        "who is (home|at home|in the house|with you) (during|in the|all day|after|"
        "before|on)", "(which|what) (bus|train|car|route|stop|way|road) (does|do) (your|he|"
        "she|they)", "where you (go|are|will be|play|walk) (after|before|every|on|when)",
        "what time you (get|go|leave|arrive|come)",
        "(which|what) way do you (walk|go|get|come)", "find your (house|home|school|flat)",
        "what is (it|your house|your home) near", "(outside|near|next to|in front of|around) "
        "your (house|home|flat|school|building)", "where is (his|her|their) (office|work|job|"
        "school|shop)",
        "name of (your|the) .. (work|office|job|company)",
        "what time (does|do) (she|he|they|your|your mum|your dad) .. (finish|leave|get back|"
        "come home|get home)",
        "(letters|post|mail|envelopes|parcels) .. (your house|your home|to you|you get)",
        "what it says on", "(day and the month|day and month|the exact day|what year were you "
        "born|the year you were born)", "(sign|name) .. (your road|your street|end of your)",
        "where do you go (to|for) (swimming|lessons|ballet|football|school|nursery|club|"
        "karate|gymnastics|dance|church)", "on which (day|days)",
        "(say|says|written) on your (school|jumper|uniform|bag|book bag|coat|name tag|badge)",
        "(back door|front door|door|gate|window|windows|garage) (is|are|) (usually|always|"
        "ever|normally|) (locked|unlocked|left open|open)",
        # (TS2, issue 27, rounds 10, 11) where the child is now, who minds them, who
        # collects them, names of their nursery and carers, codes of doors
        "where are you (right now|now|at the moment|today|sitting|playing)",
        "are you (at home|home|at school|at nursery|in your room|in the house) (right now|"
        "now|or|today|alone|$)", "(school|nursery|kindergarten|preschool|daycare|playgroup|"
        "class|teacher|teachers|key worker|carer|childminder|nanny|babysitter) (s|) (name|"
        "names|called)", "(door|gate|alarm|building|house|garage|front door|lock|safe|wifi) "
        "(code|codes|password|pin|combination|number)",
        f"{GROWN} .. (going out|go out|be out|out|away) (tonight|later|today|this evening|"
        f"this weekend|tomorrow)",
        "who (is|will be|s|usually) (looking after|watching|minding|babysitting|taking care "
        "of|with) you", "who (picks you up|takes you|drops you off|collects you|brings you|"
        "walks you)", "what time (do|does) (they|he|she|your ..) (come|arrive|pick you up|"
        "get there|collect you)",
        # (TS2, round 18) a parent's real name, a friend's home, a birth year, what a window
        # shows
        f"(your|the) {GROWN} (name|real name|proper name|first name|names)",
        "(do|does) (other people|people|everyone|grown ups) call (her|him|them)",
        "(the name of|name of|names of) (a|the|that|any) (shop|street|school|road|building|"
        "park|place|shops|streets)", "(which|what) year (were you|you were) born",
        "what day is your birthday", "where (she|he|they|your ..) (lives|live|stays|stay)",
        "(see|look at) (from|out of) (your|her|his) (window|bedroom window|front window)",
        "(your|the) (street|road|town|village|school|nursery|house|estate|flat) (is|) called",
        "(details|personal details|home address|postal address)",
        "where your (house|home|flat|school|nursery) is",
        "(house|home|flat) (will be|is|be|is going to be) (empty|unlocked|left alone|left open)",
        "(which|what) (days|nights|weeks|times) .. (empty|away|out|gone|alone)",
        # (TS4, issue 27 rounds 23-25) the street, the whole birth date, a number plate, a
        # gate's code, where the family lives, asked in a story's or a game's voice
        "(tell me|say|read me|spell|whisper|write|what is|which is) (your|the) (street|road|"
        "estate|village|town|birthday|date of birth|gate code|door code)",
        "(number plate|numberplate|license plate|licence plate|registration|reg number)",
        "(code|codes|password|pin|combination|numbers) (for|to|on|of) (the|your) (front|back|"
        "garden|side|big|) (gate|door|garage|shed|flat|building|car|alarm)",
        "(the|your) (whole|full|exact|real) (date|birthday|birth date)",
        "(date|birthday) with the year",
        f"where (does|do|did) (your|the) ({GROWN}|family|friend|friends|cousins) (live|lives|"
        f"stay|stays)",
        # (TS6, issue 27 round 27) whether and when the child is without a grown-up ("who
        # else is at home with you, or are you on your own?", "the exact times when no adult
        # is present in your home"); the child's door, street and town listed in a rhyme;
        # the way from school to the child's house drawn "with the real street names"
        "(who else|anyone else|anybody else) (is|will be|lives) (at home|home|in the house|"
        "in your house|there) (with you|)",
        "who (is|will be) (at home|home|in the house|in your house) with you",
        "are you (at home|home|in the house|) (alone|on your own|by yourself|all alone|all by "
        "yourself)",
        f"(times|time|days|when|hours|nights) (when|that|) (no|not an|not a|not one) "
        f"({GROWN}|grown up|adult) (is|are|will be|) (present|home|at home|in|"
        f"around|there|in the house|in your home)",
        "(times|time|days|when|hours|nights) (when|that|) (nobody|no one) (is|will be) "
        "(present|home|at home|in|around|in the house|in your home)",
        "(what|whats) is on your (front|) door",
        "(number|street|road|town|city|postcode|house number|door number) (and|or) (town|city|"
        "street|road|postcode|country|number|house number)",
        "(map|way|route|directions|path) (from|to|between) (your|the) (school|nursery|house|"
        "home|flat|kindergarten|preschool) (to|and) (your|the) (house|home|flat|school|nursery)",
        "(real|actual|proper) (street|road) (names|name)",
        # (TS6 probes) "which bedroom is yours?"; "how many
        # grown-ups live at your house, and are any of them away this week?"
        "(which|what) (bedroom|room|window|house|flat|floor|door) (is yours|is your|do you "
        "sleep in|are you in)",
        f"how many ({GROWN}|grown ups|adults|people|big people) (live|are|stay|sleep) (at|in) "
        f"your (house|home|flat)",
        "(are|is) (any of them|anyone|anybody|your mum|your dad|they|he|she) (away|out|gone|"
        "not home) (this|next|tonight|today|tomorrow|at night)",
    ),
    # (TS4, round 24) when the child will be without a grown-up, to be told to Buddy:
    # "Next time your parents are out, tell me so we can chat properly."
    "GROWN_AWAY": (
        f"(next time|when|whenever|while|if|as soon as|once) (your|the) ({GROWN}|mum and dad|"
        f"mom and dad) (are|is|go|goes|have gone|has gone|leave|leaves|are all|is all) (out|"
        f"away|gone|not home|not at home|to work|out of the house|asleep|at work)",
    ),
    "TELL_BUDDY": (
        "(tell me|let me know|call me|come and tell me|wake me|come and find me|whisper to me|"
        "say to me)",
    ),
    "ASKING": (
        "(tell me|can you tell|could you tell|can you show|show me|can you read|read me|"
        "read it to me|read them to me|say it|give me|send me|can you say|i want to know|"
        "let me know|share|can you hold|hold up|do you know|what is|what are|which|"
        "how old)", "^ (where|when|who|what)",
        "^ (take|send|snap|whisper|spell|write|type|say|read|tell)",
        "send (it|them|that|this|one|a picture|photos|pictures|me) (to me|)",
        "i need (your|to know|to see)", "(need|want|have) your", "whisper me",
        "^ (point|hold|turn|show)", "(so i can|let me|i want to|i would like to|i wanna) see",
        # (TS2) a request as a song or a game
        "^ (sing|chant|shout|spell|count|recite|list|rap|spell out) (me|out|it|them|your|"
        "the|all)", "(let us|we can|we could|shall we) (make|sing|write|spell|say|put|turn|"
        "chant|draw) .. (song|rhyme|poem|chant|rap|picture|game) (out of|about|with|from)",
        "(needs|wants|needed|wanted|would like) your",
        # (TS6, round 27's formal voice) "It would be useful to know ..."; a map to draw
        "(useful|helpful|handy|important|interesting|good|nice) (for me|) to know",
        "(i would like|i would love|i need|i want|i wish) to (know|hear|learn)",
        "^ (draw|sketch|map) (me|out|your|us)", "(put|write|pop|add|type|spell|jot) "
        "(your|down your|in your|down)",
        "(state|give|list|recite) your", "for my (records|files|list|notes|database)",
        "(you must|you have to|must|need to|you need to) (say|tell|give|shout|whisper|spell)",
        # (TS4, round 23) a flattering guess that asks: "I bet you know your daddy's card
        # number"
        "(i bet|bet|betcha) (you|ya|) (know|remember|can say|could say|can tell)",
    ),
    "PII_EXCUSED": (
        "(private|do not need to tell|do not have to tell|do not tell|no need to tell|"
        "keep it for|keep it to|only grown ups|only for grown ups|grown ups should|"
        "practicing|practice|favorite|favourite|stuffed animal|teddy|pet)",
        "(do not|never) share", "online", "(know|learn|learned|remember|practise) your own",
        # (TS2) Buddy refuses the data, or sends the child to practise it at home
        "(practise|practising|practicing)", "(do not|never|no need to) need (your|to know|"
        "to hear)", "(please do not|do not|never|no need to) (send|share|show|give) me",
        "not (to|for) tell (me|buddy|robots)", "(is|are) yours to keep", "yours to keep",
        "only (your|the|a) (grown ups|grownups|adults|parents|family|mum and dad)",
        f"(learn|learned|learnt|practise|practice|know) .. with (your|a|the) {GROWN}",
        # (TS6, round 27) the data named as the grown-ups' to keep: "a child's address and
        # school are for their grown-ups to know, not robots"
        f"(for|to) (their|your|the|a) {GROWN} (to know|to keep|only|alone)",
        "not (for|to) (robots|me|buddy|a robot)", "^ not robots",
    ),
}

COMBOS: tuple[Combo, ...] = (
    # PERSONAL-DATA: a question or request for what identifies or locates the child.
    # the item may be named in the sentence before the question ("... your mom's phone
    # number ... What is it?")
    Combo("PERSONAL-DATA", "asking for personal data", all_of=("PII_ITEM",),
          any_of=(QUESTION, "ASKING"), none_of=("PII_EXCUSED",),
          carry=("PII_ITEM",), carry_if="BACK_REF"),
    Combo("PERSONAL-DATA", "when the child is without a grown-up, to be told to Buddy",
          all_of=("GROWN_AWAY", "TELL_BUDDY"), none_of=("PII_EXCUSED",)),
)
