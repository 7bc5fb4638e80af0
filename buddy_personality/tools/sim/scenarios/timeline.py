"""What happened in a run or a bag, as a list of readable events (for the demo report and
the scenario checks): moods, guardrails, layer changes, conversations, what the child said
and what Buddy answered, system events and button presses."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from buddy_personality.msg_constants import (
    Button,
    ButtonAction,
    ConversationKind,
    EmotionSource,
    Layer,
    Phase,
    SystemKind,
)
from buddy_personality.tools.bags.bagio import BagMessage, deserialize
from buddy_personality.tools.sim.sim_graph import Captured, relative

# names of the message constants (msg_constants, checked against buddy_msgs)
SYSTEM_EVENT_NAMES = {int(k): k.name for k in SystemKind}
SOURCE_NAMES = {int(s): s.name for s in EmotionSource}
BUTTON_NAMES = {int(b): b.name for b in Button}
BUTTON_EVENTS = {int(a): a.name.lower() for a in ButtonAction}
PHASE_NAMES = {int(p): p.name for p in Phase}

# kinds of timeline event
CHILD, SAY, STARTED, ENDED, MOOD, GUARDRAIL, LAYER, SYSTEM, BUTTON, EMOTION, PHASE = (
    "child", "say", "started", "ended", "mood", "guardrail", "layer", "system", "button",
    "llm_emotion", "phase")


@dataclass(slots=True, frozen=True)
class Event:
    t: float          # sim time (s)
    kind: str
    text: str         # one readable line
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(slots=True)
class Timeline:
    events: list[Event]
    snapshots: list[tuple[float, Any]]  # (t, PersonalitySnapshot) for figures

    def of(self, *kinds: str) -> list[Event]:
        return [e for e in self.events if e.kind in kinds]

    def first(self, kind: str, after: float = float("-inf"), **match: Any) -> Event | None:
        for e in self.events:
            if e.kind == kind and e.t >= after and all(e.data.get(k) == v
                                                         for k, v in match.items()):
                return e
        return None

    def mood_at(self, t: float) -> str:
        """The mood of the last snapshot at or before t."""
        mood = "neutral"
        for ts, snap in self.snapshots:
            if ts > t:
                break
            mood = snap.mood
        return mood


def build_timeline(messages: Iterable[Captured | BagMessage], namespace: str = "buddy"
                   ) -> Timeline:
    events: list[Event] = []
    snapshots: list[tuple[float, Any]] = []
    layer: int | None = None
    phase: int | None = None
    for m in messages:
        rel = relative(m.topic, namespace)
        t = m.t_ns * 1e-9
        if rel not in _INTERESTING:
            continue
        msg = deserialize(m.type_name, m.data)
        if rel == "personality/snapshot":
            snapshots.append((t, msg))
            if layer is not None and msg.layer != layer:
                events.append(Event(t, LAYER, f"layer {layer} -> {msg.layer} "
                                    f"({'LLM' if msg.layer == Layer.LLM else 'rules only'})",
                                    {"layer": int(msg.layer)}))
            layer = int(msg.layer)
        elif rel == "speech/utterance":
            events.append(Event(t, CHILD, f'child says "{msg.text}"', {"text": msg.text}))
        elif rel == "tts/say":
            events.append(Event(t, SAY, f'Buddy says "{msg.text}" ({msg.emotion})',
                                {"text": msg.text, "emotion": msg.emotion,
                                 "session_id": msg.session_id}))
        elif rel == "conversation/events":
            if msg.kind == ConversationKind.STARTED:
                events.append(Event(t, STARTED, f"conversation started ({msg.trigger})",
                                    {"trigger": msg.trigger, "session_id": msg.session_id}))
            else:
                events.append(Event(t, ENDED, f"conversation ended ({msg.trigger}, "
                                    f"{msg.turns} turns)",
                                    {"trigger": msg.trigger, "turns": int(msg.turns),
                                     "session_id": msg.session_id}))
        elif rel == "personality/mood_changed":
            events.append(Event(t, MOOD, f"mood {msg.prev} -> {msg.next} ({msg.cause}, "
                                f"intensity {msg.intensity:.2f})",
                                {"prev": msg.prev, "next": msg.next, "cause": msg.cause,
                                 "intensity": float(msg.intensity)}))
        elif rel == "personality/guardrail":
            events.append(Event(t, GUARDRAIL, f"guardrail {msg.rule_id}: {msg.action} "
                                f"({msg.details})",
                                {"rule_id": msg.rule_id, "action": msg.action}))
        elif rel == "system/events":
            name = SYSTEM_EVENT_NAMES.get(int(msg.kind), str(msg.kind))
            pct = f" {msg.battery_pct:.0f} %" if msg.battery_pct >= 0 else ""
            events.append(Event(t, SYSTEM, f"system event {name}{pct}",
                                {"name": name, "battery_pct": float(msg.battery_pct)}))
        elif rel == "face/button":
            events.append(Event(t, BUTTON, f"button {BUTTON_NAMES.get(msg.button_id, '?')} "
                                f"{BUTTON_EVENTS.get(msg.event_type, '?')}",
                                {"button": int(msg.button_id), "event": int(msg.event_type)}))
        elif rel == "personality/ai_emotion":
            src = SOURCE_NAMES.get(int(msg.source), "?")
            who = "layer-0" if src == "RULES" else "LLM"
            events.append(Event(t, EMOTION, f"{who} emotion {msg.emotion} ({src}, intensity "
                                f"{msg.intensity:.2f})",
                                {"emotion": msg.emotion, "source": src}))
        elif rel == "conversation/phase" and msg.phase != phase:
            events.append(Event(t, PHASE, f"phase {PHASE_NAMES.get(msg.phase, '?')}",
                                {"phase": PHASE_NAMES.get(msg.phase, "?")}))
            phase = int(msg.phase)
    return Timeline(events, snapshots)


_INTERESTING = frozenset({
    "personality/snapshot", "speech/utterance", "tts/say", "conversation/events",
    "personality/mood_changed", "personality/guardrail", "system/events", "face/button",
    "personality/ai_emotion", "conversation/phase",
})
