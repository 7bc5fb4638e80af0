"""Fixed closing and refusal lines (HC-5, HC-6)."""

from __future__ import annotations

import re

from buddy_personality.cognition.lines import CLOSING_LINES, LOCKOUT_LINE
from buddy_personality.cognition.schema import validate_response
from buddy_personality.tools.fakes.fake_llm_server import echo_responder


def test_fixed_lines_are_short_kind_and_free_of_guilt_and_loneliness() -> None:
    """HC-5 (no loneliness/abandonment), HC-6 (no guilt or obligation)."""
    lines = [*CLOSING_LINES.values(), LOCKOUT_LINE]
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
