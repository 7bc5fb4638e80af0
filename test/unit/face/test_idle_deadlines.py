"""Deadlines that let the face driver pause its 50 Hz tick when idle (issue 8), with
explicit times: the tick may be skipped only if ticking at `next_deadline` and on every
board byte does all that the fixed-rate tick does (DESIGN §4.4 keepalive, spec 002 §11.3
staleness, §9.1 duration caps, link backoff / negotiation / silence)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from buddy_personality.face.board_news import BoardNews
from buddy_personality.face.driver import DriverConfig, FaceDriverCore
from buddy_personality.face.link import LinkConfig, LinkManager, LinkState
from buddy_personality.face.policy import FacePolicy, KeepaliveScheduler
from buddy_personality.face.protocol import ConvState, PacketType, SetState
from buddy_personality.face.sim_board import SimulatedBoard
from buddy_personality.face.testing import BoardPort, PortOpener

SPEAKING = int(ConvState.SPEAKING)
THINKING = int(ConvState.THINKING)
IDLE = int(ConvState.IDLE)
MARGIN = 0.001  # the node wakes this long after a deadline (strict comparisons)


# --- the policy's clock-driven changes ----------------------------------------------------


def test_a_fresh_snapshot_turns_stale_3000_ms_after_it_arrived_spec_002_11_3() -> None:
    policy = FacePolicy()
    policy.on_snapshot("happy", 0.8, now=100.0)
    policy.decide(100.0)
    assert policy.next_change_at(100.0) == 103.0
    assert policy.next_change_at(103.0) == 103.0          # age 3.0 s is not yet stale
    assert not policy.decide(103.0).backstop_active
    assert policy.decide(103.0 + MARGIN).backstop_active   # just after: backstop


def test_a_snapshot_that_went_stale_since_the_last_decision_is_due_now() -> None:
    policy = FacePolicy()
    policy.on_snapshot("happy", 0.8, now=3.2)
    policy.decide(3.2)
    # Asked only after the deadline (a late wake-up): stale, but not yet decided.
    assert policy.next_change_at(6.25) == 6.25
    assert policy.decide(6.25).backstop_active
    assert policy.next_change_at(6.25) is None


def test_no_snapshot_and_the_plain_fallback_change_nothing_by_the_clock() -> None:
    policy = FacePolicy()
    assert policy.decide(5.0).mood == "neutral"
    assert policy.next_change_at(5.0) is None


@pytest.mark.parametrize(("mood", "cap_s"),
                         [("sad", 4.0), ("scared", 2.0), ("angry", 2.0), ("surprised", 3.0)])
def test_a_backstop_mood_ends_at_its_duration_cap_spec_002_9_1(mood: str, cap_s: float) -> None:
    policy = FacePolicy()
    policy.on_phase(SPEAKING, 0.0)  # in conversation: the context gate lets it through
    policy.on_ai_emotion(mood, 1.0, 0.0)
    assert policy.decide(0.5).mood == mood                 # the run starts at 0.5
    assert policy.next_change_at(0.5) == 0.5 + cap_s
    assert policy.decide(0.5 + cap_s).mood == mood
    assert policy.decide(0.5 + cap_s + MARGIN).mood == "neutral"
    assert policy.next_change_at(0.5 + cap_s + MARGIN) is None  # capped until it changes


def test_gated_or_attentive_faces_have_no_cap_deadline() -> None:
    policy = FacePolicy()
    policy.on_ai_emotion("sad", 1.0, 0.0)    # idle: the §9.2 context gate blocks it
    assert policy.decide(0.0).mood == "neutral"
    assert policy.next_change_at(0.0) is None
    policy.on_phase(THINKING, 1.0)           # §11.1 attentive face regardless
    assert policy.decide(1.0).mood == "thinking"
    assert policy.next_change_at(1.0) is None


def test_keepalive_due_time() -> None:
    keepalive = KeepaliveScheduler(0.9)
    assert keepalive.next_due_at() is None
    keepalive.mark_sent("state", 2.0)
    assert keepalive.next_due_at() == pytest.approx(2.9)


# --- the link's timers --------------------------------------------------------------------


def test_link_deadlines_backoff_negotiation_and_silence() -> None:
    opener = PortOpener(SimulatedBoard(mute=True, now=0.0))
    link = LinkManager(opener, LinkConfig(negotiation_timeout_s=0.5, silence_timeout_s=3.0,
                                          backoff_initial_s=0.5))
    assert link.next_deadline(0.0) == 0.0                 # never tried: now
    opener.poll(link, 0.0)
    assert link.state == LinkState.NEGOTIATING
    assert link.next_deadline(0.0) == 0.5                 # negotiation timeout first
    opener.poll(link, 0.5)
    assert link.state == LinkState.CONNECTED and link.version == 1
    assert link.next_deadline(0.5) == 3.0                 # then heartbeat silence
    opener.poll(link, 3.0 + MARGIN)
    assert link.state == LinkState.DISCONNECTED
    assert link.next_deadline(3.0 + MARGIN) == pytest.approx(3.5 + MARGIN)  # backoff
    link.config.silence_timeout_s = 0.0
    opener.poll(link, 3.5 + MARGIN)
    opener.poll(link, 4.1)
    assert link.state == LinkState.CONNECTED
    assert link.next_deadline(4.1) is None                # nothing by the clock


def test_a_missing_port_polled_only_at_its_deadlines_retries_at_the_same_times() -> None:
    # The same exponential backoff as the 20 ms poll in test_link.py, exactly on time.
    opener = PortOpener(SimulatedBoard(now=0.0))
    opener.missing = True
    link = LinkManager(opener, LinkConfig(backoff_initial_s=0.5, backoff_max_s=4.0))
    t = 0.0
    while t < 20.0:
        opener.poll(link, t)
        t = link.next_deadline(t)
        assert t is not None
    assert opener.attempts[:6] == [0.0, 0.5, 1.5, 3.5, 7.5, 11.5]


# --- the whole driver: deadline ticks == fixed-rate ticks ---------------------------------


class ReaderPort(BoardPort):
    """A BoardPort whose board output is collected by `pump` (the reader thread) and
    only handed over by `take`, so the rig can see when bytes are waiting."""

    def take(self) -> bytes:
        data = bytes(self.inbox)
        self.inbox.clear()
        return data

    def pump(self, now: float) -> bytes:
        self.now = now
        data = self.board.poll(now)
        self.inbox += data
        return data


class DriverRig:
    """A driver on a simulated board; time advances in 1 ms steps.

    `fixed_rate`: tick every 20 ms (the 50 Hz tick). Otherwise tick only when the
    board has sent bytes (the reader thread's wake-up) or the core's deadline has
    passed, as the node does while its tick is paused.
    """

    def __init__(self, fixed_rate: bool) -> None:
        self.fixed_rate = fixed_rate
        self.board = SimulatedBoard(now=0.0)
        self.port: ReaderPort | None = None
        self.link = LinkManager(self._open, LinkConfig(silence_timeout_s=3.0))
        self.core = FaceDriverCore(self.link, config=DriverConfig(keepalive_period_s=0.9))
        self.ticks = 0
        self.wake_at = 0.0
        self.news = BoardNews()     # the node's reader-thread filter
        self.woken = False          # news arrived: the reader thread wakes the node
        self.shown: list[tuple[float, str, float, bool]] = []
        self.at(0.0)
        self.tick(0.0)
        self.core.activate(0.0)
        self.after(0.0)

    def _open(self) -> ReaderPort:
        self.port = ReaderPort(self.board)
        self.port.now = self._now
        return self.port

    def at(self, now: float) -> None:
        self._now = now
        if self.port is not None:
            data = self.port.pump(now)
            if data and self.news.is_news(data):
                self.woken = True

    def tick(self, now: float) -> None:
        self.ticks += 1
        self.woken = False
        self.core.tick(now)

    def after(self, now: float) -> None:
        """Record the shown face; schedule the next deadline tick."""
        face = self.core.shown
        if face is not None:
            key = (face.mood, round(face.intensity, 6), face.backstop_active)
            if not self.shown or self.shown[-1][1:] != key:
                self.shown.append((now, *key))
        deadline = self.core.next_deadline(now)
        self.wake_at = math.inf if deadline is None else deadline + MARGIN

    def step(self, ms: int, inputs: list[tuple[str, object, float]]) -> None:
        if self.fixed_rate and not inputs and ms % 20:
            return   # nothing happens between ticks (the tick polls the board itself)
        now = ms / 1000.0
        self.at(now)
        for kind, value, intensity in inputs:
            if kind == "snapshot":
                self.core.on_snapshot(str(value), intensity, now)
            elif kind == "ai_emotion":
                self.core.on_ai_emotion(str(value), intensity, now)
            elif kind == "phase":
                self.core.on_phase(int(value), now)      # type: ignore[arg-type]
            elif kind == "gesture":
                self.core.on_gesture(int(value), 300, now)  # type: ignore[arg-type]
            self.after(now)
            self.at(now)   # the board's answers reach the reader at once
        due = ms % 20 == 0 if self.fixed_rate else self.woken or now >= self.wake_at
        if due:
            self.tick(now)
            self.after(now)

    def set_state_times(self) -> list[float]:
        return [at for p, at in zip(self.board.received, self.board.received_at, strict=True)
                if p.type_id == PacketType.SET_STATE]


MOODS = ("happy", "sad", "scared", "angry", "surprised", "curious", "neutral")
PHASES = (IDLE, SPEAKING, THINKING, int(ConvState.LISTENING), int(ConvState.DONE))

input_event = st.one_of(
    st.tuples(st.just("snapshot"), st.sampled_from(MOODS), st.sampled_from([0.3, 0.9])),
    st.tuples(st.just("ai_emotion"), st.sampled_from(MOODS), st.sampled_from([0.4, 1.0])),
    st.tuples(st.just("phase"), st.sampled_from(PHASES), st.just(0.0)),
    st.tuples(st.just("gesture"), st.integers(0, 12), st.just(0.0)),
)
# Inputs on a 100 ms grid, with gaps long enough for staleness and every cap to expire.
script = st.lists(st.tuples(st.integers(1, 70), input_event), min_size=1, max_size=8)


@settings(max_examples=20, deadline=None)
@given(script)
def test_ticking_at_deadlines_and_board_bytes_shows_what_the_50_hz_tick_shows(events) -> None:
    at_ms: dict[int, list] = {}
    t = 0
    for gap, event in events:
        t += gap * 100
        at_ms.setdefault(t, []).append(event)
    end_ms = t + 6000   # long enough after the last input for staleness and caps
    fixed, lean = DriverRig(fixed_rate=True), DriverRig(fixed_rate=False)
    for ms in range(1, end_ms + 1):
        inputs = at_ms.get(ms, [])
        fixed.step(ms, inputs)
        lean.step(ms, inputs)

    # The same faces in the same order (spec 002 §11.3 staleness, §9.1 caps) ...
    assert [s[1:] for s in lean.shown] == [s[1:] for s in fixed.shown]
    # ... each no later than with the fixed tick (but for the wake margin and the 1 ms
    # step: a deadline that falls on a tick shows there), at most two ticks earlier (a
    # cap can end one tick late on a run that started one tick late).
    for (t_lean, *_), (t_fixed, *_) in zip(lean.shown, fixed.shown, strict=True):
        assert t_fixed - 0.040 - 1e-9 <= t_lean <= t_fixed + 0.002 + 1e-9
    # The keepalive holds: SET_STATE at least every 0.9 s (+ the wake margin, 1 ms step).
    gaps = [b - a for a, b in itertools.pairwise(lean.set_state_times())]
    assert max(gaps) <= 0.9 + 2 * MARGIN + 1e-9
    # The board ends up showing the same thing.
    assert (lean.board.face.mood_id, lean.board.face.intensity) == (
        fixed.board.face.mood_id, fixed.board.face.intensity)
    # And far fewer ticks: the point of it.
    assert lean.ticks < fixed.ticks / 4


def test_heartbeats_and_unchanged_status_do_not_make_the_board_look_busy() -> None:
    rig = DriverRig(fixed_rate=False)
    busy = []
    for ms in range(1, 3000):
        rig.at(ms / 1000.0)
        if rig.port is not None and rig.port.inbox:
            busy.append(rig.core.tick(ms / 1000.0).board_active)
    # heartbeats every second and FACE_STATUS every 50 ms, none counted as busy once
    # the status has settled (the first ones report the face the driver just sent)
    assert len(busy) > 50 and not any(busy[10:])
    rig.core.on_snapshot("happy", 0.5, 3.0)   # mood changes: the board reports it
    rig.at(3.06)
    assert rig.core.tick(3.06).board_active


def test_the_deadline_includes_the_keepalive_only_while_driving_a_connected_board() -> None:
    rig = DriverRig(fixed_rate=False)
    rig.core.config.time_sync = False            # (its pings have deadlines of their own)
    rig.core.on_snapshot("happy", 0.5, 0.1)      # sent now: keepalive due at 1.0
    assert rig.core.next_deadline(0.1) == pytest.approx(1.0)
    rig.core.deactivate()
    assert rig.core.next_deadline(0.1) == pytest.approx(3.0)   # heartbeat silence
    assert SetState(1, 128) in [p.payload for p in rig.board.received]
