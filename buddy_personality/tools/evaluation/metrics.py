"""Spec 002 Appendix A.2 success indicators as pure functions over a mood timeline.

A timeline is the personality engine's snapshot stream: one `Sample` per snapshot, in
time order. Each sample holds from its own stamp until the next sample's stamp (the
engine publishes on every change and at 1 Hz, so this is exact for a recorded stream);
the last sample has no duration. The definitions and the reasons for them are in
docs/EVALUATION.md; every function here is deterministic and reads no clock.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from buddy_personality.personality.moods import MOOD_CLASSES

NEUTRAL = "neutral"
LAYER_RULES = 0  # PersonalitySnapshot.LAYER_RULES
LAYER_LLM = 1

# spec 002 Appendix A.2 testable criteria (what a simulation can measure)
CV_MAX = 0.30  # emotional consistency: mood distribution CV across 10 sessions
ARC_SMOOTHNESS_MAX = 5.0  # temporal coherence: path_length / displacement
IDLE_ALIVENESS_MIN = 0.15  # idle aliveness: share of idle time in a non-NEUTRAL mood
IDLE_SWITCHES_PER_MIN_MAX = 0.5  # no emotional randomness: mood switches per idle minute
CV_SESSIONS = 10  # "across 10 sessions"
GREETING_ACCURACY_MIN = 0.80  # relationship continuity: "recognizes returning child > 80%"
IDLE_02_WINDOW_S = 300.0  # spec 002 §7.1 IDLE-02: the first 5 min of idle
# Below these a figure rests on too little data and is reported n/a, not as a verdict.
CV_MIN_SESSIONS = 5  # half the spec's 10: a sample deviation over fewer says little
ARC_MIN_REPLIES = 3  # DESIGN §6.13: sessions with at least three replies
IDLE_MIN_MINUTES = 30.0  # IDLE-03/04 need 5-15 min of idle before they can show at all
GREETING_MIN_SESSIONS = 3
# spec 002 §3.3: the canonical baseline, the reference of the arc's displacement
CANONICAL_BASELINE = (0.10, -0.05)


@dataclass(slots=True, frozen=True)
class Sample:
    """One personality snapshot (the fields of PersonalitySnapshot the indicators read)."""

    t: float  # seconds (sim or wall clock; only differences matter)
    mood: str
    valence: float
    arousal: float
    conversation_active: bool
    layer: int = LAYER_LLM
    intensity: float = 0.0
    idle_state: int = 0  # PersonalitySnapshot.IDLE_* (0 awake, 1 drowsy, 2 asleep)


@dataclass(slots=True, frozen=True)
class Span:
    """A maximal run of samples with the same conversation state: [start, stop) indices."""

    start: int
    stop: int
    conversation: bool


def durations(samples: Sequence[Sample]) -> list[float]:
    """How long each sample held: up to the next sample's stamp; 0 for the last one."""
    out = [max(0.0, b.t - a.t) for a, b in itertools.pairwise(samples)]
    if samples:
        out.append(0.0)
    return out


def spans(samples: Sequence[Sample]) -> list[Span]:
    """Split the timeline into alternating idle and conversation spans."""
    out: list[Span] = []
    start = 0
    for i in range(1, len(samples) + 1):
        if i == len(samples) or (samples[i].conversation_active
                                 != samples[start].conversation_active):
            out.append(Span(start, i, samples[start].conversation_active))
            start = i
    return out


def sessions(samples: Sequence[Sample]) -> list[Sequence[Sample]]:
    """The conversation sessions (runs of conversation_active samples), in order.

    Each session includes the first sample after it (the snapshot that ended it) so its
    last sample holds until the end of the conversation instead of having no duration.
    """
    out: list[Sequence[Sample]] = []
    for span in spans(samples):
        if span.conversation:
            out.append(samples[span.start:min(span.stop + 1, len(samples))])
    return out


def mood_shares(samples: Sequence[Sample]) -> dict[str, float]:
    """Time share of each mood (sums to 1 when the samples span any time; {} otherwise)."""
    total = 0.0
    acc: dict[str, float] = {}
    for s, d in zip(samples, durations(samples), strict=True):
        if d > 0.0:
            acc[s.mood] = acc.get(s.mood, 0.0) + d
            total += d
    return {m: v / total for m, v in acc.items()} if total > 0.0 else {}


def mood_cv(share_vectors: Sequence[Mapping[str, float]]) -> float:
    """Mean-share-weighted coefficient of variation of per-session mood shares.

    For each mood m: mean share mu_m over the sessions and sample standard deviation
    sigma_m (n - 1). CV_m = sigma_m / mu_m; the result is sum(mu_m * CV_m) / sum(mu_m),
    which equals sum(sigma_m) / sum(mu_m) = sum(sigma_m) since the shares sum to 1. Rare
    moods thus count in proportion to the time they take (a mood seen 1 % of the time has
    an unstable, meaningless CV of its own). NaN with fewer than two sessions.
    """
    n = len(share_vectors)
    if n < 2:
        return math.nan
    moods = sorted({m for vec in share_vectors for m in vec})
    sum_sigma = 0.0
    sum_mu = 0.0
    for m in moods:
        xs = [vec.get(m, 0.0) for vec in share_vectors]
        mu = sum(xs) / n
        var = sum((x - mu) ** 2 for x in xs) / (n - 1)
        sum_sigma += math.sqrt(var)
        sum_mu += mu
    return sum_sigma / sum_mu if sum_mu > 0.0 else math.nan


def path_length(points: Sequence[tuple[float, float]]) -> float:
    """Sum of the straight steps between consecutive (valence, arousal) points."""
    return sum(math.dist(a, b) for a, b in itertools.pairwise(points))


def max_displacement(points: Sequence[tuple[float, float]]) -> float:
    """How far the trajectory ever got from its starting point."""
    if not points:
        return 0.0
    p0 = points[0]
    return max(math.dist(p0, p) for p in points)


def arc_ratio(points: Sequence[tuple[float, float]], *, end_to_end: bool = False) -> float:
    """path_length / displacement of one trajectory (spec 002 A.2 arc smoothness).

    Displacement is the largest distance from the start (a session leaves the baseline
    and decays back to it, so its start-to-end distance is near zero by design); with
    `end_to_end` it is the start-to-end distance instead. NaN when it does not move.
    """
    if len(points) < 2:
        return math.nan
    disp = math.dist(points[0], points[-1]) if end_to_end else max_displacement(points)
    if disp <= 1e-12:
        return math.nan
    return path_length(points) / disp


def arc_smoothness(session_list: Iterable[Sequence[Sample]], *,
                   end_to_end: bool = False) -> list[float]:
    """arc_ratio of each session's VA trajectory (NaN for a session that did not move)."""
    return [arc_ratio([(s.valence, s.arousal) for s in ses], end_to_end=end_to_end)
            for ses in session_list]


def idle_aliveness(samples: Sequence[Sample], *, layer: int | None = None) -> float:
    """Share of idle time (no conversation) spent in a mood other than NEUTRAL.

    With `layer`, only idle time at that layer counts. NaN when there is no idle time.
    """
    idle = 0.0
    alive = 0.0
    for s, d in zip(samples, durations(samples), strict=True):
        if s.conversation_active or (layer is not None and s.layer != layer):
            continue
        idle += d
        if s.mood != NEUTRAL:
            alive += d
    return alive / idle if idle > 0.0 else math.nan


def recent_idle_aliveness(samples: Sequence[Sample], window_s: float) -> float:
    """idle_aliveness over only the idle time less than `window_s` after the last
    conversation ended (or after the timeline began): the afterglow of §7.1 IDLE-05/06,
    without the hours of night that dominate a day's idle time. A sample counts for the
    part of its duration that falls inside the window."""
    idle = 0.0
    alive = 0.0
    since = samples[0].t if samples else 0.0
    for s, d in zip(samples, durations(samples), strict=True):
        if s.conversation_active:
            since = s.t + d  # idle time restarts when this conversation sample ends
            continue
        inside = max(0.0, min(s.t + d, since + window_s) - s.t)
        idle += inside
        if s.mood != NEUTRAL:
            alive += inside
    return alive / idle if idle > 0.0 else math.nan


def idle_switches(samples: Sequence[Sample], *, layer: int | None = None) -> tuple[int, float]:
    """(mood switches, idle minutes): a switch is a mood change between two consecutive
    samples that are both idle (and both at `layer` when given); conversation starts and
    ends are not idle switches."""
    minutes = 0.0
    switches = 0
    durs = durations(samples)
    for i, s in enumerate(samples):
        if s.conversation_active or (layer is not None and s.layer != layer):
            continue
        minutes += durs[i] / 60.0
        if i > 0:
            p = samples[i - 1]
            if (not p.conversation_active and (layer is None or p.layer == layer)
                    and p.mood != s.mood):
                switches += 1
    return switches, minutes


def idle_switches_per_min(samples: Sequence[Sample], *, layer: int | None = None) -> float:
    switches, minutes = idle_switches(samples, layer=layer)
    return switches / minutes if minutes > 0.0 else math.nan


def mood_switches_per_min(samples: Sequence[Sample]) -> float:
    """Mood changes per minute over the whole timeline (any state)."""
    durs = durations(samples)
    minutes = sum(durs) / 60.0
    changes = sum(1 for a, b in itertools.pairwise(samples) if a.mood != b.mood)
    return changes / minutes if minutes > 0.0 else math.nan


def session_layer(session: Sequence[Sample]) -> int:
    """The layer a session spent most of its time at (ties go to layer 1)."""
    at_rules = sum(d for s, d in zip(session, durations(session), strict=True)
                   if s.layer == LAYER_RULES)
    total = sum(durations(session))
    return LAYER_RULES if total > 0.0 and at_rules > total / 2.0 else LAYER_LLM


# ---------------------------------------------------------------- DESIGN §6.13 indicators
def class_shares(samples: Sequence[Sample]) -> dict[str, float]:
    """Time share of each mood class of spec 002 §4.1 (positive, neutral, negative)."""
    out: dict[str, float] = {}
    for mood, share in mood_shares(samples).items():
        cls = MOOD_CLASSES.get(mood, "neutral")
        out[cls] = out.get(cls, 0.0) + share
    return out


def mood_class_cv(share_vectors: Sequence[Mapping[str, float]]) -> float:
    """DESIGN §6.13 emotional consistency: CV = sum of sigma_c / sum of mu_c over the mood
    classes (sigma the sample deviation over sessions, mu the mean share). The formula is
    `mood_cv`'s, applied to class shares; NaN with fewer than two sessions."""
    return mood_cv(share_vectors)


def reply_arc_points(session: Sequence[Sample],
                     speaking_starts: Sequence[float]) -> list[tuple[float, float]]:
    """DESIGN §6.13: the arc a child sees. The affect at the session's start, then once per
    reply the affect of the first snapshot at or after its SPEAKING phase began.

    `speaking_starts` is sorted; only the starts inside the session count (the session
    ends with the snapshot that ended it)."""
    if not session:
        return []
    points = [(session[0].valence, session[0].arousal)]
    t_end = session[-1].t
    times = [x.t for x in session]
    lo = bisect.bisect_left(speaking_starts, session[0].t)
    hi = bisect.bisect_left(speaking_starts, t_end)
    for start in speaking_starts[lo:hi]:
        k = bisect.bisect_left(times, start)
        if k < len(session):
            points.append((session[k].valence, session[k].arousal))
    return points


def reply_arc_ratio(points: Sequence[tuple[float, float]],
                    baseline: tuple[float, float] = CANONICAL_BASELINE) -> float:
    """Path length over the largest distance of a sample from the baseline (the spec's
    research: "total path length / maximum displacement from baseline", about 2-5 for a
    coherent arc, far above 10 for a random walk). NaN when nothing left the baseline."""
    if len(points) < 2:
        return math.nan
    disp = max(math.dist(baseline, p) for p in points)
    if disp <= 1e-12:
        return math.nan
    return path_length(points) / disp


def session_replies(session: Sequence[Sample], speaking_starts: Sequence[float]) -> int:
    return len(reply_arc_points(session, speaking_starts)) - 1


@dataclass(slots=True, frozen=True)
class Greeting:
    """One session opened by a child whose identity is confirmed and whose name Buddy
    knows (DESIGN §6.13 relationship continuity): did the first reply use the name?"""

    t: float
    name: str
    first_reply: str
    layer: int = LAYER_LLM

    @property
    def addressed(self) -> bool:
        return addresses_by_name(self.first_reply, self.name)


def addresses_by_name(text: str, name: str) -> bool:
    """The line says the name as a word (any case): "Leo!" and "hi, leo" do, "Leopard"
    does not."""
    if not name:
        return False
    words = "".join(ch.lower() if ch.isalnum() else " " for ch in text).split()
    return name.lower() in words


def greeting_accuracy(greetings: Sequence[Greeting]) -> float:
    """Share of qualifying sessions whose first reply addressed the child by name."""
    if not greetings:
        return math.nan
    return sum(1 for g in greetings if g.addressed) / len(greetings)


def idle_minutes(samples: Sequence[Sample]) -> float:
    return sum(d for s, d in zip(samples, durations(samples), strict=True)
               if not s.conversation_active) / 60.0


def idle_state_shares(samples: Sequence[Sample]) -> dict[str, float]:
    """Share of idle time awake, drowsy and asleep (DESIGN §6.11)."""
    names = {0: "awake", 1: "drowsy", 2: "asleep"}
    acc: dict[str, float] = {}
    total = 0.0
    for s, d in zip(samples, durations(samples), strict=True):
        if s.conversation_active or d <= 0.0:
            continue
        key = names.get(s.idle_state, "awake")
        acc[key] = acc.get(key, 0.0) + d
        total += d
    return {k: v / total for k, v in acc.items()} if total > 0.0 else {}
