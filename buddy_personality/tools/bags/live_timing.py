"""The timing of a live recording (`buddy run` + `buddy record`), read back from the bag so
that `buddy replay` reproduces it under sim time (issue 30 item 4, DESIGN §1.6).

A live graph's outputs depend on three timings the sim does not choose by itself:

- **The timers' phase.** `buddy run` builds the nodes, then puts every 1 Hz timer on one
  phase (`align_periodic_timers`): the graph starts ticking at that instant A, and ticks
  at A + k s (rcl timers do not drift; each callback runs a few ms late). Replay starts
  the sim graph at A, so its timers are due at the same instants.
- **Each tick's instant.** A tick integrates the mood over the time since the last one
  (spec 002 §5: decay and noise over dt), so a tick a few ms late changes the floats.
  Replay steps the sim clock onto every recorded output stamp: a due timer fires at the
  first step at or after its due time, which is the recorded tick itself; the regular
  grid leaves out its points on the due instants A + k (else the timers would fire there,
  ahead of the recorded tick).
- **When the graph heard an input.** `buddy say` stamps its line when it writes it; the
  graph gets it when discovery has matched the two (measured 0.1-0.3 s later, under
  load more). Replay publishes a line when the bridge first reacted to it (the oldest
  bridge output stamped at or after the line, within `REACTION_WINDOW_S`), else at its
  stamp.

The sim graph is built at the oldest start-up stamp (the personality's construction: its
engine integrates the first tick from there) and its timers start at A
(`start_ticking_at`). Outputs the constructors published before A (the latched start-up
values, stamped while
the nodes were being built, a few hundred ms apart live and at one instant in the sim)
are compared with their stamps taken as A (`startup_stamps`).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from buddy_personality.cognition.say_mood import DEFAULT_WAIT_S as SAY_MOOD_WAIT_S
from buddy_personality.tools.bags.bag_compare import Record, is_stamp
from buddy_personality.tools.bags.bagio import BagContents, BagMessage, deserialize
from buddy_personality.tools.sim.sim_graph import relative

NS = 1_000_000_000
TICK_PERIOD_NS = NS          # the aligned 1 Hz timers (align_periodic_timers)
# published on every 1 Hz tick of the personality (personality_node.py), nothing else
TICK_TOPIC = "personality/affect_markers"
# the bridge's first reaction to a child's line (cognition/bridge.py)
REACTION_TOPICS = ("personality/ai_emotion", "conversation/events", "tts/say")
REACTION_WINDOW_S = 3.0


def header_stamp_ns(m: BagMessage) -> int | None:
    """The message's header stamp (or its first marker's), None when it has none."""
    msg = deserialize(m.type_name, m.data)
    header = getattr(msg, "header", None)
    if header is None and getattr(msg, "markers", None):
        header = msg.markers[0].header
    stamp = getattr(header, "stamp", None)
    if stamp is None or stamp.sec <= 0:
        return None
    return int(stamp.sec) * NS + int(stamp.nanosec)


def first_stamp_ns(contents: BagContents, topic: str, namespace: str) -> int | None:
    """The oldest header stamp on `topic` (conversation/phase: the bridge's construction,
    the phase of its 10 Hz tick)."""
    stamps = [s for m in contents.messages if relative(m.topic, namespace) == topic
              and (s := header_stamp_ns(m)) is not None]
    return min(stamps, default=None)


def tick_stamps_ns(contents: BagContents, namespace: str) -> list[int]:
    """The stamps of the personality's recorded 1 Hz ticks, oldest first."""
    return sorted(s for m in contents.messages if relative(m.topic, namespace) == TICK_TOPIC
                  and (s := header_stamp_ns(m)) is not None)


def tick_start_ns(contents: BagContents, namespace: str) -> int | None:
    """A: the instant the recorded graph's 1 Hz timers started, from the stamps of the
    personality's ticks. None when the bag holds no ticks (a robot bag without the rviz
    markers)."""
    stamps = tick_stamps_ns(contents, namespace)
    return tick_start_from_stamps(stamps) if stamps else None


def tick_start_from_stamps(stamps: Sequence[int]) -> int:
    """Each tick runs k periods after A plus its callback's lateness (>= 0): a few ms
    mostly, but a starved process runs one up to a period late (measured: 0.7 s on a
    loaded 2-core machine). The phase is taken from the ticks near the usual phase (the
    median), at the least late of them, so one late tick (the first one included) does
    not move A; the first tick is due one period after A."""
    first = stamps[0]
    half = TICK_PERIOD_NS // 2
    offsets = [(s - first + half) % TICK_PERIOD_NS - half for s in stamps]  # (-P/2, P/2]
    usual = statistics.median_low(offsets)
    phase = first + min(d for d in offsets if abs(d - usual) <= TICK_PERIOD_NS // 4)
    due_first = phase + ((first - phase) // TICK_PERIOD_NS) * TICK_PERIOD_NS
    return due_first - TICK_PERIOD_NS


def output_stamps_ns(messages: Iterable[BagMessage], outputs: set[str], start_ns: int,
                     namespace: str) -> list[int]:
    """Every recorded output's header stamp after the start: the replay steps onto each."""
    out = set()
    for m in messages:
        if relative(m.topic, namespace) in outputs and (s := header_stamp_ns(m)) is not None \
                and s > start_ns:
            out.add(s)
    return sorted(out)


def start_ticking_at(graph: Any, tick_ns: int, fast_phase_ns: int | None = None,
                     skip: frozenset[str] = frozenset({"face_driver"})) -> int:
    """Build-up to A as `buddy run` does it: the graph was built at the sim's start (the
    personality's construction, its engine's first instant), nothing runs until A (the
    executor does not spin while `create_graph` builds the nodes), then every timer starts
    at A. The face driver keeps its steady-clock timers (excluded from the alignment live
    too). Returns how many timers were started at A."""
    timers = [t for node in graph.nodes if node.get_name() not in skip
              for t in node.timers if not t.is_canceled()]
    for timer in timers:
        timer.cancel()
    graph.advance_to_ns(max(tick_ns, graph.now_ns))
    aligned = [t for t in timers if t.timer_period_ns % TICK_PERIOD_NS == 0]
    for timer in aligned:
        timer.reset()   # rcl: due one period from now, and no longer canceled
    # The faster timers (the bridge's 10 Hz tick) keep the phase of their construction
    # live (align_periodic_timers leaves them): started here at that phase.
    for period in sorted({t.timer_period_ns for t in timers} - {
            t.timer_period_ns for t in aligned}):
        phase = (fast_phase_ns - tick_ns) % period if fast_phase_ns is not None else 0
        graph.advance_to_ns(tick_ns + phase)
        for timer in timers:
            if timer.timer_period_ns == period:
                timer.reset()
    return len(timers)


def live_slack(step_s: float) -> Callable[[float], float]:
    """Stamps of a live bag match within the bridge's mood hold (say_mood.DEFAULT_WAIT_S,
    0.5 s), at least one grid step: live, a reply waits for the personality's answer
    (measured up to 0.11 s on a loaded machine) where the sim answers at once, and a
    callback runs a few ms to tens of ms after its cause."""
    return lambda _t: max(step_s, SAY_MOOD_WAIT_S)


def live_grid(start_ns: int, end_ns: int, step_s: float, phase_ns: int = 0,
              ticks_ns: Sequence[int] = ()) -> list[int]:
    """The regular steps between outputs (at the bridge's tick phase), without those in
    the first step after a due instant A + k, nor between a due instant and the recorded
    tick it gave (`ticks_ns`): the 1 Hz timers fire at the recorded tick stamp, a few ms
    after A + k or, in a starved process, most of a period after it, not at a grid point
    before it (the tick integrates the time since the last one, spec 002 §5)."""
    step = max(1, round(step_s * 1e9))
    first = start_ns + (phase_ns - start_ns) % step
    late = [(due, s) for s in ticks_ns if s > start_ns
            and s - (due := s - (s - start_ns) % TICK_PERIOD_NS) >= step]
    return [t for t in range(first + step, end_ns + step, step)
            if (t - start_ns) % TICK_PERIOD_NS >= step
            and not any(due <= t < tick for due, tick in late)]


def heard_at_ns(inputs: Sequence[tuple[int, BagMessage]], contents: BagContents,
                namespace: str) -> list[int]:
    """When the graph heard each input (stamp_ns, message), as the sim should hear it: at
    the reply (`tts/say`) stamped at or after the input, before the next input, within
    REACTION_WINDOW_S; for a line that started or ended a session, when the session
    did (`conversation/events`: the usage counts from there); else at its stamp.
    Live the reply waits for the personality to apply its emotion (the mood hold), so
    the reply's stamp is when the personality took the impulse; the sim does both at
    once, and a line heard at the bridge's first reaction put the impulse and the
    reply's spoken-time estimate up to 0.2 s early (a face state missing at a tick)."""
    stamps = {topic: sorted(s for m in contents.messages
                            if relative(m.topic, namespace) == topic
                            and (s := header_stamp_ns(m)) is not None)
              for topic in REACTION_TOPICS}
    times = [t for t, _m in inputs]
    out = []
    for k, (t, m) in enumerate(inputs):
        if relative(m.topic, namespace) != "speech/utterance":
            out.append(t)
            continue
        limit = t + round(REACTION_WINDOW_S * 1e9)
        later = [u for u in times[k + 1:] if u > t]
        if later:
            limit = min(limit, later[0])
        # a line that started or ended a session: when the session did (RS-1/RS-2
        # count its seconds from there); else the reply; else any other reaction
        for topic in ("conversation/events", "tts/say", "personality/ai_emotion"):
            first = next((s for s in stamps[topic] if t <= s < limit), None)
            if first is not None:
                out.append(first)
                break
        else:
            out.append(t)
    return out


def startup_stamps(records: Mapping[str, list[Record]], start_s: float
                   ) -> dict[str, list[Record]]:
    """Stamps before the graph's start (the constructors' latched values) read as the start:
    live the five constructors run a few hundred ms apart, in the sim at one instant."""
    out: dict[str, list[Record]] = {}
    for topic, recs in records.items():
        out[topic] = [
            Record(r.t, {k: (start_s if is_stamp(k) and isinstance(v, float)
                             and v < start_s else v) for k, v in r.fields.items()})
            for r in recs]
    return out
