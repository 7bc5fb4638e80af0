"""Layer 0's own greeting of a known child (DESIGN §6.13 relationship continuity).

In layer 1 the child's name reaches the prompt (context.audience_message) and the model
uses it. In layer 0 there is no model: the first rule reply after the child's identity
is confirmed (spec 004, DESIGN §6.17) starts with the child's name, so a returning child
is recognised with the server down too (spec 002 A.2, RS-9).
"""

from __future__ import annotations


def addresses_by_name(text: str, name: str) -> bool:
    """The line says the name as a word (any case): "Leo!" and "hi, leo" do, "Leopard"
    does not."""
    if not name:
        return False
    words = "".join(ch.lower() if ch.isalnum() else " " for ch in text).split()
    return name.lower() in words


def greet_by_name(reply: str, name: str) -> str:
    """`reply` addressed to `name` ("Leo! That's so interesting!"); unchanged when it
    already says the name or there is no name."""
    if not name or addresses_by_name(reply, name):
        return reply
    return f"{name}! {reply}"
