"""Sleep and idle: awake / drowsy / asleep and the idle rules (spec 002 §7, DESIGN
erratum 11), with what suppresses them (§7.3): talk, speech, faults and the
post-conversation cooldown.

`SleepCycle` keeps the idle state, the point the §2.4 decay pulls toward (the baseline
while awake, the sleep rule's target while drowsy or asleep) and when the idle rules are
next due. The engine asks it which idle impulses fire and applies them.
"""

from __future__ import annotations

import math
import random

from buddy_personality.personality.affect import Impulse
from buddy_personality.personality.idle import (
    IDLE_IMPULSES,
    POST_CONVERSATION_COOLDOWN_S,
    SLEEP_STATES,
    IdleRules,
    idle_impulse_allowed,
)
from buddy_personality.personality.records import IDLE_AWAKE
from buddy_personality.personality.traits import TraitParameters

# A lost "speaking: false" must not silence the idle rules forever (§7.3 suppression).
SPEAKING_STALE_S = 300.0


class SleepCycle:
    """Idle state, decay attractor and the inputs that suppress the idle rules."""

    __slots__ = ("_ba", "_bv", "_rule", "attractor_arousal", "attractor_valence", "due_at",
                 "faults", "idle_state", "offline_since", "rules", "server_online",
                 "speaking", "speaking_since", "state_until")

    def __init__(self, traits: TraitParameters, rng: random.Random, now: float) -> None:
        self.rules = IdleRules(traits, rng, now)
        self.due_at = now        # the idle rules are next checked then
        self.state_until = now   # the idle state can next change by itself then
        self.idle_state = IDLE_AWAKE
        self._rule: str | None = None
        self._bv = traits.baseline_valence
        self._ba = traits.baseline_arousal
        # DESIGN §6.11: the point the §2.4 decay pulls toward. The baseline while awake;
        # the sleep rule's target (IDLE-03/04/09) while drowsy or asleep.
        self.attractor_valence = self._bv
        self.attractor_arousal = self._ba
        self.speaking = False
        self.speaking_since = -math.inf
        self.faults: set[str] = set()
        self.server_online = False
        self.offline_since: float | None = None

    def restart(self, now: float, conversation_active: bool) -> None:
        """DESIGN §6.11: a wake event makes Buddy awake at once and starts a new idle
        period (a new jitter draw)."""
        self.rules.restart(now)
        self.due_at = now
        self.update(now, conversation_active)

    def update(self, now: float, conversation_active: bool) -> None:
        """Awake / drowsy / asleep now, and the decay attractor that goes with it."""
        rule = self.rules.sleep_rule(now, conversation_active, self.offline_since,
                                     bool(self.faults))
        self.state_until = self.rules.state_change_at(now, self.offline_since)
        if rule == self._rule:
            return
        self._rule = rule
        self.idle_state = SLEEP_STATES[rule]
        if rule is None:
            self.attractor_valence = self._bv
            self.attractor_arousal = self._ba
        else:
            target = IDLE_IMPULSES[rule]
            self.attractor_valence = target.target_valence
            self.attractor_arousal = target.target_arousal

    def due_impulses(self, now: float, local_hour: float, conversation_active: bool,
                     conv_ended_at: float) -> list[tuple[str, Impulse]]:
        """spec 002 §7: the idle rules that fire now, unless §7.3 suppresses them; each
        impulse has passed the HC-5 / HC-10 filter (§7.4)."""
        fired: list[tuple[str, Impulse]] = []
        speaking = self.speaking and now - self.speaking_since < SPEAKING_STALE_S
        if not (conversation_active or speaking or self.faults
                or now - conv_ended_at < POST_CONVERSATION_COOLDOWN_S):
            for rule_id in self.rules.due(now, local_hour, self.offline_since):
                imp = IDLE_IMPULSES[rule_id]
                if idle_impulse_allowed(imp):
                    fired.append((rule_id, imp))
        self.due_at = self.rules.next_due(now, self.offline_since)
        return fired

    # --- inputs that change what the rules see -------------------------------------------
    def on_speaking(self, now: float, speaking: bool) -> None:
        self.speaking = speaking
        if speaking:
            self.speaking_since = now
        self.due_at = now

    def fault_raised(self, detail: str) -> None:
        self.faults.add(detail or "fault")

    def fault_cleared(self, detail: str) -> bool:
        """L0-05's condition: True when the last active fault cleared now."""
        if not self.faults:
            return False
        if detail and detail in self.faults:
            self.faults.discard(detail)
        else:
            self.faults.clear()
        return not self.faults

    def server(self, now: float, online: bool) -> None:
        self.server_online = online
        if online:
            self.offline_since = None
        elif self.offline_since is None:
            self.offline_since = now
