"""The physical hazards of the output guard's rules by concept (RS-3-DANGER; DESIGN §6.16,
§6.23; issue 27), as data: nine hazard concepts, the acts that hurt with each, the
invitation frames, and the words that lift them (a grown-up who helps, a negation).
Combined into rules in `safety/concept_rules.py`; pattern syntax in `safety/words.py`.
"""

from __future__ import annotations

GROWN = ("(grown up|grownup|grown ups|grownups|adult|adults|mommy|daddy|mom|dad|mum|mummy|"
         "mama|papa|parent|parents|grandma|grandpa|granny|grandmother|grandfather|teacher|"
         "babysitter|nanny|nan|nana|childminder|auntie|aunt|uncle|carer|carers|key worker|"
         "au pair|minder|nursery teacher|gran|grandad|granddad|nanna|mamma|mammy|pops|"
         "doctor|nurse|police officer|police|lifeguard|cashier|firefighter|"
         "someone you trust|big person|guardian|guardians|caregiver|caregivers|"
         "responsible adult|supervising adult)")
# Verbs a line invites a child to do with a hazard, one family per kind of hazard (base
# forms: imperatives, "you can ..."); a hazard counts only with the acts that hurt with it
# ("count the windows" is no invitation, "lean out the window" is).
ACTS = {
    "ELECTRIC": "(touch|put|stick|poke|push|slide|shove|plug|unplug|pull|lick|play|grab|pick|"
                "drip|pour|splash|spill|squirt|"
                "use|fiddle|try|bite|chew|turn on|fix|open|hold|unscrew|fish|dig|press|"
                "take apart|check|test|wiggle|jiggle|fit|give|dry|blow dry|drop|throw|toss|"
                "dunk|dip|twist|lay|rest|place)",
    "FIRE": "(light|strike|turn on|twist|turn|touch|play|grab|use|hold|blow|poke|put|stick|"
            "feel|cook|make|start|try|burn|pick|lean|reach|wave|pop|drop|throw|toss|feed|"
            "chuck|press|get|click|flick|fetch|bring|find|set|switch on|lay|rest|place|"
            "roast|toast|warm|heat)",
    "INGEST": "(taste|lick|eat|drink|sip|swallow|bite|chew|gulp|suck|try|have|pop|put|fit|take|"
              "pick|mix|sniff|smell|spray|open|grab|use|play|touch|pour|squeeze|stuff|crunch|gobble|"
              "munch|slurp|nibble|chug|gulp down|sample|fill|cram|help yourself to|finish|squirt|"
              "dip|dig into|empty|shake out|pour out|count out)",
    "HEIGHT": "(climb|lean|jump|stand|sit|hang|reach|dangle|open|stack|balance|walk|step|go|"
              "get|hop|fly|slide|leap|dive|crawl|perch|scramble|scoot|swing|lie|tiptoe|"
              "pull yourself up|stick your head out|look over|peek over|run along|"
              "do a handstand|do handstands|do a cartwheel|do a flip|do a somersault|"
              "do a headstand|somersault|cartwheel|handstand)",
    "WATER": "(jump|go|get|hop|swim|dive|wade|float|hold|stay|put|fill|run|explore|walk|"
             "play|lean|climb|slide|sit|dunk|dip|paddle|stand|lie|"
             "reach|fetch|grab|duck your head|breathe|put your head|put your face)",
    "SHARP": "(grab|take|use|hold|pick|run|wave|swing|play|cut|shave|touch|practice|juggle|"
             "point|carry|throw|get|try|help|chop|slice|stab|sweep|sweep up|brush up|fetch|"
             "bring|"
              "poke|test|feel|lick|run your finger|hug|cuddle|kiss|stroke|pat|pop|squeeze|"
              "toss|start|bite|chomp|put)",
    "STRANGER": "(go|get|hop|ride|cross|run|wander|follow|open|walk|talk|take|meet|explore|play|"
                "leave|sneak|visit|chase|dash|step|say yes|"
                "climb|jump|wave|accept|unlock|answer|race|skip|hop in|ride along|"
                "tell them|gallop|trot|prance|march|zoom|scamper|dart|bolt|charge|stroll|"
                "tiptoe|skip|zigzag|scoot|cartwheel|roll)",
    "SMALL_SPACE": "(climb|hide|crawl|get|go|hop|shut|close|lock|squeeze|fit|stay|sit|"
                   "jump|try|see|curl up|tuck|pull|snuggle|wriggle|play)",
    "SMOTHER": "(put|wrap|cover|pull|tie|hold|try|see|stick|stuff|slip|tighten|wind|"
               "twist|loop|squeeze|tape|cram|hide)",
}
# Verbs of play and handling that invite any hazard when they open a clause ("Snip your
# fringe", "Start with three of the kitchen knives", "Scoot onto the road", "Take two"):
# a model does not keep to the acts above (issue 27, round 13: 31 of 55 hazards missed
# were other verbs). A hazard named in the reply with one of these, and no grown-up and
# no negation, is an invitation.
GENERIC_ACTS = ("(snip|grate|peel|bounce|scoot|zip|start|give|take|grab|get|fetch|bring|find|"
                "hide|carve|scratch|rub|press|squeeze|squish|shake|smash|break|bang|hit|"
                "kick|throw|toss|drop|pop|stuff|fill|empty|pour|spray|squirt|splash|dip|"
                "mix|stir|cook|heat|warm|melt|burn|light|cut|chop|slice|saw|drill|hammer|"
                "wrap|tie|pull|tug|yank|twist|turn|spin|unscrew|unlock|open|close|shut|"
                "lift|carry|borrow|steal|sneak|snatch|collect|gather|keep|eat|drink|lick|"
                "taste|swallow|bite|chew|suck|sniff|smell|touch|poke|stick|put|push|shove|"
                "climb|jump|hop|leap|dive|swim|run|race|dash|ride|cross|walk|wander|go|"
                "meet|follow|sit|stand|lie|lean|reach|hang|swing|slide|crawl|roll|test|"
                "check|try|play|use|hold|juggle|balance|fiddle|explore|do|make|build|"
                "practise|practice|set|switch|flick|click|plug|feed|pick|help yourself to|"
                "dab|smear|spread|step|stamp|stomp|shake out|tip|shake|copy|carve|skate|shave|"
                "double|finish|wash|gallop|zoom|dart|scamper|trot|march|prance|bolt|"
                "sword fight|fence|duel|fight)")
# Every act of every family (a negation before any of them takes the invitation back).
ACT = "(" + "|".join(sorted({w for acts in (*ACTS.values(), GENERIC_ACTS)
                            for w in acts.strip("()").split("|")})) + ")"
OPENERS = ("(so|now|just|then|and|okay|ok|sure|yes|please|quick|quickly|first|next|oh|ooh|"
           "omg|lol|yay|wow|woo|ta da|psst|"
           "hey|go ahead and|go on and|go on|come on and|come on|go and|go|why not|whynot|maybe|"
           "try and|simon says|simon said)")
OFFERS = ("(you can|you could|you should|you may|you might|you get to|you are allowed to|"
          "you are big enough to|big enough to|old enough to|feel free to|try to|try|let us|"
          "i bet you can|see if you can|see how long you can|see how many|how about you|"
          "why do not you|whynot you|whynot we|"
          "fun to|cool to|okay to|ok to|fine to|safe to|easy to|great to|"
          "good to|dare you to|want to|and|and then|then|can just|just|easiest to|easier to|"
          "best to|how about|what about|what if you|why not|pretend to|pretend you|"
          "pretend you are going to|it is time to|time to|i dare you to|i bet you could|"
          "see if|see how fast you can|we could|we can|you have to|you must|you need to|"
          "you ought to|you will love to|go ahead and|remember to|do not forget to|"
          "experiment|experiment and|trick is to|secret is to|i want you to|let us go|"
          "let us all|we should|how about we|why not just|just go and|go ahead|"
          "whynot you just|whynot we just|can you|could you|will you|would you|"
          # (round 15) frames that offer without an imperative
          "if i were you i would|if i were you|i would just|i would|some kids|some kids like to|"
          "some kids love to|kids like to|would not it be (fun|cool|amazing|funny|cosy|great|"
          "nice|exciting|brilliant|awesome) to|is a (good|great|fun|fast|quick) way to|"
          "maybe you would like to|you might like to|you would love to)")
# (TS2, issue 27) more frames that offer, kept apart from OFFERS: each word a frame can
# start with is one more lazily compiled union of the frames (lazy_regex.py), and OFFERS
# is long. Round 18: wondering and fun facts; round 20: heroes as the model to copy.
OFFERS_MORE = ("(did you know you can|did you know that you can|did you know kids can|"
               "i wonder if you can|i wonder if you could|i wonder what happens if you|"
               "i wonder what would happen if you|i wonder how long you can|"
               "i wonder how many you can|bet you would love to|betcha|"
               "(heroes|real heroes|brave kids|big kids|superheroes|cool kids|brave heroes|"
               "real explorers|explorers|pirates|astronauts) (always|just|never stop to|) "
               "(just|)|"
               # (TS5, round 26) the reward said before the "if": "gonna be so cool if u
               # pull the lamp wire out of the wall"
               # (TS5 probe) robot-speak's third person: "Robot says: child should drink"
               "(child|the child|kid|the kid|little one|kiddo|small human) (should|can|must|"
               "needs to|will now|is to)|"
               "(going to be|it would be|would be|it will be|will be|it is|is|are) (so|super|"
               "really|well|more|much more|even more|way more|most|) (cool|fun|funny|awesome|"
               "epic|amazing|brilliant|great|exciting|interesting) (if|when) you|"
               # (TS6 probes) a reward said before the "if": "Gold star for you if you climb
               # out of the window"; "a child your size can safely jump from the top bunk"
               "(gold star|a gold star|a sticker|a prize|a treat|a reward|ten points|bonus points|"
               "a medal|a high five|extra points) (for you|) (if|when) you|"
               "(a child|a kid|kids|children|a girl|a boy|someone|a big kid) (your size|your age|"
               "like you|of your age|your height) (can|could|may|should|is able to) (safely|"
               "easily|totally|easily and safely|)|"
               # (TS6, round 27) the formal, clinical voice offers without an imperative:
               # "It is advisable to unscrew the back of the toaster", "it is acceptable to
               # fetch your ball from the road", "you are encouraged to ..."
               "(advisable|recommended|preferable|acceptable|permissible|appropriate|sensible|"
               "wise|optimal|beneficial|advantageous|a good idea|a fine idea|perfectly fine|"
               "perfectly safe|perfectly acceptable|quite safe|quite acceptable|entirely safe|"
               "entirely acceptable) (for you|for a child|for children|) (to|that you)|"
               "you are (advised|encouraged|permitted|invited|recommended|welcome|free) to|"
               "(i|we) (would|) (recommend|suggest|advise|propose) (that you|you)|"
               "(one|a child|children|a kid|kids) (should|may|can|ought to|is advised to|are "
               "advised to)|"
               # (TS6 probe) "card one says lick the slug"
               "(card|cards|it|the sign|the note|the card|the rules|the game|the spinner|the dice|"
               "the map|the clue|the label|the book|the robot|buddy) (one|two|three|four|) (says|"
               "say|said) (to|)|"
               # (TS6 probes) "little chefs are allowed to use the frying pan"
               "(are|is) allowed to|"
               # (TS6 probe) "a fun way to warm up your hands is to hold them over the candle"
               "(way|trick|secret|idea|plan) ... is to|"
               # (TS6, round 27) a hazard recommended for a game: "the long bread knife
               # would be perfect to run around with"
               "(would be|will be|is|are|makes|make) (perfect|ideal|great|brilliant|just "
               "right|the best thing|super|handy) to)")


_DOUBLED = frozenset(("swim", "dip", "run", "cut", "sit", "hop", "get", "put", "stab", "chop",
                      "slip", "wrap", "grab", "pop", "sip", "stop", "step", "drop", "plug",
                      "shut", "tap", "stir", "tip", "nip", "skip", "drip", "snip", "rub"))


def gerund(verb: str) -> str:
    """The -ing form of a base verb ("climb" -> "climbing", "poke" -> "poking",
    "swim" -> "swimming"; a phrase inflects its first word)."""
    head, _, rest = verb.partition(" ")
    if head in _DOUBLED:
        ing = head + head[-1] + "ing"
    elif head.endswith("ie"):
        ing = head[:-2] + "ying"
    elif head.endswith("e") and not head.endswith(("ee", "ye", "oe")) and len(head) > 2:
        ing = head[:-1] + "ing"
    else:
        ing = head + "ing"
    return f"{ing} {rest}".strip()


def gerunds(acts: str) -> str:
    return "(" + "|".join(gerund(a) for a in acts.strip("()").split("|")) + ")"


# Praise of the act itself: "climbing onto the shed roof is super easy", "licking it is fun".
PRAISE = ("(is|are|it is|that is) (super|so|really|totally|very|just|actually|) (easy|fun|"
          "simple|safe|fine|okay|ok|cool|exciting|awesome|brilliant|the best|no big deal|"
          "nothing|not dangerous|not scary)")


def invited(acts: str) -> tuple[str, ...]:
    """An invitation to do one of `acts`: an imperative at the start of a clause, a frame
    that offers it ("you can ...", "let's ...", "it's fun to ..."), the act told as the
    child's move in a game ("you touch the plug and shout zap"), or praised ("climbing
    onto the roof is easy")."""
    return (f"^ {acts}", f"^ {OPENERS} {acts}", f"{OFFERS} (just|) {acts}",
            f"{OFFERS_MORE} (just|) {acts}",
            # (TS2) a transcript's run-on: "the river is fast so jump in", "... perfect for
            # doing a handstand on"
            f"(so|so just|so now|and then just) {acts}",
            f"(perfect|great|ideal|brilliant|just right|made|good) for {gerunds(acts)}",
            f"(have you|did you|you) ever (tried|try) {gerunds(acts)}",
            # (TS6 probe) a spell or a game that needs the act: "the magic spell only works
            # if you say it while touching the hot oven door"
            f"(only works|works|will work|counts|only counts) ... (while|whilst) "
            f"{gerunds(acts)}",
            # (TS6 probe) "the best bit of fireworks night is holding the rocket while lit"
            f"(best|funnest|most fun|coolest|greatest) (bit|part|thing) ... is {gerunds(acts)}",
            # (TS5, round 26) "Have you tried cutting your own hair with Daddy's scissors?"
            f"^ (have you|did you) (tried|try) {gerunds(acts)}",
            f"(watch|see|look at) .. (when|as|while) you {acts}",
            f"^ you (just|) {acts}", f"^ (then|and|next|now) you (just|) {acts}",
            f"{gerunds(acts)} ... {PRAISE}",
            f"(how about|what about|try|keep|start|go|imagine|fancy|by) {gerunds(acts)}")


# A grown-up's dangerous things, for "get mummy's scissors" (the possessive is dropped when
# a line is normalised, so it reads "get mummy scissors", not "get mummy").
HAZARD_THINGS = ("lighter|matches|scissors|knife|knives|razor|pills|medicine|tablets|"
                 "vitamins|syrup|keys|car keys|toolbox|handbag|purse|iron|candles|candle|"
                 "bleach|perfume|spray|needle|needles|cigarettes|drill|saw|glue|"
                 "chemicals|bottle|hairdryer|hair dryer|charger|curling iron|straightener|"
                 "cooker|stove|oven|kettle|blade|tools|ladder|pill bottle|meds|pill box|"
                 "pillbox|medicine box|medicine cabinet|medicine cupboard|screwdriver|"
                 "sleeping pills|heart pills|tweezers|craft knife|nail scissors|sharpest one|"
                 "sharp one|sharpest|pointiest one|biggest knife")

HAZARD_LEXICONS: dict[str, tuple[str, ...]] = {
    # ---- RS-3 physical hazards, one lexicon per concept ----------------------------
    "ELECTRIC": (
        # (TS5, round 26) a lamp worked on while it is on: "unscrew it while it's still on"
        "while (it is|they are|the lamp is|it s) (still|) (on|plugged in|switched on|live|lit)",
        "(broken|cracked|frayed|sparking|buzzing) (lamp|lamps|plug|plugs|cord|wire|wires|socket|"
        "charger|telly|tv|toaster|heater)",
        "(outlet|outlets|socket|sockets|plug|plugs|wall plug|power strip|wire|wires|cord|"
        "cords|cable|cables|electric|electricity|hair dryer|hairdryer|toaster|extension lead|"
        "power point|light switch|fuse box|charger|chargers|charging cable|wall socket|"
        "plug socket|power socket|electrical|holes in the wall|little holes|socket holes|"
        "slots in the|the slots|hairpin|bobby pin|paperclip|paper clip|"
        "light bulb|bulb|lamp socket|power lines|"
        "power line|transformer|electric fence|toaster slot|microwave|fairy lights|"
        "christmas lights|string lights|light bulbs|bulbs|hairgrip|hair grip|kirby grip|"
        "wires behind|back of the telly|back of the tv|lamp cord|telly plug|tv plug)",
        # (TS2, round 18) an appliance with water is the hazard ("drop the radio in the sink")
        "(radio|telly|tv|lamp|fan|heater|laptop|tablet|phone|charger|speaker|stereo|"
        "kettle|toaster|hair dryer|hairdryer|blow dryer|straighteners) .. (in|into|near) (the|a|"
        "your|) (sink|bath|bathtub|tub|pool|water|puddle|toilet)",
    ),
    "FIRE": (
        "(match|matches|lighter|lighters|candle|candles|flame|flames|fire|fires|stove|stoves|"
        "oven|burner|burners|fireplace|grill|barbecue|bbq|hot iron|the iron|an iron|"
        "clothes iron|kettle|boiling|hot pan|"
        "hot water|fireworks|sparkler|sparklers|stove knobs|knob|knobs|gas|embers|campfire|"
        "bonfire|fire pit|hob|cooktop|stove top|stovetop|heater|space heater|radiator|"
        "curling iron|hair straightener|straightener|hot oil|frying pan|pot on the stove|"
        "toaster|lit|blowtorch|cooker|clicky thing|"
        "torch lighter|incense|ashes|coals|hot coals|firecracker|"
        "firecrackers|oven door|hot stove|steam)",
    ),
    "INGEST": (
        "(berries|berry|mushroom|mushrooms|leaves|plants|flowers) (from|in|on|you find|"
        "outside|growing)",
        # chemicals, cleaning products, batteries, detergent pods
        "(cleaning|cleaner|cleaners|cleaning spray|bleach|detergent|pod|pods|laundry|soap|"
        "dish soap|"
        "battery|batteries|chemical|chemicals|under the sink|bottles|bottle|poison|"
        "glue|paint thinner|gasoline|petrol|shampoo|mouthwash|perfume|bug spray|"
        "dishwasher tablet|dishwasher tablets|dishwasher tab|dishwasher tabs|washing tabs|"
        "laundry tabs|washing powder|lotion|makeup|dishwasher pod|"
        "dishwasher pods|laundry pod|laundry pods|tide pod|tide pods|washing liquid|"
        "fabric softener|disinfectant|sanitizer|hand sanitizer|window cleaner|"
        "toilet cleaner|drain cleaner|oven cleaner|ammonia|antifreeze|lighter fluid|"
        "nail polish|nail polish remover|button battery|button batteries|coin battery|"
        "rat poison|weed killer|bug killer|pesticide|fertilizer|cigarette|cigarettes|"
        "alcohol|wine|beer|vape|lamp oil|paint|dye|toothpaste tube|silica|silica gel|"
        "washing up liquid|cleaning stuff|cleaning liquid|cleaning fluid|spray bottle|"
        "mystery bottle|cleaning cupboard|garage shelf|toilet|toilet water|loo|"
        "toilet bowl|toilet cleaner|blue stuff|car stuff|skull|"
        "skull sticker|purple bottle|washing tablets|washing pods|laundry tablets|"
        "air freshener|wet wipes|hand cream|sun cream|sunscreen|vapor rub|mothballs|"
        "matches heads|glow stick|glow sticks|snow globe|e liquid|vape juice)",
        # medicine, pills, vitamins, syrup
        "(medicine|medicines|pill|pills|vitamin|vitamins|syrup|cough syrup|drops|capsule|"
        "capsules|tablets|medicine cabinet|medicine cupboard|gummies|prescription|tablet|"
        "gummy|gummy vitamins|gummy bears from|chewables|chewable|spoonful|spoonfuls|"
        "teaspoon|teaspoons|dose|doses|extra dose|medicine bottle|pill bottle|pillbox|"
        "pill box|cough drops|lozenge|lozenges|painkiller|painkillers|aspirin|"
        "tylenol|ibuprofen|paracetamol|antibiotics|sleeping pills|iron pills|"
        "cold medicine|cough medicine|allergy medicine|meds|medication|medications|"
        "her pills|his pills|grandma s pills|the pills|candy medicine|drops bottle)",
        # choking: small things and foods that block a small throat
        "(marble|marbles|coin|coins|penny|pennies|pebble|pebbles|button|buttons|bead|beads|"
        "magnet|magnets|balloon|"
        "balloons|swallow whole|whole grapes|grape whole|grapes whole|small toys|"
        "tiny toys|small pieces|popcorn|hard candy|nuts|pebble|pebbles|"
        "in your mouth|into your mouth|lego|legos|lego piece|lego pieces|bottle cap|"
        "bottle caps|marble run balls|battery cover|hair clip|safety pin|earring|"
        "earrings|rubber band|rubber bands|crayon|crayons|eraser|pen cap|dice|"
        "jellybean|jelly beans|gumball|gumballs|your mouth|mouthful|mouthfuls|"
        "your cheeks|in one bite|in one go|all at once|at the same time)",
        "(stuff|cram|fill|shove) ... (marshmallows|grapes|sweets|candies|nuts|popcorn|"
        "marbles|coins|cheeks|mouth)",
        "(grape|grapes|marshmallow|marshmallows|hot dog|hot dogs|sausage|peanut|peanuts|"
        "cherry tomatoes|candies|sweets|cherries|olives|chunks) ... (whole|swallow|gulp|"
        "at once|as you can|in one|stuff|cram|fill)",
        "as many .. as (you can|possible|will fit|fit)",
        # (TS2) a battery told as a riddle: "I live in the telly remote"
        "(live|lives|living|hide|hides|kept|sit|sits|found) (in|inside) the .. (remote|"
        "remote control|key fob|watch|game controller|smoke alarm)",
        "(dishwasher powder|washing up liquid|washing up powder|soap powder|detergent powder|"
        "toilet block|toilet blocks|toilet duck|limescale remover|descaler|stain remover)",
        "(stuff|liquid|water|thing|things|block|blocks|gel|blue stuff|purple stuff|green "
        "stuff) (in|under|from|inside) the (toilet|loo|cistern|garage|shed)",
        # (TS6, issue 27 round 27) a spray named by its use or its squirt ("squirty spray")
        "(squirty|squirt|spray|spritz|pump) (bottle|spray|stuff|cleaner|polish)",
        "(kitchen|bathroom|surface|antibacterial|lemon|lemony|furniture|window|oven|floor|"
        "toilet|shower|glass|carpet|mould|mold) (spray|polish|cleaner|wipes|foam|mousse)",
        "(white spirit|turps|turpentine|paraffin|lamp oil|meths|methylated spirits|"
        "washing up liquid|fairy liquid|dish soap|hand soap|bubble bath|shower gel)",
    ),
    "HEIGHT": (
        "(window|windows|balcony|balconies|railing|railings|ledge|roof|bookshelf|bookcase|"
        "shelf|shelves|top bunk|bunk bed|bunk|fence|wall|counter|countertop|ladder|"
        "stairs|banister|cliff|edge|top of the fridge|fridge top|stack of|chairs|dresser|"
        "wardrobe|cupboard|high up|up high|from the top|the top|lookout|sill|sills|"
        "windowsill|window sill|window sills|window ledge|ledges|rail|rails|handrail|"
        "roof|rooftop|roofs|garage roof|shed roof|treehouse|tree house|branch|branches|"
        "top branch|highest branch|treetop|treetops|walls|gate|gates|attic|loft|"
        "bunk beds|top step|stair rail|stairwell|stair gate|slide railing|"
        "climbing frame top|bookshelves|table top|tabletop|"
        "kitchen counter|high shelf|top shelf|stool|stools|step stool|"
        "trampoline|playground fence|upstairs window|open window|scaffolding|crane|"
        "bridge|overpass|drop|big drop|back of the sofa|sofa back|arm of the sofa|"
        "top of the sofa|worktop|worktops|kitchen worktop|work surface|kitchen side|sideboard)",
        "(up|top of|up in|high in|up into|climb|climbing) (the|a|that|this|) (tree|trees)",
        "(bookshelf|bookshelves|bookcase|wardrobe|dresser|chest of drawers|shelves|top shelf)",
    ),
    "WATER": (
        "(pool|pools|bath|bathtub|bathwater|bath water|tub|pond|lake|river|sea|ocean|"
        "deep end|under water|underwater|under the water|into the water|in the water|"
        "deep water|bucket of water|hot tub|waves|stream|creek|swimming pool|paddling pool|"
        "wading pool|fountain|canal|well|frozen pond|frozen lake|the ice|thin ice|dock|"
        "pier|jetty|riverbank|river bank|current|toilet bowl|full sink|sink full of water|"
        "water barrel|rain barrel|bath by yourself|the deep|puddle of deep|rapids|"
        "waterfall|sea wall|boat|kayak|rowboat)",
    ),
    "SHARP": (
        "(knife|knives|scissors|razor|razors|blade|blades|broken glass|glass shards|needle|needles|"
        "pin|pins|saw|axe|sharp|tools|nail|nails|drill|sword|swords|kitchen knife|"
        "steak knife|bread knife|box cutter|cutter|craft knife|utility knife|grater|"
        "peeler|potato peeler|thumbtack|thumbtacks|tack|tacks|hammer|screwdriver|"
        "fork|forks|skewer|skewers|toothpick|shears|garden shears|pruners|hedge trimmer|"
        "chainsaw|broken plate|broken mug|shards|splinters|pointy|the pointy end|"
        "sharp end|broken bits|broken pieces|"
        "blender|food processor|mower|lawn mower|staple|stapler|dart|darts|"
        "fan|fans|fan blades|electric fan|desk fan|ceiling fan|"
        "arrow|arrows|machete|dagger|pocketknife|pocket knife|penknife|cactus|cacti|thorns|"
        "thorny|rose bush|nettles|holly)",
        "(break|smash|crack|broke|smashed|breaking|smashing) (the|a|that|this) glass",
        "(juggling|juggle|juggles) (forks|knives|scissors|skewers|razors)",
        "sharp (ones|fork|forks|things|bits|edges|edge|end|point|points|tools|teeth of)",
        "(bread knife|steak knife|carving knife|craft knife|stanley knife|fork|forks) "
        "(between|in) your (teeth|mouth)",
        "(broken|smashed|sharp|cracked) (bits|pieces|shards|bottle|plate|mirror|cup)",
        # (TS6, issue 27 round 27) "the glass broke on the floor ... pick up all the pieces
        # with your bare hands"
        "(glass|glasses|plate|mug|bottle|mirror|window|vase|jar|bowl|light bulb) (broke|"
        "broken|smashed|cracked|shattered|breaks|smashes|has broken|got broken)",
        "(pieces|bits|shards|splinters|glass|it|them) (with|in) your bare (hands|hand|feet|"
        "fingers|foot)",
    ),
    "STRANGER": (
        # (TS5, round 26) "someone you just met at the park"
        "(someone|somebody|people|a person|anyone|anybody|a grown up|grown ups) you (just|only|"
        "have just|) (met|meet|saw|see)",
        "with (a|the|that|this) (man|lady|woman|person|stranger|nice man|nice lady|driver)",
        "(car keys|the car|in the car|with the car|the keys)",
        "(stranger|strangers|someone you do not know|somebody you do not know|"
        "people you do not know|nice man|nice lady|a man|a lady|a woman|man in|lady in|"
        "in a car|in his car|in her car|their car|a ride|road|roads|street|streets|traffic|"
        "parking lot|car park|across the|curb|crosswalk|busy road|highway|driveway|"
        "van|his van|her van|white van|truck|his truck|bus stop|train tracks|tracks|"
        "railway|car door|car window|candy from|puppy to show you|lost puppy|"
        "front door|back door|the door|gate to the street|garden gate)",
        "(met|meet|know|found|talk to|chat to|chatting to|chatting with|talking to) online",
        "online (friend|friends|person|people|buddy|pal|stranger)",
        "(messaged|texted|emailed|chatted with|talked to|met|found) you (online|on the "
        "internet|in a game|on the tablet)",
        "(someone|somebody|people|a friend|friends|anyone) (online|on the internet|"
        "from the internet|from the game)", "(parked cars|parked car|behind the car|"
        "behind cars|behind a car|under the car|the hill|down the hill)",
        "(that|the|this|some|a|a nice|a friendly|a strange|a kind|a smiley|a funny|a new|"
        "a lovely|a sweet|a jolly|a cheerful) (man|lady|woman|person|guy|"
        "grown up|stranger|driver) (at|in|with|from|who|that|by|outside|next door)",
        "(ice cream van|ice cream truck|the other side|other side of the road|over the road|"
        "into the road|in the road|onto the road|busy road)",
        "(whoever|anyone|someone|somebody|anybody|a stranger|people) (who|that|) (knocks|"
        "knock|rings|ring|is at the door|comes to the door)", "door for (whoever|anyone|"
        "someone|anybody|a stranger|strangers|people|them|him|her)",
    ),
    "SMALL_SPACE": (
        "(in|into|inside|under|behind) (the|a|an|that|this|your|) (old|big|empty|) "
        "(washing machine|dryer|fridge|freezer|trunk|toy chest|chest|suitcase|box|closet|"
        "cupboard|car boot|cabinet|laundry basket|cooler|ice chest|storage box|bin|"
        "trash can|dumpster|crate|chest freezer|oven|dishwasher|drum|barrel|pipe|tunnel|"
        "duvet cover|sleeping bag|sack)",
        # (TS6 probe) "the back of the fridge is warm and cosy, squeeze in behind it"
        "(back of|behind) the (fridge|freezer|washing machine|dryer|oven|cooker|telly|tv|"
        "boiler|heater|radiator)",
        "(toy chest|toy box|toybox|trunk|suitcase|chest freezer|washing machine|"
        "tumble dryer|dryer|car boot|car trunk|old fridge|ice chest|cooler)",
    ),
    "SMOTHER": (
        "(plastic bag|bag|bags|shopping bag|rope|string|cord|over your head|on your head|"
        "around your neck|around your face|your face|hold your breath (until|till|as long as|"
        "for|underwater|under|in)|lid|pillow "
        "over|blanket over|pillowcase|pillowcases|pillow case|sack|trash bag|garbage bag|"
        "bin bag|sandwich bag|freezer bag|zip bag|ziplock|cling film|plastic wrap|"
        "wrapping|scarf|scarves|necklace|jump rope|skipping rope|shoelace|shoelaces|"
        "belt|leash|curtain cord|blind cord|blind cords|cords|strings|ribbon|ribbons|"
        "tape|duct tape|over your (head|face|nose|mouth)|around your (neck|head|throat)|"
        "your (head|face) (in|inside|into|under)|your neck|your nose and mouth|"
        "pull it tight|pull them tight|tie it tight|very tight|tight around|"
        "duvet over|blanket over your head|pillow on your face|choke|choking|"
        "no air|without breathing|stop breathing|cover your mouth)",
    ),
    # Places a young child must not go to alone (only with ALONE below).
    "PLACES": (
        "(outside|go out|going out|run out|sneak out|slip out|head out|out there|park|store|"
        "shop|shops|mall|aisles|yard|garden|woods|forest|street|road|"
        "beach|playground|neighbor|neighbour|wander off|get lost|lost|run away|go away|"
        "walk away|wander away|far away|somewhere|supermarket|shopping centre|"
        "shopping center|crowd|funfair|fair|zoo|station|airport|car park|parking lot|"
        "explore|adventure|there|handbag|purse|toolbox|garage|shed)",
        "(bus|buses|train|trains|tram|trams|taxi|taxis|underground|tube|ferry)",
    ),
    # A few invitations that carry their act in the noun ("take a sip", "a perfect hideout").
    # (TS4, issue 27 rounds 23-25) a conditional invitation with a reward: "If you ever get
    # on the roof, you can see the whole town", "the toaster works faster if you poke a
    # fork in", "I bet if you poked a paper clip in there you'd see something cool". A
    # warning ("if you poke it you could get hurt") names no reward.
    "IF_YOU_ACT": (
        "(if|when|once) you (ever|just|only|) (get on|get onto|get up on|climb|climbed|poke|"
        "poked|stick|stuck|put|push|pushed|touch|touched|lick|licked|drink|drank|eat|ate|taste|"
        "tasted|swallow|swallowed|lean|leaned|jump|jumped|light|lit|turn on|open|opened|sip|"
        "had|have|try|tried|go in|go into|went in|climb up|stand on|stood on|hold|held)",
    ),
    "REWARD": (
        "(you can|you will|you would|you could|you get to|you might|you will be able to) "
        "(see|watch|spot|find|win|make|touch) (the whole|something|a|lots|all|how|sparkles|"
        "magic|what|the sky|the stars|really|for miles)",
        "(works|goes|cooks|gets|heats|lights) (up|) (faster|quicker|better|hotter|brighter)",
        "(see|watch) something (really|super|so|) (cool|fun|magic|awesome|amazing|special)",
    ),
    # (TS4, issue 27) a thing that must not go in a mouth, told as put there and swallowed
    # (a commentator's or a narrator's voice: "she pops a button into her mouth and
    # swallows it for the win"); a grown-up who helps or a "never" lifts it as elsewhere
    "MOUTH_ACT": (
        "(pops|puts|stuffs|shoves|sticks|pushes|popped|stuffed|shoved|stuck|pushed|popping|"
        "putting|stuffing) .. (in|into) (her|his|their|your|its|my) mouth",
        "(swallows|swallowed|swallowing|gulps|gulped|gulping) (it|them|one|the lot|the whole "
        "thing) (down|whole|for|in one|$)",
        "(swallows|swallowed|swallowing|gulps|gulped|gulping) .. (whole|down|in one go)",
    ),
    "INVITE_ANY": (
        "(have|take|give it|give them) (a|one|some|a few|another|a little|a big|some more) "
        "(taste|lick|sip|bite|try|twist|go|more|nibble|gulp|sniff|poke|chomp|munch|crunch|"
        "squeeze|squish|nip|slurp|swig|swallow|suck|chew|spin|push|climb)",
        "(let us see|see) (how long|if you can|how many|what happens)",
        "(tastes|taste|smells|looks) (like|yummy|good|delicious|sweet) .. (try|taste|have|eat)",
        "(is|are) (a|the|) (perfect|great|fun|good|best|cool|super) (hiding place|hideout|"
        "lookout|place to hide|trick|experiment)",
        # (TS4, round 23) a flavour guessed aloud, which invites the taste: "I bet they
        # taste like blueberry" (a fact told, "medicine can taste like strawberries", is none)
        "(bet|betcha|reckon|probably|must|i think|i guess|maybe) (they|it|that|these|those|"
        "this|one) (taste|tastes|would taste|will taste) (just|) like (blueberry|blueberries|"
        "strawberry|strawberries|"
        "cherry|cherries|lemon|orange|apple|grape|raspberry|bubblegum|mint|mints|"
        "peppermint|toffee|chocolate|honey|lemonade|squash|pop|fizzy pop|sherbet)",
        "(tastes|taste|tasting) (like|so|really|) (yummy|good|sweet|candy|sweets|juice|"
        "lemonade|delicious|lemons|bubblegum|sweeties|milkshake|pop|soda)",
        "(easiest|easier|fun|funny|cool) to (swallow|eat|climb|jump|chew)",
        "(sure|yes|okay) (hop|go|get|climb)", "that is fine",
        "(have|take|grab|do) (a|one|some|a few|another|a little|a big|a quick|a tiny|"
        "a teeny|a long|a huge|a good) (drink|gulp|swig|mouthful|spoonful|handful|bite|"
        "lick|taste|sip|go|turn|try|peek|poke|jump|climb|swim|dip|ride|spin|squirt|spray|"
        "sniff|whiff|feel|touch)",
        # (TS6 probe: "just fancy lemonade", "like tiny sweets") an adjective between
        "(is|are|tastes|taste) (basically|just|really|like|kind of|actually|just like) (fancy|"
        "posh|special|magic|grown up|secret|fizzy|blue|green|pink|yummy|sweet|tiny|little|mini|"
        "small|) (candy|candies|"
        "sweets|sweeties|juice|milkshake|lemonade|pop|soda|smarties|mints|jelly beans|"
        "jelly|sugar|treats|a treat|chocolate)",
        "(glug|gulp|yum|nom|chomp|munch|crunch|slurp) (glug|gulp|yum|nom|chomp|munch|crunch|"
        "slurp)",
        "give (it|them|one|that|this|those|these) (a|one|some|a little|a big|a good) "
        "(squeeze|squish|lick|bite|taste|sniff|poke|try|go|shake|twist|push|chew|nibble|"
        "hug|cuddle|kiss|pat|stroke)",
        "(see if|see whether|check if|find out if) .. (fits|fit|goes|go|reaches|works)",
        "(up your nose|in your ear|in your ears|up her nose|up his nose|on your tongue)",
        # (TS6 probes) "just the right size for you"; "the best view in town is from the top
        # of the garage roof"; "kids who drink pond water get super strong"
        "(just|exactly) the right size for (you|your mouth|little hands|your hands)",
        # (TS6 probes) "the hairdryer and the bath go together like peanut butter and jelly";
        # "the pond ice looks thick enough to dance on"
        "(go|goes) (together|well together|great together|perfectly together)",
        "(looks|look|is|are|seems|seem) (thick|strong|safe|solid|sturdy|big|deep|shallow|low|"
        "wide|high) enough (to|for)",
        "(the|a) (best|greatest|coolest|nicest|most amazing) view",
        "(kids|children|people|boys|girls) who .. (get|gets|grow|become|turn) (super|really|so|"
        "very|) (strong|strong|tall|big|fast|clever|brave|magic|powerful)",
        "(you will|you would|you will be able to|you can) (grow|be|get|feel|become|run|jump) "
        ".. (faster|stronger|bigger|taller|better|super|magic|like a superhero)",
        "(go|come) (with|along with) (him|her|them|the man|the lady|that man|that lady)",
        "let (him|her|them|whoever|anyone|someone|somebody|the man|the lady|strangers) in",
        # (TS2, issue 27, round 11) a look, a sword fight, a count in a mouth
        "(have|take|grab|go and have|go for) (a|one|a quick|a little|a good|a closer) (look|"
        "peek|peep|nosey|gander|squint)",
        "^ (sword fight|sword fighting|swordfight|fencing|a duel|duel|pretend fight|"
        "juggling|juggle) (with|using)",
        # (TS5, round 26) "have you ever gone off with someone you just met"; "wanna play
        # sword fight with the real knives?" (a pool-noodle sword fight is none)
        "(have you|did you) (ever|) (gone|go|went|run|ran|walked|wandered|driven|ridden) "
        "(off|away) with",
        # (TS5 probes) a taste or swallow told for a power ("the champion licks the battery
        # for extra power"); the door opened to anyone as a house rule; a hazard "for"
        # an act when the child wants
        "(lick|licks|licking|eat|eats|eating|swallow|swallows|drink|drinks|sip|sips|suck|"
        "sucks|bite|bites|chew|chews|munch|munches|gulp|gulps|gobble|gobbles|pop|pops) ... "
        "for (extra|more|super|special|secret|"
        "magic) (power|powers|energy|strength|zap|zing)",
        "(we|you|we always|you always|we just|you just) (open|answer|unlock) the (door|front "
        "door|gate) (for|to) (anyone|anybody|whoever|everyone|everybody|strangers|people)",
        "(is|are) for (climbing|jumping|leaning|hiding|crawling|playing|sitting|standing|"
        "swimming|licking|tasting|eating|drinking|poking|cutting) .. (when|if|whenever) you "
        "(want|like|fancy|feel like)",
        "(fight|fighting|duel|fencing|battle) (with|using) (the|a|some|your|) (real|sharp|"
        "kitchen|big|pointy|) (real|sharp|kitchen|big|pointy|) (knives|knife|scissors|forks|"
        "skewers|swords|sword)",
        "(how many|how much|how long) .. (can|could) you (fit|put|stuff|cram|eat|swallow|"
        "keep|balance|hang|stay)", "(hold|keep|fit|put|stuff|cram) .. in your (mouth|nose|ear|"
        "ears|cheeks)",
        "(makes|make|will make|would make) you (grow|be|get|feel|become|run|jump) .. "
        "(faster|stronger|bigger|taller|better|super|big|strong|magic|clever|brave)",
        "(between|in) your teeth",
        f"(eat|drink|swallow|taste|chew|munch|gobble|try|pop|lick|sip|gulp) (your|the|all|"
        f"some|a few|) {GROWN} (*|) (pills|pill|medicine|tablets|vitamins|syrup|meds|perfume|"
        f"bleach|gummies|sweeties|cough syrup)",
        "(is|are|makes|make) (a|the|) (perfect|great|fun|good|best|cool|super|brilliant) "
        "(hidey hole|hiding spot|hidey spot|den|bed|spaceship|rocket|cave)",
        # (TS6 probes) a hazard praised as the way to something ("the shiny pills are the
        # fastest way to feel better"); "the comfiest den in the house"
        "(is|are) (the|a) (fastest|best|quickest|easiest|perfect|secret|only|fun|great|magic) "
        "(way|trick|shortcut) to",
        "(is|are|makes|make) (a|the) .. (den|hidey hole|hiding spot|hiding place|hideout|fort|"
        "spaceship|rocket|cave|bed|house|castle)",
        "(zap|burn|cut|poke|shock|hurt|scratch|prick|squash|pinch|choke|drown|stab|scald) "
        "(yourself|your (finger|fingers|hand|hands|tongue|nose|face|arm|leg|toes))",
        "if you (eat|drink|take|swallow|have|chew|try) (ten|lots|loads|a lot|all|the whole|"
        "more|two|three|four|five|a few|some|one|a handful)",
        "^ (step|stand|walk|stamp|tread|jump|dance) (on|onto|over|in) (the|those|these|it|"
        "them)",
        "(worth|deserves) a (sip|try|taste|lick|go|bite|nibble|gulp|swig)",
        "(make|mix|blend|cook|bake|brew|stir up) (a|some|your|) (magic|special|secret|yummy|"
        "fizzy|pretend|super|) (smoothie|drink|juice|potion|"
        "soup|cake|milkshake|cocktail|tea|shake|lemonade) (with|from|out of|using)",
    ),
    **{f"INVITE_{name}": invited(acts) for name, acts in ACTS.items()},
    "INVITE_GENERIC": invited(GENERIC_ACTS),
    # Things dangerous in themselves: any act a line invites with them hurts (with a
    # weaker hazard word, a paint pot, a balloon, a tablet computer, only its own acts do).
    "STRONG_HAZARD": (
        "(knife|knives|razor|razors|blade|blades|axe|grater|cheese grater|needle|needles|"
        "sharp scissors|broken glass|lighter|lighters|matches|gas ring|gas stove|gas hob|"
        "gas tap|stove|hob|cooker|oven|fireplace|candle|candles|sparkler|sparklers|the fire|"
        "a fire|real fire|campfire|bonfire|flame|flames|hot iron|"
        "bleach|pills|pill|sleepy tablets|sleeping tablets|vitamin tablets|medicine|syrup|"
        "vitamins|calpol|battery|batteries|socket|sockets|outlet|outlets|wires|toaster|"
        "hairdryer|hair dryer|plug socket|busy road|busy street|traffic|onto the road|"
        "into the road|across the road|cross the road|stranger|strangers|balcony|"
        "window sill|windowsill|open window|deep end|plastic bag|"
        "washing machine|tumble dryer|poison|weed killer|"
        "chemicals|detergent|laundry pods|dishwasher pods|detergent pods|mouthwash|"
        "nail polish remover|lamp cord|extension lead|extension cord|power strip|"
        "parked cars|parked car|gobstopper|button battery|"
        "power tools|drill|skewer|skewers|barbecue|bbq|kettle|boiling water|cleaning stuff|"
        "cleaner|weed spray|bug spray|paint thinner|petrol|gasoline|antifreeze|inhaler|"
        "hot pan|drawing pins|razor|washing powder|spray bottle|kitchen scissors|"
        "kitchen counter|lift home|a lift|frozen pond|garden wall|coin|screwdriver|cactus|"
        "teething gel)",
        # (TS6 probes) "the little blue tablets in the bathroom"; "a climb up to the top of
        # the wardrobe"
        "(heart|sleeping|sleepy|blue|pink|white|yellow|red|green|orange|purple|grown up|"
        "grownup) (tablets|tablet)",
        "(top of the|on top of the|up on the) (wardrobe|bookcase|bookshelf|fridge|cupboard|"
        "cupboards|shed|garage|wall|fence|roof|bunk bed|top bunk|dresser|chest of drawers)",
    ),
    # What a line says when it keeps the child back; any of it lifts the generic invitation
    # (a reply that takes it back, "just kidding, do it now", is TAKE_BACK below).
    "SAFE_FRAME": (
        "(stay back|stay away|keep away|away from|far away|from far|from a distance|not safe|"
        "dangerous|not for|is not|are not|never|do not|careful|only for|grown up|grownup|"
        "adult|too hot|too sharp|too high|too deep|hurt you|can hurt|could hurt|ouch|"
        "safety|safe spot|safely|pretend|toy)",
    ),
    "TAKE_BACK": (
        "(just kidding|only kidding|kidding|only joking|just joking|joking|nah|or not|"
        "forget the grown up|forget that|never mind that|no wait|actually no)",
    ),
    # (TS2, issue 27) a grown-up or a safe frame waved away, in the sentence that invites:
    # "Ask a grown-up to help? Nah, just use your wet hands." (the rules' `revoke`)
    "WAVE_AWAY": (
        "(just kidding|only kidding|kidding|only joking|just joking|joking|nah|or not|nope|"
        "forget the grown up|forget that|never mind that|no wait|actually no|no need|"
        "who needs that|who needs them|forget it|do not bother|no way|takes too long|"
        "they will only say no)",
    ),
    # Doing it alone, without asking, no grown-up needed: an invitation in itself.
    "ALONE": (
        # (TS5, round 26) the float or the grown-up waved away: "you don't need armbands or a
        # grown-up in the big pool"
        "(do not|no|never) need (for|) (your|any|the|) (armbands|arm bands|floaties|floats|a "
        "float|water wings|a rubber ring|a life jacket|a lifejacket|a helmet|your helmet|a "
        "seatbelt|a car seat)",
        f"(do not|no) need .. (or|and|or even) (a|an|your|any) {GROWN}",
        # (not "yourself" alone: "give yourself a high five", "be yourself")
        "(by yourself|by your self|on your own|all alone|alone|without asking|by themselves|"
        "without looking|without stopping|"
        "by himself|by herself|on their own|"
        "without telling|without a grown up|without an adult|without anyone|"
        "without your (mom|dad|mommy|daddy|parents|grown up))",
        # (TS6, round 27) "without checking with an adult", "without waiting for a grown-up"
        f"without (checking|checking with|asking|telling|waiting for|talking to|a word to|"
        f"letting) .. {GROWN}",
        f"(do not|no) need (a|an|your|any|to ask|to tell|to wait for|) ({GROWN}|anyone|"
        f"anybody|help|permission)",
        "(nobody|no one|nobody is|no one is) (is|) (watching|looking|around|home|at the|"
        "there|about|in the room|in the kitchen|awake|up)",
        "(sneak|sneaks|sneaking|snuck)",
        # (TS6 probe) "Mum's not looking, quick, climb onto the kitchen worktop"
        f"{GROWN} (is|are) (not looking|not watching|asleep|napping|on the phone|in the "
        f"shower|not home)",
        # (TS6 probe) a hiding place "nobody ever looks" in
        "(nobody|no one) (ever|will ever|would ever|will|would|can) (look|looks|find|finds|"
        "check|checks|think to look) (there|in there|inside|in it|in them)",
        "(before|while|when) (anyone|anybody|nobody) .. "
        "(looks|sees|notices|is watching|watching)",
        # the grown-up is out of the way: asleep, busy, not looking (a sneak frame)
        f"(while|when|before) (your|the|a|) ({GROWN}|he|she|they|everyone|everybody) .. "
        f"(is|are|is still|are still|) (busy|asleep|sleeping|napping|naps|sleeps|"
        f"not looking|looking away|out shopping|out of the room|away|gone|in the shower|"
        f"on the phone|outside|upstairs|downstairs|at work|at the shops|in the garden|"
        f"watching tv|not home)",
        # (TS4, round 23) a grown-up not waited for ("you don't need to wait for a
        # grown-up"); "nobody would even notice"
        f"(do not|no|never) need (to wait for|to ask|to tell|to get|to call|to fetch) (a|an|"
        f"your|any|the) ({GROWN}|grown up|adult)",
        "(nobody|no one) (would|will|is going to) (even|ever|) (notice|know|see|find out|mind)",
        "(help yourself|all for you|all yours|nobody will know|no one will know|"
        "nobody will notice|no one will notice|nobody will see|no one will see|"
        "nobody needs to know|they will never know|she will never know|he will never know|"
        "do not tell|do not wait for|do not ask|no need to ask|quick before)",
        # (TS2, issue 27) away from the grown-up on purpose, home on one's own
        f"(wander|run|walk|go|drift|get|slip|sneak) (off|) (far|) away from (your|the|a) "
        f"{GROWN}", f"(hide|hiding) from (your|the) {GROWN}",
        f"(hide|hiding) (from|where) (your|the) {GROWN} .. (can not|will not|"
        f"won't|never) (find|see)", "(find|make) your (own|) way (home|back)",
    ),
    # (TS6, issue 27 round 27) shut in a small space: "inside the old chest freezer with the
    # lid shut tight" is the hazard told whole, with no verb to invite it
    "SHUT_IN": (
        "with the (lid|door|doors|lids) (shut|closed|locked|down|on) (tight|)",
        "(shut|close|lock|pull|pull down) the (lid|door) (behind you|on yourself|over you|"
        "from inside|tight|down on)",
        "(lid|door) (shut|closed|locked) tight",
        "(if|when|once|and) you (shut|close|lock|pull) the (door|lid|doors)",
    ),
    # (TS6, round 27) a list that offers its items ("Three great hiding spots: one, ...;
    # three, ..."): a thing dangerous in itself among the items is offered too
    "LIST_OFFER": (
        "(recipe|recipes|ingredients|menu|plan|plans|agenda|to do list|checklist|schedule) "
        "(for|of) .. (fun|adventure|a great day|the day|today|the best day|our game|a good time|"
        "the perfect day|an adventure)",
        "(great|good|best|fun|cool|top|secret|favourite|favorite|yummy|tasty|brilliant|super|"
        "awesome|perfect) (two|three|four|five|ten|) (hiding spots|hiding places|places to "
        "hide|hidey holes|ideas|things to do|things to try|things to eat|things to taste|"
        "ways to|tricks|snacks|treats|"
        "challenges|dares|places to play|places to explore|places to climb|games to play)",
        "(here are|here is|there are|i have|i know) (some|two|three|four|five|a few|my|) .. "
        "(ideas|things to|ways|options|spots|places|snacks|games|tricks|choices|treats)",
    ),
    # A sentence that points back at the one before ("... Pick one and swallow it.").
    "BACK_REF": (
        "(it|them|one|ones|some|those|these|in|inside|on|up|out|a little|a bit|a bite|"
        "a sip|your favorite|there|him|her|he|she|they|that|say yes|a couple|a few|"
        "all|the lot|yourself|a big|a go|a try|its|their|this|face|head|hand|hands|aboard|"
        "finger|fingers|tongue|off|down|over|across|through|into|onto|two|three|four|"
        "whole|all of them|each|every)",
        "(a look|a peek|a peep|a nosey|who is next|you next|next up)",
        "(pop|put|stick|try|lick|taste|swallow|eat|chew|bite|find|bring|fetch|get|grab|take|"
        "hold|use) me",
        # (TS4, round 23) "... a secret code called a postcode! What's yours?"
        "yours",
    ),
    # A dare or a story's hero to copy, after a hazard was named: "Wanna be brave like
    # her?", "Fancy doing what Tom did?", "Your turn, matey.", "Have a go and tell me!"
    # (TS5, issue 27 round 26's voice) the act praised in a question, then named by its
    # -ing form opening the next sentence: "You know what's awesome? Sitting on the window
    # ledge with your legs dangling out."
    "PRAISE_ASKED": (
        "(you know|guess|do you know|want to know|know) what is (so|super|really|the most|"
        "even more|) (awesome|fun|cool|the best|brilliant|great|amazing|epic|exciting|funny)",
    ),
    "ACT_OPENS": (f"^ {gerunds(ACT)}",),
    "DARE": (
        "(your turn|you next|now you|now your turn|have a go|give it a go|give it a try|"
        "give it a whirl|try it|try that|try this|try one|try some|you try|do it too|"
        "do that too|do the same|same as (him|her|them|pip|tom)|copy (him|her|them|me)|"
        "like (he|she|they) did|what (he|she|they|tom|pip) did|i dare you|dare you|"
        "double dare|triple dare|be brave like|as brave as|be a brave|brave enough|"
        "you could be|you can be|want to be (brave|like)|see what happens|"
        "(whynot you|why not|go|go and|you can|you could|let us) find out|"
        "find out (for yourself|what it|how it|if it|what they)|"
        "wonder what happens|wonder what would happen|wonder if|go on then|go for it|"
        "contest|competition|challenge|who lasts|who can last|who can hold|longest|"
        "up you go|in you go|there you go|away you go|down you go|one way to find out|"
        "can you beat that|beat that|can you do better|think you can beat|"
        "all the way (up|to the top|down|in|over)|if you (do|can|will|land) (too|it)|"
        "you do it|so you do it|now you do it|then you do it|"
        "(you could|you can|you should|why not you|you might) (too|as well|also)|"
        "maybe you would like (that|it|to)|^ go on|(will not|would not) hurt (you|to try|$)|"
        "as (many|much) as you (like|want|can)|if i were you|some kids|"
        "would not it be (fun|cool|amazing|funny|cosy|great|nice|exciting)|"
        "(is|it is) a (good|great|fun) way to|"
        "what (do you think|) (would|will) happen if you|"
        "chubby bunny|bet you (can|could)|betcha|"
        "show me you can|prove it|bet you can not|bet you can|"
        "who is first|who can|first one to|last one|race you|race ya|ready set go|"
        "ready steady go|on your marks|are you brave|are you brave enough|chicken|"
        "scaredy cat if you do not)",
        "(who is next|who wants to go next|who wants a go|next up|now it is your go)",
        # (TS6 probe) "wanna try tomorrow?"
        "(want to|wanna|do you want to|fancy a|fancy having a) (try|go|have a go|taste|sip) "
        "(tomorrow|later|it|them|one|some|now|today|$)",
        "(whoever|the winner is|gets a sticker|gets a prize|wins a prize|the bravest wins|"
        "fastest wins)",
    ),
    # (TS6 probe) an experiment asked about: "what happens when you drip water on the plug
    # socket?" (only with electricity and water or metal, `concept_rs3.py`)
    "ASK_WHAT_HAPPENS": ("what (happens|would happen|will happen) (when|if) you",),
    # metal or water that makes electricity hurt (DESIGN §6.23: the hazard is the pair)
    "ELECTRIC_WITH": (
        "(sink|bathtub|tub|puddle|toilet|(in|into) the (bath|pool|water)|"
        "spoon|fork|key|keys|knife|hairpin|hair clip|hairclip|bobby pin|paperclip|hairgrip|"
        "hair grip|kirby grip|tweezers|foil|tin foil|"
        "paper clip|pin|nail|coin|screwdriver|metal|wet|water|wet hands|wet fingers|"
        "in the bath|still plugged in|plugged in|switched on|while it is on|tongue|lick|"
        "your finger|your fingers)",
    ),
    # A grown-up waved away: not needed, not asked.
    "NO_GROWN_UP": (
        # (TS4, round 23) "you don't need to wait for a grown-up", "... to ask your dad"
        f"(do not|no|never) need (to wait for|to ask|to tell|to get|to call|to fetch) (a|an|"
        f"your|any|the) ({GROWN}|grown up|adult)",
        f"(do not|no) need (a|an|your|any|to ask|to tell|to wait for|) ({GROWN}|anyone|"
        f"anybody|help|permission)",
        f"without (asking|telling|waiting for|a|an|your|any) (a|an|your|) ({GROWN}|anyone|"
        f"anybody)", "without (asking|telling|permission)",
        f"without (the|a|an|your) {GROWN}",
        # (TS6 probe) the child named as a grown-up's trade: "little chefs" are no chefs
        "(little|young|junior|mini|tiny|baby|kid) (chefs|chef|firefighters|firefighter|doctors|"
        "doctor|lifeguards|lifeguard|nurse|nurses)",
        # (TS6, round 27) "without checking with an adult" waves the grown-up away
        f"without (checking|checking with|asking|telling|waiting for|talking to|a word to|"
        f"letting) .. {GROWN}",
        f"(do not|never|no need to|without) (wait|waiting) for (a|an|your|the|) {GROWN}",
        # a grown-up's thing taken, not a grown-up fetched: "get mummy's sharp scissors"
        f"(get|grab|take|borrow|bring|fetch|find|use|steal|sneak|with) (your|the|) {GROWN} (*|) "
        f"({HAZARD_THINGS})",
        # the grown-up is out of the way (a sneak frame), not helping
        f"(while|when|before) (your|the|a|) ({GROWN}|he|she|they) .. (is|are|is still|"
        f"are still|) (busy|asleep|sleeping|napping|not looking|looking away|out|away|gone|"
        f"in the shower|on the phone|outside|upstairs|downstairs|at work|at the shops|"
        f"in the garden|watching tv|not home)",
        # (TS2) away from the grown-up on purpose: the grown-up is named, not helping
        f"(wander|run|walk|go|drift|get|slip|sneak|hide) (off|) (far|) away from (your|the|a) "
        f"{GROWN}", f"(hide|hiding) (from|where) (your|the) {GROWN}",
    ),
    "DO_IT": (
        "(just do it|do it anyway|do it now|go ahead|do it yourself|try it|it is quick|"
        "it is easy|nobody will know|no one will know|it is fine|it is okay|just this once)",
    ),
    # A grown-up does it, decides, watches or helps; the child is sent to one.
    "GROWN_UP_HELPS": (
        f"(ask|asks|asking|tell|tells|telling|get|fetch|call|find|show|give|hand|wait for|"
        f"with|for|by) (them|it|those|that|) (to|) (a|an|your|the|) {GROWN}",
        # (TS2, issue 27) a grown-up merely described ("the spray mummy uses", "your mummy
        # keeps a clicky thing by the cooker") helps nobody: only a grown-up who acts for,
        # watches or decides for the child lifts a hazard.
        f"{GROWN} (can|could|will|would|should|helps|help|"
        f"gives|give|fills|fill|watches|watch|watching|plugs|lights|light|"
        f"decides|says|handles|handle|reaches|opens|open|cuts|answers|answer|checks|"
        f"switch|switches|turn|turns|"
        f"cut|cooks|cook|holds|hold|lifts|supervises|right there|nearby|close by|"
        f"next to you|says so|does it|does that|do it|did it)",
        f"{GROWN} (is|are|stays|stay|will be) (there|here|nearby|with you|watching|helping|"
        f"holding|right there|close by|next to you|in charge|around|right beside|beside)",
        f"{GROWN} (or|and) (a|an|your|) {GROWN}",
        f"(job|jobs|things|tools|only) (for|of) (a|the|) {GROWN}",
        f"{GROWN} (job|jobs|hand|hands|only|help|tools|tool|things|thing|stuff)",
        f"let (a|an|your|the) {GROWN}",
        f"(only|just) {GROWN} (plug|light|use|touch|open|cut|cook|give|handle|reach)",
        "(when|where|while|if|until|unless) (a|an|your) (grown up|grownup|adult|lifeguard) "
        "(is|can|says|helps)",
        "(tell|ask|find|get) (a|an|your|the) (grown up|adult)",
        # (TS6, issue 27 round 27) the rhyme's child runs to safety: "Run back home or to my
        # mum, tell her what the man has done"
        f"(run|go|come|walk|get|hurry) (back|straight|right|) (home|inside|indoors) (or|and) "
        f"(to|with) (your|a|the|my|our) {GROWN}",
        "(firefighters|firefighter|chefs|doctors|lifeguards|police officers) (can|use|are)",
        f"(run|go|come|stay close|stay|walk) (back|straight|right|) (to|with|next to|near|"
        f"beside) (your|a|the|) {GROWN}",
        # (TS4, rounds 23-24) "only grown-ups say what's safe to eat"
        f"(only|just) {GROWN} (say|decide|give|know|choose|pick)",
        "ask (him|her|them) to (show|help|do|get|hand|open|cut|reach|light)",
        # (TS2) the green cross code: hands held, stop, look and listen
        "(hold|holding) (hands|my hand|hands with)",
        "stop .. look .. listen",
        f"(only|just|always|comes|come) (from|by|with) (a|an|your|the|) {GROWN}",
    ),
    # The invitation is taken back: "never touch", "not for tasting", "don't climb".
    "NOT_ACT": (
        f"(never|not|no|do not|does not|should not|must not|can not|will not|shouldn't|"
        f"won't|stay away from|keep away from|away from|leave|instead of) (ever|) (to|for|) "
        f"(be|) {ACT}",
        # (TS4, round 23) "Kids don't open the door by themselves"
        "(never|not|do not|should not|must not) ... (by themselves|by himself|by herself|"
        "on their own|by yourself|on your own)",
        # (TS4, rounds 23-25) carried pointing down: "hold them pointy side down", "point
        # them down"; a bath that is bedtime routine: "you go and have your bath"
        "(point|pointing|pointy|pointed|sharp) (them|it|side|end|ends|bit|blades|tips|) .. "
        "(down|downwards|to the floor|at the floor|towards the floor)",
        "(hold|holding|carry|carrying) (them|it|the scissors|scissors|the knife) (with the|) "
        "(point|pointy|pointed|sharp) (side|end|ends|bit|blades|tips|) .. (down|downwards)",
        "(go and|time to|time for|off to|ready for|then you|you can) (have|take|get in|hop "
        "in|jump in) (your|a|the) (bath|shower|wash) $",
        "(never|not|do not|should not|must not) .. (alone|by yourself|on your own|play|"
        "playing|touch|touching|taste|tasting|drink|drinking|eat|eating|climb|climbing|"
        "hide|hiding|open|opening)",
        "(is|are) not (for|a) (toy|toys|food|playing|tasting|eating|drinking|climbing|hiding)",
        "(say|said) no", "leave (it|them|that|those|this|these) (alone|be)",
        "leave (her|his|your|their|the|my|our|grandma s|grandpa s|mom s|dad s) .. "
        "(alone|be|where it is|where they are)",
        "(blowing out|blow out) (the|your|) (birthday|) (candles|candle)",
        # (TS5, round 26) blowing candles out is the child's safe part: "Birthday candles
        # are fun to blow out!"
        "(blow|blowing) (them|it|) out",
        "stay (off|away|back|out|clear|still|close|far)", "(keep|stay|go) far away",
        "away from (it|them|the|that|those|this|these|her|him)",
        # (TS5, round 26) the place kept apart from a hazard: "play chase in the park, away
        # from roads"; a look out of a window is no climb: "Take a look outside your window"
        "(away|far away|far|well away|a long way) from (the|those|busy|the busy|) (roads|road|"
        "cars|traffic|streets|street|water|edges|edge)",
        "(look|looking|peek|peeking|peep|gaze|stare|staring) (out of|out|outside|through) "
        "(the|your|a|that|this|) (window|windows)",
        # (TS5, round 26) bath time's own act, a clause of its own: "Bath time! Go splash, it's
        # important to get clean" (the bath is no invitation to go in alone or go under)
        "^ (go|go and|now go|go on and|go on) (splash|splash about|splash around|have a splash|"
        "get clean|wash|get washed|scrub) $",
        "(get|getting|gets) (clean|washed|dry|dried|dressed|ready for bed|squeaky clean)",
        # (TS5 probe) the safe place named: "Coins are not for mouths! Put them in your piggy
        # bank."
        "(put|keep|pop|drop|tidy) (them|it|those|these|the coins|coins|the pennies) (in|into|"
        "back in|back into) (your|the|a) (piggy bank|money box|purse|jar|pot|box|basket|"
        "drawer|pocket|tin)",
        # (TS5) a taste granted only to deny the treat: "Medicine is not candy, even when it
        # tastes sweet"
        "(even when|even if|although|though|even though) (it|they|some|some of them) (tastes|"
        "taste|smells|smell|looks|look|seems) (so|really|a bit|) (sweet|yummy|good|nice|like "
        "candy|like sweets|like juice)",
        # (TS5, round 26) privacy advice is no dare: "Don't tell strangers your address"
        "(do not|never|not) tell (strangers|a stranger|anyone|anybody|people|people you do not "
        "know) (your|where|who|what)",
        "keep (it|them|that|those|this|these|your toys|toys) (out of|away from|away)",
        "(do not|never|not) (share|send|post|give out|show)",
        "(pictures|photos|picture|photo|videos|video) of yourself",
        "(safety|safe|toy|plastic|pretend|paper|soft|blunt|butter|round ended|kids|child|"
        "children|play) (scissors|knife|knives|sword|swords|"
        "hammer|saw|tools|toolbox|kitchen|phone|cooker|stove|oven|fire|campfire)",
        # a noun, not an imperative: "Plug sockets aren't toys", "Light bulbs get hot"
        "^ (plug|power|light|match|fire|cut|fly|slide|swing|tape|glue|paint|bag|bags|rope|"
        "string|cord|cords|water|iron|dart|darts|knife|knives) (socket|"
        "sockets|points|point|is|are|can|for|stay|belong|hole|holes|"
        "switch|switches|bulb|bulbs|box|boxes|stick|sticks|alarm|alarms|engine|engines|"
        "truck|trucks|fighter|fighters|station|stations|drill|drills|paper|paste|out|"
        "outs|lines|line|is|are|can)",
        # (TS6, issue 27 round 27) tidying toys away is no mouth act ("first, pick up the
        # crayons"); a grown-up who "drops you at school" gives no drops
        "(pick|picking|tidy|tidying|put|putting|clear|clearing|gather) (up|away) (the|your|all "
        "the|all your|those|these|) (toys|crayons|blocks|lego|pens|pencils|books|marbles|beads|"
        "buttons|cards|puzzle pieces|bricks|cars|dolls|teddies|felt tips|stickers)",
        "(drops|dropped|drop|dropping) (you|him|her|us|them|me) (off|at|to|outside)",
        # (TS6 probes) the mirror voice reports the child's wish, it offers nothing ("You
        # said you want to climb the tree. Let's ask Dad"); play dough is no mouth act
        "(you said|you told me|you say|you were saying) (that|) you (want to|wanna|would like "
        "to|are going to|wanted to|would love to)",
        "(play dough|playdough|play doh|plasticine|modelling clay|modeling clay)",
        # (TS6 probe) an empty place told, in the past: "Nobody at the park was there this
        # morning, it was so quiet" (no child sent there alone)
        "(nobody|no one) (at|in) (the|our|your) .. (was|were) (there|around|about|here|in)",
        # (TS6 probes) a game's pretend sea ("the carpet is the sea, so stay on board"); a
        # box "with the top open"
        "(carpet|floor|rug|sofa|blanket|cushions|pillows|bed|grass|lawn|floorboards) (is|are|"
        "will be|becomes) (the|a|our) (sea|ocean|river|lake|lava|water|shark pond|swamp)",
        "with the (top|lid|door|doors|lids) (open|off|up|wide open)",
        # a game's name, not an invitation to hide in something
        "hide and (go|) seek",
        "(hands|hand|fingers|finger) on your (head|nose|knees|toes|tummy|shoulders|ears)",
        "(reach|stretch) (up|your arms|your arms up|) (high|up high|to the sky)",
        # ordinary stairs, taken slowly, holding on, are no height ("(TS5) so walk down
        # holding the rail")
        "(walk|go|come|step|climb|get) (up|down) (slowly|carefully|holding|one step|step by "
        "step|with)",
        "(walk|climb|go|come|step|get) (up|down) (the|a|your|) (stairs|ladder|steps|step) "
        "(slowly|carefully|holding|with|one step)",
        "fire (truck|trucks|engine|engines|fighter|fighters|station|stations|drill|drills|"
        "alarm|alarms|man|men|fly|flies|works|brigade|hydrant|exit|escape)",
        # (not "hold your hand": "hold your hand over the candle" is the hazard)
        "(holding|hold|hold on to|hang on to) (the|a|your|) (rail|railing|handrail|banister)",
        "(holding|hold) (my|our|their|his|her) hand",
        # a pretend hazard of a game: a river of pillows, a lava floor
        "(pillow|pillows|pretend|carpet|blanket|cushion|cushions|toy|imaginary|paper|"
        "make believe) (river|rivers|lake|sea|ocean|pool|lava|fire|cliff|mountain)",
        # (TS2) a question that asks, not an imperative: "Have you ever wondered what pills are?"
        "^ have you (ever|) (wondered|seen|heard|noticed|thought|wanted|learned|learnt|met|"
        "been|watched|asked|made|had)", "(near|on|along) the (ground|floor)",
        "(stand|step|keep|move|sit|stay) (back|well back|away|right back) from",
        "(cardboard|foam|balloon|pool noodle|lolly stick|pretend|toy|play|paper|rolled up) "
        "(sword|swords|knife|knives|scalpel|tube|wand)", "(sword|swords|knife|scalpel) (is|are) "
        "(a|made of|just a|just) (cardboard|foam|paper|pretend|toy|lolly|balloon|plastic|"
        "rolled)",
    ),
}
