"""The tts node's line rules (DESIGN §4.7, issue 21): lines queue in order; a newer turn or
another session supersedes; a session's end cuts its speech but its closing line; nothing
of an ended session is spoken; barge-in cuts and forgets the queue."""

from __future__ import annotations

from buddy_personality.speech.tts_core import TtsConfig, TtsCore


def test_lines_of_one_turn_queue_in_order() -> None:
    core = TtsCore()
    d1 = core.on_say(0.0, "One.", "happy", "s1", 1)
    d2 = core.on_say(0.01, "Two.", "happy", "s1", 1)
    assert d1.start is not None and d1.start.text == "One."
    assert d2.start is None and d2.cut is None
    assert [q.text for q in core.queue] == ["Two."]
    nxt = core.on_line_finished(1.0, d1.start.line_id)
    assert nxt.start is not None and nxt.start.text == "Two."


def test_newer_turn_supersedes_playing_and_queued_lines() -> None:
    core = TtsCore()
    first = core.on_say(0.0, "A long answer.", "curious", "s1", 1).start
    core.on_say(0.0, "And more of turn one.", "curious", "s1", 1)
    d = core.on_say(2.0, "Answer to turn two.", "happy", "s1", 2)
    assert first is not None and d.cut == first.line_id
    assert d.start is not None and d.start.text == "Answer to turn two."
    assert ("superseded", "And more of turn one.") in d.dropped
    assert not core.queue


def test_another_session_supersedes() -> None:
    core = TtsCore()
    first = core.on_say(0.0, "Old session line.", "neutral", "s1", 3).start
    d = core.on_say(1.0, "New session line.", "neutral", "s2", 1)
    assert first is not None and d.cut == first.line_id and d.start is not None


def test_session_end_cuts_but_keeps_the_closing_line_and_refuses_later_lines() -> None:
    core = TtsCore(TtsConfig(closing_window_s=0.2))
    reply = core.on_say(0.0, "A long reply the child walks away from.", "happy", "s1", 2).start
    core.on_say(5.0, "Bye bye, see you soon!", "happy", "s1", 2)      # closing line, queued
    d = core.on_session_ended(5.01, "s1")
    assert reply is not None and d.cut == reply.line_id
    assert d.start is not None and d.start.text == "Bye bye, see you soon!"
    late = core.on_say(5.2, "Something after the end.", "happy", "s1", 2)
    assert late.start is None and late.dropped == [("session_ended", "Something after the end.")]


def test_session_end_without_closing_line_cuts_everything_of_the_session() -> None:
    core = TtsCore()
    reply = core.on_say(0.0, "Reply.", "happy", "s1", 1).start
    core.on_say(0.1, "More.", "happy", "s1", 1)
    d = core.on_session_ended(3.0, "s1")      # HC-9 style: no closing line just before
    assert reply is not None and d.cut == reply.line_id
    assert d.start is None and not core.queue
    assert ("session_ended", "More.") in d.dropped


def test_session_end_of_another_session_leaves_current_speech_alone() -> None:
    core = TtsCore()
    core.on_say(0.0, "Line.", "happy", "s2", 1)
    d = core.on_session_ended(0.1, "s1")
    assert d.cut is None and core.current is not None


def test_barge_in_cuts_and_forgets_the_queue() -> None:
    core = TtsCore()
    cur = core.on_say(0.0, "One.", "happy", "s1", 1).start
    core.on_say(0.0, "Two.", "happy", "s1", 1)
    d = core.on_barge_in(0.5)
    assert cur is not None and d.cut == cur.line_id and d.start is None
    assert not core.queue and core.current is None
    assert core.on_line_finished(0.6, cur.line_id).start is None


def test_empty_lines_dropped_unknown_mood_is_neutral_long_lines_truncated() -> None:
    core = TtsCore(TtsConfig(max_chars=20))
    assert core.on_say(0.0, "   ", "happy", "s1", 1).dropped == [("empty", "")]
    d = core.on_say(0.0, "hello there my good friend", "grumpy", "s1", 1)
    assert d.start is not None and d.start.mood == "neutral"     # spec 002 §11.5 fallback
    assert d.start.text == "hello there my good"
    assert core.stats.unknown_mood == 1


def test_queue_is_bounded_oldest_dropped() -> None:
    core = TtsCore(TtsConfig(max_queue=2))
    core.on_say(0.0, "playing", "happy", "s1", 1)
    drops = [core.on_say(0.0, f"q{i}", "happy", "s1", 1).dropped for i in range(3)]
    assert drops[-1] == [("queue_full", "q0")]
    assert [q.text for q in core.queue] == ["q1", "q2"]


def test_a_line_playing_for_a_while_is_not_taken_for_the_closing_line() -> None:
    core = TtsCore(TtsConfig(closing_window_s=0.2))
    reply = core.on_say(0.0, "A reply that has been playing.", "happy", "s1", 1).start
    d = core.on_session_ended(0.4, "s1")          # e.g. HC-9: no closing line
    assert reply is not None and d.cut == reply.line_id
