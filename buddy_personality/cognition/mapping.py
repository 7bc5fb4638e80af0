"""Post-cognition mapping (spec 003 §6): the LLM's answer becomes robot state only through
these fixed tables (DESIGN §1.3: LLM output never sets numeric state directly).

- emotion -> AiEmotion intents. The personality node's intent gate, modulation (§13) and
  guardrails decide what actually happens to affect; these are suggestions.
- memory tags -> MemoryTag records (category and small VA biases by tag shape).
- turn outcome -> GovernorSignal (reward, novelty, urgency, difficulty).
"""

from __future__ import annotations

from dataclasses import dataclass

from buddy_personality.cognition.schema import CognitionResponse
from buddy_personality.cognition.vocabulary import MOOD_INTENSITY_CAP
from buddy_personality.msg_constants import EmotionSource

# AiEmotion.SOURCE_* (written once in msg_constants; plain ints, as the message holds them)
SOURCE_INLINE, SOURCE_HYBRID, SOURCE_POST, SOURCE_RULES = (
    int(EmotionSource.INLINE), int(EmotionSource.HYBRID), int(EmotionSource.POST),
    int(EmotionSource.RULES))

# Confidence of each intent source (spec 000: < 0.2 is dropped; INLINE > HYBRID > POST in
# priority). INLINE is the streamed emotion before anything else is checked: likely right,
# not yet validated. HYBRID is the whole validated answer: the most trustworthy. POST
# mirrors the child's affect: indirect evidence, so the weakest that still passes the gate.
CONFIDENCE: dict[int, float] = {SOURCE_INLINE: 0.6, SOURCE_HYBRID: 0.8, SOURCE_POST: 0.4}
# Layer 0 (RULES): a keyword rule understood the line; as sure as an unvalidated INLINE
# guess. The generic fallback understood nothing: just above the spec 000 drop line.
RULES_CONFIDENCE, RULES_FALLBACK_CONFIDENCE = 0.6, 0.3
# The INLINE intent comes before the answer's intensity has streamed: use a moderate one.
INLINE_INTENSITY = 0.4
INLINE_REASON = "first feeling while answering the child"

# POST mirroring of child_affect (spec 002 §12.3): positive children get a gentle happy,
# distressed children a mild empathic sad (§12.4: sad only for empathic mirroring).
# neutral / unclear give no intent.
POST_MIRROR: dict[str, tuple[str, float, str]] = {
    "positive": ("happy", 0.4, "mirroring the child's happy mood"),
    "negative": ("sad", 0.3, "gently mirroring how the child seems to feel"),
}


@dataclass(slots=True, frozen=True)
class Intent:
    emotion: str
    intensity: float
    confidence: float
    source: int
    mood_reason: str


def _cap(emotion: str, intensity: float) -> float:
    return min(max(0.0, intensity), MOOD_INTENSITY_CAP.get(emotion, 0.6))


def inline_intent(emotion: str) -> Intent:
    return Intent(emotion, _cap(emotion, INLINE_INTENSITY), CONFIDENCE[SOURCE_INLINE],
                  SOURCE_INLINE, INLINE_REASON)


def hybrid_intent(resp: CognitionResponse) -> Intent | None:
    if resp.emotion is None:
        return None
    return Intent(resp.emotion, _cap(resp.emotion, resp.intensity), CONFIDENCE[SOURCE_HYBRID],
                  SOURCE_HYBRID, resp.mood_reason)


def rules_intent(emotion: str, intensity: float, mood_reason: str, generic: bool) -> Intent:
    """Layer 0's emotion for its own answer: the same intent path as the LLM's (spec 000
    gate, §13 pipeline, guardrails), marked RULES so the personality keeps layer 0."""
    confidence = RULES_FALLBACK_CONFIDENCE if generic else RULES_CONFIDENCE
    return Intent(emotion, _cap(emotion, intensity), confidence, SOURCE_RULES, mood_reason)


def post_intent(resp: CognitionResponse) -> Intent | None:
    row = POST_MIRROR.get(resp.child_affect)
    if row is None:
        return None
    emotion, intensity, reason = row
    return Intent(emotion, intensity, CONFIDENCE[SOURCE_POST], SOURCE_POST, reason)


# --- memory tags -> MemoryTag (spec 002 §8.1 categories and biases in [-0.1, 0.1]) ---------
# First matching prefix wins; the default is a topic. Biases are small nudges a memory
# gives affect when recalled: liked things and rituals are pleasant, topics mildly
# interesting (a little arousal), dislikes slightly unpleasant.
CATEGORY_NAME, CATEGORY_RITUAL, CATEGORY_TOPIC, CATEGORY_TONE, CATEGORY_PREFERENCE = (
    "name", "ritual", "topic", "tone", "preference",
)
TAG_RULES: tuple[tuple[tuple[str, ...], str, float, float], ...] = (
    (("likes_", "loves_", "favorite_", "favourite_", "enjoys_", "prefers_"),
     CATEGORY_PREFERENCE, 0.05, 0.0),
    (("dislikes_", "doesnt_like_", "hates_", "not_a_fan_of_"), CATEGORY_PREFERENCE, -0.02, 0.0),
    (("ritual_", "every_", "bedtime_", "morning_", "always_", "weekly_"),
     CATEGORY_RITUAL, 0.04, 0.0),
    (("tone_", "playful_", "calm_", "quiet_"), CATEGORY_TONE, 0.0, 0.0),
)
DEFAULT_TAG_RULE: tuple[str, float, float] = (CATEGORY_TOPIC, 0.03, 0.02)


@dataclass(slots=True, frozen=True)
class MemoryTagRecord:
    tag: str
    category: str
    valence_bias: float
    arousal_bias: float


def memory_record(tag: str) -> MemoryTagRecord:
    for prefixes, category, v, a in TAG_RULES:
        if tag.startswith(prefixes):
            return MemoryTagRecord(tag, category, v, a)
    category, v, a = DEFAULT_TAG_RULE
    return MemoryTagRecord(tag, category, v, a)


# --- turn outcome -> GovernorSignal (spec 001 §3, DESIGN §4.2) ---------------------------
# reward: how well the turn went, by (answer source, child affect).
REWARD: dict[tuple[str, str], float] = {
    ("llm", "positive"): 0.6,
    ("llm", "neutral"): 0.3,
    ("llm", "unclear"): 0.2,
    ("llm", "negative"): 0.1,      # answered, but the child is not happy yet
    ("rules", "unclear"): 0.1,     # layer 0 on purpose (no server): a simple kind reply
    ("failed", "unclear"): -0.4,   # the server failed this turn; layer 0 stood in
}
NOVELTY_PER_NEW_TOPIC = 0.5        # two new topics saturate novelty
BASE_DIFFICULTY = 0.1              # DESIGN §4.2 default difficulty
DIFFICULTY_PER_FAILED_ATTEMPT = 0.3
DIFFICULTY_DROPPED_PARTS = 0.1     # the answer needed repair


@dataclass(slots=True, frozen=True)
class TurnOutcome:
    source: str              # "llm", "rules" or "failed"
    child_affect: str        # spec 002 §12.3 value ("unclear" when unknown)
    new_topics: int          # memory tags not seen earlier in the session
    session_elapsed_s: float
    session_limit_s: float   # RS-1 limit
    failed_attempts: int     # failed requests this turn (including retries)
    dropped_parts: int       # invalid answer parts dropped


@dataclass(slots=True, frozen=True)
class GovernorSignalRecord:
    reward: float
    novelty: float
    urgency: float
    difficulty: float


def governor_signal(o: TurnOutcome) -> GovernorSignalRecord:
    reward = REWARD.get((o.source, o.child_affect), REWARD.get((o.source, "unclear"), 0.0))
    novelty = min(1.0, NOVELTY_PER_NEW_TOPIC * max(0, o.new_topics))
    urgency = 0.0
    if o.session_limit_s > 0:
        urgency = min(1.0, max(0.0, o.session_elapsed_s / o.session_limit_s))
    difficulty = BASE_DIFFICULTY + DIFFICULTY_PER_FAILED_ATTEMPT * max(0, o.failed_attempts)
    if o.dropped_parts > 0:
        difficulty += DIFFICULTY_DROPPED_PARTS
    return GovernorSignalRecord(reward, novelty, urgency, min(1.0, difficulty))
