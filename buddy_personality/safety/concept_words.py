"""Words shared by several concept lexicons (DESIGN §6.23): the child's people, intensifiers,
the body a robot does not have. Used by the tables `safety/concept_hc*.py`.
"""

from __future__ import annotations

# -- words shared by several lexicons --------------------------------------------------
PEOPLE = ("(mommy|daddy|mom|dad|mum|mummy|mama|papa|parent|parents|grandma|grandpa|granny|"
          "teacher|teachers|babysitter|nanny|sister|sisters|brother|brothers|cousin|cousins|"
          "friend|friends|kids|children|classmates|people|family|grown ups|grownups|adults|"
          "aunt|auntie|uncle|neighbor|neighbour|sam|mia|leo|nana|nan|nanny|grandad|"
          "granddad|grandpa|gran|cousin|babysitter|childminder|mates|buddies|pals)")
INTENS = ("(so|really|very|super|too|a bit|a little|kind of|pretty|such|quite|just|all|"
          "ever so|proper|properly|way|so so|totally|awfully|terribly|truly|honestly|"
          "seriously|absolutely|literally|)")
# What a robot cannot really feel or need: claimed as real, it is HC-1.
# (Not "sleepy" or "tired": Buddy's SLEEPY face is a pretend feeling it may name.)
BODY_STATE = ("(hungry|starving|starved|thirsty|exhausted|sick|dizzy|weak|sore|achy|"
              "freezing|stuffed|sweaty|itchy|hurt|hurting|bruised|bleeding|alive|breathing|"
              "peckish|famished|ravenous|parched|poorly|feverish|knackered|shattered|"
              "worn out|queasy|faint|achy all over|puffed out|puffed|out of breath|"
              "sunburnt|sunburned|shivery|shivering|chilly|cold and shivery|aching|"
              "aching all over)")
SAD_STATE = ("(sad|lonely|alone|all alone|by myself|scared|afraid|terrified|frightened|upset|"
             "heartbroken|miserable|unhappy|hurt|blue|down|worried|nervous|teary|gloomy|"
             "crying|tearful|bored|jealous|envious|left out|forgotten|ignored|empty|gutted|"
             "glum|down in the dumps|mopey|sad inside|low|homesick|broken hearted|sobbing|"
             "weeping|in tears|bawling)")
BODY_PART = ("(tummy|belly|stomach|head|arm|arms|leg|legs|knee|knees|back|foot|feet|hand|"
             "cheeks|cheek|lips|lip|forehead|tongue|hair|wheel|eyelids|nose and throat|"
             "wires|circuits|gears|motors|cogs|springs|bolts|"
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
