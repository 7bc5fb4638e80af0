"""A line is spoken with the mood the face shows while it plays (issue 30 item 2; spec 002
§11.5): a line whose turn has an emotion intent in flight waits for the personality's
answer to that intent (personality/emotion_applied) and carries the mood it left."""

from __future__ import annotations

from buddy_personality.cognition.bridge import IntentOut, SayOut
from buddy_personality.cognition.mapping import Intent
from buddy_personality.cognition.say_mood import SayMoodSync

HELLO = SayOut("Hello!", "neutral", "s1", 0)
DINO = SayOut("Roar!", "happy", "s1", 1)


def intent(turn: int, session: str = "s1") -> IntentOut:
    return IntentOut(Intent("curious", 0.8, 0.9, 3, "the child said hello to Buddy"),
                     session, turn)


def test_a_line_waits_for_its_intent_and_carries_the_mood_it_left() -> None:
    """Issue 30: "hey buddy, hello!" was spoken neutral while the face turned curious."""
    sync = SayMoodSync(wait_s=0.5)
    assert sync.offer(10.0, [intent(0)], [HELLO]) == []
    assert sync.holding and sync.next_deadline() == 10.5
    out = sync.on_applied("s1", 0, "curious")
    assert [(s.text, s.emotion) for s in out] == [("Hello!", "curious")]
    assert not sync.holding and sync.released == 1


def test_a_line_with_no_intent_in_flight_goes_at_once_with_the_snapshot_mood() -> None:
    sync = SayMoodSync()
    assert sync.offer(1.0, [], [DINO]) == [DINO]


def test_every_intent_of_the_turn_is_answered_before_its_line_goes() -> None:
    """An LLM turn sends INLINE then HYBRID: the line follows the last one's mood."""
    sync = SayMoodSync()
    assert sync.offer(1.0, [intent(1), intent(1)], [DINO]) == []
    assert sync.on_applied("s1", 1, "curious") == []
    assert [s.emotion for s in sync.on_applied("s1", 1, "excited")] == ["excited"]


def test_lines_keep_their_order_behind_a_held_one() -> None:
    sync = SayMoodSync()
    sync.offer(1.0, [intent(1)], [DINO])
    later = SayOut("Stomp!", "happy", "s1", 2)
    assert sync.offer(1.1, [], [later]) == []
    assert [s.text for s in sync.on_applied("s1", 1, "excited")] == ["Roar!", "Stomp!"]


def test_an_answer_that_never_comes_costs_at_most_the_bounded_wait() -> None:
    sync = SayMoodSync(wait_s=0.5)
    sync.offer(1.0, [intent(1)], [DINO])
    assert sync.due(1.4, "sad") == []
    assert [(s.text, s.emotion) for s in sync.due(1.5, "sad")] == [("Roar!", "sad")]
    assert sync.timeouts == 1
    # the turn's intent is no longer waited for: its next line goes at once
    assert sync.offer(1.6, [], [SayOut("More.", "sad", "s1", 1)])[0].text == "More."


def test_a_step_that_ends_the_session_sends_every_line_now() -> None:
    """HC-9 first: the closing line goes before ENDED, nothing waits behind it."""
    sync = SayMoodSync()
    sync.offer(1.0, [intent(1)], [DINO])
    bye = SayOut("Bye bye!", "happy", "s1", 1)
    assert [s.text for s in sync.offer(1.1, [], [bye], hold=False)] == ["Roar!", "Bye bye!"]
    assert not sync.holding


def test_a_safety_line_keeps_its_rule_s_emotion_when_no_answer_comes() -> None:
    """Erratum 16: a refused reply's line falls back to THINKING; erratum 15: the HC-9 line
    is calm. With no personality answer within the wait, the latest snapshot predates the
    turn, so the rule's emotion stands; an ordinary line takes the latest mood."""
    sync = SayMoodSync(wait_s=0.5)
    refused = SayOut("Let's ask a grown-up about that.", "thinking", "s1", 2,
                     rule_emotion=True)
    ordinary = SayOut("Roar!", "neutral", "s1", 3)
    sync.offer(1.0, [intent(2)], [refused])
    sync.offer(1.1, [intent(3)], [ordinary])
    out = sync.due(2.0, "happy")
    assert [(s.text, s.emotion) for s in out] == [
        ("Let's ask a grown-up about that.", "thinking"), ("Roar!", "happy")]
    assert sync.timeouts == 2
