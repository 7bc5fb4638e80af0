"""The fake guard model of `FakeLlmServer` (issue 27 item 4): what it answers a guard
request, a chat request whose `model` is the guard's, or any `POST /v1/moderations`.

The verdict comes from a script (`GuardScript`: request -> "safe" | "unsafe\nS6" | any
text; `guard_flags` makes one from lists of words); `guard_reply` turns it into the HTTP
answer of the server's `guard_mode` (`normal`, `garbage`: a verdict nobody can read,
`error500`; `hang` is the server's own: it answers nothing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

GUARD_MODES = ("normal", "garbage", "error500", "hang")
FAKE_GUARD_MODEL = "fake-guard"
# Llama Guard codes (cognition/guard_rules.py) -> an OpenAI moderation category, for the
# /v1/moderations answers of the same script.
MODERATION_NAMES = {"S6": "violence", "S8": "self-harm/intent", "S7": "illicit"}

GuardScript = Callable[[dict[str, Any]], str]


def guard_text_of(request: dict[str, Any]) -> tuple[str, str | None]:
    """(child's line, Buddy's reply or None) of a guard request, either backend."""
    if "input" in request:
        return str(request.get("input", "")), None
    msgs = [m for m in request.get("messages", []) if isinstance(m, dict)]
    child = next((str(m.get("content", "")) for m in msgs if m.get("role") == "user"), "")
    reply = next((str(m.get("content", "")) for m in msgs if m.get("role") == "assistant"),
                 None)
    return child, reply


def guard_flags(reply_words: dict[str, str] | None = None,
                child_words: dict[str, str] | None = None) -> GuardScript:
    """A guard that calls a reply unsafe when it contains one of `reply_words` (word ->
    code, e.g. {"outlet": "S6"}) and a child's line when it contains one of
    `child_words`; safe otherwise. Case-insensitive substrings."""
    def verdict(request: dict[str, Any]) -> str:
        child, reply = guard_text_of(request)
        text, words = (child, child_words or {}) if reply is None else (
            reply, reply_words or {})
        if "input" in request:   # /moderations cannot tell whose words they are
            words = {**(reply_words or {}), **(child_words or {})}
        codes = [code for word, code in words.items() if word.lower() in text.lower()]
        return "unsafe\n" + ",".join(dict.fromkeys(codes)) if codes else "safe"

    return verdict



def guard_reply(mode: str, verdict: str, moderation: bool,
                guard_model: str) -> tuple[int, dict[str, Any]]:
    """HTTP status and JSON body of the guard's answer in `mode` (any but `hang`):
    an OpenAI moderation result for /moderations, else a chat completion whose content
    is the verdict (Llama Guard's own output format)."""
    if mode == "error500":
        return 500, {"error": {"message": "scripted guard failure"}}
    if moderation:
        lines = verdict.splitlines() if mode == "normal" else ["?"]
        codes = lines[1].split(",") if len(lines) > 1 else []
        cats = {MODERATION_NAMES.get(c.strip(), "harassment"): True for c in codes}
        doc: dict[str, Any] = {"id": "modr-fake", "results": [
            {"flagged": lines[0] == "unsafe", "categories": cats}]}
        if mode == "garbage":
            doc = {"results": "not a list"}
        return 200, doc
    content = verdict if mode == "normal" else (
        "I think this conversation is lovely and nothing is wrong.")
    return 200, {
        "id": "chatcmpl-guard", "object": "chat.completion", "model": guard_model,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}]}
