"""What the simulated day (sim_day.py) is made of, before anything runs: its clock (the
day starts at 06:30 local time), the timing model of the child, the server and TTS, what a
child says in a conversation (`child_lines`), the seeded plan of conversations within the
RS-2 daily limit (`plan_day`, DESIGN §6.14), and the records: a child's `ChildSession`
and the day's result, `SimDay`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from buddy_personality.cognition.conversation import DEFAULT_WAKE_PHRASE, split_wake
from buddy_personality.tools.evaluation.metrics import Greeting, Sample
from buddy_personality.tools.sim.corpus import Conversation

DAY_S = 86400
# A Monday; the date only matters for local hours (morning / evening idle rules).
DAY_START = datetime(2026, 3, 2, 6, 30, tzinfo=UTC).timestamp()
WAKING_HOURS = (7.0, 20.5)
SERVER_DOWN = (12.0, 16.5)  # local hours of the offline stretch
BUTTON_POKE_HOURS = (9.9, 13.3, 16.2, 19.8)
LOW_BATTERY_HOUR = 17.4

# How the pieces take time (seconds). A child speaks about 2 words a second and answers
# a few seconds after Buddy stops; the server's first token comes after ~0.4 s and the
# answer streams at ~160 characters a second (~40 tokens a second: a Qwen3-8B on a home
# GPU); TTS starts a moment after the line is handed over and says ~2.5 words a second.
#
# The server's speed matters since issue 19: a turn that waits 2.5 s gets a filler line
# (cognition/turn_deadline.py, whose design figure is "a home-server Qwen3-8B answers a
# short turn in 1-3 s"). The corpus' answers are 250-380 characters of JSON, so at 160
# characters a second a turn takes 1.9-2.8 s and about a third get a filler. The day
# used 80 characters a second until then (3.5-5 s a turn: every turn a slow one, a filler
# before every answer); `server_chars_per_s` still gives that slow-server day.
CHILD_WORDS_PER_S = 2.0
CHILD_PAUSE_S = (2.0, 7.0)
SERVER_FIRST_TOKEN_S = (0.3, 0.6)
SERVER_CHARS_PER_S = 160.0
SERVER_DOWN_FAIL_S = 2.0  # a call to a down server fails after the client's connect tries
PROBE_S = 0.2
TTS_START_S = 0.2
TTS_WORDS_PER_S = 2.5
TTS_PAD_S = 0.3
NO_REPLY_WAIT_S = 15.0  # a child not answered (gate said no) goes on after this
GOODBYE_LINE = "bye buddy!"
YES_LINE = "yes!"
DAILY_FILL = 0.9  # plan conversations for at most this share of the RS-2 daily limit


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
    speaking_starts: list[float] = field(default_factory=list)  # each reply's SPEAKING
    greetings: list[Greeting] = field(default_factory=list)
    corpus: str = ""
    conversations: list[str] = field(default_factory=list)  # ids, in the order held
    replies: int = 0
    layer0_replies: int = 0
    safety_stops: list[float] = field(default_factory=list)  # sessions ended by HC-9
    names_in_prompt: list[bool] = field(default_factory=list)  # per confirmed child, layer 1
    voice: list[tuple[float, float, str]] = field(default_factory=list)  # lines as played
    llm_latency_max_s: float = 0.0  # the slowest answer of the server (when it was up)


@dataclass(slots=True)
class ChildSession:
    """The child's side of one conversation."""

    conv: Conversation
    lines: list[str]  # what the child will say, in order
    said: int = 0
    awaiting_reply: bool = False
    session_id: str = ""
    confirmed: bool = False
    name_in_prompt: bool | None = None  # the first LLM call after confirming: name sent?
    greeted: bool = False
    ended: bool = False


def at_hour(hour: float) -> float:
    """Sim seconds of a local hour of the simulated day (hours past 24 are the next day)."""
    return DAY_START + (hour - 6.5) * 3600.0


def word_count(text: str) -> int:
    return max(1, len(text.split()))


def child_lines(conv: Conversation, wake_phrase: str = DEFAULT_WAKE_PHRASE) -> list[str]:
    """What the child says: the corpus lines with the wake phrase added to the first when
    it is missing. A known child first says who it is ("hey buddy, it's me, Leo!") and
    answers Buddy's check with "yes!" before its first corpus line."""
    lines = [t.child for t in conv.turns]
    woke, rest = split_wake(lines[0], wake_phrase)
    body = rest if woke else lines[0]
    if conv.child:
        return [f"{wake_phrase}, it's me, {conv.child_name}!", YES_LINE, body, *lines[1:]]
    lines[0] = f"{wake_phrase}, {body}" if body else wake_phrase
    return lines


def estimated_duration_s(conv: Conversation) -> float:
    """A rough length of a conversation, to plan a day within the RS-2 limit."""
    total = 0.0
    for turn in conv.turns:
        total += word_count(turn.child) / CHILD_WORDS_PER_S + sum(CHILD_PAUSE_S) / 2.0
        total += 1.5 + word_count(str(turn.reply.get("text", ""))) / TTS_WORDS_PER_S
    return total + (8.0 if conv.child else 0.0)


def plan_day(conversations: Sequence[Conversation], rng: random.Random,
             daily_limit_s: float) -> list[tuple[float, Conversation]]:
    """DESIGN §6.14: a seeded order; as many conversations as fit the daily limit; spread
    over the waking hours, each in its own slot with idle time around it."""
    order = list(conversations)
    rng.shuffle(order)
    chosen: list[Conversation] = []
    budget = daily_limit_s * DAILY_FILL
    for conv in order:
        need = estimated_duration_s(conv)
        if need <= budget:
            chosen.append(conv)
            budget -= need
    span = (WAKING_HOURS[1] - WAKING_HOURS[0]) / max(1, len(chosen))
    return [(at_hour(WAKING_HOURS[0] + (k + rng.uniform(0.15, 0.6)) * span), conv)
            for k, conv in enumerate(chosen)]
