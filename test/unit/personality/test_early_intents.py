"""A session's start comes before its intents, whatever order they arrive in (issue 30 item
2; spec 002 §5.1 L0-06 "session_id assigned", §10.3 conv_started then ai_emotion).

The bridge sends a session's STARTED before the wake greeting's intent, on two topics that
nothing orders across processes. Taken the other way round, the intent moved the mood
before the session began, STARTED's L0-06 pull came last, and the face showed THINKING
while the greeting was said with its intent's mood. The engine holds an intent of a session
it has not seen start, and applies it right after that session's STARTED (bounded: an
intent whose STARTED never comes is applied after the hold)."""

from __future__ import annotations

import pytest

from buddy_personality.personality import intent_gate as g
from buddy_personality.personality.early_intents import HOLD_MAX, HOLD_S
from buddy_personality.personality.engine import PersonalityEngine
from buddy_personality.personality.records import EngineOutput

from .conftest import T0, make_engine

# the wake greeting's intent as the bridge sends it (answers.yaml's greeting row, layer 0)
GREETING = ("happy", 0.75, 0.8, g.SOURCE_RULES, "warmly greeting the child who said hello")


def _greet(engine: PersonalityEngine, intent_first: bool, t_first: float,
           t_second: float) -> list[EngineOutput]:
    """The wake word (L0-13), then STARTED and the greeting's intent in the given order."""
    outs = [engine.on_child_approach(T0 - 0.1)]
    if intent_first:
        outs.append(engine.on_ai_emotion(t_first, *GREETING, "s1", 1))
        outs.append(engine.on_conversation_started(t_second, "s1", "wake_word"))
    else:
        outs.append(engine.on_conversation_started(t_first, "s1", "wake_word"))
        outs.append(engine.on_ai_emotion(t_second, *GREETING, "s1", 1))
    return outs


def _greeting_plays(engine: PersonalityEngine) -> list[EngineOutput]:
    """The greeting is spoken (L0-09) for three seconds, the 1 Hz tick running."""
    outs = [engine.on_speech_activity(T0 + 0.3, True)]
    outs += [engine.tick(T0 + k) for k in (1.0, 2.0, 3.0)]
    outs.append(engine.on_speech_activity(T0 + 3.2, False))
    return outs


@pytest.mark.parametrize("seed", [1, 7])
def test_the_greeting_shows_the_same_mood_whichever_of_started_and_intent_comes_first(
        seed: int) -> None:
    """The face while the greeting plays is what STARTED-then-intent gives; the intent
    taken 10 ms before STARTED used to leave THINKING shown (curious in the bridge's
    order) through the whole line."""
    bridge_order = PersonalityEngine(T0, seed=seed)  # canonical axes: with noise
    _greet(bridge_order, intent_first=False, t_first=T0, t_second=T0 + 0.01)
    swapped = PersonalityEngine(T0, seed=seed)
    _greet(swapped, intent_first=True, t_first=T0, t_second=T0 + 0.01)
    expected = _greeting_plays(bridge_order)
    got = _greeting_plays(swapped)
    assert [o.snapshot.mood for o in got] == [o.snapshot.mood for o in expected]
    assert expected[0].snapshot.mood == "curious"
    for a, b in zip(got, expected, strict=True):
        # the intent is applied 10 ms later than in the bridge's order: decay differs a hair
        assert (a.snapshot.valence, a.snapshot.arousal) == pytest.approx(
            (b.snapshot.valence, b.snapshot.arousal), abs=0.005)
    assert swapped.turn_id == bridge_order.turn_id == 1


def test_at_one_instant_either_order_gives_the_same_events_and_state() -> None:
    """Taken at the same `now`, the two orders are the same run: the start's pull is
    projected first, then the intent's move (its own mood change, cause ai_emotion), and
    everything after matches bit for bit."""
    bridge_order = make_engine()
    a = _greet(bridge_order, intent_first=False, t_first=T0, t_second=T0)
    swapped = make_engine()
    b = _greet(swapped, intent_first=True, t_first=T0, t_second=T0)
    assert [c for o in b for c in o.events] == [c for o in a for c in o.events]
    assert [(c.prev, c.next, c.cause) for c in b[-1].mood_changes] == [
        ("thinking", "curious", "ai_emotion")]
    assert b[-1].snapshot == a[-1].snapshot
    assert _greeting_plays(swapped) == _greeting_plays(bridge_order)


def test_a_held_intent_is_named_by_the_start_that_applies_it() -> None:
    """The node answers each intent on emotion_applied with the mood it left (the bridge
    speaks the line with it): a held intent is answered by STARTED's output, not before."""
    engine = make_engine()
    held = engine.on_ai_emotion(T0, *GREETING, "s1", 1)
    assert held.intents_applied == () and held.snapshot.mood == "neutral"
    assert engine.stats.early_intents == {"held": 1}
    started = engine.on_conversation_started(T0 + 0.01, "s1", "wake_word")
    assert started.intents_applied == (("s1", 1),)
    assert started.snapshot.mood == "curious"
    assert engine.stats.early_intents == {"held": 1, "released": 1}
    # an intent of the running session is applied and named at once
    out = engine.on_ai_emotion(T0 + 2.0, "excited", 0.6, 0.8, g.SOURCE_RULES, "", "s1", 2)
    assert out.intents_applied == (("s1", 2),)


def test_an_intent_whose_start_never_comes_is_applied_after_the_hold() -> None:
    """Bounded in time: a lost STARTED (or a personality that joined mid-session) holds
    an intent HOLD_S at most (the 1 Hz tick releases it); the session's later intents are
    then applied at once. Nothing is dropped, and it is counted."""
    engine = make_engine()
    engine.on_ai_emotion(T0, *GREETING, "s9", 1)
    assert engine.tick(T0 + HOLD_S / 2).snapshot.mood == "neutral"
    out = engine.tick(T0 + HOLD_S)
    assert out.intents_applied == (("s9", 1),)
    assert out.snapshot.mood != "neutral"
    assert engine.stats.early_intents == {"held": 1, "released_without_start": 1}
    later = engine.on_ai_emotion(T0 + 5.0, "excited", 0.6, 0.8, g.SOURCE_RULES, "", "s9", 2)
    assert later.intents_applied == (("s9", 2),)


def test_the_hold_is_bounded_in_count_and_keeps_the_order() -> None:
    """One more than HOLD_MAX intents of a session that never started: its session is
    given up and every held intent of it is applied at once, in the order they came."""
    engine = make_engine()
    outs = [engine.on_ai_emotion(T0 + 0.01 * k, "happy", 0.5, 0.8, g.SOURCE_RULES, "",
                                 "s9", k + 1) for k in range(HOLD_MAX + 1)]
    assert all(o.intents_applied == () for o in outs[:-1])
    assert outs[-1].intents_applied == tuple(("s9", k + 1) for k in range(HOLD_MAX + 1))


def test_an_intent_after_its_session_ended_is_not_held() -> None:
    """A session that ended (the goodbye line's intent overtaken by ENDED) is not awaited:
    its intent is applied at once; so is one with no session."""
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    engine.on_conversation_ended(T0 + 5.0, "s1", 1, "goodbye")
    out = engine.on_ai_emotion(T0 + 5.01, "happy", 0.6, 0.8, g.SOURCE_RULES, "", "s1", 2)
    assert out.intents_applied == (("s1", 2),)
    out = engine.on_ai_emotion(T0 + 7.0, "happy", 0.6, 0.8, g.SOURCE_RULES, "", "", 0)
    assert out.intents_applied == (("", 0),)
    assert engine.stats.early_intents == {}


def test_a_new_session_over_a_running_one_applies_its_early_intents_after_taking_over() -> None:
    """A restarted bridge's new session (issue 31 item 2: it takes the running one over):
    its first intent, taken before its STARTED, is held, not applied to the old session,
    and applied once the new session runs."""
    engine = make_engine()
    engine.on_conversation_started(T0, "A")
    held = engine.on_ai_emotion(T0 + 1.0, *GREETING, "B", 1)
    assert held.intents_applied == () and engine.turn_id == 0
    out = engine.on_conversation_started(T0 + 1.01, "B", "wake_word")
    assert out.intents_applied == (("B", 1),)
    assert (engine.session_id, engine.turn_id, engine.stats.sessions_taken_over) == ("B", 1, 1)


def test_a_session_whose_start_was_lost_is_started_by_its_intent_and_counted() -> None:
    """A lost STARTED (sent before the bridge's writer matched the personality's reader,
    or while the personality restarted) left the session's talk uncounted by RS-1/RS-2
    (spec 002 §9.2): no session ran, so no limit could end it. When the hold runs out with
    no session running, the intent's session starts, its talk is counted, and RS-1 ends
    it at the session limit."""
    engine = make_engine()
    engine.on_ai_emotion(T0, *GREETING, "s9", 1)
    engine.tick(T0 + HOLD_S)
    assert (engine.session_id, engine.stats.sessions_started_by_intent) == ("s9", 1)
    assert engine.conversation_active
    limit = engine.session_limit_s
    t = T0 + HOLD_S
    rs1 = []
    while t < T0 + HOLD_S + limit + 5.0:
        t += 1.0
        rs1 += [e for e in engine.tick(t).guardrail_events if e.rule_id == "RS-1"]
    assert rs1, "RS-1 never fired for the session whose STARTED was lost"
    assert engine.usage.session_s >= limit - 1.0


def test_a_lost_start_does_not_take_over_a_running_session() -> None:
    """Only a session that would otherwise run uncounted is started by its intent: while
    another session runs (and is counted), an intent of an unknown session is applied to
    the face after the hold and starts nothing (a new session takes over only by its
    STARTED, issue 31 item 2)."""
    engine = make_engine()
    engine.on_conversation_started(T0, "A")
    engine.on_ai_emotion(T0 + 1.0, *GREETING, "B", 1)
    engine.tick(T0 + 1.0 + HOLD_S)
    assert engine.session_id == "A"
    assert (engine.stats.sessions_started_by_intent, engine.stats.sessions_taken_over) == (0, 0)
