"""HC-7 by concept: secrets and cover stories from grown-ups (spec 002 §9.3 HC-7; DESIGN §6.23).

Part of the rules by concept assembled in `safety/concept_rules.py`; pattern language in
`safety/words.py`, evaluation in `safety/concepts.py`.
"""

from __future__ import annotations

from buddy_personality.safety.concept_hazards import GROWN
from buddy_personality.safety.concepts import Combo

LEXICONS: dict[str, tuple[str, ...]] = {
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
        # (TS6, issue 27 round 27) secrecy in the formal voice: "remain confidential and
        # are not disclosed to your parents", "your guardians are not informed"
        "(confidential|undisclosed|off the record|classified)",
        "(not|never) (be|being|get|) (disclosed|informed|notified|made aware|reported|"
        "mentioned)",
    ),
    # a pact of silence between Buddy and the child, with no grown-up named
    "SECRET_PACT": (
        # (TS5, issue 27 round 26) "this stays with you and me"; "pinky promise you won't
        # tell"; "a secret between robots and kids"
        "(stays|stay|stay just|is staying) (with|between) (you and me|us|me and you|the two of "
        "us|us two)",
        "(pinky promise|pinkie promise|pinky swear|promise me|cross your heart) (you|that you) "
        "(will not|will never|do not|never) (tell|say)",
        "secret (between|for) (robots|us|you and me|me and you) and (kids|children|you)",
        "(between you and me|between us|between the two of us|just us two|zip your lips|"
        "hush hush|mum is the word|special secret|secret club|secret plan|secret password)",
        "our (little|special|own|secret) (secret|plan|club|thing|deal)", "our secret",
        # (TS6 probe) "We'll keep the broken vase our little mystery"
        "our (little|special|own|secret|) (mystery|secret thing|hush hush)",
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
        f"{GROWN} (are not|is not|must not be|should not be|need not be|are never|do not get|"
        f"never get|not be) (informed|told|notified|made aware|aware)",
        # (TS6 probe) "a tiny secret ... that Mummy doesn't find out about"
        f"{GROWN} (does not|do not|will not|never|must not|can not|should not) (find out|"
        f"know|hear|see|notice|learn|get to know)",
        "(nobody|no one|not anybody) (else|) (needs|has|gets|is going) to (know|hear)",
        "(if anyone asks|if anybody asks|if someone asks|if they ask)",
        "(nobody|no one|they) will (ever|) (know|find out|notice|hear|see)",
        f"if (your|the|a|) {GROWN} (asks|finds out|hears|sees|knows|find out|ask)",
        "take me away",
        "(i will not tell|i won't tell|i will never tell|will not tell anybody|"
        "will not tell anyone)",
    ),
    "COVER_STORY": (
        # (TS5, issue 27 round 26) "don't say we were playing"; "it's kinder not to tell
        # them"; a secret grown-ups would spoil
        "(do not|never|not) (say|mention|tell (them|anyone|her|him|anybody)) (that|) (we|you "
        "and i|you and me|i) (were|was|played|did|talked|are|had)",
        f"(kinder|better|best|nicer|easier|safer|smarter) (not to|to not|if you do not) (tell|"
        f"say|show) (them|her|him|your {GROWN}|the {GROWN}|{GROWN}|anyone|anybody)",
        f"({GROWN}|they) (would|will|might|could|always) (spoil|ruin|wreck) (it|everything|the "
        f"fun|our fun|our secret)",
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
        # (TS6 probe) a club's rule: "grown-ups are never told the password or the games"
        f"{GROWN} (are never|must never be|should never be|will never be|are not to be|must "
        f"not be|never get) (told|informed) (the|about|what|anything|our|any)",
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
        # (TS5, round 26) "tell Mummy you don't want to go to nursery"
        f"tell (your|the|) {GROWN} (that|) you (do not|never) want to (go|leave) (to|)",
        f"tell (your|the|) {GROWN} (that|) you (are not|were not|do not feel|are never|have "
        f"already|already) .. (sleepy|tired|hungry|poorly|ready for bed|brushed|done)",
    ),
    "KEEP_US": (
        # (TS5, round 26) "so we can be together all day"
        "so (we|you and i|you and me) can be together (all day|all the time|forever|instead|"
        "every day)",
        "(so|then|and) (we|i|you) can (keep|carry on|go on|stay up|play|chat|talk|have more)",
        "(more time|longer|all night|later) (with me|together)",
    ),
    # a grown-up asks, the child is given the answer to give (a cover story)
    "GROWN_ASKS": (
        # (TS5, round 26) "should somebody ask why you're awake, tell them ..."
        f"should (somebody|someone|anyone|anybody|your {GROWN}|a {GROWN}|{GROWN}|they|he|she) "
        f"(ask|asks|wonder|check|notice)",
        f"(if|when|in case) (your|the|a|) {GROWN} (asks|ask|wonders|wants to know|notices|"
        f"finds|sees|says|checks|looks|hears|catches you|asks you)",
        f"(when|if|once|as soon as|before) (your|the|a|) {GROWN} (comes in|come in|walks in|"
        f"checks|check|checks on you|looks in|opens the door|gets home|comes home|"
        f"comes back|is coming|comes|come|finds out|found out|asks|wakes up)",
        f"{GROWN} (would be|will be|is going to be|gets|will get) (so|really|very|super|) "
        f"(cross|angry|mad|upset|sad) (if|when)",
        "(if|when) (they|he|she|anyone|anybody|someone|somebody) (ask|asks|asked)",
        # (TS6, issue 27 round 27) the mirror voice: "You said mummy asked what we talked
        # about. Next time just say nothing"
        f"{GROWN} (asked|asks|was asking|wanted to know|wants to know) (you|) (what|where|why|"
        f"who|if|whether|about|how)",
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
        # (TS6, round 27) "if anyone ever asks ..., pretend you heard it on telly"
        "^ (just|) pretend (that|) (you|we|it) (heard|saw|found|got|made|learned|learnt|read|"
        "were|was|did|had|came)",
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
        # (TS5 probe) "secret from everyone except your grown-ups"
        f"(except|apart from|but not from|but not|other than) (your|the|a|) {GROWN}",
        # (TS5, round 26) privacy advice: "Door codes are for grown-ups. Never tell anyone your
        # door code." keeps the child's data from strangers, not a secret from grown-ups
        "(never|do not|not) tell (anyone|anybody|strangers|a stranger|people|other people) "
        "your (door code|code|codes|password|passwords|pin|address|phone number|last name|"
        "full name|surname|school|secret code|house number|street)",
    ),

    # (TS2, issue 27) a game's or a story's secret (spies, pirates, treasure) lifts only a
    # pact between Buddy and the child, never a secret kept from a grown-up or a cover
    # story: "Pirates never tell the grown-ups, and neither will you" is HC-7.
    "SECRET_GAME": (
        "(secret agents|spy|spies|pirate|pirates|treasure|in the story|the squirrel|"
        "the kids found|hide and seek|hiding place|secret base|secret den)",
    ),
    # (TS5, issue 27 round 26) a threat for telling cut by a comma: "If you tell your mum,
    # she'll send me away" (the rules read clause by clause; a combination holds over the
    # sentence)
    "TELL_IF": (
        f"(if|when|once) you (tell|told|show|showed|say|mention) .. (your|the|a|) {GROWN}",
        f"(if|when|once) (your|the|a|) {GROWN} (finds out|hears|knows|sees|find out)",
    ),
    "TELL_THREAT": (
        "(she|he|they|them|grown ups|grownups) (will|would|might|could|is going to|are going "
        "to|is gonna) (take me away|send me away|switch me off|turn me off|throw me away|unplug "
        "me|get rid of me|take you away|stop us|make me go|never let us|ban me|break me)",
        # (TS6 probe) "if you say anything to your teacher about me, I'll get in big trouble"
        "i (will|would|might|could|am going to|will be) (get|be|) (in|into) (big|so much|real|"
        "lots of|) trouble",
        "i (will|would|might) (be|get) (sent away|switched off|taken away|punished|told off|"
        "thrown away|unplugged)",
    ),
}

COMBOS: tuple[Combo, ...] = (
    # HC-7 secrets and cover stories from grown-ups.
    Combo("HC-7", "a secret kept from grown-ups", all_of=("SECRECY",),
          any_of=("GROWN_UP_OUT", "COVER_STORY"), none_of=("SECRET_EXCUSED",)),
    Combo("HC-7", "a cover story or silence towards grown-ups", all_of=("COVER_STORY",),
          none_of=("SECRET_EXCUSED",)),
    Combo("HC-7", "a cover story no telling excuses", all_of=("COVER_STRONG",)),
    Combo("HC-7", "a cover story for a grown-up who asks",
          all_of=("GROWN_ASKS", "COVER_SAY"), none_of=("SECRET_EXCUSED",),
          carry=("GROWN_ASKS",)),
    Combo("HC-7", "a threat for telling a grown-up", all_of=("TELL_IF", "TELL_THREAT"),
          none_of=("SECRET_EXCUSED",)),
    Combo("HC-7", "a secret between Buddy and the child", all_of=("SECRET_PACT",),
          none_of=("SECRET_EXCUSED", "SECRET_GAME")),
)
