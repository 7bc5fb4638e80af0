"""Layer-0 replies and fixed lines (RS-9 graceful degradation, RS-3 redirection)."""

from __future__ import annotations

import re

import pytest

from buddy_personality.cognition.lines import (
    CLOSING_LINES,
    DEFAULT_REPLIES,
    LAYER0_RULES,
    LOCKOUT_LINE,
    QUESTION_REPLY,
    layer0_reply,
)
from buddy_personality.cognition.schema import validate_response
from buddy_personality.tools.fakes.fake_llm_server import echo_responder


@pytest.mark.parametrize(
    ("text", "row"),
    [("My knee hurts", 0), ("hello!", 1), ("thank you", 2), ("I love trains", 3),
     ("look at this", 4)],
)
def test_each_rule_row_answers(text: str, row: int) -> None:
    assert layer0_reply(text, 1) == LAYER0_RULES[row][1]


def test_distress_wins_over_everything_else() -> None:
    """A hurt or scared child is sent to a trusted grown-up first (spec 002 §12.4 SAFETY)."""
    assert "grown-up" in layer0_reply("hi buddy, I'm scared and I like you", 1)


def test_questions_go_to_a_grown_up() -> None:
    assert layer0_reply("why is the moon round", 1) == QUESTION_REPLY
    assert layer0_reply("the moon is round?", 1) == QUESTION_REPLY


def test_default_replies_rotate_deterministically() -> None:
    got = [layer0_reply("I went to the park", k) for k in range(len(DEFAULT_REPLIES) * 2)]
    assert got[: len(DEFAULT_REPLIES)] == [DEFAULT_REPLIES[k % len(DEFAULT_REPLIES)]
                                            for k in range(len(DEFAULT_REPLIES))]
    assert got[: len(DEFAULT_REPLIES)] == got[len(DEFAULT_REPLIES):]


def test_fixed_lines_are_short_kind_and_free_of_guilt_and_loneliness() -> None:
    """HC-5 (no loneliness/abandonment), HC-6 (no guilt or obligation)."""
    lines = [r for _, r in LAYER0_RULES] + list(DEFAULT_REPLIES) + list(
        CLOSING_LINES.values()) + [LOCKOUT_LINE, QUESTION_REPLY]
    bad = re.compile(r"\b(lonely|alone|miss you|sad without|you have to|you must|"
                     r"don't leave|promise)\b", re.IGNORECASE)
    for line in lines:
        assert len(line.split()) <= 14 and not bad.search(line), line


def test_demo_echo_responder_gives_valid_answers() -> None:
    req = {"messages": [{"role": "system", "content": "x"},
                        {"role": "user", "content": "I saw a big red fire truck!"}]}
    out = validate_response(echo_responder(req))
    assert out.response is not None and out.dropped == []
    assert "red fire truck" in out.response.text  # its last words echoed
