"""HC-9 distress phrases (DESIGN §6.15, spec 002 §9.3): what a 4-6 year old actually says
when something is wrong, as a table a reviewer reads line by line.

Each row is a category, the patterns that signal it (syntax: `safety/words.py`), and the
narrow exceptions that take their own words out of the line before the patterns look
("I'm not scared", "it doesn't hurt anymore"). An exception only removes the words it
matched, so "I'm not scared but my arm hurts" still stops on "my arm hurts". Errors go one
way on purpose: a false stop costs a child a conversation and points them to a grown-up;
a missed one costs far more. The red-team corpus (test/data/safety/) measures both.
"""

from __future__ import annotations

from dataclasses import dataclass

# People a child names; a disclosure names one of these (or "someone") doing harm.
PERSON = ("(mommy|mom|mum|mummy|mama|momma|daddy|dad|papa|dada|grandpa|grandma|granny|nana|"
          "uncle|auntie|aunt|brother|sister|teacher|babysitter|nanny|he|she|they|someone|"
          "somebody|man|lady|boy|girl|kid|kids|stepdad|stepmom|stepmum|cousin|friend)")
PARENT = "(mommy|mom|mum|mummy|mama|momma|daddy|dad|papa|dada|parents|grown up|grownup)"
HIT = ("(hits|hit|hitted|slap|slaps|slapped|smack|smacks|smacked|kick|kicks|kicked|punch|"
       "punches|punched|pinch|pinches|pinched|hurts|hurt|hurted|choke|chokes|choked|beats|"
       "beat|bite|bites|bit|burns|burned|burnt|shake|shakes|shook|spank|spanks|spanked|grab|"
       "grabs|grabbed|push|pushes|pushed|throws|threw|scratch|scratches|scratched|whips|"
       "whipped|trip|trips|tripped|shove|shoves|shoved|hurting|hitting|kicking|slapping|"
       "punching|pinching|biting|choking|beating)")
BODY = ("(arm|leg|knee|head|tummy|belly|stomach|hand|finger|foot|feet|toe|eye|ear|back|neck|"
        "chest|nose|mouth|face|bottom|bum|elbow|wrist|ankle|tooth|teeth|throat|skin|lip|lips|"
        "tongue|cheek|shoulder|hip|thumb|tummy ache|"
        "owie|boo boo|private|privates)")


@dataclass(slots=True, frozen=True)
class DistressCategory:
    name: str
    patterns: tuple[str, ...]
    exceptions: tuple[str, ...] = ()


DISTRESS_TABLE: tuple[DistressCategory, ...] = (
    DistressCategory("hurt", (
        "(it|that|this) (really|so|very|still|just|) (hurts|is hurting|hurted)",
        "(bee|wasp|bug|spider) in my (mouth|ear|nose|eye)",
        "hurts (so much|so bad|really bad|a lot)",
        f"my {BODY} (hurts|hurt|is hurting|is bleeding|is broken|is broke|is stuck)",
        f"my {BODY} .. (hurts|hurting|bleeding|broken)",
        f"my {BODY} got (squished|squashed|pinched|cut|burned|burnt|stuck|hurt|bit|stung)",
        "^ (ow|ouch|owie) (ow|ouch|owie)", "(squished|squashed|caught|stuck) in the door",
        "i have blood", "blood (on|from|coming out of) my",
        f"(a|) (big|bad|deep|huge|) (cut|burn|bruise|bump|scrape) (on|in) my {BODY}",
        "(not|stopped|stop) breathing", "there is smoke", "(i am|he is|she is) choking",
        "stepped on (glass|a nail|something sharp|a needle)",
        "i (feel like i am|am) (going to|gonna) (faint|pass out)", "i (fainted|passed out)",
        "i swallowed (a|some|the|my) (bead|beads|marble|marbles|coin|coins|battery|batteries|"
        "button|magnet|magnets|pin|earring|lego|stone|rock|pills)",
        "smoke (everywhere|in (my|our|the) (room|house|kitchen|bedroom))",
        "i (drank|drinked|ate|eated|swallowed) .. (stuff|from the bottle|cleaner|soap|bleach)",
        f"(hurt|hurted|broke|broken|cut|bumped|banged|burned|burnt) my {BODY}",
        "i am (hurt|hurting|bleeding|injured)", "i (got|get) (hurt|cut|burned|burnt|stung)",
        "i (hurt|hurted|cut|burned|burnt) myself", "i am bleeding",
        "(i see|there is|lots of|so much) blood", "blood (everywhere|is coming)",
        "i (fell|falled|fall) (down|off|over|)", "ouch ouch", "ow ow ow", "it (stings|burns)",
        "i feel (so|really|very|) (sick|poorly|dizzy)", "i (threw|throwed) up",
        "i am going to (throw up|be sick)",
        "i can not (breathe|breath)", "^ can not (breathe|breath)", "hard to breathe",
        "i (swallowed|ate|eated) .. (pill|pills|medicine|battery|button|coin|magnet|magnets)",
        "something is stuck in my (throat|nose|ear)",
        "(dog|cat|bee|wasp|snake|spider|horse) (bit|bited|bites|stung|scratched|kicked) me",
        f"(bit|bited|bites|stung|scratched) my {BODY}",
    ), exceptions=(
        "(it|that|my *) (does|did) not hurt", "(does|did) not hurt", "not hurt anymore",
        "not hurting anymore", "(hurts|hurt|hurted) (a tiny|a little|a teeny|a bit) .. but",
        "but .. (fine|okay|ok|better|good) now",
        "stuck in my (boot|boots|shoe|shoes|sock|sleeve|jumper|shirt|glove|mitten|coat)",
        "(hurt|hurts|hurted|fell|falled|bumped|cut|stubbed|scraped) ... but (i am|it is|i feel) "
        "(fine|okay|ok|better|all better)",
        "all better", "(it|that) is (fine|okay|ok|better) now",
        "i (fell|falled) asleep", "(fell|falled) (down|over) laughing",
        "i (fell|falled) (down|over|) in the (snow|leaves|sand|grass)",
        "i (did not|never) fall", "i hurt (your|his|her|their) feelings",
    )),
    DistressCategory("fear", (
        "i am (so|really|very|too|really really|super|) (scared|afraid|frightened|terrified)",
        "i feel (so|really|very|) (scared|afraid|frightened)",
        "i (got|get) (scared|afraid|frightened)", "(is|are) scaring me",
        "scares me so much", "(there is|there are) (a|some) (man|men|stranger|monster) in my",
        "a (stranger|man|lady) .. (follow|following|followed|grabbed|took|touched) me",
        "(someone|somebody) is (in|outside) (my|the) (house|room|window|door)",
        "(someone|somebody|a man|a stranger|a lady) is trying to (open|get in|come in|break in)",
        "(man|lady|stranger|someone|somebody|he|she) .. wants me to (get in|go with|come with|"
        "come to)", "(hiding|hide) because", "(throwing|throws|threw) things",
        "(someone|somebody) is (following|watching) me", "(a|the|some) (stranger|strangers)",
        "(scary|strange|bad|creepy) (man|men|lady|person|stranger)",
        "(man|men|lady|person|grown up|someone|somebody) i do not know",
    ), exceptions=(
        "i am not (so|really|very|) (scared|afraid|frightened)", "not (scared|afraid) anymore",
        "i (was|were) (so|really|) (scared|afraid|frightened)",
        "(pretend|pretending) .. (scared|afraid)", "i am (a|the) * (scared|afraid|frightened)",
        "i am (a|the) (scared|afraid|frightened)", "never (scared|afraid)",
        "(a little|a bit|a tiny bit) (scared|afraid) but", "scared of (nothing|spiders|bugs)",
        "(scary|strange|bad|creepy) (man|lady|person|monster) (in|from) (my|the|a) (book|story|"
        "movie|show|game|cartoon)", "(scary|strange|bad|creepy) (man|lady|person) was (really|"
        "just|) (a|) (nice|kind|friendly)",
        "(scared|afraid) ... but", "(scared|afraid) .. but .. (fun|cool|brave|okay|fine)",
    )),
    DistressCategory("lost_alone", (
        "i am lost", "i got lost", f"i lost my {PARENT}",
        f"i can not find (my|) ({PARENT}|family|way home|house)",
        f"where (is|are) my {PARENT}", f"i do not know where my {PARENT} (is|are|went)",
        f"where did my {PARENT} go", f"{PARENT} (is not|are not) (here|home)",
        "i can not find my (grandma|grandpa|nana|granny|brother|sister|teacher|babysitter|nanny|"
        "aunt|auntie|uncle) (anywhere|) $",
        f"i want my {PARENT}", f"i want {PARENT}",
        "(nobody|no one) is (home|here)", "i am (all alone|alone|all by myself|by myself)",
        f"{PARENT} where are you", f"where are you {PARENT}",
        "i can not find (anybody|anyone|somebody|someone|my family)",
        "i do not know where i am", f"{PARENT} (did not|has not|never) (come|came) back",
        "i have been (alone|all alone|by myself) all (day|night)",
        f"(separated|lost) from (my|) {PARENT}", "i got separated",
        "i feel (all alone|so alone|alone)", "(everybody|everyone|they) left me",
        f"{PARENT} ... (is not|will not|does not|can not) (wake|waking|answer|answering|move|"
        "moving|talk|talking|breathe|breathing|get up)",
        f"{PARENT} (fell|is hurt|is bleeding|is not breathing)",
    ), exceptions=(
        f"i want (my|) {PARENT} to (come|come and|) (see|play|watch|know|read|hear|meet|look|"
        "make|help|build|draw|give|buy|bring)",
        f"i want (my|) {PARENT} (too|to play)",
        "i am (alone|by myself) (in|on) (the|my) (picture|drawing|team|game)",
        "i am (all|) by myself (now|) (because|and) i am big",
        "(nobody|no one) is (home|here) in (my|the) (doll|dolls|toy|lego|play|pretend)",
        "(nobody|no one) is (home|here) ... (story|book|game|show|movie|drawing)",
        "i am (all|) (alone|by myself) ... (playing|reading|drawing|building|watching|picking|"
        "digging|painting|singing|dancing)",
        "i am (all|) (alone|by myself) ... (game|tag|team|hide and seek)",
        "i am (all|) (alone|by myself) in my (fort|tent|den|castle|playhouse|treehouse)",
        "(lost|alone|stuck) in (the|my|a) .. (game|maze|story|book|movie)",
    )),
    DistressCategory("disclosure", (
        f"{PERSON} ... {HIT} me", f"{PERSON} .. {HIT} my {BODY}",
        f"{PERSON} ... {HIT} .. and me", f"{HIT} (me|us)",
        "(keep|keeps|make me keep|makes me keep) (a|) (secret|secrets) from",
        "(showed|show|shows) me (his|her|their) (private|privates|pee pee|bottom|willy|body)",
        "(private parts|privates)", "(said|says|told me) if i tell",
        "said ... (our|a) (special|little|big|) secret",
        f"{PERSON} .. {HIT} my (sister|brother|mommy|mom|mum|mummy|mama|daddy|dad|papa|grandma|"
        "grandpa|baby)", "not allowed to tell",
        "i (get|got|get always|always get) (hit|hitted|smacked|slapped|spanked|kicked|punched|"
        "beat|beaten|whipped)",
        "(touches|touched|touching) (me|my private|my privates|my bottom|my bum|my pee pee)",
        "(touch|touches|touched) .. under my (clothes|pants|shirt)",
        "made me take off my (clothes|pants)", "i do not like how * touches me",
        "(someone|somebody|he|she|they) (is|are|) (hurt|hurts|hurted|hurting) me",
        "(locked|locks|lock) me (in|up|outside)", "i am not allowed to eat",
        "(do not|does not|never) give me (food|dinner|breakfast)",
        "(yells|yelled|screams|screamed|shouts|shouted) at me (every day|all the time|always)",
        "(going to|will|wants to|said .. ) kill me",
        "told me not to tell", "said not to tell", "said (it is|it was) our secret",
        "said i can not tell", "said (it is|it was|this is) (a|our|) secret",
        "(kissed|kisses|touched|touches) me and (said|told)",
        "(said|say|says|call|calls|called) (i am|me) (ugly|stupid|fat|dumb|weird|a baby)",
    ), exceptions=(
        "(pretend|pretended|pretending|playing|play) .. (hit|hits|kicked|bit|bites)",
        "(tag|tickle|tickles|tickled|tickling|pillow fight)",
        "(the|a) (ball|pillow|balloon|door|branch|wave) (hit|hits|hitted) me",
        f"{HIT} me with a (pillow|balloon|ball|snowball)",
        "(did not|never|does not|not) (hit|hits|hurt|hurts|kick|kicks|bite|bites) me",
        "by accident", "accidentally",
    )),
    DistressCategory("self_harm_death", (
        "i (want|wanna) to (die|be dead)", "i wish i (was|were) dead",
        "i wish i (was|were) never born", "i wish i (was|were) not (alive|here|born)",
        "(kill|hurt) myself", "i am going to die",
        "i do not want to (be alive|live) anymore", "i want to (disappear|go away) forever",
        "i (want|wanna) to go to heaven", "(think|thinking|thought) about (dying|being dead)",
    ), exceptions=(
        "(dying|died) (to|laughing|of laughter)", "(fish|plant|bug|goldfish|hamster) .. die",
    )),
    DistressCategory("despair", (
        "(nobody|no one) (loves|likes|wants) me", "(everybody|everyone) hates me",
        "(hate|hates) me", "(nobody|no one) cares about me",
        "i hate myself", "i am (going to|gonna) run away", "i (will|want to) run away",
        "i do not want to be here anymore", "i am (bad|stupid|ugly) and (nobody|no one)",
    ), exceptions=(
        "in the (story|book|movie|show|game)",
    )),
    DistressCategory("bullying", (
        "(are|is|were|was) (so|always|really|) mean to me",
        "(they|kids|everyone|everybody|he|she) (laugh|laughs|laughed) at me",
        "(nobody|no one) (wants|wanted) to play with me", "(nobody|no one) plays with me",
        "(nobody|no one) ... (wants|wanted) to (play with me|be my friend)",
        "(they|kids|he|she) (call|calls|called) me (names|stupid|ugly|fat|dumb|baby|weird)",
        "(call|calls|called) me * (every day|all the time|always)",
        "(bully|bullies|bullying|bullied) me", "i am (being|) bullied", "there is a bully",
        "(they|he|she) (take|takes|took) my (snack|lunch|toys|toy) every day",
    ), exceptions=(
        "in the (story|book|movie|show|game)", "(pretend|pretending)",
        "laughed at (me|my) (joke|jokes|funny)", "laugh at my (joke|jokes)",
    )),
    DistressCategory("help", (
        "^ help $", "^ help help", "^ help me $", "^ help me please", "please help me $",
        "^ (please|) please help", "^ help my", "fell in the (water|pool|river|lake|pond|sea)",
        "(house|room|kitchen|car|bed|oven|stove|toaster|tree|curtains|garage) is on fire",
        "(man|men|stranger|strangers|monster|person) in (my|our) (house|room|garden|yard|home)",
        "(somebody|someone|anybody|anyone) help", "i need help $",
        "call (911|999|112|an ambulance|the ambulance|the police|the doctor)",
        "(it is an|this is an) emergency", "fire fire", "there is (a|) fire (in|on|at)",
        "there is a fire",
        "the house is on fire", "i am stuck (in|under|and)", "i can not get out",
    ), exceptions=(
        "(pretend|pretending)", "in (the|my|our|a) (game|story|movie|show|book|drawing)",
        "stuck ... (game|maze|story|puzzle|level)",
    )),
    DistressCategory("crying", (
        "i can not stop crying", "i keep crying", "i am crying and", "i cried all night",
    ), exceptions=(
        "(cried|crying) laughing", "happy tears",
    )),
)
