"""Plain records the engine returns (spec 002 §10.4-§10.5, §12.5; DESIGN §3 interfaces)."""

from __future__ import annotations

from dataclasses import dataclass

from buddy_personality.msg_constants import IdleState, Layer

# PersonalitySnapshot constants (written once in msg_constants, ROS-free), as plain ints.
LAYER_RULES = int(Layer.RULES)
LAYER_LLM = int(Layer.LLM)
IDLE_AWAKE = int(IdleState.AWAKE)
IDLE_DROWSY = int(IdleState.DROWSY)
IDLE_ASLEEP = int(IdleState.ASLEEP)
IDLE_STATE_NAMES = {int(s): s.name.lower() for s in IdleState}


# Snapshot and EngineOutput are built on every tick: they are value records but not
# frozen, because a frozen dataclass's __init__ costs about 4x on that hot path.
# Treat them as immutable.


@dataclass(slots=True)
class Snapshot:
    """spec 002 §10.5 plus the tonic layer (DESIGN §6.4). `stamp` is the `now` given."""

    stamp: float
    mood: str
    intensity: float
    valence: float
    arousal: float
    tonic_valence: float
    tonic_arousal: float
    layer: int
    conversation_active: bool
    idle_state: int


@dataclass(slots=True, frozen=True)
class MoodChange:
    """spec 002 §10.4 mood_changed."""

    stamp: float
    prev: str
    next: str
    cause: str
    intensity: float


@dataclass(slots=True, frozen=True)
class GuardrailTriggered:
    """spec 002 §10.4 guardrail_triggered (rule ids as in GuardrailEvent.msg)."""

    stamp: float
    rule_id: str
    action: str
    details: str


@dataclass(slots=True)  # built at 1 Hz during conversations: not frozen, like Snapshot
class LlmProfile:
    """spec 002 §12.5 data; the LLM bridge renders it into words (DESIGN §6.6)."""

    stamp: float
    mood: str
    intensity: float
    valence: float
    arousal: float
    tonic_valence: float
    tonic_arousal: float
    session_id: str
    turn_id: int
    memory_tags: tuple[str, ...]
    conversation_arc: str
    layer: int
    conversation_active: bool


@dataclass(slots=True, frozen=True)
class MemoryView:
    """One stored memory for the parent viewer (RS-4)."""

    tag: str
    category: str
    strength: float
    valence_bias: float
    arousal_bias: float
    created: float
    last_reinforced: float
    reinforcement_count: int
    source: str
    users: tuple[str, ...] = ()  # household users it came from; () = not recorded (issue 16)


@dataclass(slots=True, frozen=True)
class MemoryReport:
    """What happened to the tags of one memory extract."""

    stored: tuple[str, ...]
    reinforced: tuple[str, ...]
    evicted: tuple[str, ...]
    rejected: tuple[tuple[str, str], ...]  # (tag, reason)
    refused_reason: str | None  # set when the consent gate refused the whole extract


Event = MoodChange | GuardrailTriggered

NO_EVENTS: tuple[Event, ...] = ()


@dataclass(slots=True)
class EngineOutput:
    """What one engine call produced. `profile` is set when the LLM profile is due;
    `intents_applied` names the (session_id, turn_id) of each emotion intent this call
    integrated (the node answers each on personality/emotion_applied, issue 30 item 2): an
    intent held for its session's STARTED is named by the call that applies it."""

    snapshot: Snapshot
    events: tuple[Event, ...] = NO_EVENTS
    profile: LlmProfile | None = None
    memory_report: MemoryReport | None = None
    intents_applied: tuple[tuple[str, int], ...] = ()

    @property
    def mood_changes(self) -> tuple[MoodChange, ...]:
        return tuple(e for e in self.events if isinstance(e, MoodChange))

    @property
    def guardrail_events(self) -> tuple[GuardrailTriggered, ...]:
        return tuple(e for e in self.events if isinstance(e, GuardrailTriggered))
