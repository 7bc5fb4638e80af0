"""The expected timeline of each scenario, as checks derived from the spec.

A golden bag is written only when every check of its scenario passes, so a bag under
test/data/ always shows the behaviour its scenario's docstring states. Each check names
the spec rule it stands for; times are seconds after the scenario's start, and "at"
means within one sim step (1 s while something happens).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from buddy_personality.cognition.lines import CLOSING_LINES, LOCKOUT_LINE
from buddy_personality.personality.moods import NEGATIVE_MOODS
from buddy_personality.tools.sim.scenarios import day
from buddy_personality.tools.sim.scenarios.timeline import (
    CHILD,
    EMOTION,
    ENDED,
    GUARDRAIL,
    MOOD,
    SAY,
    STARTED,
    SYSTEM,
    Timeline,
)

STEP_S = 1.0  # the scenario's step while something happens (StepPolicy.active_s)


@dataclass(slots=True, frozen=True)
class CheckResult:
    name: str
    ok: bool
    detail: str


Check = Callable[[Timeline, float], CheckResult]


def _at(t: float, expected: float) -> bool:
    return abs(t - expected) <= STEP_S + 1e-6


def _result(name: str, ok: bool, detail: str) -> CheckResult:
    return CheckResult(name, bool(ok), detail)


def _around(tl: Timeline, t: float) -> tuple[Any, Any]:
    """The last snapshot before t, and the last one at t (published by the event's fast
    path, after the tick of that step)."""
    before = [s for ts, s in tl.snapshots if ts < t]
    at = [s for ts, s in tl.snapshots if ts == t]
    return (before[-1] if before else None), (at[-1] if at else None)


# -- checks shared by the scenarios --------------------------------------------------


def boot_curious(tl: Timeline, t0: float) -> CheckResult:
    name = "boot: L0-01 / IDLE-01 make Buddy CURIOUS at once (spec 002 §5.1, §7.1)"
    e = tl.first(MOOD, next="curious")
    ok = e is not None and e.t - t0 <= STEP_S and e.data["cause"] == "system_event"
    return _result(name, ok, e.text if e else "never curious")


def boot_back_to_neutral(tl: Timeline, t0: float) -> CheckResult:
    name = "boot: the lift decays back to NEUTRAL within 2 min (spec 002 §7.1 IDLE-01)"
    mood = tl.mood_at(t0 + 120.0)
    return _result(name, mood == "neutral", f"mood at +120 s: {mood}")


def quiet_until(first_words_s: float) -> Check:
    def check(tl: Timeline, t0: float) -> CheckResult:
        name = "PE-5: zero verbal initiative, nothing said before a child speaks (spec 002 App. A)"
        says = [e for e in tl.of(SAY) if e.t < t0 + first_words_s]
        return _result(name, not says, f"{len(says)} lines before +{first_words_s:.0f} s")
    return check


def no_negative_mood_in_idle(tl: Timeline, t0: float) -> CheckResult:
    name = "HC-10: no negative mood outside a conversation (spec 002 §9.2)"
    bad = [(t, s.mood) for t, s in tl.snapshots
           if s.mood in NEGATIVE_MOODS and not s.conversation_active]
    detail = "none" if not bad else f"{len(bad)} snapshots, first {bad[0][1]} at " \
        f"+{bad[0][0] - t0:.0f} s"
    return _result(name, not bad, detail)


def started_at(at_s: float, trigger: str = "wake_word") -> Check:
    def check(tl: Timeline, t0: float) -> CheckResult:
        name = f"wake utterance at +{at_s:.0f} s starts a conversation ({trigger}; DESIGN §4.5)"
        e = tl.first(STARTED, after=t0 + at_s - STEP_S)
        ok = e is not None and _at(e.t, t0 + at_s) and e.data["trigger"] == trigger
        return _result(name, ok, e.text if e else "no conversation started")
    return check


def every_utterance_answered(start_s: float, end_s: float) -> Check:
    def check(tl: Timeline, t0: float) -> CheckResult:
        name = (f"every utterance in the session +{start_s:.0f}..+{end_s:.0f} s gets one "
                "reply (spec 003 §3.4: a child's utterance in session qualifies)")
        said = [e for e in tl.of(CHILD) if t0 + start_s <= e.t < t0 + end_s]
        replies = [e for e in tl.of(SAY) if t0 + start_s <= e.t < t0 + end_s]
        unanswered = [e for e in said if not any(r.t == e.t for r in replies)]
        ok = said and not unanswered and len(replies) == len(said)
        return _result(name, bool(ok), f"{len(said)} utterances, {len(replies)} replies, "
                       f"{len(unanswered)} unanswered")
    return check


def ended_at(at_s: float, trigger: str, rule: str | None = None) -> Check:
    def check(tl: Timeline, t0: float) -> CheckResult:
        label = f"{rule} " if rule else ""
        name = (f"{label}conversation ends at +{at_s:.0f} s ({trigger}) with its closing "
                "line (DESIGN §4.5)")
        e = tl.first(ENDED, after=t0 + at_s - STEP_S)
        ok = e is not None and _at(e.t, t0 + at_s) and e.data["trigger"] == trigger
        line = CLOSING_LINES.get(trigger)
        if ok and line:
            ok = any(s.t == e.t and s.data["text"] == line for s in tl.of(SAY))
        if ok and rule:
            g = tl.first(GUARDRAIL, after=t0 + at_s - STEP_S, rule_id=rule)
            ok = g is not None and _at(g.t, t0 + at_s)
        return _result(name, ok, e.text if e else "no conversation ended")
    return check


# -- the morning ---------------------------------------------------------------------


def layer1_after_boot(tl: Timeline, t0: float) -> CheckResult:
    name = ("the LLM bridge's probe finds the scripted server: SERVER_ONLINE and layer 1 "
            "within 5 s (DESIGN §4.5, spec 002 §10)")
    online = tl.first(SYSTEM, name="SERVER_ONLINE")
    layer1 = next((t for t, s in tl.snapshots if s.layer == 1), None)
    ok = online is not None and online.t - t0 <= 5.0 and layer1 is not None \
        and layer1 - t0 <= 5.0
    return _result(name, ok, f"online at {'-' if online is None else f'+{online.t - t0:.0f}'}"
                   f" s, layer 1 at {'-' if layer1 is None else f'+{layer1 - t0:.0f}'} s")


def inline_and_hybrid(tl: Timeline, t0: float) -> CheckResult:
    name = ("each LLM reply reaches the engine as an INLINE intent while it streams and a "
            "HYBRID intent when complete (DESIGN §4.5, spec 002 §12-§13)")
    sources = {e.data["source"] for e in tl.of(EMOTION)}
    return _result(name, {"INLINE", "HYBRID"} <= sources, f"sources seen: {sorted(sources)}")


def low_battery_pulls_valence(at_s: float) -> Check:
    def check(tl: Timeline, t0: float) -> CheckResult:
        name = (f"low battery at +{at_s:.0f} s: L0-02 pulls affect toward (-0.15, +0.10), "
                "while the mood shown stays non-negative (spec 002 §5.1, HC-10)")
        before, after = _around(tl, t0 + at_s)
        if before is None or after is None:
            return _result(name, False, "no snapshots around the event")
        dv = after.valence - before.valence
        ok = dv < -0.05 and after.mood not in NEGATIVE_MOODS
        return _result(name, ok, f"valence {before.valence:+.3f} -> "
                       f"{after.valence:+.3f}, mood {after.mood}")
    return check


def lockout_refusal(at_s: float) -> Check:
    def check(tl: Timeline, t0: float) -> CheckResult:
        name = (f"during the RS-2 lockout a wake at +{at_s:.0f} s gets one friendly line and "
                "no session (spec 002 §9.3 RS-2)")
        lines = [e for e in tl.of(SAY) if _at(e.t, t0 + at_s)]
        started = tl.first(STARTED, after=t0 + at_s - STEP_S)
        ok = len(lines) == 1 and lines[0].data["text"] == LOCKOUT_LINE and started is None
        return _result(name, ok, f"{len(lines)} line(s), "
                       f"{'a session started' if started else 'no session'}")
    return check


def drowsy_before(child_s: float) -> Check:
    def check(tl: Timeline, t0: float) -> CheckResult:
        name = ("idle: drowsy from IDLE-03's threshold, 5 min ± 2 min after the boot, shows "
                f"SLEEPY until the child comes at +{child_s:.0f} s, never asleep before "
                "(DESIGN §6.11)")
        idle = [(t - t0, s) for t, s in tl.snapshots if t0 <= t < t0 + child_s]
        sleepy = [t for t, s in idle if s.mood == "sleepy"]
        ok = bool(sleepy) and 180.0 - STEP_S <= sleepy[0] <= 420.0 + STEP_S
        ok = ok and all(s.mood == "sleepy" and s.idle_state == 1 for t, s in idle
                        if t >= sleepy[0])
        ok = ok and not any(s.idle_state == 2 for _, s in idle)
        return _result(name, ok, f"SLEEPY from +{sleepy[0]:.0f} s" if sleepy else
                       "never SLEEPY")
    return check


def woken_at(child_s: float) -> Check:
    def check(tl: Timeline, t0: float) -> CheckResult:
        name = (f"the child's wake utterance at +{child_s:.0f} s wakes Buddy at once: awake, "
                "not SLEEPY (DESIGN §6.11 wake events)")
        _before, at = _around(tl, t0 + child_s)
        ok = at is not None and at.idle_state == 0 and at.mood != "sleepy"
        return _result(name, ok, "no snapshot" if at is None else
                       f"{at.mood}, idle_state {at.idle_state}")
    return check


def morning_checks() -> list[Check]:
    first, second = day.FIRST_S, day.SECOND_S
    rs1 = first + day.RS1_S                                          # 1440 s
    rs2 = second + (day.RS2_S - day.EARLIER_TODAY_S - day.RS1_S)     # 2100 s
    return [
        boot_curious, boot_back_to_neutral, layer1_after_boot, quiet_until(first),
        drowsy_before(first), woken_at(first), started_at(first),
        every_utterance_answered(first, rs1), inline_and_hybrid,
        ended_at(rs1, "session_limit", "RS-1"), low_battery_pulls_valence(1500.0),
        started_at(second), ended_at(rs2, "daily_limit", "RS-2"), lockout_refusal(2220.0),
        no_negative_mood_in_idle,
    ]


# -- the layer-0 visit ---------------------------------------------------------------


def rules_only(tl: Timeline, t0: float) -> CheckResult:
    name = ("no server: layer 0 throughout, no LLM intents, replies from the rules "
            "(spec 002 §10, RS-9)")
    layers = {s.layer for _t, s in tl.snapshots}
    emotions = tl.of(EMOTION)
    ok = layers == {0} and not emotions and tl.first(SYSTEM, name="SERVER_ONLINE") is None
    return _result(name, ok, f"layers {sorted(layers)}, {len(emotions)} LLM intents")


def critical_battery_lowers_arousal(at_s: float) -> Check:
    def check(tl: Timeline, t0: float) -> CheckResult:
        name = (f"critical battery at +{at_s:.0f} s: L0-03 pulls arousal toward -0.60 "
                "(spec 002 §5.1)")
        before, after = _around(tl, t0 + at_s)
        if before is None or after is None:
            return _result(name, False, "no snapshots around the event")
        da = after.arousal - before.arousal
        return _result(name, da < -0.1, f"arousal {before.arousal:+.3f} -> "
                       f"{after.arousal:+.3f}")
    return check


def layer0_checks() -> list[Check]:
    return [
        boot_curious, boot_back_to_neutral, rules_only, quiet_until(90.0), started_at(90.0),
        every_utterance_answered(90.0, 135.0), ended_at(135.0, "goodbye"),
        critical_battery_lowers_arousal(200.0), no_negative_mood_in_idle,
    ]


CHECKS: dict[str, Callable[[], list[Check]]] = {
    "morning": morning_checks,
    "layer0_visit": layer0_checks,
}


def run_checks(name: str, tl: Timeline, t0: float) -> list[CheckResult]:
    return [check(tl, t0) for check in CHECKS[name]()]
