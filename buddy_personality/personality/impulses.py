"""The layer-0 impulse catalog (spec 002 §5.1) with its cooldowns."""

from __future__ import annotations

from dataclasses import dataclass

from buddy_personality.personality.affect import Impulse


@dataclass(slots=True, frozen=True)
class L0Rule:
    """One row of the §5.1 table."""

    rule_id: str
    target_valence: float
    target_arousal: float
    magnitude: float
    cooldown_s: float  # 0: no cooldown
    source: str

    def impulse(self) -> Impulse:
        return Impulse(self.target_valence, self.target_arousal, self.magnitude, self.source)


# spec 002 §5.1 (IDLE-01/03/04/05/06 of §7.1 are the same rows as L0-01/11/12/07/08)
L0_CATALOG: dict[str, L0Rule] = {
    r.rule_id: r
    for r in (
        L0Rule("L0-01", 0.35, 0.40, 0.50, 0.0, "system_event"),  # boot, once per boot
        L0Rule("L0-02", -0.15, 0.10, 0.30, 120.0, "system_event"),  # low battery < 20 %
        L0Rule("L0-03", 0.05, -0.60, 0.40, 0.0, "system_event"),  # critical battery < 10 %
        L0Rule("L0-04", -0.10, 0.25, 0.40, 30.0, "system_event"),  # fault raised
        L0Rule("L0-05", 0.15, -0.10, 0.30, 0.0, "system_event"),  # fault cleared
        L0Rule("L0-06", 0.10, 0.15, 0.30, 0.0, "conversation"),  # conversation started
        L0Rule("L0-07", 0.20, -0.05, 0.40, 0.0, "conversation"),  # ended, affect.v > 0
        L0Rule("L0-08", 0.05, -0.10, 0.30, 0.0, "conversation"),  # ended, affect.v <= 0
        L0Rule("L0-09", 0.05, 0.10, 0.20, 5.0, "speech_signal"),  # speech activity
        L0Rule("L0-10", 0.15, 0.20, 0.40, 5.0, "button"),  # button press
        L0Rule("L0-11", 0.00, -0.15, 0.30, 600.0, "idle_rule"),  # medium idle (IDLE-03)
        L0Rule("L0-12", 0.00, -0.30, 0.40, 1800.0, "idle_rule"),  # long idle (IDLE-04)
        L0Rule("L0-13", 0.10, 0.15, 0.25, 10.0, "system_event"),  # child approach
    )
}

# spec 002 §5.1 thresholds
LOW_BATTERY_PCT = 20.0
CRITICAL_BATTERY_PCT = 10.0


class CooldownTracker:
    """Remembers when each rule last fired; a rule inside its cooldown does not fire."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: dict[str, float] = {}

    def ready(self, rule_id: str, cooldown_s: float, now: float) -> bool:
        last = self._last.get(rule_id)
        return last is None or cooldown_s <= 0.0 or now - last >= cooldown_s

    def fire(self, rule_id: str, now: float) -> None:
        self._last[rule_id] = now

    def last(self, rule_id: str) -> float | None:
        return self._last.get(rule_id)

    def try_fire(self, rule: L0Rule, now: float) -> bool:
        if not self.ready(rule.rule_id, rule.cooldown_s, now):
            return False
        self._last[rule.rule_id] = now
        return True
