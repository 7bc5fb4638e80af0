"""A child's turn from VAD probabilities (DESIGN §4.7, erratum 24): activity on after
speech, one segment per turn, mid-sentence pauses kept inside the turn; while Buddy speaks
the child needs more evidence; a long turn is sent in segments and closed once."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from buddy_personality.speech.endpointing import (
    FRAME_S,
    FRAME_SAMPLES,
    ActivityChanged,
    EndpointConfig,
    Endpointer,
    Segment,
)


def feed(ep: Endpointer, probs: list[float | None], t0: float = 0.0,
         buddy_speaking: bool = False) -> list:
    events = []
    for i, p in enumerate(probs):
        frame = np.full(FRAME_SAMPLES, i % 32000, dtype=np.int16)
        events += ep.push(t0 + i * FRAME_S, frame, p, buddy_speaking)
    return events


def frames(seconds: float, p: float) -> list[float]:
    return [p] * round(seconds / FRAME_S)


def test_one_turn_with_a_childs_pause_inside_is_one_segment() -> None:
    ep = Endpointer(EndpointConfig(end_silence_s=0.9))
    probs = frames(1.0, 0.0) + frames(1.0, 0.9) + frames(0.6, 0.1) + frames(0.8, 0.9) \
        + frames(2.0, 0.0)
    events = feed(ep, probs)
    segs = [e for e in events if isinstance(e, Segment)]
    acts = [e for e in events if isinstance(e, ActivityChanged)]
    assert len(segs) == 1
    assert [a.active for a in acts] == [True, False]
    seg, c = segs[0], ep.config
    # starts with the pre-roll before the first speech frame, ends with a short tail
    assert seg.start == pytest.approx(1.0 - c.pre_roll_s, abs=FRAME_S)
    assert seg.speech_end == pytest.approx(3.4, abs=FRAME_S)
    assert seg.end == pytest.approx(3.4 + c.tail_s, abs=2 * FRAME_S)
    assert seg.audio.size == round((seg.end - seg.start) / FRAME_S) * FRAME_SAMPLES
    # the turn ended after the 0.9 s pause, not earlier
    assert acts[1].at == pytest.approx(3.4 + 0.9, abs=2 * FRAME_S)


def test_a_long_pause_makes_two_turns() -> None:
    ep = Endpointer(EndpointConfig(end_silence_s=0.9))
    probs = frames(0.8, 0.9) + frames(1.2, 0.0) + frames(0.8, 0.9) + frames(1.5, 0.0)
    assert len([e for e in feed(ep, probs) if isinstance(e, Segment)]) == 2


def test_a_click_is_no_turn_and_no_activity() -> None:
    ep = Endpointer()
    events = feed(ep, frames(0.5, 0.0) + frames(0.064, 0.9) + frames(1.5, 0.0))
    assert events == []


def test_short_speech_reports_activity_but_sends_nothing() -> None:
    ep = Endpointer(EndpointConfig(min_speech_s=0.16, min_turn_s=0.3))
    events = feed(ep, frames(0.2, 0.9) + frames(1.5, 0.0))
    assert [type(e) for e in events] == [ActivityChanged, ActivityChanged]
    assert ep.stats.too_short == 1


def test_reset_discards_the_turn_in_progress() -> None:
    ep = Endpointer()
    events = feed(ep, frames(0.6, 0.9))
    assert [e.active for e in events if isinstance(e, ActivityChanged)] == [True]
    out = ep.reset(0.7)
    assert [e.active for e in out if isinstance(e, ActivityChanged)] == [False]
    assert not [e for e in feed(ep, frames(1.5, 0.0), 0.7) if isinstance(e, Segment)]
    assert ep.stats.discarded == 1


def test_a_long_turn_is_sent_in_segments_and_closed_once_when_the_child_stops() -> None:
    """Erratum 24: a turn longer than max_turn_s goes out in pieces (the server's limits),
    activity stays on while the child talks (Buddy does not reply), nothing is dropped,
    and only the last piece closes the turn."""
    ep = Endpointer(EndpointConfig(max_turn_s=3.0))
    events = feed(ep, frames(1.0, 0.0) + frames(7.0, 0.9) + frames(1.5, 0.0))
    segs = [e for e in events if isinstance(e, Segment)]
    acts = [e for e in events if isinstance(e, ActivityChanged)]
    assert [a.active for a in acts] == [True, False]       # one turn, not three
    assert len(segs) == 3 and ep.stats.split_long == 2
    assert [s.final for s in segs] == [False, False, True]
    assert len({s.turn for s in segs}) == 1 and [s.part for s in segs] == [0, 1, 2]
    # the pieces follow each other with no gap: every frame of the speech is sent
    for a, b in itertools.pairwise(segs):
        assert b.start == pytest.approx(a.end, abs=1e-9)
    sent = sum(s.audio.size for s in segs) * FRAME_S / FRAME_SAMPLES
    assert sent >= 7.0 - 1e-6
    assert acts[1].at > segs[1].end                        # closed after the child stopped


def test_a_cut_right_before_the_child_stops_still_closes_the_turn() -> None:
    ep = Endpointer(EndpointConfig(max_turn_s=3.0))
    events = feed(ep, frames(3.0 - 0.3 - FRAME_S / 2, 0.9) + frames(0.05, 0.9)
                  + frames(1.5, 0.0))
    segs = [e for e in events if isinstance(e, Segment)]
    assert segs[-1].final and len({s.turn for s in segs}) == 1


def test_while_buddy_speaks_a_short_or_weak_voice_is_no_barge_in() -> None:
    """Erratum 24: residual echo (moderate probability, or a short burst) is not the child."""
    cfg = EndpointConfig(speaking_start_threshold=0.8, speaking_min_speech_s=0.3)
    weak = Endpointer(cfg)
    assert feed(weak, frames(3.0, 0.7), buddy_speaking=True) == []
    short = Endpointer(cfg)
    assert feed(short, frames(0.2, 0.95) + frames(1.0, 0.0), buddy_speaking=True) == []
    # the same voice with Buddy silent is a turn
    assert feed(Endpointer(cfg), frames(3.0, 0.7))


def test_a_child_talking_over_buddy_is_heard_from_the_start_of_the_words() -> None:
    cfg = EndpointConfig(speaking_start_threshold=0.8, speaking_min_speech_s=0.3)
    ep = Endpointer(cfg)
    events = feed(ep, frames(2.0, 0.1) + frames(1.5, 0.95) + frames(1.5, 0.0),
                  buddy_speaking=True)
    acts = [e for e in events if isinstance(e, ActivityChanged)]
    segs = [e for e in events if isinstance(e, Segment)]
    assert acts[0].active and acts[0].at == pytest.approx(2.0 + 0.3, abs=2 * FRAME_S)
    assert len(segs) == 1 and segs[0].start <= 2.0 - 0.25    # pre-roll kept
    assert ep.stats.over_buddy == 1


def test_frames_that_are_only_buddys_voice_do_not_break_a_childs_turn() -> None:
    """Issue 29: over Buddy's story the echo canceller marks the child's quieter moments as
    Buddy's voice only (no evidence either way, `None`). In the room 0.1 s of the child
    alternated with 0.29 s of such frames: counted as pauses they dropped every turn
    before the 0.3 s of evidence; not counted, the child is heard and nothing is lost."""
    cfg = EndpointConfig(speaking_start_threshold=0.8, speaking_min_speech_s=0.3)
    ep = Endpointer(cfg)
    child = (frames(0.1, 0.95) + [None] * 9) * 6
    events = feed(ep, frames(1.0, 0.1) + child + frames(1.5, 0.0), buddy_speaking=True)
    acts = [e for e in events if isinstance(e, ActivityChanged)]
    segs = [e for e in events if isinstance(e, Segment)]
    assert acts and acts[0].active
    assert len(segs) == 1 and segs[0].start <= 1.0 - 0.25
    assert segs[0].audio.size >= len(child) * FRAME_SAMPLES      # the echo-only frames too
    # Buddy's voice alone (every frame marked) is never a turn
    assert feed(Endpointer(cfg), [None] * 100, buddy_speaking=True) == []
