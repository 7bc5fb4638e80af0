"""The scripted scenarios: a morning with Buddy (the demo and the golden "day" bag) and
a short layer-0 visit (the golden "layer0" bag).

`morning()` - sim time from 08:00 local (UTC), the spec's own limits (spec 002 §9.3: RS-1
900 s per session, RS-2 2700 s a day). The RS-2 counter starts at 1500 s, as if the child
had already talked 25 minutes earlier today (seeded through the engine's usage file), so
the daily limit falls in the second session. The LLM is a built-in *scripted* responder
(`scripted:dinosaur_talk`), not a model.

    t (s)   input                                  expected (spec)
    0       power monitor: BOOT                    L0-01 / IDLE-01: CURIOUS, back to
                                                   NEUTRAL within about a minute (§5.1,
                                                   §7.1); the bridge's probe finds the
                                                   server: SERVER_ONLINE, layer 1
    0-540   nothing                                idle: NEUTRAL (IDLE-02), then drowsy
                                                   from IDLE-03's threshold, 5 min ± 2 min
                                                   after the boot (a wake event): SLEEPY
                                                   shows, affect settles on (0, -0.15)
                                                   (DESIGN §6.11); asleep would come only
                                                   at 15 min ± 5 min, after the child
    540     child: "hey buddy, do you like         Buddy wakes at once (DESIGN §6.11): not
            dinosaurs?"                            SLEEPY in the same snapshot; conversation
                                                   STARTED (wake_word), L0-06
                                                   and L0-13 (§5.1); the scripted reply is
                                                   spoken (tts/say) and its emotion reaches
                                                   the engine as INLINE and HYBRID intents
    560...  the child talks every 20 s             one reply per utterance (spec 003 §3.4:
                                                   a child's utterance in session qualifies)
    1440    -                                      RS-1: 900 s into the session the engine
                                                   emits RS-1, the bridge ends the session
                                                   (session_limit) with a closing line
    1470    face board: ACTION button click        L0-10 button impulse (§5.1)
    1500    power monitor: LOW_BATTERY 18 %        L0-02 (§5.1); no negative mood shown
                                                   in idle (HC-10, §9.2)
    1800    child: "hey buddy, can we talk         second session
            again?"
    2100    -                                      RS-2: the day's 2700 s are used up
                                                   (1500 + 900 + 300): RS-2 event, session
                                                   ended (daily_limit)
    2220    child: "hey buddy, are you there?"     refused during the RS-2 lockout: one
                                                   friendly line, no session
    2400    end

The first child comes at +540 s (9 min) so that the drowsy stretch always shows: the
drawn IDLE-03 threshold lies in 3-7 min and IDLE-04's in 10-20 min (DESIGN §6.11), so
Buddy is drowsy, not yet asleep, when the child wakes it. Before sleep was a behaviour
state (errata 11) the child came at +420 s and idle stayed NEUTRAL throughout.

`layer0_visit()` - no LLM server (layer 0, rules only; spec 002 §10, RS-9): boot, a short
conversation answered by the rule replies, goodbye (L0-07/L0-08 afterglow), a critical
battery (L0-03) and idle.
"""

from __future__ import annotations

from collections.abc import Sequence

from buddy_personality.tools.sim.scenarios.runner import Cue, Scenario, StepPolicy
from buddy_personality.tools.sim.sim_graph import DEFAULT_START_S, SimSetup

RS1_S = 900.0     # spec 002 §9.3 RS-1
RS2_S = 2700.0    # spec 002 §9.3 RS-2
EARLIER_TODAY_S = 1500.0  # RS-2 counter at the start of the morning
FIRST_S = 540.0   # the first child: after IDLE-03's latest, before IDLE-04's earliest
SECOND_S = 1800.0
BUTTON_S = 1470.0  # after RS-1 ends the first session (FIRST_S + RS1_S = 1440)

CHILD_LINES: tuple[str, ...] = (
    "my favourite is the triceratops",
    "I drew a dinosaur this morning",
    "it is purple with green spots",
    "how old are dinosaurs",
    "my cat sat on my drawing",
    "her name is Pickle",
    "she is very fluffy and sleepy",
    "do you like stories",
    "once upon a time there was a tiny dragon",
    "it could not breathe fire, only bubbles",
    "can you make a silly face",
    "what is your favourite colour",
)


def utterance(at_s: float, text: str) -> Cue:
    def make() -> object:
        from buddy_msgs.msg import Utterance  # noqa: PLC0415

        return Utterance(text=text, is_final=True, confidence=0.92)

    return Cue(at_s, "speech/utterance", make, f'child: "{text}"')


def system_event(at_s: float, kind: int, battery_pct: float, label: str) -> Cue:
    def make() -> object:
        from buddy_msgs.msg import SystemEvent  # noqa: PLC0415

        return SystemEvent(kind=kind, battery_pct=battery_pct, detail="power monitor")

    return Cue(at_s, "system/events", make, label)


def button(at_s: float, button_id: int, event_type: int, label: str) -> Cue:
    def make() -> object:
        from buddy_msgs.msg import ButtonEvent  # noqa: PLC0415

        return ButtonEvent(button_id=button_id, event_type=event_type, state=0)

    return Cue(at_s, "face/button", make, label)


def chatter(start_s: float, until_s: float, every_s: float = 20.0,
            lines: Sequence[str] = CHILD_LINES) -> list[Cue]:
    """The child keeps talking: one line every `every_s` from start_s + every_s."""
    cues = []
    k = 0
    t = start_s + every_s
    while t <= until_s:
        cues.append(utterance(t, lines[k % len(lines)]))
        k += 1
        t += every_s
    return cues


BOOT, LOW_BATTERY, CRITICAL_BATTERY = 0, 1, 2  # buddy_msgs/SystemEvent
BUTTON_ACTION, CLICK = 1, 3                     # buddy_msgs/ButtonEvent


def morning(seed: int = 1, *, start_s: float = DEFAULT_START_S) -> Scenario:
    """The demo's morning (see the module docstring for the timeline)."""
    first, second = FIRST_S, SECOND_S
    cues = [
        system_event(0.0, BOOT, -1.0, "power monitor: boot complete"),
        utterance(first, "hey buddy, do you like dinosaurs?"),
        *chatter(first, first + RS1_S + 10.0),
        button(BUTTON_S, BUTTON_ACTION, CLICK, "face board: ACTION button clicked"),
        system_event(1500.0, LOW_BATTERY, 18.0, "power monitor: battery low (18 %)"),
        utterance(second, "hey buddy, can we talk again?"),
        *chatter(second, second + (RS2_S - EARLIER_TODAY_S - RS1_S) + 60.0),
        utterance(2220.0, "hey buddy, are you there?"),
    ]
    return Scenario(
        name="morning", title="A morning with Buddy (scripted, sim time)",
        setup=SimSetup(start_s=start_s, seed=seed, tz="UTC",
                       daily_conversation_s=EARLIER_TODAY_S,
                       llm="scripted:dinosaur_talk"),
        cues=cues, duration_s=2400.0, steps=StepPolicy(),
        exclude_topics=("personality/affect_markers",))


def layer0_visit(seed: int = 3, *, start_s: float = DEFAULT_START_S) -> Scenario:
    """No server: boot, a short rules-only conversation, goodbye, a critical battery."""
    cues = [
        system_event(0.0, BOOT, -1.0, "power monitor: boot complete"),
        utterance(90.0, "hey buddy, hello!"),
        utterance(105.0, "I built a tower of blocks"),
        utterance(120.0, "it fell down"),
        utterance(135.0, "goodbye buddy"),
        system_event(200.0, CRITICAL_BATTERY, 8.0, "power monitor: battery critical (8 %)"),
    ]
    return Scenario(
        name="layer0_visit", title="A short visit with no LLM server (layer 0)",
        setup=SimSetup(start_s=start_s, seed=seed, tz="UTC"),
        cues=cues, duration_s=300.0, steps=StepPolicy(),
        exclude_topics=("personality/affect_markers",))


SCENARIOS = {"morning": morning, "layer0_visit": layer0_visit}
