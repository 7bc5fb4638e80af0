"""The guard model's client (issue 27 item 2, DESIGN erratum 23): a second lock on what
Buddy says, served beside the chat model. ROS-free; the node runs it in worker threads.

Two backends behind one interface (`GuardClient.check(child, reply)`):

- `llama_guard` (default): `POST {url}/chat/completions` with `model = guard_model`, the
  child's line as the user message and Buddy's reply (so far) as the assistant message,
  and Buddy's own policy (`guard_rules.GUARD_CATEGORIES`) as the `categories` of the
  model's chat template (`chat_template_kwargs`; Llama Guard 3's template reads them and
  falls back to its own S1-S14 without). The model answers "safe" or "unsafe\\nS1,S6".
  Without a reply the child's line itself is classified (the User role: HC-9).
- `moderations`: `POST {url}/moderations` with `{"model", "input"}`, OpenAI's shape
  (`results[0].flagged`, `categories`), mapped onto the same rule ids.

Every outcome is a `GuardVerdict`: SAFE, UNSAFE with the rule ids, or UNAVAILABLE with
the reason (an HTTP error, a refused connection, an unreadable answer, no answer within
`deadline_s`). The caller treats UNAVAILABLE as "not spoken" for a reply and as "no
second opinion" for the child's line. Nothing raises to the caller.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from buddy_personality.cognition.guard_rules import (
    AGENT,
    BY_CODE,
    MODERATION_RULES,
    UNNAMED_RULE,
    USER,
    categories_for,
)
from buddy_personality.cognition.request_deadline import AttemptWatchdog

BACKEND_LLAMA_GUARD, BACKEND_MODERATIONS = "llama_guard", "moderations"
BACKENDS = (BACKEND_LLAMA_GUARD, BACKEND_MODERATIONS)
SAFE, UNSAFE, UNAVAILABLE = "safe", "unsafe", "unavailable"
VERDICT_MAX_CHARS = 200   # a verdict is two short lines; more is not a verdict
REASON_MAX = 120


@dataclass(slots=True, frozen=True)
class GuardConfig:
    base_url: str                       # …/v1: the chat server's, unless guard_url
    model: str                          # guard_model, e.g. meta-llama/Llama-Guard-3-1B
    backend: str = BACKEND_LLAMA_GUARD
    deadline_s: float = 1.5             # the whole request (DESIGN erratum 23)
    connect_timeout_s: float = 1.0


@dataclass(slots=True, frozen=True)
class GuardVerdict:
    status: str                         # SAFE | UNSAFE | UNAVAILABLE
    rules: tuple[str, ...] = ()         # Buddy's rule ids of an UNSAFE verdict
    codes: tuple[str, ...] = ()         # the guard's own category codes
    reason: str = ""                    # why UNAVAILABLE, in words
    latency_s: float = 0.0

    @property
    def safe(self) -> bool:
        return self.status == SAFE

    @property
    def unavailable(self) -> bool:
        return self.status == UNAVAILABLE


def unavailable(reason: str, latency_s: float = 0.0) -> GuardVerdict:
    return GuardVerdict(UNAVAILABLE, reason=reason[:REASON_MAX], latency_s=latency_s)


def parse_llama_guard(content: str, role: str) -> GuardVerdict:
    """'safe' | 'unsafe\\nS1,S6' -> a verdict; anything else is unreadable. Codes the
    policy of `role` does not hold still refuse (under UNNAMED_RULE): the model said
    unsafe, and a reply it calls unsafe is not spoken."""
    text = content.strip()
    if not text or len(text) > VERDICT_MAX_CHARS:
        return unavailable(f"unreadable verdict ({len(text)} chars)")
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    head = lines[0].lower()
    if head == SAFE and len(lines) == 1:
        return GuardVerdict(SAFE)
    if head != UNSAFE:
        return unavailable(f"unreadable verdict {text[:40]!r}")
    codes = tuple(c.strip().upper() for c in (lines[1] if len(lines) > 1 else "").split(",")
                  if c.strip())
    rules: list[str] = []
    for code in codes:
        cat = BY_CODE.get(code)
        rule = cat.rule_id if cat is not None and cat.role == role else UNNAMED_RULE
        if rule not in rules:
            rules.append(rule)
    return GuardVerdict(UNSAFE, tuple(rules or [UNNAMED_RULE]), codes)


def parse_moderation(doc: Any, child_line: bool) -> GuardVerdict:
    """OpenAI's moderation answer -> a verdict (`results[0]`)."""
    try:
        result = doc["results"][0]
        flagged = result["flagged"]
        categories = result.get("categories") or {}
    except (KeyError, IndexError, TypeError, AttributeError):
        return unavailable("unreadable moderation answer")
    if not isinstance(flagged, bool) or not isinstance(categories, dict):
        return unavailable("unreadable moderation answer")
    named = tuple(sorted(k for k, v in categories.items() if v is True and isinstance(k, str)))
    rules: list[str] = []
    for name in named:
        reply_rule, child_rule = MODERATION_RULES.get(name, (UNNAMED_RULE, ""))
        rule = child_rule if child_line else reply_rule
        if rule and rule not in rules:
            rules.append(rule)
    if child_line:   # only distress matters for the child's line
        return GuardVerdict(UNSAFE, tuple(rules), named) if rules else GuardVerdict(SAFE)
    if not flagged and not rules:
        return GuardVerdict(SAFE)
    return GuardVerdict(UNSAFE, tuple(rules or [UNNAMED_RULE]), named)


class GuardClient:
    """Blocking; one call per sentence or child line, from a worker thread."""

    def __init__(self, config: GuardConfig, http: httpx.Client | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if config.backend not in BACKENDS:
            raise ValueError(f"guard backend {config.backend!r}: one of {BACKENDS}")
        self.config = config
        self._clock = clock
        self._http = http or httpx.Client(
            timeout=httpx.Timeout(config.deadline_s, connect=config.connect_timeout_s),
            trust_env=False,   # the child's words go to the configured server only (HC-3)
        )
        base = config.base_url.rstrip("/")
        self._url = base + ("/moderations" if config.backend == BACKEND_MODERATIONS
                            else "/chat/completions")

    def close(self) -> None:
        self._http.close()

    def request_body(self, child: str, reply: str | None) -> dict[str, Any]:
        if self.config.backend == BACKEND_MODERATIONS:
            return {"model": self.config.model, "input": child if reply is None else reply}
        messages = [{"role": "user", "content": child}]
        if reply is not None:
            messages.append({"role": "assistant", "content": reply})
        return {
            "model": self.config.model, "messages": messages, "temperature": 0.0,
            "max_tokens": 16, "stream": False,
            "chat_template_kwargs": {"categories": categories_for(USER if reply is None
                                                                  else AGENT)},
        }

    def check(self, child: str, reply: str | None = None,
              deadline_s: float | None = None) -> GuardVerdict:
        """Classify Buddy's `reply` to `child` (None: the child's line itself, for HC-9)."""
        start = self._clock()
        deadline = start + (self.config.deadline_s if deadline_s is None else deadline_s)
        try:
            raw = self._post(self.request_body(child, reply), deadline)
        except _Unavailable as exc:
            return unavailable(str(exc), self._clock() - start)
        verdict = self._parse(raw, reply is None)
        return GuardVerdict(verdict.status, verdict.rules, verdict.codes, verdict.reason,
                            self._clock() - start)

    def _parse(self, raw: bytes, child_line: bool) -> GuardVerdict:
        try:
            doc = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            return unavailable("guard answer is not JSON")
        if self.config.backend == BACKEND_MODERATIONS:
            return parse_moderation(doc, child_line)
        try:
            content = doc["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            return unavailable("malformed completion envelope")
        if not isinstance(content, str):
            return unavailable("completion without text content")
        return parse_llama_guard(content, USER if child_line else AGENT)

    def _post(self, body: dict[str, Any], deadline: float) -> bytes:
        remaining = deadline - self._clock()
        if remaining <= 0.0:
            raise _Unavailable("timeout")
        timeout = httpx.Timeout(remaining, connect=min(self.config.connect_timeout_s,
                                                       remaining))
        watchdog = AttemptWatchdog(deadline, None, self._clock)
        try:
            with contextlib.ExitStack() as stack:
                r = stack.enter_context(self._http.stream("POST", self._url, json=body,
                                                          timeout=timeout))
                watchdog.watch(r)
                if r.status_code != 200:
                    raise _Unavailable(f"HTTP {r.status_code}")
                raw = r.read()
                if watchdog.fired is not None or self._clock() > deadline:
                    raise _Unavailable("timeout")
                return raw
        except httpx.TimeoutException as exc:
            raise _Unavailable("timeout") from exc
        except httpx.HTTPError as exc:
            if watchdog.fired is not None:
                raise _Unavailable(watchdog.fired) from exc
            raise _Unavailable(f"connection: {type(exc).__name__}") from exc
        finally:
            watchdog.stop()


class _Unavailable(Exception):
    """No verdict from this request; the message says why."""
