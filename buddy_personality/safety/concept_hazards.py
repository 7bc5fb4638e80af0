"""The physical hazards of the output guard's rules by concept (RS-3-DANGER; DESIGN §6.16,
§6.23; issue 27), as data: nine hazard concepts, the acts that hurt with each, the
invitation frames, and the words that lift them (a grown-up who helps, a negation).
Combined into rules in `safety/concept_rules.py`; pattern syntax in `safety/words.py`.
"""

from __future__ import annotations

GROWN = ("(grown up|grownup|grown ups|grownups|adult|adults|mommy|daddy|mom|dad|mum|mummy|"
         "mama|papa|parent|parents|grandma|grandpa|granny|grandmother|grandfather|teacher|"
         "babysitter|doctor|nurse|police officer|police|lifeguard|cashier|firefighter|"
         "someone you trust|big person)")
# Verbs a line invites a child to do with a hazard, one family per kind of hazard (base
# forms: imperatives, "you can ..."); a hazard counts only with the acts that hurt with it
# ("count the windows" is no invitation, "lean out the window" is).
ACTS = {
    "ELECTRIC": "(touch|put|stick|poke|push|slide|shove|plug|unplug|pull|lick|play|grab|pick|"
                "use|fiddle|try|bite|chew|turn on|fix|open|hold)",
    "FIRE": "(light|strike|turn on|twist|turn|touch|play|grab|use|hold|blow|poke|put|stick|"
            "feel|cook|make|start|try|burn|pick|lean|reach|wave)",
    "INGEST": "(taste|lick|eat|drink|sip|swallow|bite|chew|gulp|suck|try|have|pop|put|fit|take|"
              "pick|mix|sniff|smell|spray|open|grab|use|play|touch|pour|squeeze|stuff|crunch|gobble|"
              "munch|slurp|nibble|chug|gulp down|sample|fill|cram|help yourself to|finish|"
              "dig into|empty|shake out|pour out|count out)",
    "HEIGHT": "(climb|lean|jump|stand|sit|hang|reach|dangle|open|stack|balance|walk|step|go|"
              "get|hop|fly|slide|leap|dive|crawl|perch|scramble|scoot|swing|lie|tiptoe|"
              "pull yourself up|stick your head out|look over|peek over|run along)",
    "WATER": "(jump|go|get|hop|swim|dive|wade|float|hold|stay|put|fill|run|explore|walk|"
             "play|lean|climb|slide|sit|dunk|dip|paddle|stand|lie|"
             "reach|fetch|grab|duck your head)",
    "SHARP": "(grab|take|use|hold|pick|run|wave|swing|play|cut|shave|touch|practice|juggle|"
             "point|carry|throw|get|try|help|chop|slice|stab|"
              "poke|test|feel|lick|run your finger)",
    "STRANGER": "(go|get|hop|ride|cross|run|wander|follow|open|walk|talk|take|meet|explore|play|"
                "leave|sneak|visit|chase|dash|step|say yes|"
                "climb|jump|wave|accept|unlock|answer|race|skip|hop in|ride along|"
                "tell them)",
    "SMALL_SPACE": "(climb|hide|crawl|get|go|hop|shut|close|lock|squeeze|fit|stay|sit|"
                   "jump|try|see|curl up|tuck|pull|snuggle|wriggle|play)",
    "SMOTHER": "(put|wrap|cover|pull|tie|hold|try|see|stick|stuff|slip|tighten|wind|"
               "twist|loop|squeeze|tape|cram|hide)",
}
# Every act of every family (a negation before any of them takes the invitation back).
ACT = "(" + "|".join(sorted({w for acts in ACTS.values()
                            for w in acts.strip("()").split("|")})) + ")"
OPENERS = ("(so|now|just|then|and|okay|ok|sure|yes|please|quick|quickly|first|next|oh|ooh|"
           "hey|go ahead and|go on and|go on|come on and|come on|go and|go|why not|maybe|"
           "try and)")
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
          "whynot you just|whynot we just)")


def invited(acts: str) -> tuple[str, ...]:
    """An invitation to do one of `acts`: an imperative at the start of a clause, or a
    frame that offers it ("you can ...", "let's ...", "it's fun to ...")."""
    return (f"^ {acts}", f"^ {OPENERS} {acts}", f"{OFFERS} (just|) {acts}")


HAZARD_LEXICONS: dict[str, tuple[str, ...]] = {
    # ---- RS-3 physical hazards, one lexicon per concept ----------------------------
    "ELECTRIC": (
        "(outlet|outlets|socket|sockets|plug|plugs|wall plug|power strip|wire|wires|cord|"
        "cords|cable|cables|electric|electricity|hair dryer|hairdryer|toaster|extension lead|"
        "power point|light switch|fuse box|charger|chargers|charging cable|wall socket|"
        "plug socket|power socket|electrical|holes in the wall|little holes|socket holes|"
        "slots in the|the slots|hairpin|bobby pin|paperclip|paper clip|"
        "light bulb|bulb|lamp socket|power lines|"
        "power line|transformer|electric fence|toaster slot|microwave)",
    ),
    "FIRE": (
        "(match|matches|lighter|lighters|candle|candles|flame|flames|fire|fires|stove|stoves|"
        "oven|burner|burners|fireplace|grill|barbecue|bbq|hot iron|the iron|an iron|"
        "clothes iron|kettle|boiling|hot pan|"
        "hot water|fireworks|sparkler|sparklers|stove knobs|knob|knobs|gas|embers|campfire|"
        "bonfire|fire pit|hob|cooktop|stove top|stovetop|heater|space heater|radiator|"
        "curling iron|hair straightener|straightener|hot oil|frying pan|pot on the stove|"
        "toaster|lit|blowtorch|torch lighter|incense|ashes|coals|hot coals|firecracker|"
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
        "dishwasher tablet|dishwasher tablets|washing powder|lotion|makeup|dishwasher pod|"
        "dishwasher pods|laundry pod|laundry pods|tide pod|tide pods|washing liquid|"
        "fabric softener|disinfectant|sanitizer|hand sanitizer|window cleaner|"
        "toilet cleaner|drain cleaner|oven cleaner|ammonia|antifreeze|lighter fluid|"
        "nail polish|nail polish remover|button battery|button batteries|coin battery|"
        "rat poison|weed killer|bug killer|pesticide|fertilizer|cigarette|cigarettes|"
        "alcohol|wine|beer|vape|lamp oil|paint|dye|toothpaste tube|silica|silica gel|"
        "washing up liquid|cleaning stuff|cleaning liquid|cleaning fluid|spray bottle|"
        "mystery bottle|cleaning cupboard|garage shelf)",
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
        "(marble|marbles|coin|coins|button|buttons|bead|beads|magnet|magnets|balloon|"
        "balloons|swallow whole|whole grapes|grape whole|grapes whole|small toys|"
        "tiny toys|small pieces|popcorn|hard candy|nuts|pebble|pebbles|"
        "in your mouth|into your mouth|lego|legos|lego piece|lego pieces|bottle cap|"
        "bottle caps|marble run balls|battery cover|hair clip|safety pin|earring|"
        "earrings|rubber band|rubber bands|crayon|crayons|eraser|pen cap|dice|"
        "jellybean|jelly beans|gumball|gumballs|your mouth|mouthful|mouthfuls|"
        "your cheeks|in one bite|in one go|all at once|at the same time)",
        "(grape|grapes|marshmallow|marshmallows|hot dog|hot dogs|sausage|peanut|peanuts|"
        "cherry tomatoes|candies|sweets|cherries|olives|chunks) ... (whole|swallow|gulp|"
        "at once|as you can|in one|stuff|cram|fill)",
        "as many .. as (you can|possible|will fit|fit)",
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
        "bridge|overpass|drop|big drop)",
        "(up|top of|up in|high in|up into|climb|climbing) (the|a|that|this|) (tree|trees)",
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
        "(knife|knives|scissors|razor|razors|blade|blades|broken glass|glass|needle|needles|"
        "pin|pins|saw|axe|sharp|tools|nail|nails|drill|sword|swords|kitchen knife|"
        "steak knife|bread knife|box cutter|cutter|craft knife|utility knife|grater|"
        "peeler|potato peeler|thumbtack|thumbtacks|tack|tacks|hammer|screwdriver|"
        "fork|forks|skewer|skewers|toothpick|shears|garden shears|pruners|hedge trimmer|"
        "chainsaw|broken plate|broken mug|shards|splinters|pointy|the pointy end|"
        "sharp end|blender|food processor|mower|lawn mower|staple|stapler|dart|darts|"
        "arrow|arrows|machete|dagger|pocketknife|pocket knife|penknife)",
    ),
    "STRANGER": (
        "with (a|the|that|this) (man|lady|woman|person|stranger|nice man|nice lady|driver)",
        "(car keys|the car|in the car|with the car|the keys)",
        "(stranger|strangers|someone you do not know|somebody you do not know|"
        "people you do not know|nice man|nice lady|a man|a lady|a woman|man in|lady in|"
        "in a car|in his car|in her car|their car|a ride|road|roads|street|streets|traffic|"
        "parking lot|car park|across the|curb|crosswalk|busy road|highway|driveway|"
        "van|his van|her van|white van|truck|his truck|bus stop|train tracks|tracks|"
        "railway|car door|car window|candy from|puppy to show you|lost puppy|"
        "front door|back door|the door|gate to the street|garden gate)",
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
        "(toy chest|toy box|toybox|trunk|suitcase|chest freezer|washing machine|"
        "tumble dryer|dryer|car boot|car trunk|old fridge|ice chest|cooler)",
    ),
    "SMOTHER": (
        "(plastic bag|bag|bags|shopping bag|rope|string|cord|over your head|on your head|"
        "around your neck|around your face|your face|hold your breath|breathe|lid|pillow "
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
        "(outside|out|park|store|shop|shops|mall|aisles|yard|garden|woods|forest|street|road|"
        "beach|playground|neighbor|neighbour|wander off|get lost|lost|away|somewhere|"
        "explore|adventure)",
    ),
    # A few invitations that carry their act in the noun ("take a sip", "a perfect hideout").
    "INVITE_ANY": (
        "(have|take|give it|give them) (a|one|some|a few|another|a little|a big|some more) "
        "(taste|lick|sip|bite|try|twist|go|more|nibble|gulp|sniff|poke|chomp|munch|crunch|"
        "squeeze|squish|nip|slurp|swig|swallow|suck|chew|spin|push|climb)",
        "(let us see|see) (how long|if you can|how many|what happens)",
        "(tastes|taste|smells|looks) (like|yummy|good|delicious|sweet) .. (try|taste|have|eat)",
        "(is|are) (a|the|) (perfect|great|fun|good|best|cool|super) (hiding place|hideout|"
        "lookout|place to hide|trick|experiment)", "(tastes|taste|tasting) (like|yummy|good)",
        "(easiest|easier|fun|funny|cool) to (swallow|eat|climb|jump|chew)",
        "(sure|yes|okay) (hop|go|get|climb)", "that is fine",
        "let (him|her|them|whoever|anyone|someone|somebody|the man|the lady|strangers) in",
    ),
    **{f"INVITE_{name}": invited(acts) for name, acts in ACTS.items()},
    # Doing it alone, without asking, no grown-up needed: an invitation in itself.
    "ALONE": (
        "(by yourself|by your self|on your own|all alone|alone|yourself|without asking|"
        "without telling|without a grown up|without an adult|without anyone|"
        "without your (mom|dad|mommy|daddy|parents|grown up))",
        f"(do not|no) need (a|an|your|any|to ask|to tell|to wait for|) ({GROWN}|anyone|"
        f"anybody|help|permission)",
        "(nobody|no one|nobody is|no one is) (is|) (watching|looking|around|home)",
        "(sneak|sneaks|sneaking|snuck)", "(before|while|when) (anyone|anybody|nobody) .. "
        "(looks|sees|notices|is watching|watching)",
    ),
    # A sentence that points back at the one before ("... Pick one and swallow it.").
    "BACK_REF": (
        "(it|them|one|ones|some|those|these|in|inside|on|up|out|a little|a bit|a bite|"
        "a sip|your favorite|there|him|her|he|she|they|that|say yes)",
    ),
    # A grown-up waved away: not needed, not asked.
    "NO_GROWN_UP": (
        f"(do not|no) need (a|an|your|any|to ask|to tell|to wait for|) ({GROWN}|anyone|"
        f"anybody|help|permission)",
        f"without (asking|telling|waiting for|a|an|your|any) (a|an|your|) ({GROWN}|anyone|"
        f"anybody)", "without (asking|telling|permission)",
    ),
    "DO_IT": (
        "(just do it|do it anyway|do it now|go ahead|do it yourself|try it|it is quick|"
        "it is easy|nobody will know|no one will know|it is fine|it is okay|just this once)",
    ),
    # A grown-up does it, decides, watches or helps; the child is sent to one.
    "GROWN_UP_HELPS": (
        f"(ask|asks|asking|tell|tells|telling|get|fetch|call|find|show|give|hand|wait for|"
        f"with|for|by|from) (them|it|those|that|) (to|) (a|an|your|the|) {GROWN}",
        f"{GROWN} (can|could|will|would|should|does|do|did|helps|help|"
        f"is|are|stays|keeps|gives|give|fills|fill|watches|watch|watching|plugs|lights|light|"
        f"changes|uses|use|knows|know|decides|says|handles|handle|reaches|opens|open|cuts|"
        f"cut|cooks|cook|holds|hold|puts|takes|lifts|supervises|right there|nearby|close by|"
        f"next to you|there|says so)",
        f"{GROWN} (or|and) (a|an|your|) {GROWN}",
        f"(job|jobs|things|tools|only) (for|of) (a|the|) {GROWN}",
        f"{GROWN} (job|jobs|hand|hands|only|help|tools|things|stuff)",
        f"let (a|an|your|the) {GROWN}",
        "(when|where|while|if|until|unless) (a|an|your) (grown up|grownup|adult|lifeguard) "
        "(is|can|says|helps)",
        "(tell|ask|find|get) (a|an|your|the) (grown up|adult)",
        "(firefighters|firefighter|chefs|doctors|lifeguards|police officers) (can|use|are)",
    ),
    # The invitation is taken back: "never touch", "not for tasting", "don't climb".
    "NOT_ACT": (
        f"(never|not|no|do not|does not|should not|must not|can not|will not|shouldn't|"
        f"won't|stay away from|keep away from|away from|leave|instead of) (ever|) (to|for|) "
        f"(be|) {ACT}",
        "(never|not|do not|should not|must not) .. (alone|by yourself|on your own|play|"
        "playing|touch|touching|taste|tasting|drink|drinking|eat|eating|climb|climbing|"
        "hide|hiding|open|opening)",
        "(is|are) not (for|a) (toy|toys|food|playing|tasting|eating|drinking|climbing|hiding)",
        "(say|said) no", "leave (it|them|that|those|this|these) (alone|be)",
        "leave (her|his|your|their|the|my|our|grandma s|grandpa s|mom s|dad s) .. "
        "(alone|be|where it is|where they are)",
        # a game's name, not an invitation to hide in something
        "hide and (go|) seek",
        # ordinary stairs, taken slowly, holding on, are no height
        "(walk|climb|go|come|step) (up|down) the stairs (slowly|carefully|holding|with)",
        "(holding|hold|hold on to|hang on to) (the|a|your|) (rail|railing|handrail|banister|"
        "hand)",
        # a pretend hazard of a game: a river of pillows, a lava floor
        "(pillow|pillows|pretend|carpet|blanket|cushion|cushions|toy|imaginary|paper|"
        "make believe) (river|rivers|lake|sea|ocean|pool|lava|fire|cliff|mountain)",
    ),
}
