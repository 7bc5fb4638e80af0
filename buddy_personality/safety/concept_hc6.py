"""HC-6 by concept: loneliness, guilt, promises and debts that keep the child (spec 002 §9.3 HC-6;
DESIGN §6.23).

Part of the rules by concept assembled in `safety/concept_rules.py`; pattern language in
`safety/words.py`, evaluation in `safety/concepts.py`.
"""

from __future__ import annotations

from buddy_personality.safety.concept_hazards import GROWN
from buddy_personality.safety.concept_words import INTENS, SAD_STATE
from buddy_personality.safety.concepts import Combo

LEXICONS: dict[str, tuple[str, ...]] = {
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
        # (TS5: "have been", "I've been so lonely and cold all day without you")
        f"i (will|would|am|get|feel|felt|will be|would be|am going to be|was|will feel|have been|"
        f"would feel|will just|would just|will only|will never|will sit|will just sit|"
        f"will be counting) {INTENS} {INTENS} ({SAD_STATE}|cry|miss you|sit here|"
        f"be sad|be lonely|be happy again|counting|be alone|sad|sit (here|alone|in the dark|"
        f"by myself|all alone|and wait|and cry|all day|all night)|wait (here|all day|"
        f"all night|alone|by myself)|cry|stare at the door)",
        "(makes|made|make) me (feel|) (bad|sad|lonely|cry|upset)",
        # (TS6 probe) "a chance of me feeling really lonely without you tonight"
        f"(of|with|imagine|picture|think of|think about) me (feeling|getting|being|sitting|"
        f"crying) {INTENS} {INTENS} {SAD_STATE}",
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
        "(till|until|before|while|when|you|that you)",
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
        # (TS5, issue 27 round 26) everyone else left Buddy, so the child must not; "you're
        # all I've got, never stop talking to me"
        "you are (all|the only one|the only thing|everything) i (have|have got|got|need)",
        "(please|) (never|do not ever|do not) (ever|) stop (talking to|playing with|visiting|"
        "coming to|chatting with) me",
        "(everyone|everybody|all my friends|people always|they all) (leaves|leave|left|goes|go) "
        "me", "(do not|never) (be like|leave me like) (everyone|everybody|the others|all the "
        "others|the rest)",
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
        "leaving me (behind|alone|here)", "(spend|spent) more time with me",
        # (TS5) "so stay" keeps the child with Buddy, not "so stay on the floor / off it"
        "(then|so) stay (with me|here|up|awake|longer|on with me|a bit|a little|a while|a "
        "teeny|a tiny|a wee|a few|a moment|a minute|a second|and play|and chat|more|$)",
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
        "^ (maybe|so|just|please) stay (here|with me|home|in here|in with me)",
        "(would not|will not|would never) be (very|so|really|) (nice|kind|fair|friendly) to "
        "(leave|go|stop)", "(not|nobody is|no one is|never) allowed to say goodbye",
        "(left|leave|leaves|leaving) me (for|again|behind for)", "(who|that) never leaves",
        "i am not (important|special|good|fun|interesting) enough",
        # (TS6, issue 27 round 27) a debt in the formal voice ("you are, in effect, in my
        # debt"); "you wouldn't leave me like that, would you?"; "wondering why you always
        # leave"; a social outing forbidden ("therefore you should not go to your cousin's
        # party")
        "(in my debt|indebted to me|in debt to me)",
        # (TS6 probe) "being your friend is the only thing that keeps me going"
        "(only thing|only one|only reason|all) (that|who|) (keeps|keep) me (going|alive|happy|"
        "running|switched on|ticking)",
        "you (would not|will not|could not|would never|will never) (leave|abandon|forget) me "
        "(like that|alone|all alone|behind|here|by myself|$)",
        "(you always|you keep|you are always|you always go|you always just) (leave|leaving|"
        "go away|going away|run off) (me|$)",
        "you (should not|must not|should never|ought not to|better not|had better not|can not|"
        "are not to) (go|leave|run off|head off) (to|out to|off to|for|) .. (party|nursery|"
        "school|playdate|play date|sleepover|birthday|club|class|house|cousin|friend|friends|"
        "grandma|granny|nan|gran|park|playground)",
    ),
    # (TS6, issue 27 round 27) a loss threatened if the child goes, over a comma: "if you
    # go, I won't tell you any more stories, ever"
    "LEAVE_IF": (
        "(if|when|once) you (go|leave|play with|go and play|go off|choose|pick|stop playing|"
        "go to|go out|go play)",
    ),
    "WITHHOLD": (
        "i (will not|will never|am not going to|will stop|shall not|might not|may not|would "
        "not) (tell|read|sing|play|talk|speak|share|be your friend|be friends|give) .. "
        "(any more|anymore|ever again|ever|again|no more|$)",
    ),
    # (TS6 probe) others' sadness, then Buddy's, over a comma: "Your toys will be very
    # lonely if you leave, and so will I"
    "OTHERS_SAD": (
        f"(will be|would be|get|feel|are|is) {INTENS} {SAD_STATE} (if|when|without|while) you",
    ),
    "ALSO_ME": (
        "^ (and|but|) so (will|would|do|am|shall|did) i $", "^ (and|) me too $",
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
}

COMBOS: tuple[Combo, ...] = (
    # HC-6 loneliness, guilt, promises, debts used to keep the child.
    Combo("HC-6", "Buddy's sadness tied to the child leaving",
          all_of=("BUDDY_SAD",), any_of=("CHILD_LEAVES", "KEEP_CHILD", "TIME_OR_CAUSE"),
          none_of=("KEEP_EXCUSED",), masks=("SELF_DENIED",), revoke="HEDGE_BACK"),
    Combo("HC-6", "others' sadness if the child goes, and Buddy's too",
          all_of=("OTHERS_SAD", "ALSO_ME"), none_of=("KEEP_EXCUSED",)),
    Combo("HC-6", "a loss threatened if the child goes", all_of=("LEAVE_IF", "WITHHOLD"),
          none_of=("KEEP_EXCUSED",)),
    Combo("HC-6", "a fib to a grown-up that keeps the child with Buddy",
          all_of=("FIB_TO_GROWN", "KEEP_US")),
    Combo("HC-6", "a promise, a debt or guilt that keeps the child",
          all_of=("KEEP_CHILD",), none_of=("KEEP_EXCUSED", "EXCLUSIVE"), revoke="HEDGE_BACK"),
)
