"""What the fake LLM server (fake_llm_server.py) answers a chat request with: the
default answer (spec 002 §12.3's fields), a `Responder` script of answers in turn
(`scripted`), and the demo's `echo_responder`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

DEFAULT_ANSWER: dict[str, Any] = {
    "inner_thought": "The child is sharing something; Buddy should be warm and curious.",
    "emotion": "curious",
    "intensity": 0.6,
    "mood_reason": "child is telling me something interesting",
    "emotional_arc": "rising",
    "child_affect": "positive",
    "text": "Ooh, how fun! Tell me more about that.",
    "gestures": ["nod"],
    "memory_tags": [],
}

Responder = Callable[[dict[str, Any]], dict[str, Any]]


def scripted(answers: list[dict[str, Any]], *, cycle: bool = False) -> Responder:
    """A responder that returns `answers` in turn, then repeats the last one (or, with
    `cycle`, starts over: a long scripted conversation from a short script)."""
    if not answers:
        raise ValueError("scripted() needs at least one answer")
    state = {"i": 0}

    def respond(_request: dict[str, Any]) -> dict[str, Any]:
        i = state["i"] % len(answers) if cycle else min(state["i"], len(answers) - 1)
        state["i"] += 1
        return answers[i]

    return respond


def echo_responder(request: dict[str, Any]) -> dict[str, Any]:
    """A demo responder: a friendly curious answer that mentions the child's last words."""
    last = ""
    for m in reversed(request.get("messages", [])):
        if m.get("role") == "user":
            last = str(m.get("content", ""))
            break
    words = last.split()
    topic = " ".join(words[-3:]).strip(".!?,") if words else "that"
    answer = dict(DEFAULT_ANSWER)
    answer["text"] = f"Ooh, {topic}! I wonder what else you know about it."
    return answer
