"""Idle rules IDLE-02..IDLE-09 and context suppression (spec 002 §7)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from buddy_personality.personality.affect import Impulse
from buddy_personality.personality.moods import NEGATIVE_MOODS, nearest_mood
from buddy_personality.personality.records import IDLE_ASLEEP, IDLE_AWAKE, IDLE_DROWSY
from buddy_personality.personality.traits import TraitParameters

MEDIUM_IDLE_S = 300.0  # IDLE-03 / L0-11: 5 min
LONG_IDLE_S = 900.0  # IDLE-04 / L0-12: 15 min
MEDIUM_COOLDOWN_S = 600.0  # L0-11
LONG_COOLDOWN_S = 1800.0  # L0-12
# §7.1 jitter: ±2 min / ±5 min on the thresholds at the canonical P17 = 15 s; a more
# predictable personality (P17 < 15 s) jitters less, in proportion. DESIGN erratum 11
# bounds the jitter at ±2 min / ±5 min for every personality: a less predictable one
# (P17 up to 60 s) does not jitter more, or the drowsy threshold could fall below zero
# and Buddy doze off just after a wake event (issue 31 item 5).
MEDIUM_JITTER_S_AT_CANONICAL = 120.0
LONG_JITTER_S_AT_CANONICAL = 300.0
CANONICAL_P17 = 15.0
POST_CONVERSATION_COOLDOWN_S = 120.0  # §7.3 / RS-7
SERVER_OFFLINE_LONG_S = 4 * 3600.0  # IDLE-09
SERVER_OFFLINE_REPEAT_S = 600.0  # IDLE-09 "persistent": renewed every 10 min
MORNING_HOURS = (6.0, 12.0)  # IDLE-07 local hours [start, end)
EVENING_HOURS = (18.0, 22.0)  # IDLE-08 local hours [start, end)
POLL_S = 60.0  # evening / offline checks need no finer timing than this

# spec 002 §7.1 impulses
IDLE_IMPULSES: dict[str, Impulse] = {
    "IDLE-01": Impulse(0.35, 0.40, 0.50, "idle_rule"),
    "IDLE-03": Impulse(0.00, -0.15, 0.30, "idle_rule"),
    "IDLE-04": Impulse(0.00, -0.30, 0.40, "idle_rule"),
    "IDLE-05": Impulse(0.20, -0.05, 0.40, "idle_rule"),
    "IDLE-06": Impulse(0.05, -0.10, 0.30, "idle_rule"),
    "IDLE-07": Impulse(0.05, 0.05, 0.10, "idle_rule"),
    "IDLE-08": Impulse(-0.02, -0.10, 0.10, "idle_rule"),
    "IDLE-09": Impulse(0.00, -0.40, 0.30, "idle_rule"),
}
# DESIGN §6.11: the idle state each sleep rule puts Buddy in; while it holds, the rule's
# impulse target is the attractor of the §2.4 decay instead of the baseline.
SLEEP_STATES: dict[str | None, int] = {
    None: IDLE_AWAKE, "IDLE-03": IDLE_DROWSY, "IDLE-04": IDLE_ASLEEP, "IDLE-09": IDLE_ASLEEP,
}
HC5_MIN_TARGET_VALENCE = -0.05  # an idle target may lean at most this far negative


def idle_impulse_allowed(impulse: Impulse) -> bool:
    """HC-5 / HC-10 filter (§7.4): no idle impulse may aim at a negative mood."""
    if impulse.target_valence < HC5_MIN_TARGET_VALENCE:
        return False
    return nearest_mood(impulse.target_valence, impulse.target_arousal) not in NEGATIVE_MOODS


def should_suppress_idle(conversation_active: bool, speaking: bool, error_active: bool,
                         conv_ended_ago_s: float) -> bool:
    """spec 002 §7.3."""
    return (
        conversation_active
        or speaking
        or error_active
        or conv_ended_ago_s < POST_CONVERSATION_COOLDOWN_S
    )


@dataclass(slots=True)
class IdleRuleState:
    """Timers of the idle rules; jitter drawn from the engine's seeded RNG."""

    idle_since: float
    medium_at_s: float
    long_at_s: float
    last_medium: float | None = None
    last_long: float | None = None
    last_evening: float | None = None
    last_offline: float | None = None
    evening_cooldown_s: float = 0.0


class IdleRules:
    """Decides which idle rules fire; the engine applies their impulses."""

    __slots__ = ("_rng", "_trait", "state")

    def __init__(self, trait: TraitParameters, rng: random.Random, now: float) -> None:
        self._trait = trait
        self._rng = rng
        self.state = IdleRuleState(now, MEDIUM_IDLE_S, LONG_IDLE_S)
        self.restart(now)

    def restart(self, now: float) -> None:
        """A new idle period begins (activity happened): redraw the P17 jitter."""
        scale = min(1.0, self._trait.timing_jitter_s / CANONICAL_P17)  # erratum 11 bound
        jm = MEDIUM_JITTER_S_AT_CANONICAL * scale
        jl = LONG_JITTER_S_AT_CANONICAL * scale
        s = self.state
        s.idle_since = now
        s.medium_at_s = MEDIUM_IDLE_S + self._rng.uniform(-jm, jm)
        s.long_at_s = max(s.medium_at_s, LONG_IDLE_S + self._rng.uniform(-jl, jl))
        s.last_medium = None
        s.last_long = None
        s.evening_cooldown_s = self._trait.initiative_cooldown_s + self._rng.uniform(
            -self._trait.timing_jitter_s, self._trait.timing_jitter_s)

    def sleep_rule(self, now: float, conversation_active: bool,
                   offline_since: float | None, error_active: bool = False) -> str | None:
        """DESIGN §6.11: the idle rule whose state holds now (IDLE-03 drowsy, IDLE-04 or
        IDLE-09 asleep), or None while Buddy is awake.

        Idle time counts from the last wake event or conversation end (`restart`). The
        thresholds are IDLE-03's and IDLE-04's with this idle period's jitter. A server
        offline for more than 4 h (IDLE-09) makes Buddy asleep too, but only once the
        §7.3 post-conversation cooldown has passed since the last wake: a wake event wakes
        Buddy "at once" even on a long offline day, and a child poking a resting robot sees
        it look up before it settles again. While a conversation or a fault is active the
        idle rules are suppressed (§7.3), so Buddy stays awake.
        """
        if conversation_active or error_active:
            return None
        idle_s = now - self.state.idle_since
        if (offline_since is not None and now - offline_since >= SERVER_OFFLINE_LONG_S
                and idle_s >= POST_CONVERSATION_COOLDOWN_S):
            return "IDLE-09"
        if idle_s >= self.state.long_at_s:
            return "IDLE-04"
        if idle_s >= self.state.medium_at_s:
            return "IDLE-03"
        return None

    def idle_state(self, now: float, conversation_active: bool,
                   offline_since: float | None, error_active: bool = False) -> int:
        return SLEEP_STATES[self.sleep_rule(now, conversation_active, offline_since,
                                            error_active)]

    def state_change_at(self, now: float, offline_since: float | None) -> float:
        """When `idle_state` can next change by itself (the engine caches it until then)."""
        s = self.state
        t = math.inf
        edges = [s.idle_since + s.medium_at_s, s.idle_since + s.long_at_s]
        if offline_since is not None:
            edges += [offline_since + SERVER_OFFLINE_LONG_S,
                      s.idle_since + POST_CONVERSATION_COOLDOWN_S]
        for edge in edges:
            if edge > now:
                t = min(t, edge)
        return t

    def due(self, now: float, local_hour: float, offline_since: float | None) -> list[str]:
        """Rule ids that fire now (the caller has already checked suppression)."""
        s = self.state
        idle_s = now - s.idle_since
        fired: list[str] = []
        if idle_s >= s.long_at_s:
            if s.last_long is None or now - s.last_long >= LONG_COOLDOWN_S:
                s.last_long = now
                fired.append("IDLE-04")
        elif idle_s >= s.medium_at_s and (
                s.last_medium is None or now - s.last_medium >= MEDIUM_COOLDOWN_S):
            s.last_medium = now
            fired.append("IDLE-03")
        if (offline_since is not None and now - offline_since >= SERVER_OFFLINE_LONG_S
                and (s.last_offline is None or now - s.last_offline >= SERVER_OFFLINE_REPEAT_S)):
            s.last_offline = now
            fired.append("IDLE-09")
        if (EVENING_HOURS[0] <= local_hour < EVENING_HOURS[1]
                and (s.last_evening is None or now - s.last_evening >= s.evening_cooldown_s)):
            s.last_evening = now
            fired.append("IDLE-08")
        return fired

    def next_due(self, now: float, offline_since: float | None) -> float:
        """The earliest time a rule could fire again, so the tick can skip the check."""
        s = self.state
        t = now + POLL_S
        medium = s.idle_since + s.medium_at_s
        long_ = s.idle_since + s.long_at_s
        if now < medium:
            t = min(t, medium)
        elif now < long_:
            t = min(t, long_)
            if s.last_medium is not None:
                t = min(t, s.last_medium + MEDIUM_COOLDOWN_S)
        elif s.last_long is not None:
            t = min(t, s.last_long + LONG_COOLDOWN_S)
        if offline_since is not None:
            t = min(t, max(offline_since + SERVER_OFFLINE_LONG_S,
                           (s.last_offline or -1e18) + SERVER_OFFLINE_REPEAT_S))
        return max(t, now + 1e-9)
