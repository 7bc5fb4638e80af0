"""What the bridge core hands the node: the `Step` record of effects (DESIGN §4.5).

Every input of `BridgeCore` returns one `Step`: the phases, conversation events, intents,
lines, gestures, memory tags, governor signals and guardrail events to publish, and at
most one LLM call to start or cancel. The node publishes a Step in a fixed order and
never decides anything itself; the core never publishes. The message constants below
mirror buddy_msgs (ConversationPhase, ConversationEvent, ButtonEvent).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from buddy_personality.cognition.mapping import GovernorSignalRecord, Intent, MemoryTagRecord
from buddy_personality.cognition.reply_gate import GuardCheck
from buddy_personality.cognition.speaker import SpeakerEvent
from buddy_personality.governor.policy import CallPolicy
from buddy_personality.safety.speech_safety import AlertOut, GuardrailOut

# buddy_msgs/ConversationPhase
PHASE_IDLE, PHASE_ATTENTION, PHASE_LISTENING, PHASE_PTT = 0, 1, 2, 3
PHASE_THINKING, PHASE_SPEAKING, PHASE_ERROR, PHASE_DONE = 4, 5, 6, 7
# buddy_msgs/ConversationEvent
CONV_STARTED, CONV_ENDED = 0, 1
TRIGGER_WAKE, TRIGGER_PTT = "wake_word", "ptt"
END_GOODBYE, END_SILENCE, END_SESSION_LIMIT = "goodbye", "silence_timeout", "session_limit"
END_DAILY_LIMIT, END_GOVERNOR_HALTED, END_REQUESTED = (
    "daily_limit", "governor_halted", "requested",
)
END_HC9, END_SERVER = "hc9_distress", "server_unavailable"
# buddy_msgs/ButtonEvent
BUTTON_PTT = 0
BTN_PRESS, BTN_RELEASE, BTN_TOGGLE, BTN_CLICK = 0, 1, 2, 3


@dataclass(slots=True, frozen=True)
class PhaseOut:
    phase: int
    session_id: str


@dataclass(slots=True, frozen=True)
class ConversationOut:
    kind: int
    session_id: str
    trigger: str        # STARTED: TRIGGER_*; ENDED: the END_* reason (also in end_reason)
    turns: int

    @property
    def end_reason(self) -> str:
        """ConversationEvent.end_reason: every ENDED event has one; STARTED has none."""
        return self.trigger if self.kind == CONV_ENDED else ""


@dataclass(slots=True, frozen=True)
class IntentOut:
    intent: Intent
    session_id: str
    turn_id: int


@dataclass(slots=True, frozen=True)
class SayOut:
    text: str
    emotion: str        # the personality's current mood (spec 002 §11.5)
    session_id: str
    turn_id: int
    # One sentence of an LLM reply spoken sentence by sentence (reply_gate.py): the whole
    # reply, which the output guard judges (RS-3's "ask a grown-up" may be in another one).
    part_of: str = ""
    # The safety rules chose this line's emotion (a refused reply's THINKING, erratum 16;
    # the HC-9 line's calm, erratum 15): say_mood keeps it if the personality's answer
    # does not come in time, instead of a snapshot mood from before the turn.
    rule_emotion: bool = False


@dataclass(slots=True, frozen=True)
class MemoryOut:
    session_id: str
    turn_id: int
    tags: tuple[MemoryTagRecord, ...]


@dataclass(slots=True, frozen=True)
class SignalOut:
    signal: GovernorSignalRecord
    session_id: str


@dataclass(slots=True, frozen=True)
class CallRequest:
    ticket: int
    session_id: str
    turn_id: int
    messages: list[dict[str, str]]
    policy: CallPolicy
    deadline_s: float | None = None     # the whole request, retries included


@dataclass(slots=True)
class Step:
    phases: list[PhaseOut] = field(default_factory=list)
    conversation: list[ConversationOut] = field(default_factory=list)
    intents: list[IntentOut] = field(default_factory=list)
    says: list[SayOut] = field(default_factory=list)
    gestures: list[int] = field(default_factory=list)
    memories: list[MemoryOut] = field(default_factory=list)
    signals: list[SignalOut] = field(default_factory=list)
    system_events: list[int] = field(default_factory=list)
    identity_events: list[SpeakerEvent] = field(default_factory=list)  # erratum 17
    guardrails: list[GuardrailOut] = field(default_factory=list)   # HC-9, output guard,
                                                                   # PARENT-PIN (erratum 18)
    alerts: list[AlertOut] = field(default_factory=list)           # HC-9 alert log
    guard_checks: list[GuardCheck] = field(default_factory=list)   # for the guard model
    call: CallRequest | None = None
    cancel_ticket: int | None = None
    probe: bool = False
    governor_reset: str | None = None   # session id of the new governor episode
    notes: list[str] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.phases or self.conversation or self.intents or self.says
                    or self.gestures or self.memories or self.signals or self.system_events
                    or self.identity_events or self.guardrails or self.alerts
                    or self.guard_checks or self.call or self.probe or self.governor_reset
                    or self.cancel_ticket is not None)



def merge(into: Step, other: Step) -> None:
    """Append `other`'s effects to `into` in order (one input may run several rules)."""
    into.phases += other.phases
    into.conversation += other.conversation
    into.intents += other.intents
    into.says += other.says
    into.gestures += other.gestures
    into.memories += other.memories
    into.signals += other.signals
    into.system_events += other.system_events
    into.identity_events += other.identity_events
    into.guardrails += other.guardrails
    into.alerts += other.alerts
    into.guard_checks += other.guard_checks
    into.notes += other.notes
    into.call = other.call or into.call
    into.probe = into.probe or other.probe
    into.governor_reset = other.governor_reset or into.governor_reset
    if other.cancel_ticket is not None:
        into.cancel_ticket = other.cancel_ticket
