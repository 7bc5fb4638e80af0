"""spec 002 Appendix A.2 indicator functions on hand-made timelines (answers worked out by
hand in the comments; definitions in docs/EVALUATION.md)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from buddy_personality.tools.evaluation import metrics as m


def s(t: float, mood: str, conv: bool = False, v: float = 0.0, a: float = 0.0,
      layer: int = 1) -> m.Sample:
    return m.Sample(t, mood, v, a, conv, layer)


# t:      0        10      20          50       60        70
# state:  idle     idle    conv        idle     idle      idle (last: no duration)
# mood:   neutral  happy   happy       neutral  thinking  thinking
# held:   10       10      30          10       10        0
DAY = [s(0, "neutral"), s(10, "happy"), s(20, "happy", conv=True), s(50, "neutral"),
       s(60, "thinking"), s(70, "thinking")]


def test_durations_hold_until_the_next_sample_and_the_last_has_none() -> None:
    assert m.durations(DAY) == [10, 10, 30, 10, 10, 0]
    assert m.durations([]) == []


def test_spans_alternate_idle_and_conversation() -> None:
    assert m.spans(DAY) == [m.Span(0, 2, False), m.Span(2, 3, True), m.Span(3, 6, False)]


def test_a_session_includes_the_snapshot_that_ended_it() -> None:
    (only,) = m.sessions(DAY)
    assert [x.t for x in only] == [20, 50]  # the conversation sample held 30 s
    assert m.mood_shares(only) == {"happy": 1.0}


def test_mood_shares_are_time_weighted() -> None:
    # happy 0-3 s (two samples), sad 3-4 s: 3/4 and 1/4
    tl = [s(0, "happy"), s(1, "happy"), s(3, "sad"), s(4, "neutral")]
    assert m.mood_shares(tl) == {"happy": 0.75, "sad": 0.25}
    assert m.mood_shares([s(0, "happy")]) == {}


def test_mood_cv_of_identical_sessions_is_zero() -> None:
    vec = {"happy": 0.6, "neutral": 0.4}
    assert m.mood_cv([vec, dict(vec), dict(vec)]) == pytest.approx(0.0)


def test_mood_cv_weighted_by_mean_share() -> None:
    # happy 0.5 / 0.7 -> mu 0.6, sample sd sqrt(0.1² + 0.1²) = 0.141421;
    # neutral 0.5 / 0.3 -> the same sd; sum of mu = 1 -> CV = 0.282843
    cv = m.mood_cv([{"happy": 0.5, "neutral": 0.5}, {"happy": 0.7, "neutral": 0.3}])
    assert cv == pytest.approx(2 * math.sqrt(0.02), abs=1e-9)
    assert cv == pytest.approx(0.282843, abs=1e-6)


def test_mood_cv_counts_a_mood_missing_from_a_session_as_zero_share() -> None:
    # happy 1 / 0 and neutral 0 / 1: mu 0.5 each, sd sqrt(0.5) each -> sqrt(2)
    assert m.mood_cv([{"happy": 1.0}, {"neutral": 1.0}]) == pytest.approx(math.sqrt(2))


def test_mood_cv_needs_two_sessions() -> None:
    assert math.isnan(m.mood_cv([{"happy": 1.0}]))
    assert math.isnan(m.mood_cv([]))


def test_arc_ratio_of_a_straight_line_is_one() -> None:
    assert m.arc_ratio([(0, 0), (1, 0), (2, 0)]) == pytest.approx(1.0)


def test_arc_ratio_out_and_back_uses_the_largest_displacement() -> None:
    # out 5 and back 5 along a 3-4-5 triangle's hypotenuse: path 10, farthest 5 -> 2
    pts = [(0, 0), (3, 4), (0, 0)]
    assert m.path_length(pts) == pytest.approx(10.0)
    assert m.arc_ratio(pts) == pytest.approx(2.0)
    assert math.isnan(m.arc_ratio(pts, end_to_end=True))  # start == end


def test_arc_ratio_round_a_square() -> None:
    # path 4, farthest corner sqrt(2) from the start -> 2.828427
    pts = [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]
    assert m.arc_ratio(pts) == pytest.approx(4 / math.sqrt(2))
    # end-to-end over the first three corners: path 2, displacement sqrt(2)
    assert m.arc_ratio(pts[:3], end_to_end=True) == pytest.approx(math.sqrt(2))


def test_arc_ratio_undefined_without_movement() -> None:
    assert math.isnan(m.arc_ratio([(0.1, 0.1)]))
    assert math.isnan(m.arc_ratio([(0.1, 0.1), (0.1, 0.1)]))


def test_arc_smoothness_per_session() -> None:
    tl = [s(0, "neutral"), s(1, "happy", True, 0.0, 0.0), s(2, "happy", True, 3.0, 4.0),
          s(3, "happy", True, 0.0, 0.0), s(4, "neutral")]
    # the session runs t=1..4: (0,0) (3,4) (0,0) then the ending sample at (0,0)
    assert m.arc_smoothness(m.sessions(tl)) == [pytest.approx(2.0)]


def test_idle_aliveness_ignores_conversation_time() -> None:
    # idle 40 s (0-20, 50-70); not neutral: happy 10-20 and thinking 60-70 -> 20 / 40
    assert m.idle_aliveness(DAY) == pytest.approx(0.5)


def test_idle_aliveness_undefined_without_idle_time() -> None:
    assert math.isnan(m.idle_aliveness([s(0, "happy", True), s(5, "happy", True)]))


def test_idle_switches_count_changes_between_idle_samples_only() -> None:
    # neutral->happy at 10 counts; 10->20 and 20->50 touch the conversation; 50->60 counts
    switches, minutes = m.idle_switches(DAY)
    assert switches == 2
    assert minutes == pytest.approx(40 / 60)
    assert m.idle_switches_per_min(DAY) == pytest.approx(3.0)


def test_layer_filter_selects_the_server_down_stretch() -> None:
    # 0-60 s layer 1 neutral; 60-120 s layer 0: happy 30 s then neutral 30 s
    tl = [s(0, "neutral"), s(60, "happy", layer=0), s(90, "neutral", layer=0),
          s(120, "neutral", layer=0)]
    assert m.idle_aliveness(tl, layer=0) == pytest.approx(0.5)
    assert m.idle_aliveness(tl, layer=1) == pytest.approx(0.0)
    # one switch (happy->neutral at 90) inside layer 0; the 60 s change crosses layers
    assert m.idle_switches(tl, layer=0) == (1, pytest.approx(1.0))
    assert m.idle_switches(tl) == (2, pytest.approx(2.0))


def test_mood_switches_per_min_over_everything() -> None:
    # changes at 10 (neutral->happy), 50 (happy->neutral), 60 (->thinking) in 70 s
    assert m.mood_switches_per_min(DAY) == pytest.approx(3 / (70 / 60))


def test_session_layer_is_the_majority_layer() -> None:
    ses = [s(0, "neutral", True, layer=1), s(10, "neutral", True, layer=0),
           s(40, "neutral", True, layer=0)]
    assert m.session_layer(ses) == m.LAYER_RULES  # 30 s of 40 on layer 0
    assert m.session_layer(ses[:2]) == m.LAYER_LLM


def test_recent_idle_aliveness_counts_only_the_window_after_a_conversation() -> None:
    # DAY with a 15 s window: idle 0-15 after the start (neutral 10, happy 5 -> 5 alive),
    # and 50-65 after the conversation ended at 50 (neutral 10, thinking 5 -> 5 alive)
    assert m.recent_idle_aliveness(DAY, 15.0) == pytest.approx(10 / 30)
    # a window longer than the day is plain idle aliveness
    assert m.recent_idle_aliveness(DAY, 1e9) == pytest.approx(m.idle_aliveness(DAY))
    assert math.isnan(m.recent_idle_aliveness([], 10.0))


# ----------------------------------------------------------------- properties

MOODS = ("neutral", "happy", "thinking", "sad", "curious")
points = st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1)), min_size=2, max_size=40)
timelines = st.lists(
    st.tuples(st.floats(0.0, 30.0), st.sampled_from(MOODS), st.booleans(),
              st.sampled_from((0, 1))), min_size=1, max_size=60,
).map(lambda rows: [s(t, mood, conv, layer=layer)
                    for t, (_, mood, conv, layer) in zip(
                        itertools.accumulate(r[0] for r in rows), rows, strict=True)])


@settings(max_examples=150, deadline=None)
@given(points)
def test_a_trajectory_is_never_shorter_than_its_farthest_point(pts) -> None:
    # triangle inequality: the path to the farthest point is at least that far
    ratio = m.arc_ratio(pts)
    assert math.isnan(ratio) or ratio >= 1.0 - 1e-9


@settings(max_examples=150, deadline=None)
@given(timelines)
def test_shares_and_aliveness_are_fractions(tl) -> None:
    shares = m.mood_shares(tl)
    assert not shares or math.isclose(sum(shares.values()), 1.0)
    for value in (m.idle_aliveness(tl), m.recent_idle_aliveness(tl, 60.0),
                  m.idle_aliveness(tl, layer=0)):
        assert math.isnan(value) or 0.0 <= value <= 1.0 + 1e-12


@settings(max_examples=100, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(MOODS), st.floats(0.01, 1.0), min_size=1),
                min_size=2, max_size=10), st.randoms())
def test_mood_cv_ignores_session_order(raw, rnd) -> None:
    vectors = [{k: v / sum(d.values()) for k, v in d.items()} for d in raw]
    shuffled = list(vectors)
    rnd.shuffle(shuffled)
    assert m.mood_cv(shuffled) == pytest.approx(m.mood_cv(vectors))
    assert m.mood_cv(vectors) >= 0.0


# ---------------------------------------------------------------- DESIGN §6.13 (erratum 13)
def test_mood_classes_follow_the_spec_4_1_class_column() -> None:
    """CURIOUS, THINKING, SURPRISED, CONFUSED, SLEEPY are Neutral class (§4.1)."""
    tl = [s(0, "happy"), s(10, "curious"), s(20, "sad"), s(25, "sleepy"), s(30, "love"),
          s(40, "neutral")]
    # happy 10 + love 10 = 20 positive, curious 10 + sleepy 5 = 15 neutral, sad 5 negative
    assert m.class_shares(tl) == pytest.approx(
        {"positive": 0.5, "neutral": 0.375, "negative": 0.125})


def test_mood_class_cv_is_sum_of_sigmas_over_sum_of_means() -> None:
    # positive 0.6 / 0.4: mu 0.5, sd 0.141421; neutral 0.4 / 0.6: the same; sum mu = 1
    cv = m.mood_class_cv([{"positive": 0.6, "neutral": 0.4},
                          {"positive": 0.4, "neutral": 0.6}])
    assert cv == pytest.approx(2 * math.sqrt(0.02))


def test_happy_and_love_sessions_have_the_same_class_distribution() -> None:
    """"The classes are what the traits of §3 set; which mood within a class shows
    follows the topic": a happy session and a love session do not differ."""
    a = [s(0, "happy", conv=True), s(60, "neutral")]
    b = [s(0, "love", conv=True), s(60, "neutral")]
    assert m.mood_class_cv([m.class_shares(a), m.class_shares(b)]) == 0.0
    assert m.mood_cv([m.mood_shares(a), m.mood_shares(b)]) > 1.0


def test_reply_arc_samples_the_start_then_each_reply_at_its_speaking_phase() -> None:
    ses = [s(0, "neutral", True, 0.1, 0.0), s(1, "thinking", True, 0.2, 0.2),
           s(2, "happy", True, 0.5, 0.3), s(5, "happy", True, 0.6, 0.3),
           s(9, "happy", True, 0.4, 0.2), s(12, "neutral", False, 0.1, 0.0)]
    # replies speak at 2.0 and 8.5 (the first snapshot at or after: t=2 and t=9); one at
    # 20 is after the session and is not this session's
    assert m.reply_arc_points(ses, [2.0, 8.5, 20.0]) == [(0.1, 0.0), (0.5, 0.3), (0.4, 0.2)]
    assert m.session_replies(ses, [2.0, 8.5, 20.0]) == 2


def test_reply_arc_ratio_is_path_over_largest_distance_from_baseline() -> None:
    base = (0.0, 0.0)
    # out along a line to 0.3 and back to 0.1: path 0.3 + 0.2 = 0.5, farthest 0.3
    pts = [(0.0, 0.0), (0.3, 0.0), (0.1, 0.0)]
    assert m.reply_arc_ratio(pts, base) == pytest.approx(0.5 / 0.3)
    # a walk that jumps between opposite sides: path 4 x 0.6, farthest 0.3 -> 8
    zig = [(0.3, 0.0), (-0.3, 0.0), (0.3, 0.0), (-0.3, 0.0), (0.3, 0.0)]
    assert m.reply_arc_ratio(zig, base) == pytest.approx(2.4 / 0.3)
    assert math.isnan(m.reply_arc_ratio([(0.0, 0.0), (0.0, 0.0)], base))


@pytest.mark.parametrize(("text", "name", "addressed"), [
    ("Leo! Is that you?", "Leo", True),
    ("hi, leo, welcome back", "Leo", True),
    ("Leo's drawing is great", "Leo", True),
    ("Look at the leopard!", "Leo", False),
    ("Hello there!", "Leo", False),
    ("Hello there!", "", False),
])
def test_a_reply_addresses_the_child_when_it_says_the_name_as_a_word(
        text: str, name: str, addressed: bool) -> None:
    assert m.addresses_by_name(text, name) is addressed


def test_greeting_accuracy_is_the_share_of_first_replies_with_the_name() -> None:
    gs = [m.Greeting(0, "Leo", "Leo! Hi!"), m.Greeting(1, "Mia", "Hello!"),
          m.Greeting(2, "Mia", "Mia, welcome back"), m.Greeting(3, "Leo", "Hey Leo")]
    assert m.greeting_accuracy(gs) == 0.75
    assert math.isnan(m.greeting_accuracy([]))


def test_idle_state_shares() -> None:
    tl = [m.Sample(0, "neutral", 0, 0, False), m.Sample(10, "sleepy", 0, 0, False, 1, 0.5, 1),
          m.Sample(40, "sleepy", 0, 0, False, 1, 0.5, 2), m.Sample(100, "happy", 0, 0, True)]
    assert m.idle_state_shares(tl) == pytest.approx({"awake": 0.1, "drowsy": 0.3,
                                                     "asleep": 0.6})
