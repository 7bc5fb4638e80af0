"""A simulated day for `buddy eval --simulate-day`: the cores of the graph (personality
engine, LLM bridge, identity) wired as the nodes wire them, driven under sim time for 24 h
by a conversation corpus (DESIGN §6.13, §6.14).

The day (local time, UTC offset 0), every time jittered by the seed:

- 06:30 boot; the bridge's health probe finds the server (SERVER_ONLINE, layer 1);
- the conversations of the corpus, in a seeded order, as many as fit the RS-2 daily
  limit, spread over 07:00-20:30 with idle time between them (DESIGN §6.14: one
  conversation, one session, one arc). The child says the wake phrase (added to the first
  line when missing) and Buddy's reply comes back through the real path: the bridge's
  cognition gate and prompt, the corpus reply serialised as the server would stream it
  (INLINE intent as soon as `emotion` is complete, HYBRID and POST after the whole answer
  is parsed and validated by the bridge's own schema code), the spec 000 gate and the
  §13 pipeline in the engine, and TTS speaking on and off for the time the text takes
  to say. The child answers a few seconds after Buddy stops speaking; after the last
  line the child says goodbye (added when the corpus' last line is not one);
- a conversation whose `child` names a household child: the household knows that child
  (preferred name = the id, capitalised). The child first says its name ("hey buddy,
  it's me, Leo!"); the bridge's speaker rules (DESIGN §6.17) make that an explicit
  identity claim and Buddy checks once ("Leo! Is that you?"); the child's "yes!" is the
  validation, Buddy greets it by name, identity is CONFIRMED and the name reaches the
  prompt; then the child says its corpus lines;
- 12:00-16:30 the server is down: calls fail, the bridge falls back to layer 0 and tells
  the engine (SERVER_OFFLINE), probes find it again later; sessions in this stretch run
  on layer-0 rule replies;
- a few face-button pokes outside conversations, a low battery in the late afternoon
  (18 %, then 15 % six minutes later), and the night's idle until 06:30.

RS-1 / RS-2 end a session as the bridge does (it receives the engine's guardrail events).
Nothing here reads the corpus' content beyond what the format defines: the same code
runs any corpus, and the engine is not tuned to one.
"""

from __future__ import annotations

import datetime as dt
import heapq
import itertools
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buddy_personality.cognition.bridge import (
    BridgeCore,
    SayOut,
    Step,
)
from buddy_personality.cognition.client import CallResult
from buddy_personality.cognition.schema import parse_answer_text, validate_response
from buddy_personality.cognition.speaker import household_names
from buddy_personality.cognition.stream_fields import JsonFieldStream
from buddy_personality.cognition.views import IdentityView, ProfileView
from buddy_personality.identity.core import IdentityCore
from buddy_personality.identity.enums import IdentityEventKind
from buddy_personality.identity.profiles import Profile, ProfileStore
from buddy_personality.identity.records import IdentityInput
from buddy_personality.msg_constants import (
    Button,
    ButtonAction,
    ConversationKind,
    EndReason,
    Phase,
    SystemKind,
)
from buddy_personality.personality.engine import PersonalityEngine
from buddy_personality.personality.guardrails import GuardrailConfig
from buddy_personality.personality.moods import MOODS
from buddy_personality.personality.records import EngineOutput, GuardrailTriggered
from buddy_personality.speech.tts_core import Decision, Line, TtsCore
from buddy_personality.tools.evaluation.metrics import Greeting, Sample
from buddy_personality.tools.sim.corpus import DEFAULT_CORPUS, Conversation, load_corpus
from buddy_personality.tools.sim.sim_day_plan import (
    BUTTON_POKE_HOURS,
    CHILD_PAUSE_S,
    CHILD_WORDS_PER_S,
    DAY_S,
    DAY_START,
    GOODBYE_LINE,
    LOW_BATTERY_HOUR,
    NO_REPLY_WAIT_S,
    PROBE_S,
    SERVER_CHARS_PER_S,
    SERVER_DOWN,
    SERVER_DOWN_FAIL_S,
    SERVER_FIRST_TOKEN_S,
    TTS_PAD_S,
    TTS_START_S,
    TTS_WORDS_PER_S,
    ChildSession,
    SimDay,
    at_hour,
    child_lines,
    plan_day,
    word_count,
)

# the day's constants, child_lines and SimDay live in sim_day_plan.py; tests and the
# evaluation import these from here
__all__ = ["DAY_S", "DAY_START", "DEFAULT_CORPUS", "SERVER_CHARS_PER_S", "TTS_PAD_S",
           "TTS_WORDS_PER_S", "SimDay", "child_lines", "load_corpus", "simulate_day"]


@dataclass(slots=True, order=True)
class _Action:
    t: float
    seq: int
    kind: str = field(compare=False)
    args: dict[str, Any] = field(compare=False, default_factory=dict)


class _Day:
    """The cores of the graph wired as the nodes wire them, plus the world around them."""

    def __init__(self, seed: int, conversations: Sequence[Conversation], corpus: str,
                 shuffle_emotions: bool = False, random_emotions: bool = False,
                 server_chars_per_s: float = SERVER_CHARS_PER_S) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.shuffle_emotions = shuffle_emotions
        self.random_emotions = random_emotions
        self.server_chars_per_s = server_chars_per_s
        self.guard_cfg = GuardrailConfig()
        self.engine = PersonalityEngine(DAY_START, seed=seed, guardrails=self.guard_cfg)
        self.bridge = BridgeCore(random.Random(seed + 1), server_configured=True)
        children = sorted({c.child for c in conversations if c.child})
        self.household_profiles = [
            Profile(cid, cid.capitalize(), "child", dt.date(2021, 1, 1), cid.capitalize())
            for cid in children]
        self.household = ProfileStore(None, self.household_profiles)
        self.identity = IdentityCore(self.household, now=DAY_START)
        self.bridge.on_household(household_names(
            (p.user_id, p.name, p.addressing or "") for p in self.household_profiles))
        self.names_in_prompt: list[bool] = []
        self.heap: list[_Action] = []
        self._seq = itertools.count()
        self.tts = TtsCore()  # the tts node's rules: a turn's lines queue, newer ones cut
        self.voice: Line | None = None  # the line whose audio is playing
        self.voice_started = 0.0
        self.played: list[tuple[float, float, str]] = []
        self.speaking = False  # what tts/speaking last said
        self.samples: list[Sample] = []
        self.speaking_starts: list[float] = []
        self.greetings: list[Greeting] = []
        self.guardrails: dict[str, int] = {}
        self.cut_short: list[str] = []
        self.server_up = True
        self.last_phase = -1
        self.child: ChildSession | None = None
        self.replies = 0
        self.held: list[str] = []
        self.safety_stops: list[float] = []
        self.corpus = corpus
        self.emotions = [str(t.reply.get("emotion")) for c in conversations for t in c.turns]
        self.down = (at_hour(SERVER_DOWN[0]) + self.rng.uniform(-300, 300),
                     at_hour(SERVER_DOWN[1]) + self.rng.uniform(-300, 300))
        self.plan = plan_day(conversations, self.rng, self.guard_cfg.daily_time_limit_s)

    # ---------------------------------------------------------------- scheduling
    def add(self, t: float, kind: str, **args: Any) -> None:
        heapq.heappush(self.heap, _Action(t, next(self._seq), kind, args))

    def build(self) -> None:
        self.add(DAY_START, "boot")
        self.add(self.down[0], "server", up=False)
        self.add(self.down[1], "server", up=True)
        for t, conv in self.plan:
            self.add(t, "conversation", conv=conv)
        for hour in BUTTON_POKE_HOURS:
            self.add(at_hour(hour) + self.rng.uniform(-600, 600), "button")
        low = at_hour(LOW_BATTERY_HOUR) + self.rng.uniform(-600, 600)
        self.add(low, "battery", pct=18.0)
        self.add(low + 360.0, "battery", pct=15.0)

    # ---------------------------------------------------------------- engine -> graph
    def feed(self, out: EngineOutput, now: float) -> None:
        """What the personality node publishes, delivered to the bridge."""
        snap = out.snapshot
        self.samples.append(Sample(snap.stamp, snap.mood, snap.valence, snap.arousal,
                                   snap.conversation_active, snap.layer, snap.intensity,
                                   snap.idle_state))
        self.route(self.bridge.on_snapshot_mood(now, snap.mood), now)
        if out.profile is not None:
            p = out.profile
            self.bridge.on_profile(now, ProfileView(p.mood, p.intensity, p.tonic_valence,
                                                    tuple(p.memory_tags), p.conversation_arc))
        for ev in out.events:
            if isinstance(ev, GuardrailTriggered):
                self.guardrails[ev.rule_id] = self.guardrails.get(ev.rule_id, 0) + 1
                if ev.rule_id in ("RS-1", "RS-2") and self.bridge.session is not None:
                    self.cut_short.append(self.bridge.session.session_id)
                self.route(self.bridge.on_guardrail(now, ev.rule_id, ev.action), now)

    def identity_event(self, now: float, kind: IdentityEventKind, value: str = "") -> None:
        self.identity.handle_identity_event(IdentityInput(int(kind), value=value), now)
        self.publish_identity(now)

    def publish_identity(self, now: float) -> None:
        snap = self.identity.identity_snapshot()
        ch = self.child
        if ch is not None and ch.conv.child and snap.state >= 2 and (
                snap.user_id == ch.conv.child and snap.preferred_name):
            ch.confirmed = True
        self.bridge.on_identity(now, IdentityView(
            snap.state, snap.addressing_state, snap.preferred_name, snap.age_group,
            snap.conversation_mode, snap.child_safe))

    # ---------------------------------------------------------------- bridge -> graph
    def route(self, step: Step, now: float) -> None:
        """What the LLM bridge node publishes and asks for, delivered."""
        step = self.bridge.screen(step)  # the output guard before tts/say, as the node does
        e = self.engine
        for g in step.guardrails:  # HC-9, the output guard (DESIGN §6.15-§6.16)
            self.guardrails[g.rule_id] = self.guardrails.get(g.rule_id, 0) + 1
        for ev in step.system_events:  # server health: SERVER_ONLINE / SERVER_OFFLINE
            self.feed(e.on_system_event(now, ev), now)
        for conv in step.conversation:
            if conv.kind == ConversationKind.STARTED:
                if self.child is not None and not self.child.session_id:
                    self.child.session_id = conv.session_id
                self.feed(e.on_conversation_started(now, conv.session_id, conv.trigger), now)
                self.identity.conversation_started(now)
            elif conv.kind == ConversationKind.ENDED:
                if conv.trigger == EndReason.HC9:
                    self.safety_stops.append(now)
                self.voice_decision(now, self.tts.on_session_ended(now, conv.session_id))
                self.feed(e.on_conversation_ended(now, conv.session_id, conv.turns), now)
                self.identity.conversation_ended(now)  # as the identity node does
                self.publish_identity(now)
                if self.child is not None and self.child.session_id == conv.session_id:
                    self.child.ended = True
                    self.child = None
        for ev in step.identity_events:  # erratum 17: before the line, as the node does
            self.identity_event(now, IdentityEventKind(ev.kind), ev.value)
        for out in step.intents:
            i = out.intent
            self.feed(e.on_ai_emotion(now, i.emotion, i.intensity, i.confidence, i.source,
                                      i.mood_reason, out.session_id, out.turn_id), now)
        for say in step.says:
            self.speak(now, say)
        for phase in step.phases:
            if phase.phase == Phase.SPEAKING:
                self.speaking_starts.append(now)
                self.replies += 1
            elif (phase.phase == Phase.LISTENING and self.last_phase == Phase.SPEAKING
                  and self.child is not None and self.child.awaiting_reply
                  and self.bridge.session is not None):
                self.child.awaiting_reply = False  # Buddy has answered and finished
                self.next_child_line(now)
            self.last_phase = phase.phase
        if step.call is not None:
            self.llm_call(now, step.call.ticket, step.call.messages)
        if step.probe:
            self.add(now + PROBE_S, "probe")

    def speak(self, now: float, say: SayOut) -> None:
        """`tts/say` to the tts node: its own queue decides when each line plays."""
        ch = self.child
        if (ch is not None and ch.confirmed and not ch.greeted
                and say.session_id == ch.session_id):
            # DESIGN §6.13: the first reply after the identity is confirmed (the bridge's
            # own greeting, erratum 17, in both layers)
            ch.greeted = True
            self.greetings.append(Greeting(now, ch.conv.child_name, say.text,
                                           self.bridge.layer))
        self.voice_decision(now, self.tts.on_say(now, say.text, say.emotion,
                                                 say.session_id, say.turn_id))

    def voice_decision(self, now: float, d: Decision) -> None:
        """Play out a tts decision as the node's audio does: a cut line stops at once; a
        line starts a moment after it is handed over and lasts as long as its words take.
        `tts/speaking` is true from a line's first sample to its last, so lines of one turn
        (a turn-deadline filler, then the answer) are two stretches of speech, one after
        the other, never on top of each other."""
        if d.cut is not None and self.voice is not None and self.voice.line_id == d.cut:
            self.voice_end(now, d.cut)
        if d.start is not None:
            self.add(now + TTS_START_S, "tts_start", line=d.start)

    def voice_start(self, now: float, line: Line) -> None:
        if self.tts.current is not line or self.voice is not None:
            return  # cut or superseded before its first sample
        self.voice = line
        self.voice_started = now
        self.set_speaking(now, True)
        self.add(now + word_count(line.text) / TTS_WORDS_PER_S + TTS_PAD_S, "tts_end",
                 line_id=line.line_id)

    def voice_end(self, now: float, line_id: int) -> None:
        if self.voice is None or self.voice.line_id != line_id:
            return  # already cut
        self.played.append((self.voice_started, now, self.voice.text))
        self.voice = None
        self.set_speaking(now, False)
        self.voice_decision(now, self.tts.on_line_finished(now, line_id))

    def set_speaking(self, now: float, speaking: bool) -> None:
        """`tts/speaking` to its readers: the personality engine (L0-09) and the bridge."""
        if speaking == self.speaking:
            return
        self.speaking = speaking
        self.feed(self.engine.on_speech_activity(now, speaking), now)
        self.route(self.bridge.on_tts_speaking(now, speaking), now)

    # ---------------------------------------------------------------- the server
    def llm_call(self, now: float, ticket: int, messages: list[dict[str, str]]) -> None:
        ch = self.child
        if not self.server_up:
            self.add(now + SERVER_DOWN_FAIL_S, "llm_result", ticket=ticket, reply=None)
            return
        reply = self.reply_for(ch)
        if ch is not None and ch.confirmed and ch.name_in_prompt is None:
            # layer 1: the name reaches the prompt (context.audience_message)
            ch.name_in_prompt = any(
                f"call them {ch.conv.child_name}" in m["content"] for m in messages)
            self.names_in_prompt.append(ch.name_in_prompt)
        text = json.dumps(reply, ensure_ascii=False)
        t0 = now + self.rng.uniform(*SERVER_FIRST_TOKEN_S)
        found: list[int] = []
        stream = JsonFieldStream()
        for k, ch_ in enumerate(text):  # where the streamed `emotion` field completes
            stream.feed(ch_)
            if "emotion" in stream.fields:
                found.append(k)
                break
        if found:
            self.add(t0 + found[0] / self.server_chars_per_s, "llm_inline", ticket=ticket,
                     emotion=stream.fields["emotion"])
        done = t0 + len(text) / self.server_chars_per_s
        self.add(done, "llm_result", ticket=ticket, reply=text, latency=done - now)

    def reply_for(self, ch: ChildSession | None) -> dict[str, Any]:
        """The corpus reply to the line the child just said."""
        assert ch is not None  # calls come from a child's line
        # a known child's first two lines (name, "yes!") are answered by the bridge's
        # identity lines (erratum 17), not by the model
        k = ch.said - 1 - (2 if ch.conv.child else 0)  # the corpus turn of this line
        turn = ch.conv.turns[max(0, min(len(ch.conv.turns) - 1, k))]
        reply = dict(turn.reply)
        if self.random_emotions:
            reply["emotion"] = self.rng.choice(MOODS)
        elif self.shuffle_emotions:
            reply["emotion"] = self.rng.choice(self.emotions)
        return reply

    # ---------------------------------------------------------------- the child
    def start_conversation(self, now: float, conv: Conversation) -> None:
        if self.child is not None or self.bridge.session is not None:
            return  # a conversation is still going on: this child comes another day
        ch = ChildSession(conv, child_lines(conv, self.bridge.config.wake_phrase))
        self.child = ch
        self.held.append(conv.id)
        self.feed(self.engine.on_child_approach(now), now)  # L0-13: the wake word is heard
        self.say_line(now)

    def next_child_line(self, now: float) -> None:
        ch = self.child
        if ch is None:
            return
        pause = self.rng.uniform(*CHILD_PAUSE_S)
        self.add(now + pause, "child_says", conv=ch.conv.id)

    def say_line(self, now: float) -> None:
        ch = self.child
        if ch is None or ch.ended:
            return
        if ch.said < len(ch.lines):
            line = ch.lines[ch.said]
        elif ch.said == len(ch.lines):
            line = GOODBYE_LINE
        else:
            return
        ch.said += 1
        ch.awaiting_reply = True
        self.route(self.bridge.on_utterance(now, line), now)
        self.add(now + NO_REPLY_WAIT_S + word_count(line) / CHILD_WORDS_PER_S, "nudge",
                 conv=ch.conv.id, said=ch.said)

    # ---------------------------------------------------------------- the loop
    def apply(self, a: _Action) -> None:
        now = a.t
        kw = a.args
        e = self.engine
        if a.kind == "boot":
            self.feed(e.on_system_event(now, SystemKind.BOOT), now)
        elif a.kind == "server":
            self.server_up = kw["up"]
        elif a.kind == "conversation":
            self.start_conversation(now, kw["conv"])
        elif a.kind == "child_says":
            if self.child is not None and self.child.conv.id == kw["conv"]:
                self.say_line(now)
        elif a.kind == "nudge":
            ch = self.child
            if ch is not None and ch.conv.id == kw["conv"] and ch.said == kw["said"] and (
                    ch.awaiting_reply and self.bridge.session is not None
                    and self.bridge.session.pending is None):
                ch.awaiting_reply = False  # nobody answered: the child goes on
                self.say_line(now)
            elif ch is not None and ch.conv.id == kw["conv"] and self.bridge.session is None:
                self.child = None  # the session never started (RS-2 lockout) or ended
        elif a.kind == "tts_start":
            self.voice_start(now, kw["line"])
        elif a.kind == "tts_end":
            self.voice_end(now, kw["line_id"])
        elif a.kind == "button":
            self.feed(e.on_button(now, Button.ACTION, ButtonAction.CLICK), now)
            self.route(self.bridge.on_button(now, Button.ACTION, ButtonAction.CLICK), now)
        elif a.kind == "battery":
            self.feed(e.on_system_event(now, SystemKind.LOW_BATTERY, kw["pct"]), now)
        elif a.kind == "probe":
            self.route(self.bridge.on_probe_result(now, self.server_up), now)
        elif a.kind == "llm_inline":
            self.route(self.bridge.on_inline_emotion(now, kw["ticket"], kw["emotion"]), now)
        elif a.kind == "llm_result":
            self.route(self.bridge.on_call_result(now, kw["ticket"], self.result(kw)), now)
        else:
            raise ValueError(f"unknown action {a.kind!r}")

    @staticmethod
    def result(kw: dict[str, Any]) -> CallResult:
        """The bridge client's own parsing of the server's answer (or a failure)."""
        if kw["reply"] is None:
            return CallResult(ok=False, attempts=1, failed_attempts=1,
                              errors=["connection refused"], latency_s=SERVER_DOWN_FAIL_S)
        data, why = parse_answer_text(kw["reply"])
        outcome = validate_response(data) if not why else None
        if outcome is None or outcome.response is None:
            return CallResult(ok=False, attempts=1, failed_attempts=1,
                              errors=[why or (outcome.failure if outcome else "invalid")])
        return CallResult(ok=True, response=outcome.response, dropped=outcome.dropped,
                          attempts=1, latency_s=kw.get("latency", 0.0))

    def run(self, duration_s: int, progress: Callable[[int], None] | None) -> None:
        self.build()
        for k in range(1, duration_s + 1):
            now = DAY_START + k
            while self.heap and self.heap[0].t <= now:
                self.apply(heapq.heappop(self.heap))
            self.route(self.bridge.tick(now), now)
            self.feed(self.engine.tick(now), now)
            if progress is not None and k % 60 == 0:
                progress(k)


def simulate_day(seed: int, *, progress: Callable[[int], None] | None = None,
                 duration_s: int = DAY_S, conversations: Path | str | None = None,
                 shuffle_emotions: bool = False, random_emotions: bool = False,
                 server_chars_per_s: float = SERVER_CHARS_PER_S) -> SimDay:
    """Run the day; `progress(seconds_done)` is called every simulated minute.

    `conversations`: a corpus file (None = the shipped default corpus); raises
    CorpusError for an invalid one. `shuffle_emotions`: every reply's emotion is replaced
    by one drawn at random from the corpus' emotions (an "LLM" whose emotions ignore the
    turn but keep the corpus' mix). `random_emotions`: by one of the 13 moods drawn
    uniformly (an "LLM" whose emotions are noise: the random walk of spec 002 A.2's arc
    research). `server_chars_per_s`: how fast the server streams its answer."""
    corpus = load_corpus(conversations)
    day = _Day(seed, corpus, str(conversations or "default"), shuffle_emotions,
               random_emotions, server_chars_per_s)
    day.run(duration_s, progress)
    stats = day.engine.stats
    return SimDay(
        day.samples, seed, DAY_START, len(day.plan), day.cut_short, day.down,
        {"impulses_by_source": dict(stats.impulses_by_source),
         "gate_rejections": dict(stats.gate_rejections),
         "idle_rules_fired": dict(stats.idle_rules_fired)},
        day.guardrails, day.speaking_starts, day.greetings, day.corpus, day.held,
        day.replies, day.bridge.stats.layer0_replies, day.safety_stops, day.names_in_prompt,
        day.played, day.bridge.stats.max_latency_s)
