"""`buddy say` keeps its line until a recorder found late has it (issue 30 item 4, DESIGN
§1 "recorded sessions are regression tests": a live recording must hold every line).

`buddy say` writes with a transient-local writer: a reader that matches only after the
line was written gets it as history, but only while the writer lives. It cannot wait for
a reader in a process it has not discovered yet, so it stays on the graph SETTLE_S after
joining it. Measured on a loaded 2-core machine: the recorder's readers were found up to
3.7 s after `buddy say` joined, and a line written at 1 s, kept 2 s after it (the old
rule), was missing from the bag. A fake clock and a fake DDS writer replay that timing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from buddy_personality.tools.cli.say import SETTLE_S, linger, settle_time

JOINED = 100.0


@dataclass(slots=True)
class Reader:
    matches_at: float          # when discovery matches it with the writer (clock time)
    got: list[str] = field(default_factory=list)


@dataclass(slots=True)
class FakeWriter:
    """A transient-local writer: a reader matched after a write gets the kept history,
    as long as the writer lives; `wait_for_all_acked` covers matched readers only."""

    topic_name: str
    history: list[str] = field(default_factory=list)
    late: list[Reader] = field(default_factory=list)
    acks: bool = True

    def tick(self, now: float) -> None:
        for reader in self.late:
            if not reader.got and now >= reader.matches_at:
                reader.got.extend(self.history)

    def wait_for_all_acked(self, timeout: object) -> bool:
        return self.acks


@dataclass(slots=True)
class Clock:
    now: float
    writers: list[FakeWriter]
    spun: float = 0.0

    def __call__(self) -> float:
        return self.now

    def spin(self, dt: float) -> None:
        self.now += dt
        self.spun += dt
        for w in self.writers:
            w.tick(self.now)


def test_a_recorder_found_late_still_gets_the_line_before_buddy_say_exits() -> None:
    """The measured case: line written 1.0 s after joining, Buddy's answer 0.5 s later,
    the recorder's reader matched 3.7 s after joining. The old rule (stay 2 s after
    sending, exit at 3.0 s) ended the writer first and the line was lost from the bag."""
    recorder = Reader(matches_at=JOINED + 3.7)
    speech = FakeWriter("/buddy/speech/utterance", history=["hey buddy, hello"],
                        late=[recorder])
    button = FakeWriter("/buddy/face/button")
    clock = Clock(JOINED + 1.5, [speech, button])   # the answer came: linger starts here
    unacked = linger(clock.spin, clock, JOINED, [speech, button], ack_timeout=10.0)
    assert recorder.got == ["hey buddy, hello"]
    assert unacked == []
    assert clock.now >= JOINED + SETTLE_S


def test_two_announcement_rounds_bound_the_stay() -> None:
    """Fast DDS re-announces every participant every 3 s: SETTLE_S covers two rounds, and
    a process that has been on the graph that long already leaves at once."""
    assert SETTLE_S >= 2 * 3.0
    speech = FakeWriter("/buddy/speech/utterance", history=["bye buddy"])
    clock = Clock(JOINED + SETTLE_S + 4.0, [speech])   # a slow layer-1 answer
    assert linger(clock.spin, clock, JOINED, [speech], ack_timeout=10.0) == []
    assert clock.spun == 0.0


def test_a_reader_that_never_acknowledges_is_named() -> None:
    """Bad delivery is reported, not hidden: the topic whose matched readers did not all
    acknowledge within the timeout is returned (say prints it on stderr)."""
    speech = FakeWriter("/buddy/speech/utterance", history=["hello"], acks=False)
    button = FakeWriter("/buddy/face/button")
    clock = Clock(JOINED, [speech, button])
    assert linger(clock.spin, clock, JOINED, [speech, button],
                  ack_timeout=10.0) == ["/buddy/speech/utterance"]


def test_a_machine_slow_to_find_the_graph_waits_as_long_again_for_the_recorder() -> None:
    """The graph took 4 s to find (a loaded machine): the recorder's participant is found
    as slowly (matched 7.5 s after joining), so buddy say stays twice the finding time."""
    assert settle_time(1.0) == SETTLE_S
    recorder = Reader(matches_at=JOINED + 7.5)
    speech = FakeWriter("/buddy/speech/utterance", history=["i'm sad"], late=[recorder])
    clock = Clock(JOINED + 5.0, [speech])
    assert linger(clock.spin, clock, JOINED, [speech], ack_timeout=10.0,
                  settle_s=settle_time(4.0)) == []
    assert recorder.got == ["i'm sad"]
