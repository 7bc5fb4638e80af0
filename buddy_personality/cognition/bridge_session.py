"""The bridge core's bookkeeping: its configuration, the session and the turn in flight,
its counters, and the state every part of `BridgeCore` shares (DESIGN §4.5).

`BridgeCore` (bridge.py) is split by concern into parts that all work on one session:
turns (bridge_turns.py), answers and the output screen (bridge_answers.py) and the guard
model's sentence-by-sentence release (bridge_vetting.py). `BridgeState` names the fields
they share, so a reader of one part sees what it may touch; `BridgeCore.__init__` sets
them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from buddy_personality.cognition.client import CallResult
from buddy_personality.cognition.context import HistoryTurn
from buddy_personality.cognition.conversation import DEFAULT_WAKE_PHRASE
from buddy_personality.cognition.gate import CognitionGate
from buddy_personality.cognition.guard import GuardVerdict
from buddy_personality.cognition.health import ServerHealth
from buddy_personality.cognition.intentions import IntentionStore
from buddy_personality.cognition.layer0 import Layer0
from buddy_personality.cognition.reply_gate import GuardStats, Vetting
from buddy_personality.cognition.speaker import SpeakerTracker
from buddy_personality.cognition.turn_deadline import TurnDeadline
from buddy_personality.cognition.views import GovernorView, IdentityView, ProfileView
from buddy_personality.safety.speech_safety import SpeechSafety

# While tts/speaking says a line plays, SPEAKING holds at most this long without news.
VOICE_HOLD_S = 60.0


@dataclass(slots=True, frozen=True)
class BridgeConfig:
    wake_phrase: str = DEFAULT_WAKE_PHRASE
    silence_timeout_s: float = 30.0
    session_limit_s: float = 900.0      # RS-1 (spec 002 §9.3): urgency of the governor signal
    speech_rate_wps: float = 2.5        # words per second, to estimate when speaking ends
    speech_pad_s: float = 0.5
    done_hold_s: float = 1.5            # DONE shown this long before IDLE
    lockout_s: float = 6 * 3600.0       # RS-2 lockout, renewed by every RS-2 event
    lockout_line_repeat_s: float = 20.0 # at most one lockout line per this interval
    energy_axis: float = 0.40           # personality energy axis, rendered in words
    max_utterance_chars: int = 500
    turn: TurnDeadline = field(default_factory=TurnDeadline)  # filler, then layer 0
    # The guard model on the server (issue 27, DESIGN erratum 23): LLM replies are spoken
    # sentence by sentence as its verdicts come in; the child's line is a second HC-9 check.
    guard_enabled: bool = False
    guard_deadline_s: float = 1.5
    # The output guard's learned lexicon (safety/learned.py, docs/SAFETY.md): a second local
    # check after the concept rules; it can add a refusal, never lift one.
    learned_lexicon: bool = True


@dataclass(slots=True)
class PendingTurn:
    ticket: int
    turn_id: int
    text: str
    inline_sent: bool = False
    started_at: float = 0.0
    filler_said: bool = False
    child_check: int | None = None       # the guard's HC-9 check of the child's line
    child_asked_at: float = 0.0
    child_verdict: GuardVerdict | None = None
    vetting: Vetting | None = None       # the reply, waiting for its first verdict
    result: CallResult | None = None     # ... and the call it came in


@dataclass(slots=True)
class Session:
    session_id: str
    trigger: str
    started_at: float
    phase: int
    last_activity: float
    turns: int = 0
    speaking_until: float = 0.0
    answer_voiced: bool = False         # tts/speaking rose since the answer was handed over
    history: list[HistoryTurn] = field(default_factory=list)
    topics_seen: set[str] = field(default_factory=set)
    intentions: IntentionStore = field(default_factory=IntentionStore)
    pending: PendingTurn | None = None
    stale_episode: int | None = None    # governor episode before our reset; ignored
    reply: Vetting | None = None        # a reply still being spoken sentence by sentence


@dataclass(slots=True)
class BridgeStats:
    calls: int = 0
    call_failures: int = 0
    failed_attempts: int = 0
    last_latency_s: float = 0.0
    max_latency_s: float = 0.0
    gate: dict[str, int] = field(default_factory=dict)
    layer0_replies: int = 0
    sessions: int = 0
    dropped_parts: int = 0
    ignored_outside_session: int = 0
    ignored_partial: int = 0
    busy_dropped: int = 0
    lockout_refusals: int = 0
    stale_results: int = 0
    last_error: str = ""
    turn_timeouts: int = 0
    last_timeout_at: float | None = None
    last_failure_at: float | None = None   # a call that failed (its deadline included)
    throttled_turns: int = 0               # answered by layer 0: Retry-After not passed


class BridgeState:
    """The fields of `BridgeCore` that its parts share (set in `BridgeCore.__init__`)."""

    config: BridgeConfig
    rng: random.Random
    gate: CognitionGate
    health: ServerHealth
    layer0: Layer0
    stats: BridgeStats
    safety: SpeechSafety
    session: Session | None
    profile: ProfileView
    identity: IdentityView
    governor: GovernorView
    mood: str                       # personality/snapshot mood, the TTS tag (§11.5)
    phase: int
    speaker: SpeakerTracker
    guard_stats: GuardStats
    _idle_at: float | None          # when DONE turns IDLE
    _ticket: int                    # the last LLM call's ticket
    _abandoned: set[int]            # tickets given up at the turn deadline
    _voice: bool                    # tts/speaking: a line of Buddy's is playing
    # The guard model's checks in flight: check id -> (session, ticket, index, turn).
    _checks: dict[int, tuple[str, int, int, int]]
    _check_seq: int
