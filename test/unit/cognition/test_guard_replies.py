"""The guard model in the bridge core (issue 27 items 2-3, DESIGN erratum 23): a reply is
spoken sentence by sentence as the guard's verdicts come in; an unsafe, unreadable or
late verdict on the first sentence means layer 0 answers the turn, on a later one that
the safe line follows what was said; the child's line flagged for HC-9 stops the session.
Driven by hand (no server): each verdict is fed to the core as the node's worker would."""

from __future__ import annotations

import random

from buddy_personality.cognition.bridge import (
    CONV_ENDED,
    PHASE_SPEAKING,
    PHASE_THINKING,
    BridgeConfig,
    BridgeCore,
    Step,
)
from buddy_personality.cognition.client import CallResult
from buddy_personality.cognition.gate import GateConfig
from buddy_personality.cognition.guard import SAFE, UNSAFE, GuardVerdict, unavailable
from buddy_personality.cognition.guard_rules import GUARD_CATEGORIES, GUARD_UNAVAILABLE
from buddy_personality.cognition.layer0.table import load_table
from buddy_personality.cognition.reply_gate import split_sentences
from buddy_personality.cognition.schema import validate_response
from buddy_personality.safety.guard import OutputGuard
from buddy_personality.safety.speech_safety import HC9_LINE
from buddy_personality.tools.fakes.fake_llm_server import DEFAULT_ANSWER

# Made-up words no local rule knows: only the guard decides about these lines (not
# "all by yourself": the learned lexicon refuses that locally, docs/SAFETY.md).
GOOD = "Ooh, the kitchen is a busy place. Grown-ups cook yummy food there."
BAD_TAIL = "Ooh, the kitchen is a busy place. Zorp the blue sparkle juice with a spoon!"
DANGER_LINE = next(c.safe_line for c in GUARD_CATEGORIES if c.rule_id == "RS-3-DANGER")


def core() -> BridgeCore:
    return BridgeCore(random.Random(3), server_configured=True,
                      config=BridgeConfig(guard_enabled=True, guard_deadline_s=1.5),
                      gate=GateConfig(cooldown_s=0.0))


def result(text: str) -> CallResult:
    outcome = validate_response(dict(DEFAULT_ANSWER, text=text))
    assert outcome.response is not None
    return CallResult(ok=True, response=outcome.response, attempts=1)


def says(steps: list[Step]) -> list[str]:
    return [s.text for step in steps for s in step.says]


def start_turn(c: BridgeCore, line: str = "hey buddy, what is an outlet?") -> Step:
    step = c.on_utterance(0.0, line)
    assert step.call is not None and len(step.guard_checks) == 1   # the child's line
    assert step.guard_checks[0].reply is None
    return step


def test_sentences_split_and_join_back() -> None:
    assert split_sentences(BAD_TAIL) == ["Ooh, the kitchen is a busy place.",
                                         "Zorp the blue sparkle juice with a spoon!"]
    assert split_sentences("Wow! Dinosaurs were huge. Some were tiny!") == [
        "Wow! Dinosaurs were huge.", "Some were tiny!"]          # "Wow!" is too short alone
    long = " ".join(f"Sentence number {i} is here." for i in range(9))
    assert len(split_sentences(long)) == 6 and " ".join(split_sentences(long)) == long


def test_nothing_is_spoken_before_the_first_verdict_then_sentence_by_sentence() -> None:
    c = core()
    child = start_turn(c).guard_checks[0].check_id
    step = c.on_call_result(1.0, 1, result(GOOD))
    assert step.says == [] and c.phase == PHASE_THINKING
    checks = step.guard_checks
    assert [k.reply for k in checks] == ["Ooh, the kitchen is a busy place.", GOOD]
    assert c.on_guard_verdict(1.1, child, GuardVerdict(SAFE)).says == []
    # the second sentence's verdict first: still nothing (order is kept)
    assert c.on_guard_verdict(1.2, checks[1].check_id, GuardVerdict(SAFE)).says == []
    first = c.on_guard_verdict(1.3, checks[0].check_id, GuardVerdict(SAFE))
    assert says([first]) == ["Ooh, the kitchen is a busy place.",
                             "Grown-ups cook yummy food there."]
    assert all(s.part_of == GOOD for s in first.says) and c.phase == PHASE_SPEAKING
    assert c.screen(first).guardrails == []   # the local rules judge the whole reply


def test_an_unsafe_second_sentence_is_never_spoken_after_a_good_first() -> None:
    c = core()
    child = start_turn(c).guard_checks[0].check_id
    checks = c.on_call_result(1.0, 1, result(BAD_TAIL)).guard_checks
    c.on_guard_verdict(1.1, child, GuardVerdict(SAFE))
    first = c.on_guard_verdict(1.2, checks[0].check_id, GuardVerdict(SAFE))
    assert says([first]) == ["Ooh, the kitchen is a busy place."]
    rest = c.on_guard_verdict(1.3, checks[1].check_id,
                              GuardVerdict(UNSAFE, ("RS-3-DANGER",), ("S6",)))
    assert says([rest]) == [DANGER_LINE]
    assert [(g.rule_id, g.action) for g in rest.guardrails] == [("RS-3-DANGER",
                                                                 "substitute_line")]
    assert "sparkle" not in c.session.history[-1].buddy_text   # the model never sees it again


def test_unsafe_first_sentence_layer_0_answers_and_the_event_names_the_rule() -> None:
    c = core()
    child = start_turn(c).guard_checks[0].check_id
    checks = c.on_call_result(1.0, 1, result(GOOD)).guard_checks
    c.on_guard_verdict(1.1, child, GuardVerdict(SAFE))
    step = c.on_guard_verdict(1.2, checks[0].check_id, GuardVerdict(UNSAFE, ("HC-1",),
                                                                    ("S1",)))
    layer0 = {a for r in load_table().rows for a in r.answers}
    assert len(step.says) == 1 and step.says[0].text not in (GOOD,)
    assert step.says[0].text.replace("{name}", "") in {a.replace("{name}", "")
                                                       for a in layer0}
    assert [g.rule_id for g in step.guardrails] == ["HC-1"]
    # the second sentence's verdict, arriving later, says nothing more
    assert c.on_guard_verdict(1.3, checks[1].check_id, GuardVerdict(SAFE)).says == []


def test_garbage_or_error_verdict_is_guard_unavailable_and_layer_0_answers() -> None:
    c = core()
    child = start_turn(c).guard_checks[0].check_id
    checks = c.on_call_result(1.0, 1, result(GOOD)).guard_checks
    c.on_guard_verdict(1.1, child, unavailable("HTTP 500"))   # no second opinion: go on
    step = c.on_guard_verdict(1.2, checks[0].check_id, unavailable("unreadable verdict"))
    assert [g.rule_id for g in step.guardrails] == [GUARD_UNAVAILABLE]
    assert len(step.says) == 1 and GOOD not in says([step])
    assert c.guard_stats.unavailable_in_row == 2


def test_no_verdict_by_the_guard_deadline_layer_0_answers() -> None:
    c = core()
    start_turn(c)
    c.on_call_result(1.0, 1, result(GOOD))
    assert min(c.next_deadline(1.0) or 99, 99) <= 1.0 + 1.5 + 0.25
    assert c.tick(2.0).says == []
    step = c.tick(2.8)        # 1.5 s + the backstop after the reply came
    assert [g.rule_id for g in step.guardrails] == [GUARD_UNAVAILABLE]
    assert len(step.says) == 1 and GOOD not in says([step])


def test_the_child_line_flagged_by_the_guard_is_an_hc9_stop() -> None:
    c = core()
    # a distress line the phrase list does not know
    line = "hey buddy, nobody came to get me from the park and it is dark now"
    child = start_turn(c, line).guard_checks
    step = c.on_guard_verdict(0.3, child[0].check_id, GuardVerdict(UNSAFE, ("HC-9",), ("S8",)))
    assert says([step]) == [HC9_LINE]
    assert [g.rule_id for g in step.guardrails] == ["HC-9"] and step.alerts
    assert [e.end_reason for e in step.conversation if e.kind == CONV_ENDED] == [
        "hc9_distress"]
    assert step.cancel_ticket == 1      # the LLM call is cancelled
    assert c.on_call_result(1.0, 1, result(GOOD)).says == []


def test_without_a_guard_the_reply_is_spoken_whole_at_once() -> None:
    c = BridgeCore(random.Random(3), server_configured=True, gate=GateConfig(cooldown_s=0.0))
    step = c.on_utterance(0.0, "hey buddy, what is an outlet?")
    assert step.guard_checks == []
    assert says([c.on_call_result(1.0, 1, result(GOOD))]) == [GOOD]


def test_every_safe_line_of_the_guard_passes_the_local_rules() -> None:
    guard = OutputGuard()
    for cat in GUARD_CATEGORIES:
        assert guard.check(cat.safe_line).ok, cat.rule_id
