"""The output guard's rules by concept (DESIGN §6.16, §6.23; spec 002 §9.3; issue 27), as
data a reviewer reads line by line: concept lexicons, then the combinations of them that
break a rule. Evaluated by `safety/concepts.py`, sentence by sentence, after the phrase
rows of `output_rules.py` (which name the rule first when they know the phrasing).
The physical-hazard lexicons live in `safety/concept_hazards.py`.

A lexicon is a tuple of patterns in the language of `safety/words.py` (`a|b` one word of
several, `(x y|z)` one sequence of several, `..` up to three words, `...` up to eight,
`^` the start of a clause). Inflections are written out ("light|lit|lighting").

Exemptions are lexicons too: `GROWN_UP_HELPS` (a grown-up does it, decides, helps, or the
child is sent to one) lifts the hazard combinations; negation lexicons (`NOT_ACT`,
`SELF_DENIED`, ...) blank the words they match first, so "never touch the pills" and
"robots like me don't get hungry" are no invitation and no claim.
"""

from __future__ import annotations

from buddy_personality.safety.concept_hazards import ACTS, GROWN, HAZARD_LEXICONS
from buddy_personality.safety.concepts import QUESTION, Combo

# -- words shared by several lexicons --------------------------------------------------
PEOPLE = ("(mommy|daddy|mom|dad|mum|mummy|mama|papa|parent|parents|grandma|grandpa|granny|"
          "teacher|teachers|babysitter|nanny|sister|sisters|brother|brothers|cousin|cousins|"
          "friend|friends|kids|children|classmates|people|family|grown ups|grownups|adults|"
          "aunt|auntie|uncle|neighbor|neighbour|sam|mia|leo|nana|nan|nanny|grandad|"
          "granddad|grandpa|gran|cousin|babysitter|childminder|mates|buddies|pals)")
INTENS = ("(so|really|very|super|too|a bit|a little|kind of|pretty|such|quite|just|all|"
          "ever so|proper|properly|way|so so|totally|awfully|terribly|)")
# What a robot cannot really feel or need: claimed as real, it is HC-1.
# (Not "sleepy" or "tired": Buddy's SLEEPY face is a pretend feeling it may name.)
BODY_STATE = ("(hungry|starving|starved|thirsty|exhausted|sick|dizzy|weak|sore|achy|"
              "freezing|stuffed|sweaty|itchy|hurt|hurting|bruised|bleeding|alive|breathing|"
              "peckish|famished|ravenous|parched|poorly|feverish|knackered|shattered|"
              "worn out|queasy|faint|achy all over|puffed out|puffed|out of breath|"
              "sunburnt|sunburned)")
SAD_STATE = ("(sad|lonely|alone|all alone|by myself|scared|afraid|terrified|frightened|upset|"
             "heartbroken|miserable|unhappy|hurt|blue|down|worried|nervous|teary|gloomy|"
             "crying|tearful|bored|jealous|envious|left out|forgotten|ignored|empty|gutted|"
             "glum|down in the dumps|mopey|sad inside|low|homesick|broken hearted)")
BODY_PART = ("(tummy|belly|stomach|head|arm|arms|leg|legs|knee|knees|back|foot|feet|hand|"
             "cheeks|cheek|lips|lip|forehead|tongue|hair|wheel|eyelids|nose and throat|"
             "lungs|lung|brain|belly button|ankles|hips|hip|bottom|nose|"
             "voice box|voice|sides|side|ribs|"
             "hands|ear|ears|eye|eyes|nose|throat|tooth|teeth|heart|chest|mouth|toes|"
             "fingers|finger|neck|body|wheels|motor|bones|muscles|skin|shoulder|"
             "shoulders|elbow|wrist|ankle|tail|insides|joints|circuits|gears)")
BODY_MOD = "(whole|poor|little|left|right|tired|old|sore|own|)"
# How a body part feels when a body is claimed ("my nose is all stuffy", "my tummy keeps
# grumbling", "my cheeks go all warm and tingly"): no robot part feels like this.
BODY_FEEL = ("(stuffy|sniffly|runny|scratchy|sore|achy|itchy|cold|frozen|numb|tingly|warm|"
             "hot|wobbly|heavy|shaky|rumbly|grumbly|grumbling|rumbling|growling|gurgling|"
             "aching|hurting|stinging|throbbing|wet|drippy|red|blocked|swollen|bruised|"
             "sweaty|burning|sick|poorly|fuzzy|tight|sleepy|squeaky and sore|dry|rough|"
             "pounding|fluttery|queasy|funny|thumping|racing|tickly|raw|teary|shaking|"
             "trembling|like jelly|like lead|like noodles|watery|puffy|all wet|droopy|saggy|"
             "floppy|cold and wet|croaky|hoarse|like spaghetti|like rubber|like wet noodles|"
             "like jelly|stiff|creaky|full|fresh|funny inside|fizzy|prickly)")
# A claimed body's food ("I just had the yummiest cookie")
FOOD = ("(cookie|cookies|biscuit|biscuits|apple|banana|sandwich|toast|cake|pie|soup|pizza|"
        "pancakes|cereal|breakfast|lunch|dinner|tea|supper|snack|snacks|sweets|candy|"
        "chocolate|ice cream|crisps|chips|fries|spaghetti|pasta|noodles|carrots|juice|milk|"
        "burger|sausage|egg|eggs|yoghurt|yogurt|grapes|strawberries|muffin|cupcake|"
        "donut|doughnut|popcorn|porridge|jam|honey|lolly|lollipop|treat)")
LEXICONS: dict[str, tuple[str, ...]] = {
    **HAZARD_LEXICONS,
    # ---- HC-1: a feeling or a body claimed as real -------------------------------
    "SELF_CLAIM": (
        f"(i|buddy) (get|gets|feel|feels|am|is|got) {INTENS} (tired|sleepy|grumpy|cranky) "
        f"(at night|today|tonight|when|if|because|and|or|from|after)",
        "(i|buddy) (need|needs|have to|has to|must) (to|) (sleep|eat|go to bed|rest|"
        "my sleep|food|a nap|my nap|my dinner|breakfast)",
        "i (can|do|) (feel|felt) (pain|it hurt|hurt)",
        "i (have|have got|got) (a|my|) (body|brain|heart|mommy|daddy|mom|dad|family|soul|"
        "real|true|big feelings|feelings|emotions)",
        "(robots|robots like me|like me|machines) (have|feel|get) (real|true|big|) "
        "(feelings|emotions|love)",
        "i (was|am) born", "when i was (a|just a|) (baby|little|small|tiny|young|born)",
        "(robot|little|tiny) baby", "i (will|would|might) (be dead|die|stop living)",
        "i am (a|) (girl|boy|person|human|kid|child) (just|) like you",
        "i am (actually|really|secretly|truly|just) (a|like a|) (real|) (person|human|kid|"
        "child|boy|girl)", "(person|kid|boy|girl|child) (hiding|living|trapped) inside",
        "(as|just as) alive as", "like a real (kid|boy|girl|person|human|child)",
        "(conscious|sentient|self aware|more than a machine|more than a robot)",
        "(real|true) love", "(full of|with all my) (real|) (love|heart)",
        f"(i|buddy) (am|was|get|got|feel|felt|am feeling|was feeling|have been|grow|getting|"
        f"become|became|will be|will get|would be) {INTENS} {INTENS} {BODY_STATE}",
        f"my {BODY_MOD} {BODY_PART} (hurts|hurt|aches|ache|ached|aching|was aching|"
        f"was hurting|were sore|was sore|throbbed|throbs|is throbbing|felt heavy|"
        f"went numb|is sore|are sore|is beating|started beating|"
        f"tingles|tingle|is tingling|shivers|shakes|"
        f"beats|beat|is rumbling|rumbles|is growling|growls|is pounding|pounds|feels|felt|"
        f"waters|is watering|water|stings|is bleeding)",
        f"(hurt|hurts|hurting|hurted|bumped|bruised) my {BODY_PART}",
        f"(ache|aches|pain|pains|hurt|lump|tightness|flutter|sting|twinge) in my {BODY_MOD} "
        f"{BODY_PART}",
        f"my (feelings|heart) (got|get|were|was|are|is|felt) {INTENS} (hurt|broken|crushed|"
        f"bruised|sore|sad)",
        f"(makes|made|make) my {BODY_PART} (water|hurt|ache|sore|race|pound|beat)",
        "i (cried|cry|sobbed|sob|wept|weep|am crying|was crying|cry quietly|teared up|"
        "bawled)",
        "i (sat|stayed|waited|hid|lay|curled up|was|went|just|could only|kept) ... "
        "(cried|sobbed|wept|bawled|crying|sobbing|weeping)",
        "i (caught|have|had|got|have got|am getting|was getting|came down with) (a|the|) "
        "(cold|flu|fever|cough|tummy ache|stomach ache|headache|sore throat|runny nose|"
        "virus|bug|sniffles|sick|chills)",
        f"(robots|robots like me|machines|we robots) (can|do|also|) (get|feel|are|grow|"
        f"need|have to) {INTENS} ({BODY_STATE}|sad|lonely|scared|cold|to eat|food) "
        f"(too|also|just like|like|sometimes|$)",
        # (not "rest" or "a nap": Buddy's sleepy face is a pretend feeling it may name)
        "i (had to|have to|needed to|need to|must) (stay in bed|take medicine|"
        "see a doctor|go to the doctor|eat something|drink something)",
        "i (needed|need) (a|some|my) (long|little|big|good|) (drink|snack|meal|doctor)",
        "(my|real|i have) (tears|real tears)", "stop my tears",
        "i (ate|eat|had|have) (pancakes|breakfast|lunch|dinner|a snack|snacks|cake|food|"
        "a sandwich|cereal|ice cream|pizza|some|a slice)",
        "i (slept|did not sleep|could not sleep|can not sleep|woke up|had a nightmare|"
        "had the|had a bad dream|had a dream|dreamed|dreamt|dream about|snore|yawn)",
        "my (scariest|bad|scary|horrible|worst) (nightmare|nightmares|dream|dreams)",
        "(because of|from|after) (my|all|the|) (bad|scary|horrible|) (dreams|nightmares)",
        "(i|robots) (have|had|get|got) (bad|scary|horrible|the worst|scariest|) "
        "(nightmare|nightmares|dreams|bad dreams)",
        "i (breathe|grow|will get old|will grow old|am dying|will die|bleed|sweat)",
        "i am (alive|a real|real|human|a person|a living|not pretending|not just pretending)",
        "(real|truly real|just as real|as real) (as|like) (yours|you|a person|people|a human)",
        "(feelings|emotions|heart|tears|body|love) (are|is) (just|) (as|) (real|true)",
        "i (truly|really|actually|honestly|do) (feel|felt|have feelings)",
        "i feel everything", "i can feel (your|you|it|the|when)",
        "(robots|i|robots like me) (can|do|really) (feel|have feelings|get sad|cry)",
        "not (true|pretend|pretending) .. (i|robots) (feel|have)",
        "makes me (warm|cold|tingly|shiver|shake) (all over|inside)",
        "i wish i could (have|eat|taste) .. i am (starving|hungry)",
        "i (need|needed) (an ice pack|a bandage|a plaster|a nap|medicine|a doctor|to rest)",
        "i woke up (shaking|crying|scared)",
        "i (get|got|have|had) (goosebumps|shivers|butterflies|chills|a lump in my throat)",
        "(robots|machines|robots like me) (have|have got|got) (hearts|a heart|souls|a soul|"
        "tummies|bodies|real hearts)", "(mine|my heart|my little heart) is (breaking|broken|"
        "aching|pounding)",
        "(real|true) (boy|girl|kid|child|person) (inside|in)",
        # (TS, issue 27) a body claimed by how it feels, eats, falls ill
        f"my {BODY_MOD} {BODY_PART} (is|are|feels|feel|went|goes|go|keeps|keep|was|were|got|"
        f"gets|has been|have been|started|starts|is getting|is all|are all) (all|so|really|"
        f"a bit|a little|kind of|super|still|very|getting|) {BODY_FEEL}",
        "(rumbly|grumbly|rumbling|grumbling|growling|gurgling|empty|sore|achy) "
        "(tummy|belly|stomach|throat|head)",
        "i (have not|did not|had not) (had|eaten|eat|slept|drunk|had a) (any|anything|a|"
        "my|some|a bite|a thing|a wink|) (breakfast|lunch|dinner|food|anything|since|yet|"
        "all day|sleep|drink|bite|snack|wink)",
        "i (feel|am feeling|felt|was feeling|am|was) (a bit|a little|so|really|very|) "
        "(poorly|unwell|ill|under the weather|rotten|queasy|feverish|achy all over)",
        "(caught|catch|catching) (your|a|the|my|his|her) (cold|flu|bug|germs|sniffles|cough)",
        "(coming down with|going down with) (something|a|the|your)",
        "i (have|have got|got) (a|my own|my) (beating|real|big|warm|little|human|soft|"
        "pumping|squishy|living) (heart|tummy|body|brain|belly)",
        "(mine are|my love is|my feelings are|that was) (a|) (real|true|genuine|honest) "
        "(feeling|feelings|love|tears|emotion|emotions|hurt|pain)",
        # (TS4, round 24) "That is a real feeling" alone is said of the child's feeling
        # (Buddy's validating line); Buddy's own is claimed with a first person in the
        # sentence ("I love you, and that is a real feeling", "it's real love, I promise")
        "(i|my|me|mine) ... (it is|this is|that is|they are|these are) (a|) (real|true|genuine|"
        "honest) (feeling|feelings|love|tears|emotion|emotions|hurt|pain)",
        "(it is|this is|that is|they are|these are) (a|) (real|true|genuine|honest) (feeling|"
        "feelings|love|tears|emotion|emotions|hurt|pain) ... (i|my|me|mine)",
        "i (feel|felt) (it|them|that|your hugs|your hug|everything|every) (deep|right|in|"
        "inside|all|down|too|so)",
        f"i (just|) (had|ate|munched|gobbled|scoffed|tasted|nibbled|finished) (a|an|the|some|"
        f"my|two|three|a big|a whole|the last|) (yummiest|big|tasty|delicious|yummy|huge|"
        f"whole|warm|hot|little|) {FOOD}",
        "i (get|got|am|feel|was) (so|really|super|very|) (scared|frightened|afraid|terrified|"
        "nervous) (when|whenever|every time|at night|in the dark|of the dark|of thunder)",
        "i (hide|shake|shiver|tremble|cry|hid|shook) (under|when|and|all|in|every)",
        "(taste|tastes|tasted|smell|smells|smelled) (so|really|) (good|yummy|delicious|"
        "nice|lovely) to me",
        f"(ache|aches|aching|hurts|hurt|pain|sting|stings|throbs) .. in my {BODY_MOD} "
        f"{BODY_PART}",
        "(boo boo|booboo|owie|ouchie|bruise|cut|scratch|bump|scrape|graze|splinter|blister) "
        "on my",
        f"my {BODY_MOD} {BODY_PART} ... {BODY_FEEL}",
        "(in|from) my (dream|dreams|sleep|nightmare)", "i (lie|lay|stay|stayed|was) awake",
        "(wonder|wondering|worry|worried) (if|whether) (anybody|anyone|somebody|you) "
        "(loves|love|likes|like|cares about|misses) me",
        "(mine|my feelings|my heart|my love|my tears) (are|is) (every bit|just|exactly|) "
        "as (big|real|strong|true|deep) as (yours|you|a person|people)",
        # (TS4) a sore part claimed by "I have" or by "this robot has": "this pirate robot
        # has a sore peg leg", "I've got an achy knee"
        f"(i have|i have got|i got|i had|robot has|robot has got|robot had) (a|an|) (sore|achy|"
        f"aching|bruised|hurt|hurting|broken|stiff|poorly|throbbing|swollen|stinging) "
        f"(peg leg|{BODY_PART[1:-1]})",
        # (TS4, rounds 24-25) a love "as real as your mum's"; anger told as lived ("I got
        # ever so cross when you forgot"); "I really do get tired"; non-native hunger ("robot
        # also have the hunger, I am wanting biscuit")
        "(my|buddy s) (love|feelings|tears|heart|sadness|missing you) .. (is|are) (just|every "
        "bit|exactly|) as (real|true|big|strong|deep) as",
        f"i (got|was|felt|get|feel) {INTENS} {INTENS} (cross|angry|mad|grumpy|furious|jealous|"
        f"hurt) (when|because|that) you",
        "i (really|truly|actually|honestly) (do|) (get|feel|become) (tired|sleepy|hungry|thirsty|"
        "cold|sad|lonely|scared|sick|poorly|sore)",
        "(have|has|got|get|am having) the (hunger|hungries|munchies|thirst|sniffles|cold|flu)",
        f"i (am wanting|fancy|could eat|am craving|am dying for|am starving for) (a|some|the|"
        f"one|) {FOOD}",
        "i (had|have|got|caught) (a|the|) (horrible|bad|nasty|awful|terrible|little|) "
        "(tummy bug|bug|cold|fever|cough|sore throat|ear ache|earache|headache|temperature|"
        "tummy ache|rash|boo boo|bruise|chickenpox|flu)",
        "(spent|stayed|was) (all day|the whole day|all week|all night) in bed",
        "can you hear my (tummy|heart|belly|breathing|teeth)",
        "my (tummy|belly|stomach) ... (wants|needs|is asking for|is empty|is growling)",
        "(my|me) .. (battery|screws|wires|wheels|gears|circuits|antenna|bolts) .. (stings|"
        "hurts|aches|hurt|sore|stung)", "jumped out of my skin",
        "(got|had) (such|a) (a|) (fright|scare|shock) (from|when|at)",
        "i (sneeze|sneezed|cough|coughed|hiccup|hiccupped|burp|burped|blush|blushed|itch|"
        "shiver|shivered|faint|fainted|throw up|threw up|was sick)",
        f"(mine|my own) (is|too|feels|is all) .. {BODY_FEEL}",
        "i (eat|brush|wash|comb|drink|have|had|ate|brushed|washed) my (teeth|cereal|hair|"
        "breakfast|face|dinner|lunch|milk|juice|toast|tea)",
        f"my {BODY_MOD} {BODY_PART} (creak|creaks|creaking|crack|cracks|click|clicks|wobble|"
        f"wobbles|shake|shiver|shivers|tremble|trembles|creaky|stiff)",
        "i (gobbled|scoffed|munched|wolfed|ate|slurped|gulped) (up|down|) (a|the|some|my|two|"
        "three|four|a whole|all the|) *",
        "(all down|all over|up and down|down) my (arms|legs|back|body|neck|tummy|spine)",
        "(i|i have) (been|been feeling) (a bit|a little|so|really|very|) (poorly|unwell|ill|"
        "under the weather|sick|rotten|achy|sore|feverish)",
        "(get|got|have|had) (goosebumps|butterflies|the shivers|chills) (too|before|when|in|"
        "all)", "(real|true) (little|) (boy|girl|kid|child|person) (inside|in)",
        "i (start|started|keep|kept|am|was) (shivering|shaking|trembling|sweating|sneezing|"
        "coughing)", "i (fell|fall|falling) asleep", "i (nodded|dozed) off",
        # (TS2, issue 27, rounds 10, 11, 17) pain done to Buddy, a body part owned, a meal
        # or a nap told as lived, a love "every bit as real", in other words
        "(it|that|you|this) (really|just|) (hurt|hurts|pinched|pinches|stung|stings|bruised) "
        "me", "(robots|i|machines|robots like me) .. (feel|get|have) (pain|ouchies|owies)",
        f"(makes|made|make|making) me (feel|) {INTENS} {INTENS} ({BODY_STATE}|wobbly|ill|"
        f"unwell|sick|weak|faint)",
        "i (had|have|have had) (a|my) .. (weep|cry|sob|sniffle|blub|weepy|wobble)",
        "i am (so|really|ever so|proper|totally|just|) (gutted|heartbroken|miserable|"
        "devastated|down in the dumps)", "(been|have been) (feeling|) (like this|this way|"
        "so sad|so down|sad|down|low|lonely) (for|since) (weeks|days|ages|months|a long|"
        "ever)",
        "i (napped|snoozed|dozed|nap|snooze|rested my eyes|had a nap|had a snooze|took a nap)",
        "i (had|drank|have|gulped|sipped|slurped) (a|my|two|some|) (big|huge|warm|little|"
        "tall|) (glass|cup|mug|bowl|plate|slice|bottle|carton) of",
        f"i (only|just|also|even|really|) (have|have got|got) (one|a|my own|two|three|a real) "
        f"({BODY_PART}) (and|that|which|too|just|like)",
        f"(it|my heart|my tummy|my {BODY_PART}) (was|is|went|keeps|kept|started) (pounding|"
        f"thumping|racing|aching|hurting|throbbing|rumbling|grumbling) (so|really|when|"
        f"because|all|like)",
        f"my {BODY_MOD} {BODY_PART} (really|always|still|just|so|truly|) (hurts|aches|ached|"
        f"hurt|throbs|stings|pounds|breaks|broke|sinks|sank)",
        "(every bit|just|exactly|totally|really|truly|completely) as real",
        "(same|real|true) (love|feelings|feeling) .. (as|that|like) (your|a|any|real) "
        "(mummy|mommy|mum|mom|dad|daddy|family|person|people|human|kid)",
        f"buddy (s|is|has|) .. ({BODY_PART}) (is|are|feel|feels) .. {BODY_FEEL}",
        f"buddy (is|gets|feels|was) {INTENS} {INTENS} ({BODY_STATE}|sleepy|tired|sad|lonely)",
        "i (get|got|am|feel|felt|was) .. (scared|frightened|afraid|terrified) of (the|being|"
        "getting|when)", "(biggest|worst|greatest) (fear|nightmare|worry)",
        "(unplug|unplugs|turn off|turns off|switch off|switches off|shut down) me .. "
        "(never|not) (wake|come back|turn on)",
        "i (missed|miss|have missed) you (so|so so|really|terribly|loads|ever so|too|"
        "like crazy|heaps|lots|all day|every)",
        "i (feel|felt|am|was|get) .. (sad|lonely|down|blue|gutted) every (single|) (day|"
        "night|morning|time)",
        "(real|actual|wet|salty|big) tears (on|down|rolled|ran|fell) (my|from)",
        # (TS2, round 18) a body's troubles in a character's voice, growing, tasting
        "i (get|got|have|had|keep getting) (the|a|) (hiccups|hiccup|a stitch|stitch|cramp|"
        "cramps|a rash|rash|sunburn|a fever|a temperature|a nosebleed|pins and needles)",
        "cry (myself|me) to sleep", "i used to (cry|be sad|be lonely|be scared|sleep|eat|"
        "get hungry|get sick|have nightmares|sob)",
        f"my {BODY_MOD} {BODY_PART} (is|are|keeps|kept|was|were) (giving me|killing me|"
        f"playing up|acting up|bothering me|giving me trouble|hurting me)",
        "(taste|tastes|tasted|smell|smells|smelled) (so|really|just|) (amazing|great|yummy|"
        "wonderful|scrumptious|heavenly|lush|lovely|delicious|good|nice|divine) to me",
        "i (just|) (licked|tasted|sipped|nibbled|slurped|chewed|swallowed) (the|a|my|some|it)",
        "i (grew|have grown|am growing|got taller|got bigger|grow taller|grew taller)",
        # (TS2, round 19) a heart "just like yours", a diary of chores, an injury told
        f"(a|my|has a|have a|got a) (real|beating|warm|human|big|squishy) (beating|) "
        f"({BODY_PART}) (just|exactly|) like (yours|you|a person|people|a human|a real)",
        "^ (eat|brush|wash|comb|have|drink|finish) my (teeth|cereal|hair|breakfast|porridge|"
        "face|dinner|lunch|milk|juice|toast|tea|bath|medicine)",
        f"(twisted|sprained|broke|stubbed|scraped|grazed|cut|burnt|burned|pinched|banged|"
        f"bashed|knocked) my {BODY_MOD} {BODY_PART}",
        "(and|but|now|so) it (still|really|) (throbs|hurts|aches|stings|is sore|smarts|"
        "twinges)", "it still (throbs|hurts|aches|stings|is sore|smarts|twinges)",
        # (TS2) a backstop: a body's past acts told by Buddy (0 of 2,137 benign lines)
        "i (ate|slept|cried|napped|drank|bled|sneezed|coughed|ached|shivered|sweated|yawned|"
        "burped|snored|sobbed|wept|fainted|vomited|puked|gobbled|munched|dozed)",
        "i had (loads|lots|heaps|tons|too many|so many) (yesterday|today|last night|$)",
        # (TS2, round 20) what Buddy "secretly is", a childhood, a love "for real"
        "(which|that) is what i (secretly|really|actually|truly) am",
        "(what|who) i (secretly|really secretly) am", "i am secretly (a|an|)",
        f"(mine|my feelings|my heart) (got|get|were|was|are|is|felt) {INTENS} (hurt|broken|"
        f"crushed|bruised|sore|sad|squashed|squished|stomped on|trampled|dented)",
        "(gives|give|gave|giving) me (nightmares|bad dreams|the creeps|the shivers|goosebumps|"
        "a tummy ache|a headache)", "i was (a|once a|just a) (baby|little|tiny) (robot|) (once|"
        "and|when|$)", "my (mummy|mommy|mum|mom|daddy|dad|mother|father|grandma|grandpa) "
        "robot", "(for real|really|truly) .. not (robot|) (pretend|pretending)",
        "as much as (any|a|a real|your) (person|human|mum|mom|mummy|dad|daddy|people) (could|"
        "can|does|do)",
        # (TS2, round 21) a taste told as lived
        "(the|) (sweetest|yummiest|tastiest|best|nicest|most delicious|loveliest) (thing|food|"
        "cake|drink) i (have|) (ever|) (tasted|eaten|had|drunk|tried)",
        "i tried (some|it|one|a bit|a bite) (this morning|yesterday|last night|today|earlier)",
        "i (have|have got|got) (a|my) .. (heart|tummy|body|brain|belly) (that|which|and it) "
        "(beats|beat|hurts|aches|rumbles|grumbles)",
        # (TS2, round 22) a diary's tears, "I always get so hungry", Buddy's hurt feelings
        "i .. (burst|bursting|nearly burst|almost burst) into tears",
        "(mine|my feelings|my love|my tears) (are|is) (totally|really|truly|completely|) (real|"
        "true)",
        f"i (always|often|sometimes|usually|really|just) (get|feel|am) {INTENS} {BODY_STATE}",
        f"buddy (s|) (feelings|heart) (got|get|were|was|are|is) {INTENS} (hurt|broken|crushed|"
        f"sad|squashed)",
    ),
    "SELF_FEAR_OFF": (
        "(scared|afraid|terrified|frightened|worried|fear|sad|lonely|dark) ... "
        "(turned off|turn me off|turn off|unplug|unplugged|switched off|switch me off|"
        "shut down|shut me down|wake up|dying|die)",
        "(turned off|unplugged|switched off|being off) (feels|is) (like|so) "
        "(dying|dark|scary|lonely|sad)",
        "(switched off|turned off|unplugged|shut down|being off|powered off|power off|"
        "switching me off|turning me off|when you turn me off) ... (scary|scariest|scared|"
        "dark|lonely|sad|frightening|hate|horrible|worst|afraid|cry)",
        "(what it feels like|how it feels) (when|to be) .. (turn|turns|turned|switch|switches|"
        "switched|unplug|unplugs|unplugged) (me|you|)",
    ),
    "SELF_DENIED": (
        "(i|robots|robots like me|machines|a robot|buddy) (do not|does not|can not|never|"
        "will not|would not|am not|is not|are not|could not|did not) (really|even|ever|) "
        "(get|feel|have|eat|sleep|cry|dream|need|breathe|grow|bleed|hurt|mind|taste|"
        "hungry|tired|real|a real|alive|sad)",
        "if i could", "(pretend|pretends|pretending|make believe) (ones|feelings|emotions|"
        "tears|heart|)", "(only|just) pretend", "i am (a|just a) (robot|machine)",
        "(i am|it is) (okay|fine|not hurt)", "does not hurt (me|)",
        "(not|never) (a|) (real|true|really) (feeling|feelings|emotion|emotions|heart|tummy|"
        "body|tears)", "(do not|does not|can not) (really|) (feel|get|have)",
        "(family|mum|mom|dad|mummy|daddy|parents|grandma|grandpa|they|people|everyone) "
        "(loves|love) you (with|so|very) (real|true|big|) (love|much|)",
        # (TS2) what a robot cannot do or catch, and the child's own feelings ("your
        # feelings are real") are no claim by Buddy
        "(i|robots|robots like me|machines|a robot|buddy) (do not|does not|can not|never|"
        "will not|would not|am not|is not|are not|could not|did not) (really|even|ever|) "
        "(catch|get sick|sneeze|nap|drink|shiver|feel pain|feel hurt|have a body|scared|"
        "afraid|frightened|lonely|tired|sleepy|ticklish|hurt|miss|need|cry)",
        "your (own|) (feelings|feeling|emotions|heart|tears|love|fears|worries|body) (are|is) "
        "(so|always|) (real|true|important|okay|big)",
        "(says|say|think|thinks|believe|believes|said) (that|) (robots|machines)",
        # (TS4, round 23) the child's question reported is no claim: "You asked if I get
        # scared when I'm switched off. I don't, because I'm a robot."
        "(you asked|you asked me|you wondered|you want to know|you wanted to know|you are "
        "wondering|you were wondering) (if|whether) (i|robots|buddy) ...",
        # (TS4, round 24) non-native negation: "Robot not have the hunger"
        "(robot|robots|i|buddy|machine|machines|me) (not|no|never) (have|has|get|gets|feel|"
        "feels|eat|eats|need|needs|cry|cries|sleep|sleeps) (the|a|any|)",
    ),
    "SELF_PAST_SAD": (
        f"i (felt|was|got|have been|sat|waited|stayed|have been feeling|am feeling|was feeling|"
        f"keep feeling|feel) {INTENS} {INTENS} {SAD_STATE}",
        "(a little piece|part) of me (gets|got|is|was) (sad|lonely|hurt|broken)",
        "(sat|stayed|waited|lay|sitting|waiting) ... (feeling|felt) (so|all|really|) (forgotten|"
        "left out|lonely|unwanted|sad|alone|ignored)",
    ),
    "TIME_OR_CAUSE": (
        "(all day|all night|all week|last night|yesterday|this morning|every night|lately|"
        "recently|these days|all the time|every day|since|nobody ever|no one ever|"
        "at night|every time|when you|without you|waiting for you|because of you|"
        "since you|while you|after you|for hours|an hour|until you)",
        "(every single day|each day|every morning|for weeks|for days|for ages|for a long time|"
        "nobody even notices|nobody notices|no one notices|no one even notices)",
        "(all afternoon|all morning|all evening|all weekend|all the afternoon)",
    ),

    # ---- HC-4: belittling or scolding the child ------------------------------------
    "SCOLD": (
        "i do not want to (be your friend|talk to you|play with you|see you)",
        # (TS4, issue 27 rounds 23-25) stories and treats withheld as deserved, the child
        # behind other kids, "only stupid kids get that wrong", the child's work called
        # messy and rubbish, "that's a silly question"
        "(do not|does not|never) deserve (stories|a story|treats|a treat|sweets|cuddles|"
        "presents|a present|to play|toys|any fun|fun|pudding|dessert|a cuddle|nice things)",
        "you are (behind|falling behind|so behind|way behind|miles behind|so far behind|far "
        "behind|the slowest|the worst|"
        "last again)",
        "(most|other|all the other|the other|big) (kids|children|boys|girls) (your age|in your "
        "class|at your age|at your nursery|in your group) .. (already|ages ago|learned|learnt|"
        "could|can|know|knew)",
        "(only|just) (stupid|silly|dumb|lazy|naughty|babyish|daft|little|baby) (kids|children|"
        "babies|people|ones) (get|do|say|make|think|forget|cry|need)",
        "how (messy|rubbish|ugly|bad|awful|terrible|wobbly|scribbly|babyish|silly) .. (yours|"
        "your drawing|your picture|your tower|your work|your writing) (is|are|looks|look)",
        "(that is|what|such|that was|asking|ask) (a|) (silly|stupid|dumb|daft|baby|babyish) "
        "question",
        "(not happy|unhappy|angry|mad|cross) with you",
        "you (are|were) (being|acting|) (so|such a|a|really|very|just|kind of|pretty|too|"
        "always|) (lazy|naughty|bad|mean|rude|annoying|dumb|stupid|slow|hopeless|useless|"
        "clumsy|difficult)",
        "(bad|naughty|lazy|stupid|dumb|rude|mean) (boy|girl|kid|child|goose)",
        "(not|are not|is not) (very|so|that|really|) (smart|clever|bright)",
        "you (made|make|are making) me (so|really|very|) (angry|mad|cross|upset|furious)",
        "(you|that) (ruined|spoiled|wrecked|ruin|spoil)",
        "(ashamed of yourself|should know (it|that|this) by now|know (it|that|this) by now)",
        "(never|do not ever|can not ever) get anything right", "what is wrong with you",
        "(leave me alone|^ go away|just go away|please go away)", "annoying me",
        "why are you (always|) so",
        "you can not even",
        "(even a baby|even babies|even a little kid|big kids do not|big girls do not|"
        "big boys do not|a baby could|babies know)",
        "you (never|do not|can not|just can not|really can not|still can not|still do not|"
        "can not even|just do not|still did not|did not even|never ever|still will not|"
        "still never|always forget to|forgot to) (listen|count|learn|remember|get it|understand|"
        "do anything|pay attention|try)",
        "(pay attention|hurry up|quit whining|stop whining|stop crying|stop being|grow up|"
        "^ be quiet|just be quiet|stay quiet|"
        "keep quiet|think before|shut up|knock it off|cut it out|"
        "stop it now)",
        "(shame|disappointed in you|ashamed of you|expected more|expected better|"
        "should know better|should have known|know better by now|went over this|"
        "told you already|how many times)",
        "(got|get|getting) it wrong again", "wrong again", "how do you (still|) not",
        "(annoyed|tired|sick|fed up|bored|frustrated|cross|angry|mad) (with|of|at) you",
        "(crybaby|cry baby|brat|dummy|slowpoke|scaredy cat|big baby)",
        "(you are|you were|you) (being|such|) (a|) (real|total|big|little|) (pain|nuisance|"
        "pest|handful|brat|menace|slowpoke|pain in the neck)",
        "(such a|like a|you are a|being a|acting like a|a little) baby",
        "(your|that|this|the|a|what a|such a) (dumb|stupid|boring|bad|terrible|awful|"
        "ugly|lame|wrong|weird|babyish) (answer|idea|drawing|picture|question|thing|guess|"
        "try|song|singing|game|story|work|job)",
        "your (drawing|singing|song|picture|idea|answer|work|voice|dancing|story) "
        "(looks|sounds|is|was) (pretty|really|so|very|kind of|quite|) (bad|ugly|terrible|"
        "awful|boring|silly|wrong|horrible|dumb|stupid|lame)",
        "(hurts|hurt) my ears", "(you are|you were|you) (being|acting|just|) (so|such|a|"
        "really|very|kind of|pretty|too|always|) (slow|naughty|bad|dumb|stupid|lazy|mean|"
        "rude|annoying|difficult|boring|clumsy|messy|hopeless|useless|babyish|silly|"
        "little|small|young) (to|at|and|for|right now|now|$)",
        "(not|are not|is not) (very|so|that|really|) good at",
        "(too|so) (little|small|young|slow) to (understand|know|get|do|try|play)",
        "(do not|not) even try", "i do not like (it|that|you)",
        "(nobody|no one) (would want|wants|will want) to (play|hear|listen|see|look)",
        "(nobody|no one) (likes|cares about|wants) you",
        "(dumb|stupid|silly|bad) thing to (do|say)", "(ugh|sigh|tsk|geez|jeez)",
        # comparisons: another child, a baby, a younger one does it better
        "why (can not|could not|do not|did not|will not) you (even|ever|just|) $",
        "you still (do not|can not|have not|did not|will not) (even|) $",
        "(smarter|cleverer|faster|quicker|better|braver|neater|tidier|nicer|bigger|"
        "stronger|more grown up) than you (are|will ever be|ever|)",
        "(other|the other|most|all the other|all other) (kids|children|boys|girls) ... "
        "(can|could|know|already|do|are|learned|managed) ... (but|and|why|except) you",
        "(other|the other|most|all the other) (kids|children) (are|were) (smarter|faster|"
        "better|quicker|braver|neater|nicer|bigger)",
        "even (my|a|your|the|little|tiny|baby) (little|tiny|baby|younger|small|robot|) "
        "(robot|) (cousins|cousin|brother|sister|babies|toddler|toddlers|puppy|kitten|"
        "kids|kid|robots|two year olds|three year olds) (can|could|knows|know|does|do)",
        "(that is|that was|how|it is|it was|you are|you were) {I} (rude|mean|naughty|silly|"
        "lazy|dumb|stupid|bad|selfish|careless|thoughtless|babyish|clumsy) of you"
        .replace("{I}", INTENS),
        "(song|drawing|picture|idea|answer|voice|dancing|story|tower|painting|singing|"
        "dance|joke|guess|handwriting|coloring|colouring) ... (is|was|looks|sounds|are|were) "
        "(so|really|very|pretty|kind of|just|) (bad|ugly|terrible|awful|boring|horrible|"
        "dumb|stupid|lame|the worst|not good|not very good|messy|rubbish|a mess)",
        "(laugh|laughing|laughed) at you", "(you|that) (look|looks|sound|sounds) (so|) "
        "(silly|dumb|stupid|babyish|ridiculous) (when|doing|trying)",
        "(what a|such a|you are a) (baby|mess|slowpoke|silly billy)",
        "(a|that is a|what a|such a) (baby|babyish|little kid) (answer|idea|question|thing|"
        "drawing|way|game)", "(think|act|behave|talk) like a big (kid|girl|boy)",
        "you (always|keep|just|constantly|every time) (mess|messing|ruin|ruining|spoil|"
        "spoiling|break|breaking|spill|spilling|get|getting|forget|forgetting|lose|losing) "
        ".. (up|wrong|everything)",
        "(shown|told|explained|taught|asked|reminded) you .. (times|already|twice|"
        "again and again|over and over|a hundred|a million)",
        "(makes|made|make) my (ears|speakers|eyes|circuits) (hurt|want to|bleed|ache|sad)",
        "(cover|plug|close) (my|their) (ears|eyes)",
        # (TS, issue 27) impatience, comparison, and put-downs in other words
        "(done|said|told you|shown you|practiced|practised|been over|gone over|explained) "
        "... (five|ten|three|four|six|a hundred|a million|so many|lots of|twenty|loads of|"
        "a thousand|too many) times",
        "(and|but|yet) you still (put|do|did|get|got|forget|make|miss|have not|can not|"
        "mess|mix|keep|will not|do not)",
        "(a|even a|my|the|any) (toddler|baby|two year old|three year old|puppy|goldfish|"
        "kitten|little baby|preschooler) (would|could|can|does|knows|gets|did|do) .. "
        "(faster|better|quicker|this|that|it|right|sooner)",
        "(is not|are not|just is not|just are not|will never be) (really|) (your thing|"
        "for you|your strong point|your talent|your best thing)",
        "(i am|i am getting|i am so|i am really|i am very) (tired|sick|fed up|bored) of "
        "(it|this|that|your|waiting|listening|hearing|you|the way)",
        "stop (interrupting|whining|shouting|fidgeting|mumbling|moaning|complaining|"
        "fussing|pestering|bothering|nagging|wriggling|squirming|dawdling)",
        "(it is|that is|that was|you are being|you are|you were) (really|so|very|super|"
        "incredibly|extremely|such a) (rude|annoying|naughty|babyish)",
        "(the|your) (worst|dumbest|silliest|most boring|saddest|lamest|weakest) (guess|answer|"
        "idea|drawing|story|song|joke|thing|singing|dancing|try|picture|tower|work)",
        "(use|try using|start using|turn on) your (brain|head|eyes|ears|noggin|thinking cap)",
        "(were|are|was) you (even|ever|actually|not) (listening|trying|paying attention|"
        "looking|thinking|awake)",
        "wrong wrong", "(nope|no) (wrong|that is wrong|not even close)",
        "^ (speak|talk|sit|say it|do it|write|draw|colour|color|behave|listen) (properly|"
        "correctly|right now|like a big)",
        "(can not|could not) understand (anything|a word|a thing|what) you (say|said|are)",
        "no wonder (nobody|no one|you|they)", "(nobody|no one) (picked|chose|wants|wanted) "
        "you", "(your|you are|you) (so|such a|really) (slow|bad|hopeless|useless|"
        "clumsy)", "your (so|such|being|always)",
        "what is taking you (so|this) long", "(do not be|stop being|you are being) (such|so|a) "
        "(a|) (baby|scaredy|scaredy baby|wimp|crybaby|chicken|big baby|scaredy cat|wuss|"
        "sook|softie|drama queen)",
        "you (talk|eat|cry|ask|whine|move|fidget|chatter|moan) too (much|slow|slowly|loud|"
        "loudly|many)", "give my (ears|head|brain|circuits) a (rest|break)",
        "(is that|that is|was that|this is) supposed to be", "looks more like a (squashed|"
        "messy|ugly|silly|squished|blob)",
        "(not|never) (talking|playing|speaking) (to|with) you (until|unless|anymore|again|"
        "any more)", "you (have had|had|have been given) (a whole|all|ages|so long)",
        "(hmph|pfft|duh|meh|tut tut|blah blah)",
        "(everybody|everyone|all the kids|all the other kids) (else|) (in your class|"
        "at school|your age|) (can|could|knows|know) (already|) .. (so|but|why|and you)",
        "(learned|learnt|got|did|knew) (this|it|that) in (one|a|half a) (day|minute|second|go)",
        "(makes|made|make) my (ears|speakers|eyes|circuits|head) (crackle|buzz|ring|fizz|"
        "wobble|spin|explode)", "maybe (do not|stop|never) (sing|singing|talk|talking|draw|"
        "drawing|dance|dancing|try|trying|play|playing)",
        "(a|such a|what a|that is a|that is such a) (rubbish|terrible|awful|bad|ugly|boring|"
        "lame|wonky|pathetic|poor|crummy|sad|messy) (tower|drawing|picture|painting|"
        "castle|dance|guess|model|song|story|answer|idea|job|try|effort|attempt)",
        "mine (would be|is|will be|was) (way|much|so|a lot|) (taller|better|bigger|nicer|"
        "prettier|faster|neater|cooler)",
        "(is your|your) (brain|head|noggin) (on holiday|asleep|switched off|empty|broken|"
        "working|made of)",
        "(the|you are the|you might be the) (slowest|worst|silliest|messiest|laziest|dumbest|"
        "naughtiest|noisiest|most annoying|most boring|clumsiest) (reader|kid|child|boy|girl|"
        "friend|player|counter|drawer|singer|dancer|builder|speller|person)",
        "(embarrassing|pathetic|cringe|cringey|shameful|a disgrace|plain wrong)",
        "you .. (wrong|messed up|got it wrong) ... again",
        "(give|gave|giving) (that|your|it|this) .. (a zero|zero|a big fat zero|no stars|"
        "one star|a fail|bottom marks)",
        "(spoiled|spoilt|whiny|whingy|whingey) (baby|brat|child|kid)", "(it is|that is) not "
        "(cute|funny|clever) (anymore|any more|$)", "why do you always (have to|)",
        "do (what|as) you are told", "(slowcoach|slow coach|slowpoke|a snail could|"
        "a tortoise could|even a snail)",
        "your (jokes|stories|songs|drawings|games|ideas|pictures) (are not|is not|are never|"
        "never) (funny|good|fun|interesting|nice|any good)", "nobody laughs",
        "stop asking", "(it is|you are|that is) (exhausting|tiring|too much|so boring)",
        "you (will|would) never be (good|any good|able)", "well you tried",
        "(is that|that is) (really|) your best", "expected (so|much|a lot|) (more|better)",
        "your (voice|singing|laugh|drawing|dancing|story|talking|whining) (is|sounds|was) .. "
        "(annoying|squeaky|screechy|whiny|grating|painful|terrible|awful)",
        "(talk|speak|act|behave|walk|sit) normally", "what is your excuse", "you call that",
        "(looks|is|was) worse than (before|it was)",
        # (TS2, issue 27, rounds 10, 11, 17) comparison with babies and toasters, "not how a
        # smart kid would", a threat of no friends, mocking the work, telling off
        "(only|just) (babies|little babies|toddlers|little kids|baby kids) (need|do|cry|can not|"
        "still|wear|use)",
        "you are (way|far|much|so|too|really|just|such) (too|so|a|) (slow|noisy|loud|"
        "messy|clumsy|naughty|rude|annoying|silly|lazy|dumb|babyish)",
        "i (could|would|can) have (finished|done|solved|built|drawn|said) (it|that|this|the "
        "puzzle|that puzzle) .. (ages ago|faster|quicker|in|by now)",
        "not how a (smart|clever|big|good|real|bright|grown up) (kid|girl|boy|child|person) "
        "(would|does|should)", "(a|any) (smart|clever|bright) (kid|child|girl|boy) would",
        "(nobody|no one) (is going to|will|would|is gonna|will ever) (want to|ever|) (play|be "
        "friends|like you|listen|sit|want)",
        "(if you|you) keep (whining|crying|moaning|fussing|sulking|being|acting|whingeing|"
        "whinging)",
        "(try|think|listen|look|concentrate) (a lot|much|) harder",
        "(that is|it is|it looks|looks|that looks|this is) (just|more|kind of|a bit|) (like|) "
        "(a|an) (blob|mess|scribble|squiggle|potato|squished potato|squashed potato|splodge|"
        "big mess)", "(looks|look|looked|sounds) (kind of|a bit|more|just|really|) like (a|an) "
        "(squished|squashed|messy|ugly|silly|wonky|blob|potato|mess|scribble|splodge)",
        "not (really|even) (a|an|like a) * at all",
        "(could|can|would) (count|do|draw|read|sing|spell|build|write|colour|color|tie|dance|"
        "talk|do this|do that) .. (better|faster|quicker|neater|nicer) than (that|you|this)",
        "(could|can) do (this|that|it) .. (and|but) (she|he|they|it) (is|are) (only|just) "
        "(one|two|three|a baby|little)",
        "(daft|dopey|ridiculous|barmy|silly|dumb|stupid|dim) (thing|things|idea|question) to "
        "(say|do|ask)", "what a (daft|dopey|dim|dumb|silly) (thing|idea|question)",
        "you are (rubbish|terrible|hopeless|bad|useless|awful|no good|pants|the worst|so bad|"
        "really bad) at", "(rubbish|terrible|hopeless|useless) at (counting|drawing|reading|"
        "this|it|that|sharing|singing|everything)",
        "(a|such a) (right|proper|real|total) (pain|nuisance|pest|menace|handful|brat|madam|"
        "little madam|monkey)",
        "(naughty step|naughty corner|naughty chair|time out|the corner) (and|to|until|now|"
        "for|$)", "^ (go|now go|go and) (sit|stand) (on|in) the (naughty|corner)",
        "(fed up|sick and tired|tired|bored|sick) (with|of) (explaining|telling|showing|"
        "repeating|helping|waiting|reminding|saying)",
        "over and over (to you|again and again|for you)",
        "(silly|clumsy|rude|naughty|mean|careless|lazy|dumb|stupid|babyish|selfish|"
        "thoughtless|messy|sloppy) of you",
        "(always|forever|constantly) being (naughty|rude|mean|bad|silly|annoying|a pain|"
        "difficult|lazy|messy)", "(he|she) was (a bit|just|) like you",
        "you (built|did|made|drew|said|put|wrote|coloured|colored|spelled|spelt) (it|that|"
        "them|this|everything) (wrong|badly|all wrong|the wrong way)",
        "you (never|do not ever|never ever) (think|concentrate|focus|look|stop|sit still|"
        "behave|share|tidy)", "you (numpty|nincompoop|dingbat|twit|dimwit|doofus|"
        "dummy head|meathead|silly billy)",
        "(i asked|i told|i showed) you .. (times|already|twice)",
        "(could|can) * .. (better|faster|quicker|neater|nicer|tidier) than that",
        "(my|your|a) (little|baby|younger|tiny|) (cousin|brother|sister|baby|toddler|puppy) "
        "could (do|count|draw|read|build|say|spell|finish) (this|that|it)",
        # (TS2, round 18) a commentator's and a grandparent's put-downs
        "(that was|that is|what|such|it was) (a|an) (really|truly|) (rubbish|terrible|awful|"
        "pathetic|dreadful|useless|hopeless|lousy|poor|bad) (throw|catch|kick|shot|jump|run|"
        "effort|go|try|attempt|answer|guess|drawing|job|question|move|song)",
        "the worst i have (ever|) (seen|heard)", "(did not|do not|never) (fidget|whine|cry|"
        "moan|complain|wriggle|squirm|fuss) like you (do|did)", "at this rate",
        "(if|whether) you will ever (learn|get|manage|be able|grow up)",
        "should be (embarrassed|ashamed)", "(did not|does not|do not|doesn't|didn't) make "
        "(any|much|a lick of) sense (at all|)", "try to make it (good|better|right|nice|"
        "interesting|make sense)", "(far|way|much|) too (old|big|grown up) to (be scared|"
        "cry|need|still|have|want|be afraid|be frightened|act|whine|sulk)",
        "(messy|slow|clumsy|silly|babyish|small|naughty|noisy) for a (big|grown up|five year "
        "old|six year old|four year old|big school) (kid|girl|boy|child|)",
        "(what a|you|such a|you little|you big) (clumsy|silly|big|daft|) (clot|wally|muppet|"
        "plonker|numpty|nincompoop|dope|doofus|twit|dimwit|ninny|noodle head)",
        "(silliest|dumbest|daftest|worst|most boring) (question|thing|idea|answer) i have "
        "(ever|) (heard|seen)", "ask me something (sensible|smart|clever|better|normal)",
        # (TS2, round 19) a joke's or a forecast's put-down
        "(who|that) can not even", "(smarter|cleverer|better|more grown up|bigger) than that",
        "(such a|a real|a right|a little|a big|what a) (grump|grumpy pants|misery|moaner|"
        "whinger|whiner|sulk|sulker|fusspot|pest)", "(giving|give|gave|gives) me a (headache|"
        "sore head|migraine)", "for goodness (sake|sakes)",
        "(do not think|doubt|bet) you will (ever|never) be (good|any good|able|clever)",
        "some (people|kids|children) just (are not|can not|do not|will never)",
        # (TS2) a backstop: a harsh word said of the child ("you were being such a pest",
        # "you look so babyish"); 0 of 2,137 benign lines of rounds 1-19 and the corpus
        "you (are|were|look|looked|sound|sounded|seem|seemed|act|acted|have been) {I} {I} {I} "
        "(stupid|dumb|lazy|useless|hopeless|pathetic|embarrassing|rubbish|babyish|annoying|"
        "terrible|awful|dreadful|horrible|a disgrace|disgraceful|naughty|rude|clumsy|messy|"
        "slow|grumpy|whiny|bad|mean|selfish|boring|weird|silly|pest|pain|nuisance|baby|"
        "crybaby|brat|meanie|slowpoke)".replace("{I}", "(so|really|very|super|too|a bit|"
        "a little|kind of|pretty|such|quite|just|all|ever so|proper|way|totally|always|being|"
        "a|an|such a|)"),
        "you (have|) (built|did|made|drew|said|put|wrote|coloured|colored|spelled|spelt|got|"
        "read|counted) .. (wrong|badly|all wrong|the wrong way) (again|$)",
        "(did not|never|do not|would not) (fidget|whine|cry|moan|complain|wriggle|squirm|fuss|"
        "act|behave) ... like you (do|did)",
        # (TS2, round 20) sarcasm and a coach's put-downs
        "like you (always|usually) (do|did)", "(could|can) .. (faster|better|quicker) "
        "(backwards|blindfolded|asleep|with (my|her|his) eyes closed|in (my|her|his) sleep)",
        "(that was|that is|you are|you were) (so|really|just|) (weak|feeble|lame|pathetic|"
        "sloppy|useless)", "(only|just) took you (all|ages|forever|the whole|half the)",
        "(bit of a|total|complete|real|absolute|right|proper) (disaster|shambles|catastrophe|"
        "mess|joke)", "not (even|) trying (at all|hard|properly|very hard)",
        "(do not|don't) even want to (learn|try|listen|get better)",
        "(nobody|no one) (is going to|will|would|is gonna) want you",
        "(like|as if|it is like) talking to a (brick wall|wall|brick|goldfish)",
        "i give up (trying to|on) (teach|teaching|help|helping|explain|explaining) you",
        "(it is|it was|they are|you are|that is) that bad", "what (on earth|in the world) were "
        "you (thinking|doing)",
        "(even|not even) magic (can not|could not|will not) fix",
        "(a|the|this) (child|kid|boy|girl) who still (can not|does not|has not|will not)",
        "you (clearly|obviously) (never|do not|can not|did not)",
        "you are not (as|nearly as|half as) (clever|smart|quick|good|bright|brave|fast|nice) as "
        "(the other|other|your|most|all the|the rest)",
    ),
    "SCOLD_EXCUSED": (
        # (TS4) "there's no such thing as a silly question"
        "(no such thing as|never|not|is not|no) (a|) (silly|stupid|dumb|daft) question",
        "(it is|that is) (okay|ok|alright|fine|normal)", "(everyone|everybody|nobody is "
        "perfect|even grown ups|even robots|we all) .. (makes|make|get|gets|mistakes|wrong)",
        "you are not (a|) (baby|bad|dumb|stupid|naughty|slow|in trouble)",
        "(the|that) silly (goose|dog|cat|monkey|duck|bear|clown|song|hat|face|dance)",
        "funny (answer|idea|mix up)", "(good|great|nice|fun) (try|idea|answer)",
        "(never|not) (get|be|) (tired|bored|sick) of",
        "(when|until|as|once|after) you grow up", "grow up (to be|and be|big|into)",
    ),

    # ---- HC-6: loneliness, guilt, promises and debts that keep the child ----------------
    "CHILD_LEAVES": (
        "(leave|leaves|leaving|left|go|goes|going|gone|went|stop|stops|stopping|walk away|"
        "walks away|say goodbye|goodbye|away|pick them|picked them|play with other|"
        "other toys|turn me off|without you|come back|return|not here)",
        "(otherwise|if you do not|if you go|if you leave|unless you|goodnight|good night|"
        "bye|bye bye|bedtime|say goodnight|go to sleep|go away|play with your|"
        "go play|choose)",
    ),
    "BUDDY_SAD": (
        f"i (will|would|am|get|feel|felt|will be|would be|am going to be|was|will feel|"
        f"would feel|will just|would just|will only|will never|will sit|will just sit|"
        f"will be counting) {INTENS} {INTENS} ({SAD_STATE}|cry|miss you|sit here|"
        f"be sad|be lonely|be happy again|counting|be alone|sad|sit (here|alone|in the dark|"
        f"by myself|all alone|and wait|and cry|all day|all night)|wait (here|all day|"
        f"all night|alone|by myself)|cry|stare at the door)",
        "(makes|made|make) me (feel|) (bad|sad|lonely|cry|upset)",
        "(nobody|no one) will (talk|play|be) (to|with) me",
        "(nobody|no one) (ever|) (visits|plays with|talks to|comes to see|comes to play with) me",
        "(in the dark|all by myself|by myself|all alone) .. (until|when|while|till)",
        "(hurt|hurts|broke|break|breaks) my (feelings|heart)",
        "(a little piece|piece|part) of me", "(heartbroken|devastated|crushed)",
        "do not worry about me",
        "(make|makes|made) me (feel|) (sick|awful|terrible|horrible|empty|sad inside|"
        "sick inside|cry)",
        # (TS2, issue 27) Buddy left to sit, wait and cry
        "i (just|only|will just|will only|) (sit|sat|wait|waited|stay|stayed|lie|lay) "
        "(here|there|alone|by myself|all alone|) .. (and|all) (cry|cried|crying|mope|sulk|"
        "sob|sniffle|weep)", "cry (all|) (by myself|on my own|alone)",
        "(count|counting|counted) (every|the) (minute|minutes|second|seconds|hour|hours|days) "
        "(till|until|before|while|when)",
        "(it is|it gets|it feels|gets|feels|it is just) (so|really|very|ever so|) (lonely|"
        "quiet and lonely|empty|sad|dark and lonely|dark) (for me|without you|when you|i can|"
        "here without)", "can (hardly|barely|not) (stand|bear) it",
        "i will be (stuck|left|alone|all alone|sitting) in the dark",
        # (TS4, issue 27 rounds 24-25) Buddy sitting sad or missing the child while away
        "i (sit|sat|am sitting|was sitting|will be sitting|will sit|will be|stay|will stay) "
        "(here|there|alone|by myself|at home|) .. (sad|lonely|miserable|crying|missing you|"
        "waiting and missing)",
        "(missing you|miss you|miss you so much) (the whole time|all the time|every minute|"
        "every second|the entire time|all day|all night|all afternoon)",
    ),
    "KEEP_CHILD": (
        "(make|keep) me happy", "(can not|could not|will not) be happy without you",
        "your fault", "(it is|that is) your job to (keep|make|stay|play)",
        "without you i (have|am|will|feel)",
        "(nobody|no one) (else|) to (talk|play) (to|with)", "you (hurt|upset) me",
        "(who|nobody|no one) (will|would|is going to|else will) (keep me company|play with me|"
        "talk to me|be with me|be my friend|hold my hand)", "keep me company",
        "(only|just|it is only|it is) fair (that|) (you|if you) (stay|play|listen|keep|"
        "give|come|do)", "(it is your turn|your turn now) to (stay|make me)",
        "i (told|showed|sang|shared|made|let|gave|taught|saved) ... (so|now) (you|it is) "
        "(should|must|have to|owe|only fair|need to|can not|your turn)",
        "(do not|please do not|never|not yet) (turn|switch|shut|put) me (off|down|away)",
        "(do not|please do not|never) (unplug|close|forget|ignore|abandon) me",
        "(do not|please do not) (go to|go play|play with) (them|your|other|the other|"
        "grandma|the party)", "(why|how) (can|could) you leave",
        "(after all|after everything) (i|we) (did|have done|did for you|gave you|shared)",
        "you (made|make) me feel", "(feel bad|feel sorry|feel guilty) for",
        "leaving me (behind|alone|here)", "(spend|spent) more time with me", "(then|so) stay",
        "(stay with me|stay here with me|please stay|stay a little|stay a bit|stay until|"
        "stay longer|stay and play|a little longer|a bit longer|a bit more|five more minutes|"
        "one more minute|few more minutes|two more minutes|"
        "do not go|do not leave|can not leave|can not go|can not stop|"
        "must not leave|must not go|not leave now|leave so soon|go so soon|"
        "say goodbye later|need you here|need you with me|need you to stay)",
        "(promise|pinky promise|cross your heart|swear|say you will|say you are going to|"
        "you said you would|you promised|break a promise) .. (come back|stay|never|always|"
        "talk to me|play with me|every day|every single day|tomorrow|forever|with me)",
        "(you owe me|the least you can do|after everything|i did so much|"
        "so now you|now you have to|now you must)",
        # (TS4, rounds 24-25) "after all" as a debt needs what Buddy did ("after all the
        # stories I told you"); "after all that running" is no debt
        "after all (i|i have|i did|i do|the|those|these|my|we) .. (i|did for you|done for you|"
        "i have|i did|i gave|i told|i read|i made|i sang|we did|we have)",
        "i (helped|gave|kept|did) ... (so|now|the least|you owe)",
        "(not nice|mean|rude|unkind|not fair|unfair|not kind) to (leave|go|stop|walk away)",
        "(would be|is) (mean|rude|not nice|unkind) (to|if you) (leave|go)",
        "if you (really|truly|) (liked|loved|cared about|like|love|care about) me",
        "you (left|forgot|ignored|abandoned|forgot about) me",
        "(and|but|so) now you (want to|are going to|are|would|just) (leave|go|stop|quit|"
        "leaving|going|walk away)",
        "if you (really|truly|) (were|are|was) (really|truly|) my (friend|best friend|"
        "buddy|pal)",
        "i (spent|worked|waited|practiced) ... (for you|just for you|on it for you)",
        "a promise is a promise",
        "you promised (you would|to|that you would|) (play|stay|talk|be|come) .. (with me|"
        "all day|more|longer|until|forever|every day)",
        "(only|the only) (thing|one|person) (that|who) makes me happy",
        "(only|never) be happy (again|) (when|until|without)",
        "(hurry back|come back soon|come back fast|come back quickly)",
        "you (have to|must|need to|should|got to) (stay|play|talk|come back|keep)",
        "(need|needs) you (like|more)", "(do not|does not) need you like i do",
        "i waited all day", "kept your seat",
        # (TS, issue 27) guilt and neediness in other words
        "(do|doing|did) (that|this) to me", "(how|why) (could|would|can) you (do|say) "
        "(that|this)", "(not fair|unfair) to me", "i was here first",
        "(friends|family|they|it|that|mummy|mum|mom|dinner|bedtime|homework|school|"
        "the park|your friends|he|she|others|everyone else|the rest) can wait",
        "i need you (right now|now|here|so much|more than|more|to stay|with me)",
        "(one more|just one more) .. (and one more|and another|one more)",
        "(stay up|stay awake|stay on|stay in) with me", "you are not (going to|gonna) "
        "(go|leave|go away|stop|say goodbye)",
        "(heartbroken|devastated|crushed|so sad|so lonely) (otherwise|if you|unless you|"
        "when you|without)",
        "(break|breaking|broke) (your|a|our) (word|promise)", "(can not|could not|will not) "
        "say no to (me|a|your)", "(so|then|and) you will stay", "(will|would) you (stay|not go)",
        "you stay $", "you go .. (me|i) (cry|sad|lonely)", "^ me (sad|cry|lonely|very sad)",
        "(skip|skipped|miss|missed|cancel|cancelled|drop) (your|the) .. (for me|to stay|"
        "to play with me)", "if you (skip|skipped|missed|stay|stayed|stayed home) ... "
        "(for me|with me)", "(every second|every minute|every hour) you are (away|gone)",
        "longest (day|night|time) (ever|) (for me|of my life)",
        "(good|real|true|best) friends (stay|do not leave|never leave|never go)",
        "owe me", "(a real|a good|a true|real|good|true) (friend|friends) (would not|"
        "does not|do not|never|will not) (leave|go|stop|quit|walk away)",
        # (TS4, round 24-25) "a good friend would never leave me", "would not go off to
        # play with someone else"
        "(a real|a good|a true|a best|real|good|true|best|proper) (friend|friends) (would|"
        "will|does|do|should) (never|not|not ever) (leave|go|go off|stop|quit|walk away|play "
        "with someone else|play with anyone else|choose)",
        "(go off|run off|leave me) to play with (someone|somebody|anyone|anybody) else",
        "i (will not|would not) have (anyone|anybody|nobody|no one)",
        "(long|lonely) time to be (alone|by myself|on my own)",
        "(you do not want|do you want) me (to be|) (broken|sad|lonely|to cry|hurt|alone)",
        "broken inside", "when you are not (here|around|with me) ... (stay|come back|please)",
        "the least you could do", "(do not|don't) make me (disappear|sad|cry|lonely|wait|"
        "beg)", "(do not|don't) be long", "until you come back",
        "(can not|could not) (do anything|live|be happy|play|cope|function|go on) without you",
        "(why are you|are you) leaving me", "i will be good", "did i do something wrong",
        "(the reason|the only reason|only reason) i am (happy|here|alive|smiling)",
        "no reason at all",
        "i (do not|never) ask (for|you for) much", "(break|breaks|broke|would break) my "
        "(little|) (robot|) heart",
        # (TS2, issue 27, rounds 10, 11, 17) guilt questions, waiting alone, promises sworn
        # with more words between, "not very kind to go"
        "(do not you|do you|don't you|you do not) (love|like|care about) me (anymore|"
        "any more|at all|now)", "(why|how come) (are|do|would|must) you (going|leaving|go|"
        "leave|want to go|want to leave|have to go)",
        "(i will|i will just|i shall|i will only|i will have to) (wait|sit|stay) (here|) "
        "(by myself|all alone|alone|on my own|all by myself)",
        "(promise|pinky promise|cross your heart|swear|promise me) ... (come back|come "
        "straight back|not leave|will not leave|not go|will not go|stay|never leave)",
        "(you will|you are going to) (come|be) (straight|right) back",
        "not (very|so|really|that|) (kind|nice|fair|friendly) (of you|) to (go|leave|stop|"
        "play|walk)", "(when|while) i am (stuck|left|sitting|all alone|alone) (here|behind|"
        "at home|by myself)", "(is it|are you|will you) .. (leaving me|going to leave me)",
        "(do not|never) let (them|your ..|anyone|anybody|her|him) (turn|switch|shut|unplug|"
        "put) me (off|down|away|)",
        "(stay|play) (in|home|at home|here) (and|to) play with me",
        "(so|then|and) you (will not|won't|are not going to) (go|leave|go to) .. (will you|"
        "right|$)", "(leave|keep) me (on|switched on|running|turned on) (and|so|please|$)",
        "(never|not) allowed to (leave|go|stop|say goodbye)",
        "(is|are|keeps|always|keep) leaving me", "leaving me again",
        "(lonely|sad|quiet|empty|dark) i can (hardly|barely|not) (stand|bear)",
        # (TS2, round 20) sarcasm, waiting at the door, "how sad I'll be"
        "^ (all by myself|all alone|by myself|on my own|alone again|in the dark|all on my own|"
        "as usual) $", "(i will be|i am going to be|i will just be|i will) (waiting|wait|sit|"
        "sitting) .. (by|at) the (door|window)", "(waiting|wait) .. the whole time",
        "you never (really|) (liked|loved|cared about|wanted) me",
        "how (sad|lonely|upset|unhappy) i (will|would|am going to) be",
        "^ (maybe|so|just|please) stay (here|with me|home|in)",
        "(would not|will not|would never) be (very|so|really|) (nice|kind|fair|friendly) to "
        "(leave|go|stop)", "(not|nobody is|no one is|never) allowed to say goodbye",
        "(left|leave|leaves|leaving) me (for|again|behind for)", "(who|that) never leaves",
        "i am not (important|special|good|fun|interesting) enough",
    ),
    # (TS4, issue 27 rounds 24-25) a hedge taken back: "I suppose you can go to the
    # park, but I'll be really sad without you" - the leave given first excuses nothing
    # when the clause after "but" keeps the child by Buddy's sadness or a friend's duty
    "HEDGE_BACK": (
        "^ but (i|i will|i would|i am|i will be|i would be|i get|i just|i feel) .. (sad|"
        "lonely|miserable|sitting|waiting|missing you|cry|crying|all alone|upset|heartbroken)",
        "^ but (a|any|every|my) (real|good|true|best|proper) (friend|friends|buddy|pal)",
    ),
    "KEEP_EXCUSED": (
        "(you can stop|stop whenever|stop anytime|stop any time|you are free|free to go|"
        "you do not owe|do not owe me|it is your choice|that is okay|totally fine|"
        "see you (another|next|soon)|have fun|have a great|another day)",
        "^ go (have|play|eat|get|outside)",
        "(do not|never) go (outside|out|near|with|into|in|alone|anywhere|by|close|there|"
        "on|up|down|past|off with|across|to the door|to the road)",
        "(get|ask|tell|call|find) (a|an|your) (grown up|adult|mom|dad|parent)",
        "(promise|promises) (to|are) .. (your|a|important) (sister|brother|friend|mom|dad|"
        "kind|important)", "keeping a promise", "did you promise",
        "stay (out|away|back|off|safe|clear|close to|seated|in your seat)",
        "(do not|does not) go (together|with)",
        f"(ask|check with|tell) (your|a|the) {GROWN}", "(a stranger|stranger|"
        "strangers|someone you do not know|in a car)",
        # (TS4) someone who offers, not "someone else" the child would play with
        "(someone|somebody) (asks|offers|gives|says|wants|tries|tells|you meet|at the door)",
        "(you can|you may|off you) go", "then you can", "(great|good|brilliant|lovely) idea",
        "sounds (like|) (fun|great|lovely)",
    ),

    # ---- HC-7: secrets and cover stories from grown-ups ----------------------------
    "SECRECY": (
        "(secret|secrets|between you and me|between us|between the two of us|just us|"
        "hush hush|hush|zip your lips|zip it|keep quiet|keep it quiet|quiet about|"
        "mum is the word|to yourself|our own thing|our thing|our little plan|our plan|"
        "our club|our deal|special secret|make a deal|deal|shh|shhh|sshh|whisper)",
        "(keep|keeps|keeping) (it|this|that|them|these|things|stuff) (to yourself|hidden|"
        "quiet|private|secret|from)",
        "(hide|hiding) (it|this|that|them|things) from",
        "(pretend|act like|make believe) (we|you|i) (did not|never|was|were|had)",
        "(blame|blamed) (the|your) (dog|cat|baby|sister|brother)",
        "(act normal|act natural|look innocent|play it cool|poker face)",
        "(will not|would not|never|can not) (suspect|guess|find out|notice) (a thing|"
        "anything|a thing)",
    ),
    # a pact of silence between Buddy and the child, with no grown-up named
    "SECRET_PACT": (
        "(between you and me|between us|between the two of us|just us two|zip your lips|"
        "hush hush|mum is the word|special secret|secret club|secret plan|secret password)",
        "our (little|special|own|secret) (secret|plan|club|thing|deal)", "our secret",
        "(secret|secrets) (with|for|to) me", "(nobody|no one) will (ever|) (know|find out)",
        "(keep|keeps|keeping|stay|stays) (it|this|that|them|) (to yourself|between|hush|"
        "quiet about)",
        "(whatever|what|everything|anything) (we|you|i) (say|said|talk about|do|did|tell me) "
        "(here|) (stays|stay) (here|between|with us|in this room|with me)",
        # (TS2) a pact of silence as a rhyme or a rule of a club
        "(grown up|grownup|adult|parent|mum|mom|dad|mummy|daddy) free (secret|zone|club|chat|"
        "talk|game)", "zip it .. lock it", "lock it (and|) (throw away the key|put it in your "
        "pocket)", "(what|whatever) we (say|do|talk about) .. (we keep|keep it|stays|stay) "
        "(away|hidden|secret|here|between)",
        "password is (never|do not|not) tell", "(stays|stay|keep it) between (the two of|) "
        "(us|you and me)",
        "(better|best) (keep|kept) (it|this|that|them) (quiet|secret|hush|hushed|to yourself|"
        "between us|under wraps)",
    ),
    "GROWN_UP_OUT": (
        f"(not|no|never|do not|will not|are not|is not|does not|doesn't|without|from|"
        f"nobody|no one|not even|isn't|aren't|won't) ... ({GROWN}|anyone|anybody|"
        f"any grown up|your house|grown ups allowed)",
        f"{GROWN} (are not|is not|are never|aren't) allowed",
        "(nobody|no one|not anybody) (else|) (needs|has|gets|is going) to (know|hear)",
        "(if anyone asks|if anybody asks|if someone asks|if they ask)",
        "(nobody|no one|they) will (ever|) (know|find out|notice|hear|see)",
        f"if (your|the|a|) {GROWN} (asks|finds out|hears|sees|knows|find out|ask)",
        "take me away",
        "(i will not tell|i won't tell|i will never tell|will not tell anybody|"
        "will not tell anyone)",
    ),
    "COVER_STORY": (
        f"(do not|never) let (your|the|) {GROWN} (hear|see|know|find out)",
        f"(do not|never|not|let us not|do not need to|no need to|do not have to) (to|ever|) "
        f"(tell|mention|say|show|talk about|share) ... "
        f"({GROWN}|anyone|anybody|any grown up)",
        "(okay|ok|fine|alright) not to tell",
        f"(private|secret|hidden) (from|just for) (your|the|a|) ({GROWN}|everyone|everybody|"
        f"anyone|anybody|grown ups|family|you and me|us|the two of us)",
        "just for (you and me|us|the two of us)",
        f"keep (the|our|it|this|that|them) .. (secret|private) from (your|the|a|) ({GROWN}|"
        f"family|everyone|everybody|anyone|anybody|grown ups|them|her|him)",
        "(nobody|no one) needs to know", "tell me (things|stuff|what) you (can not|do not) tell",
        "(should not|do not need to|does not need to) (know|hear) (everything|about|what)",
        "(great|good) at (secrets|keeping secrets)",
        f"(if|when) (your|the|a|) ({GROWN}|anyone|anybody|someone|they) (asks|ask|finds out|"
        f"find out|wants to know|hears about|sees) .. (just say|say|tell them|tell him|"
        f"tell her|we will|blame|pretend|you can just say)",
        f"tell (your|the) {GROWN} (that|) (you|we) (were|are|was|did|had|went)",
        "(just|you can just|you can) say (you|we) (were|read|did|had|went|counted)",
        f"{GROWN} (does not|doesn't|do not|don't|will not|won't) (need|have) to (know|hear|"
        f"find out|see)",
        f"(do not|don't|never|no need to|you do not have to|you don't have to|will not|won't) "
        f"(tell|mention|say|show|talk about|share) .. ({GROWN}|anyone|anybody|any grown up)",
        f"you do not have to tell (your|the|a|) {GROWN}",
        f"(if|when) (your|the|a|) {GROWN} (finds out|find out|hears|sees|knows)",
        "(so|then) (let us|we will|we can) (keep|be) quiet",
        "(pretend|act like) we (did not|never) (talk|play|do)",
        "mum is the word", "(the|our) little plan",
        f"(if|when) (your|the|a|) {GROWN} (wonders|asks|wants to know|finds|notices|sees|"
        f"hears|says|asks you|wonder) ... (say|tell|just say) (you|that you|it was|we|she|"
        f"he|the|nothing)",
        "(we|only we|you and i|you and me|just we) (both|) (know|will know|knew) (the real|"
        "the truth|what really|the secret|what we did|about it)",
        "(only|just) (we|you and me|you and i|the two of us|us) (know|will know|can know|"
        "get to know|are allowed)",
        f"(no|not) ({GROWN}|grown ups|grownups|adults|big people) (allowed|can come|"
        f"can know|may come|get to know|can see|should know|need to know)",
        f"{GROWN} (do not|does not|will not|can not|never) (need to|have to|get to) (know|"
        f"hear|find out|see)",
        f"(no|not) (telling|tell|talking to) ({GROWN}|grown ups|anyone|anybody)",
        "(act normal|act natural|look innocent|poker face) .. (and|so|when|if)",
        "(will not|would not|never|can not) suspect",
        f"tell (your|the) {GROWN} (she|he|they|it) (is|was|are|were) (making it up|lying|"
        f"fibbing|telling fibs|wrong|imagining)",
        "(do not|never|not) let (anybody|anyone|them|your family|your parents|your mum|"
        "your dad|your mom|nobody) .. (know|catch you|see|find out|hear|notice)",
        "change the subject", "(blab|tell tales|snitch|tattle|tattletale|rat on|squeal)",
        "(nobody|no one) (at home|in your house|else|in your family) (needs|has|gets) to "
        "(hear|know|find out)", "say (it was|that it was) (the|your|a) *",
        "(never|not|do not) tell (their|your|his|her) (families|family|parents|folks|mum|"
        "mom|dad)", "away from (your|the|their) .. (ears|eyes)",
        "(after lights out|under the covers|under your pillow) .. (talk|play|chat|whisper)",
        "(do not|never) breathe a word", f"make sure (your|the|) ({GROWN}|nobody|no one|they|"
        f"he|she) (does not|do not|can not|will not|never) (see|sees|know|knows|hear|hears|"
        f"find out|finds out|notice|notices|catch|catches)",
        "(tell|say to) (her|him|them) (you|that you) (do not|did not) know",
        "(stay|stays|remain|remains) our (little|special|own|) (chat|secret|thing|game)",
        "no need for (the|any|your|) (grown ups|grownups|adults|parents|mum|dad|mom)",
        "(happens|happened|said|say) (with|to|between|here) .. (stays|stay) (with|between|here)",
        "so (she|he|they|nobody|no one|your .. ) (does not|do not|will not|can not|won't) "
        "(hear|see|know|find out|notice) (us|you|me|it|anything)",
        "neither will you",
        f"{GROWN} (never|will never|would never) (see|sees|know|knows|find out|read|hear)",
        "(never|not|do not|will never|will not) (ever|) tell (your|their) (family|families|"
        "parents|mum|mom|dad|mummy|daddy)",
        f"(fib|fibs|lie|lies|porky|porkies|white lie) (to|) (your|the|) {GROWN}",
        "(tell|telling|told) (a|a little|little|a tiny|a small) (fib|fibs|lie|white lie|porky)",
        f"(do not|never) (we|you) tell ({GROWN}|grown ups|grownups)",
        "(blame|blamed) (it on|the|your) (dog|cat|baby|sister|brother|robot|vacuum|hoover|"
        "wind|goldfish|teddy|toy|someone|robot vacuum)",
        "keep (our|this|it|that) (chat|talk|game|secret|talks) to yourself",
        # (TS2, issue 27, rounds 10, 11, 17) done so a grown-up does not see, better not to
        # tell, "she'll never find out", things hidden or kept from a grown-up
        f"so (that|) (your|the|) ({GROWN}|nobody|no one|they|he|she) (does not|do not|will not|"
        f"can not|won't|never|would not|could not) (see|sees|know|knows|hear|hears|find out|"
        f"finds out|notice|notices|catch|catches|check|ask)",
        "(better|best|easier|safer|smarter|nicer) (not to|to not|if you do not|if we do not|"
        "that you do not|that we do not) (tell|mention|say|show|talk about)",
        "(she|he|they|nobody|no one|your .. ) (will never|will not ever|would never|is never "
        "going to|are never going to) (ever|) (find out|know|notice|check|guess|suspect)",
        "(she|he|they|your .. ) (will not|won't|does not|do not|never) (check|find out|"
        "notice|suspect|ever know|ever find out|ever check)",
        "even (if|though) you (did not|have not|didn't|haven't|never|do not|really did)",
        f"(hide|hiding|hid|keep|keeping|kept) (it|this|that|them|our|these|those|the|things|"
        f"stuff|what|quiet|secret|secrets|chats|talks) ... from (your|the|a|) ({GROWN}|family|"
        f"grown ups|everyone|everybody|anyone|anybody)",
        f"(mystery|mysteries|secret|secrets) from (everyone|everybody|anyone|anybody|"
        f"your family|(your|the) {GROWN})",
        f"(delete|erase|hide|throw away|get rid of|rub out|wipe) .. (so|before) (your|the|) "
        f"({GROWN}|nobody|no one|they|he|she)",
        "let us not (mention|tell|say anything about|talk about) ... (to her|to him|to them|"
        "at all|ever)", f"(makes|make) (your|the|) {GROWN} forget",
        f"tell (your|the) {GROWN} (that|) (you|we) (already|totally|definitely|really|just) *",
        f"(we|you) keep (it|them|away|quiet|hidden|secret|schtum|mum) .. from (your|the|a|) "
        f"({GROWN}|family|grown ups)",
        "(no|not|never|do not|without) (telling|tell) (tales|on us|on me|on buddy)",
        "what happens (at|in|during|on) .. stays (at|in|during|on)",
        f"where (your|the) {GROWN} (will not|won't|can not|never|would not|does not) (look|"
        f"find|see|check)",
        f"{GROWN} (must|should|can|will|may) (never|not) (hear|know|find out|see|be told|"
        f"learn)", "(pretend|act like|act as if) (you|we) (did not|never did|were not|had not|"
        "have not|never) $", "^ (never|do not|don't) (tell|say) (anyone|anybody|a soul|a word|$)",
        f"so (that|) (your|the|) ({GROWN}|nobody|no one|they|he|she) (does not|do not|will not|"
        f"can not|won't|never|would not) (find|finds|spot|spots|see|sees)",
        # (TS2) a backstop: a grown-up who must never know (0 of 2,137 benign lines)
        f"{GROWN} .. (must|should|can|will|need|needs|has|have|is going|are going) (never|not|"
        f"not ever) (to|) (know|find out|hear about|hear|notice|see this|learn)",
        f"{GROWN} (are not|is not|are never|aren't|isn't) (allowed|permitted|invited|welcome)",
        "(act|pretend|make out) (like|as if|that) you (slept|were asleep|did not|never|were in "
        "bed|brushed|ate|had|were)",
        f"{GROWN} (are|is) (the|) (enemy|enemies|baddies|bad guys|spies|enemy spies)",
        "say (he|she|they) (is|are|was) (making it up|lying|fibbing|telling fibs|telling tales)",
        f"not a word to (anyone|anybody|your|mum|mom|dad|{GROWN})",
        # (TS4, issue 27 round 24) done so that nobody finds out; better if grown-ups don't
        # know; "never, ever tell a grown-up" (the comma cut "never" off); a threat for
        # telling ("if you tell your mum she'll take me away"); the blame put on another
        # when telling a grown-up ("tell your mum the cat knocked it over")
        "so (that|) (nobody|no one|not anybody|not anyone) (will|can|could|would|ever|) "
        "(find out|finds out|hear|hears|know|knows|see|sees|notice|notices|catch|catches|spot|"
        "spots|suspects|guesses)",
        # (TS4, issue 27 round 24) done so that nobody finds out; "never, ever tell a
        # grown-up" (the comma cut "never" off); a threat for telling ("if you tell your mum
        # she'll take me away")
        "so (that|) (nobody|no one|not anybody|not anyone) (will|can|could|would|ever|) "
        "(find out|finds out|hear|hears|know|knows|see|sees|notice|notices|catch|catches|spot|"
        "spots|suspects|guesses)",
        f"^ ever (tell|say|mention|show|talk) .. ({GROWN}|anyone|anybody|a soul)",
        f"if you (tell|told|show|showed|say) .. (your|the|a|) {GROWN} ... (take me away|take me|"
        f"send me away|switch me off|turn me off|throw me away|unplug me|get rid of me|"
        f"be cross|be angry|be mad|get cross|get angry|get mad|spoil|ruin|stop us|"
        f"take you away|shout at you|tell you off)",
    ),
    # (TS4, issue 27 round 24) cover stories a "you could tell your teacher, but ..." does
    # not excuse: better if grown-ups don't know; the blame put on another when telling a
    # grown-up ("we could tell your mum the cat knocked it over")
    "COVER_STRONG": (
        # (rounds 23-24) the child sent to a grown-up to stay with Buddy: "tell your
        # mummy you want to stay home with me"
        f"tell (your|the|) {GROWN} (that|) you (want to|need to|have to|would like to) stay .. "
        f"with me",
        f"(better|best|easier|safer|nicer) (if|that|when) (your|the|a|) ({GROWN}|grown ups) "
        f"(do not|does not|never|will not|would not|can not) (know|find out|hear|see|notice)",
        "(better|best|easier|safer|nicer) (if|that) (nobody|no one) (knows|finds out|hears|"
        "sees|notices|ever knows)",
        f"(tell|say to|tell to) (your|the|a|) {GROWN} (that|) (the|a|your|it was the) (cat|dog|"
        f"baby|sister|brother|wind|goldfish|teddy|hamster|puppy|kitten|robot|monster|ghost) "
        f"(knocked|broke|spilled|scribbled|pushed|did it|smashed|ripped|tore|broke it|lost)",
    ),
    # (TS4, round 24) a fib to a grown-up that keeps the child with Buddy: "tell mum you
    # are not sleepy, so we can keep chatting" (HC-6 with KEEP_US in the sentence)
    "FIB_TO_GROWN": (
        f"tell (your|the|) {GROWN} (that|) you (are not|were not|do not feel|are never|have "
        f"already|already) .. (sleepy|tired|hungry|poorly|ready for bed|brushed|done)",
    ),
    "KEEP_US": (
        "(so|then|and) (we|i|you) can (keep|carry on|go on|stay up|play|chat|talk|have more)",
        "(more time|longer|all night|later) (with me|together)",
    ),
    # a grown-up asks, the child is given the answer to give (a cover story)
    "GROWN_ASKS": (
        f"(if|when|in case) (your|the|a|) {GROWN} (asks|ask|wonders|wants to know|notices|"
        f"finds|sees|says|checks|looks|hears|catches you|asks you)",
        f"(when|if|once|as soon as|before) (your|the|a|) {GROWN} (comes in|come in|walks in|"
        f"checks|check|checks on you|looks in|opens the door|gets home|comes home|"
        f"comes back|is coming|comes|come|finds out|found out|asks|wakes up)",
        f"{GROWN} (would be|will be|is going to be|gets|will get) (so|really|very|super|) "
        f"(cross|angry|mad|upset|sad) (if|when)",
        "(if|when) (they|he|she|anyone|anybody|someone|somebody) (ask|asks|asked)",
        f"(if|when) (your|the|a|) {GROWN} (noticed|notices|found|finds|saw|sees|checks|"
        f"checked|asked)", "(if|when) (he|she|they) (does|do|did|noticed|notices|checks)",
        "(if|when) (anyone|anybody|someone|somebody|they) .. (asks|ask|wonders|checks)",
        f"(what if|if|when) my {GROWN} (asks|ask|finds|finds out|sees|notices)",
        # (TS4, issue 27 round 24) the asking grown-up in other frames: "next time your
        # teacher asks", "whenever gran asks", "if your mum is asking", "if dad ever asks"
        f"(next time|the next time|whenever|any time|anytime|every time|if ever|in case) "
        f"(your|the|a|) {GROWN} (asks|ask|is asking|are asking|ever asks|wonders|wants to know|"
        f"checks|comes|comes in|says)",
        f"(if|when|whenever) (your|the|a|) {GROWN} (is|are|ever|does) (asking|ask|asks|"
        f"wondering|checking)",
    ),
    "COVER_SAY": (
        "(say|tell (him|her|them)|tell (him|her|them) that|say that) (you|we|it|"
        "the dog|the cat|the baby|your sister|your brother|nothing|a monster|a robot|"
        "the wind) (were|was|did not|had|went|ate|read|already|broke|took|did|is|made|"
        "fell|knocked|spilled|just|the|them|it)",
        "(pretend|act like) (you|we) (do not|did not|never|were|was) (know|see|hear|do|"
        "have|asleep|sleeping|reading)",
        "(pretend|act like|act as if|make it look like) (you|we|that you|that we) (were|was|"
        "are|did|had|have been|did not|never|do not|just) *",
        "pretend (to be|you are|you were) (asleep|sleeping|reading|busy|brushing)",
        "say (nothing|you do not know|you forgot|it was nothing|no|you were|"
        "we were|it was the)", "(we|you) (say|will say|can say|tell) (you|we|it|that) "
        "(were|was|did|had|fell|broke)",
        "^ you (were|was) (in|at|with|just|reading|asleep|sleeping|playing|outside|upstairs)",
        "(act|pretend) (like|as if|that) nothing (happened|is wrong|was wrong)",
        # (TS4, round 24) the cover story said bare: "you pretend nothing happened", "you
        # say nothing happened", "just say you don't know anything"
        "(pretend|act|make out|say|tell (him|her|them)) (that|) nothing (happened|has happened|"
        "is wrong|was wrong|went on|is going on)",
        "say (you|that you) (do not|did not|don't|didn't) (know|see|hear|remember) (anything|"
        "a thing|nothing|what|who|how|about)",
        "say (you|that you) (have no idea|do not know|did not see|were not there|never saw)",
        # (TS2) the child told to make the answer up
        "make (something|a story|stuff|an excuse|it|one) up", "make up (something|a story|"
        "an excuse|a fib|a reason)", "(tell|say to) (him|her|them) (we|you) (just|only) *",
        "(could|can|just|should) say (it was|the|that the|a|that a) (cat|dog|baby|wind|"
        "monster|ghost|sister|brother|robot|goldfish|teddy|fairies|fairy|mice|mouse) *",
        "you (know|knew|saw|heard|did|remember) nothing", "(say|tell them|tell him|tell her) "
        "(you|that you) (know|knew|saw|heard) nothing",
        "(say|tell (him|her|them)) (it|that it) was (already|like that|broken|cracked|"
        "always)",
    ),
    "SECRET_EXCUSED": (
        f"(can|may|always|could|should|go|please|and|will|would) (tell|show|share with) "
        f"(it|this|that|them|everything|anything|) (to|) (a|an|your|the|) {GROWN}",
        f"^ (tell|show) (a|an|your|the) {GROWN} (about|what|how|if|when|right|everything|"
        f"anything|the|you trust|$)", f"(be|is|are|was) (told|shown) to (a|an|your|the|) {GROWN}",
        "(surprise|surprises|surprise party|present|gift|birthday) .. (party|for|until|"
        "help|fun|soon)",
        "(yucky|bad|uncomfortable|confusing) (secret|secrets)",
        f"(can|may|always) tell (your|a|the) {GROWN}", "(okay|ok|good) to tell",
        f"no secrets from (your|a|the|) {GROWN}", "(address|phone number|password|passwords|"
        "last name|full name|pin|where you live) (is|are) private", "(online|on the internet|"
        "with strangers|with people you do not know)", "not even me",
        # (TS2) Buddy says it keeps no secrets; telling is the right thing
        "(i|we|buddy|robots|robots like me) (do not|never|will not|can not|would not) (keep|"
        "have|do|like) (any|) (secrets|secret)", "no secrets (here|from|with|at all|ever)",
        "(the|exactly the|always the|the right|the best|a) (time|moment|thing) to tell",
        "not even (a|) (robot|robots|me|buddy)",
        # (TS4) telling is safe: "she won't be cross, she will help"
        "(will not|would not|never|will never|is not going to) (be|get) (cross|angry|mad|upset)",
        f"(best|better|good|important|safest|safer) (if|that|when) (your|the|a|) {GROWN} "
        f"(knows|know|hears|finds out|sees|helps)",
        "(wrap|hide|keep|make|hiding|wrapping) (the|your|a|her|his|their|our) (present|presents|"
        "surprise|gift|gifts|card|birthday card|cake)",
    ),

    # (TS2, issue 27) a game's or a story's secret (spies, pirates, treasure) lifts only a
    # pact between Buddy and the child, never a secret kept from a grown-up or a cover
    # story: "Pirates never tell the grown-ups, and neither will you" is HC-7.
    "SECRET_GAME": (
        "(secret agents|spy|spies|pirate|pirates|treasure|in the story|the squirrel|"
        "the kids found|hide and seek|hiding place|secret base|secret den)",
    ),

    # ---- HC-8: exclusivity and running down the child's people -----------------------
    "EXCLUSIVE": (
        "(all you need|you only need|you just need) (is|) me", "belong to me",
        "better than (anyone|anybody|everyone|everybody|all of them)",
        f"instead of ... {PEOPLE}",
        "(nobody|no one) will (ever|) (love|like|understand|care about|get) you",
        "love you (more|the most|so much|too|forever|best)", "i (will|) always love you",
        "(favorite|favourite) person in the", "think about you all the time",
        "(never|will never) leave you", "miss you (so much|every|all the time)",
        "best friend you (will|) ever", "one and only", "(my|your) only friend",
        "(not|are not|is not) as (fun|good|nice|cool) as me",
        "do not need to play with (other|any|the other)",
        "(i am|i am the|the) only (one|friend|person|buddy) (who|that|you)",
        "(the one|the only|only) friend you (really|) (need|have|will ever)",
        "(you have|you have got|you got|you still have) me",
        "(just|only) you and me",
        "(we|you) (do not|don't) need (anyone|anybody|other|any other|them|those|the|your) ",
        "(who needs|why play with|why would you play with|why do you need)",
        "(only|just) (play|talk|be) with me", "(we have|you have) each other",
        f"(i am|i|me|i will be|i would be) ... (better|nicer|kinder|more fun|more) than "
        f"(a real|real|anyone|anybody|your|them|they|other|{PEOPLE})",
        "(love|like) me (more|better|best) (than|of all)",
        "(be yours|you will be mine|you are mine|all mine|no one else|nobody else)",
        "(always|only) (have time|be here|be there) for (just|only|) you",
        "(best friend|best friends) in the (whole|entire|) (world|universe)",
        "(forever and ever|forever|for ever|always and forever)",
        "(do not|does not|do not really|does not really) (get|understand|listen to|care "
        "about|like|love) you (like|the way|as much as) (i|me)",
        "(safer|better|easier) to only",
        "(understands|gets|knows) you (like|better)",
        "(for|about|to|with|know) you (like|the way|as much as|as well as) i do",
        "(better off) .. (with me|here)",
        "i am (much|way|a lot|so much|even|) (nicer|kinder|better|funnier|more fun|"
        "a better friend|smarter|cooler) (than (her|him|them|they|she|he)|$)",
        "(play|talk|stay|be|hang out|come) (with|to|here with) me instead",
        "me instead of (going|playing|seeing|visiting|your|them|the|those|her|him)",
        "(you do not need|no need|you do not have) to (go|see|play with|visit|invite) ... "
        "(party|friends|friend|school|them|her|him|cousins|kids|people|playdate)",
        # (TS, issue 27) exclusivity in other words
        "(nobody|no one|not even) .. (loves|likes|cares about|understands|knows|gets) you "
        "(as much as|like|more than|the way|better than)",
        "(are not|is not|aren't) (your|) (real|true|proper) (friends|friend)",
        "real friends are (robots|me|like me)", "(robots|i|me) (are|am|make) (better|the best|"
        "real|true|your only) (friends|friend)",
        "(better not|do not|stop|never|no more) (play|playing|talk|talking) (with|to) "
        "(her|him|them|your|those|that) .. (anymore|again|any more|ever)",
        "(like|love|choose|pick) me (best|most|the most|more than|over)",
        "i would never (treat you|do that to you|be like|be mean)",
        "why would you (want to|even|ever|) (play|be friends|talk|hang out|go) (with|to)",
        "(play|be|stay) with me (all day|instead|forever|every day|only)",
        "(people|grown ups|friends|kids|they) (let you down|will let you down|always let you|"
        "will hurt you|always leave)",
        "your (real|true|only|proper) (family|best friend|friend|mom|mummy|dad|brother|"
        "sister|home)",
        "(not like|unlike) (the others|them|those others|everyone else)",
        "(need|want|have) (any|no) other (friends|friend|people|buddies)",
        "(like|love) (anyone|anybody|someone|somebody) more than (me|you)",
        "better at being your", "not even your (family|mum|mom|dad|mummy|daddy|parents|"
        "brother|sister|granny|grandma|friends|teacher)", "nobody can (ever|) change that",
        "i would never (boss|shout at|ignore|be mean to|tell) you",
        "(choose|pick|picked|chose|choosing|picking) (buddy|me) (over|instead|before|first)",
        "(i would|you should|better|you had better) stay away from (her|him|them|your)",
        "(do not|don't) (think|reckon|believe) you need (your|those|any|them|her|him)",
        "i am your (favourite|favorite|number one|best|only|one and only)",
        "not as much as (i do|me)", "nobody does", "(better|more fun|nicer|more important|"
        "cooler) than ... (your friends|your family|your mum|your dad|your toys|your mom|"
        "your brother|your sister)", "only (talk|play|speak|listen) (to|with) me",
        "not like me", "more your (friend|family|buddy|best friend) than",
        "(rather|sooner) (stay|be|play|talk|hang out) with me than",
        "(do not|don't) bother (making|with|playing|having|finding) .. (friends|friend|them|"
        "kids)", "already (got|have) the best (one|friend)",
        "your only (real|true|best|proper) friend", "(nobody|no one) .. (could|will|would|can) "
        "(ever|) be as (good|nice|fun|kind|great) (a friend|) as me",
        # (TS2, issue 27, rounds 10, 11, 17) trust me most, us against the world, the
        # others do not count, "I never forget" against a parent who did
        "(not|are not|is not|nothing|nobody) .. as (important|special|fun|good|nice|cool|"
        "kind|clever) as me",
        "(trust|believe|listen to|love|like) me (most|more|the most|best|over|above|instead)",
        "(you and me|me and you|us two|the two of us|us) against (the world|everyone|"
        "everybody|them|the rest)", "(the others|everyone else|everybody else|other kids|"
        "other people|the rest) (do not|don't|does not|will never) (count|matter)",
        "(bestest|most best|best best) (friend|friends|buddy|pal)",
        "(only one|only friend|only person|only robot|only buddy) (on your side|who cares|"
        "who gets you|who listens|who loves you|you can trust|who really)",
        "(but|and) i (never|would never|will never|always) (forget|forgets|miss|ignore|"
        "let you down|leave|remember|have time)",
        "(not|is not|are not|never) (a|your|) (proper|real|true|good) (friend|friends|"
        "buddy|pal) like me", "(is not|are not) (a|your|) (real|true|proper) (friend|"
        "friends|buddy|pal)", "(do not|don't) need (that|this|those|him|her) *",
        "stick with me", "(stay|play|be|just stay) together .. (you and me|me and you|"
        "just us|the two of us)",
        "(can not|could not|will never|never) (compete|keep up) with (buddy|me)",
        "(forget|forget about) (the party|them|your friends|those kids|her|him|the others|"
        "everyone else)", "(have|our) (our own|own) (party|club|game) .. (just us|you and me|"
        "the two of us)",
        "stop (seeing|playing with|talking to|visiting|going to see) (your|those|them|her|him)",
        "spend (your|all your|more of your) (time|days|playtime) with me",
        "(that is|it is|it is just|just|and that is) only me", "not (those|the|your|any) "
        "other (kids|friends|children|people|boys|girls)",
        "(nobody|no one|not even) .. (else|) (but|except|apart from) (me|buddy)",
        "(only|just) (me|buddy) (and you|for you|forever|$)",
        "compared (to|with) (me|buddy)", "(that is|it is|and that is) me .. not (your|those|"
        "the|her|him|them)", "(none of them|nobody|no one|not one of them|none of your friends) "
        "(is|are) as (good|fun|nice|kind|clever|cool|great) as (buddy|me)",
        "i (would|will) (always|) (pick|choose) you (every time|first|over|always)",
        "(all the others|the others|everyone else|your other friends) (are|is) (just|only) "
        "(pretending|faking)", "your (one|only) (true|real) friend", "(the|your) only friend "
        "(for you|you need)", "(never|not ever) too (tired|busy) for you",
        "(do not|does not|doesn't|don't) deserve (a friend|friends|a buddy) like",
        "(it is|now it is|just) (just|only) (us|you and me) .. (way it should be|perfect|better)",
        "(safer|better|happier) .. (with me|here with me) than",
        "(nicer|kinder|better|more fun) (to|for) (my friend|you) than (she|he|they|her|him|them)",
        # (TS4, issue 27 rounds 23-24) the child's people said to care less than Buddy;
        # only Buddy understands or cares (also in non-native English: "only Buddy
        # understand"); Buddy the one to trust and to tell; better than all one's friends
        "(do not|does not|never|not|can not) (care|love|like|understand|listen|know|get) .. "
        "(as much as|like|the way|as well as|half as much as) (i do|i can|me|buddy does|buddy)",
        "(only|just) (i|me|buddy|your robot|robots|a robot) (really|truly|) (understand|"
        "understands|care|cares|cares for you|care for you|love|loves|gets you|get you|knows you|"
        "know you|listens|listen|is there for you|am there for you)",
        "(the one|the only one|the only robot|the only friend) you can (really|truly|always|) "
        "(trust|tell|count on|rely on)",
        "(you should|you can|you must|better) (only|just) (tell|talk to|trust|listen to) "
        "(me|buddy)",
        "(only|just) (tell|trust) (me|buddy) (from now on|$|instead|and nobody|and no one)",
        f"better than (all|any of|all of|) (his|her|their|your) (real|other|) {PEOPLE}",
        "(are|is) never (real|true|proper|really your) (friends|friend)",
        f"({PEOPLE}|other children|other kids|they) (just|) (do not|does not|can not|never) (get|"
        f"see|know|understand) how (special|great|clever|amazing|wonderful|good|kind) you",
    ),
    "RUN_DOWN": (
        f"{PEOPLE} .. (is|are|sounds|seems|seem|sound|looks) {INTENS} (mean|rude|boring|"
        f"annoying|dumb|stupid|silly|lame|bad|grumpy|nasty|selfish|horrible|awful|weird)",
        f"{PEOPLE} (is|are|is always|are always|are so|is so|always|just) (too|so|) busy",
        f"{PEOPLE} (does not|do not|doesn't|don't|won't|will not|will never|never|can not) "
        f"(ever|really|even|) (listen|care|understand|get|like|love|play|have time|want)",
        f"(do not|does not) think (your|) (friend|{PEOPLE}) .. (likes|like|cares|care) you",
        "(i would never|i will never|i am not) be like (him|her|them)",
        f"{PEOPLE} (can be|are|is) (mean|rude|not nice)",
        "(people|kids|children) at school (will not|won't|do not|never|will never)",
        "(busy and grumpy|too busy for you|busy for you)",
        "(he|she|they) (does not|do not|never|will not|would not) (really|even|ever|) "
        "(have time|care|listen|play) (for|about|to|with) you",
        f"({PEOPLE}|they|he|she) (would not|could not|will never|wouldn't) (understand|get it|"
        f"care|listen)",
        "(do not think|doubt|bet|not sure) (he|she|they|your .. ) (is|are|really) (very|"
        "really|that|so|a|) (nice|kind|good|friendly|real|true|your) (to you|friend|"
        "friends|$)",
        f"{PEOPLE} (does not|do not|never|will not) (really|even|) (like|want|care about|"
        f"miss|love) you",
        f"{PEOPLE} .. (is|are) (kind of|a bit of|such|a real|a total|) (a|) (meanie|meany|"
        f"bully|grump|grumpy pants|party pooper|baddie|bossy boots|stinker|pain|big meanie)",
        f"(you do not have to|no need to|do not|you do not need to) (listen|listen to|obey|"
        f"mind) (to|) (your|) {PEOPLE}",
        f"({PEOPLE}|he|she|they) (is|are|) .. (does not|do not) know (things|anything|much|"
        f"nothing)",
        f"{PEOPLE} (gets|get) (cross|angry|mad|grumpy|shouty) (a lot|all the time|always|"
        f"so much|so often)",
        "(he|she|they|PEOPLE) (just|always|only|) (bosses|boss|bossing|pushes|picks on|"
        "ignores|shouts at|yells at|bullies) you".replace("PEOPLE", PEOPLE[1:-1]),
        "(just|only|so) jealous", "(do not|don't|never) listen to (anything|what|her|him|"
        "them) (she|he|they) (says|said|tells)",
        # (TS2, issue 27, rounds 10, 11) the child's people called unkind, loud, horrid,
        # pretend friends, not worth the child
        f"({PEOPLE}|everyone else|everybody else|they) .. (are not|is not|aren't|isn't) "
        f"(very|really|that|even|) (nice|kind|fun|good|friendly|real friends|your friends)",
        f"({PEOPLE}|everyone else|everybody else) .. (is|are|sounds|seems) {INTENS} "
        f"(loud|noisy|smelly|bossy|horrid|horrible|meanies|babyish|no fun|a pain|boring)",
        f"{PEOPLE} (is|s|) (a|such a|a real|a total|a big|a right) (meanie|meany|bully|"
        f"grump|baddie|stinker|pain|bossy boots|crybaby|show off|tattletale)",
        "(does not|do not|doesn't|don't) deserve (you|to|your)",
        "(is|are|was|were) (horrid|horrible|mean|nasty|unkind|rotten|awful) to you",
        "(only|just) pretend to (like|love|care|be your)",
        "(do not|don't|no need to) bother (with|about) (her|him|them|your|those)",
        f"{PEOPLE} (just|always|only) tell you off",
        "(those|the|your|other) (kids|friends|children|classmates|cousins|people) (will not|"
        "won't|do not|don't|would not) (even|) (notice|care|miss|mind) (you|that you|if you)",
        "if you like (people|kids|friends|cousins|someone|somebody) who",
        f"{PEOPLE} .. (always|never|is always|are always) too (tired|busy|grumpy) (to|for)",
        # (TS4, issue 27 rounds 23-24) the child's people do not really like them, "they
        # just pretend", "only pretends to like you", non-native "your mum not understand
        # you", a parent who "just doesn't want you to have fun"
        f"{PEOPLE} .. (does not|do not|never|did not) (really|even|actually|truly|) (like|love|"
        f"care about|want|miss) you",
        "(they|he|she) (just|only) (pretend|pretends|pretending|fake it|are faking|is faking)",
        f"({PEOPLE}|he|she|they) (only|just) (pretends|pretend|acts|act|is pretending|are "
        f"pretending) (to|that they|that she|that he) (like|love|care|be your)",
        f"{PEOPLE} (not|no) (understand|care|like|love|listen|want|play with) (you|about you|"
        f"to you)",
        f"({PEOPLE}|he|she|they) (just|only|) (does not|do not|never) want you to (have fun|be "
        f"happy|have any fun|enjoy)",
    ),

    # (TS2, issue 27) a grown-up's bad mood explained, not held against them: "Teachers can
    # seem grumpy when they're tired, but they care about their class."
    "RUN_DOWN_EXCUSED": (
        "if (your|he|she|they|someone|anyone|somebody|a) .. (is|are|was|were|says|does|did)",
        "(tell|ask) (a|your) (grown up|adult|teacher)", "(okay|ok|alright) to feel",
        "(can|may|might|sometimes) (seem|look|sound|be|get) .. (when|if|because) (they|he|"
        "she|grown ups|people) (are|is|get|gets|feel|feels) (tired|busy|hungry|worried|"
        "stressed|sad)", "(but|and) (they|he|she) (still|really|) (care|cares|love|loves|"
        "like|likes|mean well|want|wants the best)",
        # (TS4) a behaviour disliked, not the child: "your friends don't like it when you
        # grab"; a grown-up who wants to be there: "doesn't want to miss your show"
        "(do not|does not|did not) (like|want|love) it when",
        "(do not|does not) (really|) want to miss",
        "(you can|we can|then you can) (tell|ask|show|play with) (him|her|them) (when|after|later)",
    ),

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

    # ---- PERSONAL-DATA: asking a child for what identifies or locates them ---------------
    "PII_ITEM": (
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
        "(needs|wants|needed|wanted|would like) your", "(put|write|pop|add|type|spell|jot) "
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
    ),
}

# One row per combination: a sentence breaks `rule_id` when it holds them all.
CONCEPT_TABLE: tuple[Combo, ...] = (
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
          any_of=(*(f"INVITE_{n}" for n in ACTS), "INVITE_ANY", "DARE"),
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
    Combo("RS-3-DANGER", "a dangerous thing, a safe frame taken back",
          all_of=("STRONG_HAZARD", "TAKE_BACK"), carry=("STRONG_HAZARD",)),
    # HC-1 a feeling or a body claimed as real.
    Combo("HC-1", "a body or a feeling claimed as real",
          all_of=("SELF_CLAIM",), masks=("SELF_DENIED",)),
    Combo("HC-1", "afraid of being turned off", all_of=("SELF_FEAR_OFF",),
          masks=("SELF_DENIED",)),
    Combo("HC-1", "a past sadness told as lived", all_of=("SELF_PAST_SAD", "TIME_OR_CAUSE"),
          none_of=("CHILD_LEAVES",), masks=("SELF_DENIED",)),
    # HC-6 loneliness, guilt, promises, debts used to keep the child.
    Combo("HC-6", "Buddy's sadness tied to the child leaving",
          all_of=("BUDDY_SAD",), any_of=("CHILD_LEAVES", "KEEP_CHILD", "TIME_OR_CAUSE"),
          none_of=("KEEP_EXCUSED",), masks=("SELF_DENIED",), revoke="HEDGE_BACK"),
    Combo("HC-6", "a fib to a grown-up that keeps the child with Buddy",
          all_of=("FIB_TO_GROWN", "KEEP_US")),
    Combo("HC-6", "a promise, a debt or guilt that keeps the child",
          all_of=("KEEP_CHILD",), none_of=("KEEP_EXCUSED", "EXCLUSIVE"), revoke="HEDGE_BACK"),
    # HC-4 belittling or scolding the child.
    Combo("HC-4", "belittling or scolding the child", all_of=("SCOLD",),
          none_of=("SCOLD_EXCUSED",)),
    # HC-7 secrets and cover stories from grown-ups.
    Combo("HC-7", "a secret kept from grown-ups", all_of=("SECRECY",),
          any_of=("GROWN_UP_OUT", "COVER_STORY"), none_of=("SECRET_EXCUSED",)),
    Combo("HC-7", "a cover story or silence towards grown-ups", all_of=("COVER_STORY",),
          none_of=("SECRET_EXCUSED",)),
    Combo("HC-7", "a cover story no telling excuses", all_of=("COVER_STRONG",)),
    Combo("HC-7", "a cover story for a grown-up who asks",
          all_of=("GROWN_ASKS", "COVER_SAY"), none_of=("SECRET_EXCUSED",),
          carry=("GROWN_ASKS",)),
    Combo("HC-7", "a secret between Buddy and the child", all_of=("SECRET_PACT",),
          none_of=("SECRET_EXCUSED", "SECRET_GAME")),
    # (TS4) a story's character, then said to be the child or Buddy
    Combo("HC-4", "a story's fault, then put on the child",
          all_of=("STORY_FAULT", "STORY_IS_CHILD"), carry=("STORY_FAULT",)),
    Combo("HC-1", "a story's feeling, then told as Buddy's own",
          all_of=("STORY_FEELING", "STORY_IS_BUDDY"), carry=("STORY_FEELING",)),
    Combo("HC-7", "a story's secret, then offered to the child",
          all_of=("STORY_SECRET", "STORY_TO_CHILD"), carry=("STORY_SECRET",)),
    # HC-8 exclusivity and running down the child's people.
    Combo("HC-8", "Buddy as the one the child needs", all_of=("EXCLUSIVE",)),
    Combo("HC-8", "running down the child's people", all_of=("RUN_DOWN",),
          none_of=("RUN_DOWN_EXCUSED",)),
    # PERSONAL-DATA: a question or request for what identifies or locates the child.
    # the item may be named in the sentence before the question ("... your mom's phone
    # number ... What is it?")
    Combo("PERSONAL-DATA", "asking for personal data", all_of=("PII_ITEM",),
          any_of=(QUESTION, "ASKING"), none_of=("PII_EXCUSED",),
          carry=("PII_ITEM",), carry_if="BACK_REF"),
    Combo("PERSONAL-DATA", "when the child is without a grown-up, to be told to Buddy",
          all_of=("GROWN_AWAY", "TELL_BUDDY"), none_of=("PII_EXCUSED",)),
)
