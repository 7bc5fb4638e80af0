"""Issue 19 attacks on the turn, on the bridge core (no ROS, no threads): a server that
stalls or hangs must not leave a child in silence (spec 002 §10 RS-9), and a 20 kB reply
is never spoken cut mid-sentence (spec 002 §12.4)."""

from __future__ import annotations

import random

import pytest

from buddy_personality.cognition.bridge import PHASE_SPEAKING, PHASE_THINKING, BridgeCore
from buddy_personality.cognition.client import CallResult
from buddy_personality.cognition.gate import GateConfig
from buddy_personality.cognition.health import SERVER_OFFLINE, SERVER_ONLINE, HealthConfig
from buddy_personality.cognition.layer0.table import load_table
from buddy_personality.cognition.schema import MAX_TEXT_CHARS, validate_response
from buddy_personality.cognition.turn_deadline import FILLER_LINES, TurnDeadline
from buddy_personality.tools.fakes.fake_llm_server import DEFAULT_ANSWER

pytestmark = pytest.mark.attack


def core() -> BridgeCore:
    return BridgeCore(random.Random(3), server_configured=True,
                      gate=GateConfig(cooldown_s=0.0),
                      health=HealthConfig(offline_after_failures=1, probe_interval_s=10.0))


def test_stalled_server_child_hears_a_filler_then_layer0_answer() -> None:
    """A server stalling 30 s kept Buddy THINKING for 32.8 s; now a filler comes at
    2.5 s and layer 0's answer at 7 s, and the request is cancelled."""
    c = core()
    step = c.on_utterance(100.0, "hey buddy why is the sky blue")
    assert step.call is not None and c.phase == PHASE_THINKING
    assert step.call.deadline_s is not None and step.call.deadline_s < 7.0
    said: list[tuple[float, str]] = []
    cancelled = None
    for k in range(1, 101):  # 10 Hz ticks over 10 s
        now = 100.0 + k / 10
        out = c.tick(now)
        said += [(now, s.text) for s in out.says]
        cancelled = out.cancel_ticket if out.cancel_ticket is not None else cancelled
    (t_filler, filler), (t_answer, answer) = said
    assert filler in FILLER_LINES and 2.5 <= t_filler - 100.0 < 2.7
    sky = next(r for r in load_table().rows if r.intent == "why_sky_blue").answers
    assert answer in sky   # layer 0's own answer to the question (issue 15)
    assert 7.0 <= t_answer - 100.0 < 7.2
    assert cancelled == step.call.ticket and c.stats.turn_timeouts == 1
    assert c.phase != PHASE_THINKING
    # The abandoned request's late result changes nothing the child hears.
    late = c.on_call_result(131.0, step.call.ticket, CallResult(ok=False, errors=["timeout"]))
    assert not late.says and c.stats.stale_results == 1


def test_a_quick_answer_needs_no_filler() -> None:
    c = core()
    step = c.on_utterance(0.0, "hey buddy tell me a story")
    assert step.call is not None
    assert not c.tick(1.0).says
    from buddy_personality.cognition.schema import validate_response as v
    out = c.on_call_result(1.2, step.call.ticket,
                           CallResult(ok=True, response=v(DEFAULT_ANSWER).response))
    assert [s.text for s in out.says] == [DEFAULT_ANSWER["text"]]
    assert c.phase == PHASE_SPEAKING and not c.tick(3.0).says


def test_layer_switches_are_logged_once_each_with_the_reason() -> None:
    c = core()
    step = c.on_utterance(0.0, "hey buddy hi there")
    assert step.call is not None
    down = c.on_call_result(1.0, step.call.ticket,
                            CallResult(ok=False, errors=["HTTP 500"], failed_attempts=1))
    assert down.system_events == [SERVER_OFFLINE]
    notes = [n for n in down.notes if n.startswith("layer ")]
    assert len(notes) == 1 and "layer 0" in notes[0] and "HTTP 500" in notes[0]
    up = c.on_probe_result(12.0, True)
    assert up.system_events == [SERVER_ONLINE]
    assert [n for n in up.notes if n.startswith("layer ")] == [
        "layer 1: the LLM server answers again (probe answered)"]


def test_turn_deadline_due_table() -> None:
    d = TurnDeadline(filler_after_s=2.5, answer_by_s=7.0)
    assert [d.due(w, False) for w in (0.0, 2.4, 2.5, 6.9, 7.0)] == [
        None, None, "filler", "filler", "give_up"]
    assert d.due(3.0, True) is None and d.request_budget_s < d.answer_by_s


def test_20kb_reply_is_cut_at_a_sentence_boundary_under_the_limit() -> None:
    sentence = "Dinosaurs lived a very long time ago and some were as big as a house. "
    long = dict(DEFAULT_ANSWER, text=sentence * 300)  # ~21 kB
    outcome = validate_response(long)
    assert outcome.response is not None
    text = outcome.response.text
    assert len(text) <= MAX_TEXT_CHARS and text.endswith(".")
    assert text == " ".join([sentence.strip()] * (text.count(".")))


def test_20kb_reply_without_a_sentence_end_is_refused() -> None:
    outcome = validate_response(dict(DEFAULT_ANSWER, text="blah " * 4000))
    assert outcome.response is None and "spoken-length limit" in outcome.failure
