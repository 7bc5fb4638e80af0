"""A simulated day for `buddy eval --simulate-day`: the personality engine core driven
directly under sim time (1 Hz tick for 24 h) by a seeded, scripted household day.

The day (local time, UTC offset 0), every time jittered by the seed:

- 06:30 boot, the LLM server announces itself a few seconds later (layer 1);
- 13 conversation sessions between 07:00 and 20:30: a wake word (child approach), the
  STARTED event, 5-12 turns, goodbye. A turn in layer 1 is what the LLM bridge emits:
  an INLINE intent while the reply streams, the HYBRID intent of the whole reply, now
  and then a POST intent mirroring the child, and TTS speaking on and off. The emotion
  of each reply is drawn from one catalogue of plausible replies to a 4-6 year old (so
  every session is a sample of the same kind of day), with some carry-over from the
  previous turn; confidences are mostly high, sometimes below the spec 000 gate;
- 12:00-16:30 the server is down (SERVER_OFFLINE): three of the sessions run on layer 0
  (no LLM intents, canned replies still spoken), and the idle time in between is the
  layer-0 idle behaviour;
- a few face-button pokes outside conversations, a low battery in the late afternoon
  (18 %, then 15 % six minutes later), and the night's idle until 06:30.

The bridge's reactions to the engine are modelled too: an RS-1 / RS-2 guardrail ends
the session at once, as the LLM bridge does (DESIGN §4.5). Nothing here tunes the engine.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from buddy_personality.personality.engine import (
    BUTTON_CLICK,
    SYS_BOOT,
    SYS_LOW_BATTERY,
    SYS_SERVER_OFFLINE,
    SYS_SERVER_ONLINE,
    PersonalityEngine,
)
from buddy_personality.personality.intent_gate import SOURCE_HYBRID, SOURCE_INLINE, SOURCE_POST
from buddy_personality.personality.records import EngineOutput, GuardrailTriggered
from buddy_personality.tools.evaluation.metrics import Sample

DAY_S = 86400
# A Monday; the date only matters for local hours (morning / evening idle rules).
DAY_START = datetime(2026, 3, 2, 6, 30, tzinfo=UTC).timestamp()
SERVER_DOWN = (12.0, 16.5)  # local hours of the offline stretch
SESSION_HOURS = (7.2, 8.1, 9.4, 10.6, 11.4, 12.7, 14.2, 15.8, 16.9, 17.7, 18.5, 19.3, 20.2)
SESSION_JITTER_H = 0.15
BUTTON_POKE_HOURS = (9.9, 13.3, 16.2, 19.8)
LOW_BATTERY_HOUR = 17.4
TURNS = (5, 12)

# Replies to a 4-6 year old: (emotion, weight). Mostly warm, curious and playful, some
# thinking and confusion, a little sadness or fear when a story calls for it; angry is
# rare and then needs the spec 000 guard to pass.
REPLY_EMOTIONS: tuple[tuple[str, float], ...] = (
    ("happy", 20), ("curious", 16), ("thinking", 12), ("excited", 10), ("silly", 10),
    ("love", 6), ("surprised", 6), ("neutral", 6), ("confused", 5), ("sad", 4),
    ("scared", 2), ("sleepy", 2), ("angry", 1),
)
CHILD_AFFECT: tuple[tuple[str, float], ...] = (
    ("happy", 40), ("excited", 20), ("curious", 15), ("sad", 10), ("confused", 10),
    ("scared", 5),
)
CARRY_OVER = 0.3  # chance that a reply keeps the previous reply's emotion
POST_CHANCE = 0.25
BUTTON_IN_TURN_CHANCE = 0.08
LOW_CONFIDENCE_CHANCE = 0.05  # an intent the spec 000 confidence gate drops
REASONS = {
    "sad": "the story's puppy got lost",
    "scared": "the thunder in the story",
    "angry": "the dragon broke the bridge",
}


@dataclass(slots=True, order=True)
class _Action:
    t: float
    seq: int
    kind: str = field(compare=False)
    args: dict[str, Any] = field(compare=False, default_factory=dict)
    session: str = field(compare=False, default="")


@dataclass(slots=True)
class SimDay:
    """The result: the snapshot timeline plus what happened, for the report."""

    samples: list[Sample]
    seed: int
    start: float
    sessions_planned: int
    sessions_cut_short: list[str]
    server_down: tuple[float, float]  # sim seconds
    engine_stats: dict[str, dict[str, int]]
    guardrails: dict[str, int]


def _weighted(rng: random.Random, table: tuple[tuple[str, float], ...]) -> str:
    names = [n for n, _ in table]
    weights = [w for _, w in table]
    return rng.choices(names, weights)[0]


def _at(hour: float) -> float:
    """Sim seconds of a local hour of the simulated day (hours past 24 are the next day)."""
    return DAY_START + (hour - 6.5) * 3600.0


class _Script:
    """Builds the day's actions; a session's actions carry its id so the bridge model
    can cancel the rest when a guardrail ends it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.heap: list[_Action] = []
        self._seq = itertools.count()

    def add(self, t: float, action: str, session: str = "", **args: Any) -> None:
        heapq.heappush(self.heap, _Action(t, next(self._seq), action, args, session))

    def session(self, sid: str, t: float, online: bool) -> None:
        rng = self.rng
        self.add(t, "approach", sid)
        t += 0.5
        self.add(t, "started", sid, session_id=sid)
        prev = ""
        for turn in range(1, rng.randint(*TURNS) + 1):
            t += rng.uniform(1.0, 2.5)  # the child speaks; the bridge thinks
            if online:
                emotion = prev if prev and rng.random() < CARRY_OVER else _weighted(
                    rng, REPLY_EMOTIONS)
                prev = emotion
                intensity = rng.uniform(0.4, 0.9)
                conf = (rng.uniform(0.05, 0.19) if rng.random() < LOW_CONFIDENCE_CHANCE
                        else rng.uniform(0.55, 0.95))
                reason = REASONS.get(emotion, "")
                t += rng.uniform(0.8, 2.0)  # the emotion field completes in the stream
                self.add(t, "emotion", sid, emotion=emotion, intensity=intensity,
                         confidence=conf, source=SOURCE_INLINE, reason=reason, turn=turn)
                t += rng.uniform(1.1, 2.5)  # the whole reply validated
                self.add(t, "emotion", sid, emotion=emotion, intensity=intensity,
                         confidence=min(1.0, conf + 0.05), source=SOURCE_HYBRID,
                         reason=reason, turn=turn)
            else:
                t += rng.uniform(0.3, 0.8)  # layer 0: a canned reply, no emotion intent
            t += 0.3
            self.add(t, "speaking", sid, speaking=True)
            t += rng.uniform(2.0, 7.0)
            self.add(t, "speaking", sid, speaking=False)
            if online and rng.random() < POST_CHANCE:
                self.add(t + 0.2, "emotion", sid, emotion=_weighted(rng, CHILD_AFFECT),
                         intensity=rng.uniform(0.3, 0.7), confidence=rng.uniform(0.5, 0.9),
                         source=SOURCE_POST, reason="", turn=turn)
            if rng.random() < BUTTON_IN_TURN_CHANCE:
                self.add(t + rng.uniform(0.5, 2.0), "button", sid)
            t += rng.uniform(3.0, 12.0)  # the child thinks of what to say next
        self.add(t, "ended", sid, session_id=sid, trigger="goodbye")


def build_script(rng: random.Random) -> tuple[list[_Action], int, tuple[float, float]]:
    script = _Script(rng)
    script.add(DAY_START, "system", kind=SYS_BOOT)
    script.add(DAY_START + rng.uniform(2.0, 6.0), "system", kind=SYS_SERVER_ONLINE)
    down = (_at(SERVER_DOWN[0]) + rng.uniform(-300, 300),
            _at(SERVER_DOWN[1]) + rng.uniform(-300, 300))
    script.add(down[0], "system", kind=SYS_SERVER_OFFLINE, detail="server unreachable")
    script.add(down[1], "system", kind=SYS_SERVER_ONLINE, detail="server back")
    for i, hour in enumerate(SESSION_HOURS, start=1):
        t = _at(hour) + rng.uniform(-SESSION_JITTER_H, SESSION_JITTER_H) * 3600.0
        script.session(f"s{i:02d}", t, online=not down[0] <= t <= down[1])
    for hour in BUTTON_POKE_HOURS:
        script.add(_at(hour) + rng.uniform(-600, 600), "button")
    low = _at(LOW_BATTERY_HOUR) + rng.uniform(-600, 600)
    script.add(low, "system", kind=SYS_LOW_BATTERY, battery_pct=18.0)
    script.add(low + 360.0, "system", kind=SYS_LOW_BATTERY, battery_pct=15.0)
    return sorted(script.heap), len(SESSION_HOURS), down


def _sample(out: EngineOutput) -> Sample:
    s = out.snapshot
    return Sample(s.stamp, s.mood, s.valence, s.arousal, s.conversation_active, s.layer,
                  s.intensity)


def simulate_day(seed: int, *, progress: Callable[[int], None] | None = None,
                 duration_s: int = DAY_S) -> SimDay:
    """Run the day; `progress(seconds_done)` is called every simulated minute."""
    rng = random.Random(seed)
    actions, planned, down = build_script(rng)
    engine = PersonalityEngine(DAY_START, seed=seed)
    samples: list[Sample] = []
    cancelled: set[str] = set()
    cut_short: list[str] = []
    guardrails: dict[str, int] = {}

    def bridge(out: EngineOutput, now: float) -> None:
        """The LLM bridge's reaction: RS-1 / RS-2 end the session (DESIGN §4.5)."""
        samples.append(_sample(out))
        for ev in out.events:
            if isinstance(ev, GuardrailTriggered):
                guardrails[ev.rule_id] = guardrails.get(ev.rule_id, 0) + 1
                if ev.rule_id in ("RS-1", "RS-2") and engine.conversation_active:
                    sid = engine.session_id
                    cancelled.add(sid)
                    cut_short.append(sid)
                    samples.append(_sample(engine.on_conversation_ended(now, sid)))

    it: Iterator[_Action] = iter(actions)
    pending = next(it, None)
    for k in range(1, duration_s + 1):
        now = DAY_START + k
        while pending is not None and pending.t <= now:
            a = pending
            pending = next(it, None)
            if a.session and a.session in cancelled:
                continue
            bridge(_apply(engine, a), a.t)
        bridge(engine.tick(now), now)
        if progress is not None and k % 60 == 0:
            progress(k)
    stats = engine.stats
    return SimDay(samples, seed, DAY_START, planned, cut_short, down,
                  {"impulses_by_source": dict(stats.impulses_by_source),
                   "gate_rejections": dict(stats.gate_rejections)},
                  guardrails)


def _apply(engine: PersonalityEngine, a: _Action) -> EngineOutput:
    t = a.t
    kw = a.args
    if a.kind == "system":
        return engine.on_system_event(t, kw["kind"], kw.get("battery_pct", -1.0),
                                      kw.get("detail", ""))
    if a.kind == "approach":
        return engine.on_child_approach(t)
    if a.kind == "started":
        return engine.on_conversation_started(t, kw["session_id"], "wake_word")
    if a.kind == "ended":
        return engine.on_conversation_ended(t, kw["session_id"])
    if a.kind == "speaking":
        return engine.on_speech_activity(t, kw["speaking"])
    if a.kind == "button":
        return engine.on_button(t, 0, BUTTON_CLICK)
    if a.kind == "emotion":
        return engine.on_ai_emotion(t, kw["emotion"], kw["intensity"], kw["confidence"],
                                    kw["source"], kw["reason"], a.session, kw["turn"])
    raise ValueError(f"unknown scripted action {a.kind!r}")
