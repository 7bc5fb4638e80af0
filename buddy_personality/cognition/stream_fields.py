"""Incremental extraction of top-level string fields from a streamed JSON object.

The LLM's answer arrives in small pieces (server-sent events). Spec 002 §12.3 puts
`inner_thought` then `emotion` first, so the emotion is known long before the spoken
text is complete; DESIGN §4.5 publishes it as an INLINE intent at that moment. This is a
small byte-at-a-time scanner, not a parser: it tracks nesting and strings, and reports
each complete top-level `"key": "string"` pair once. Anything it does not understand is
ignored (the whole answer is validated properly at the end).
"""

from __future__ import annotations

import json
from collections.abc import Callable

_WS = " \t\r\n"


class JsonFieldStream:
    """Feed chunks; `fields` holds completed top-level string values."""

    __slots__ = (
        "_after_key", "_callback", "_depth", "_escape", "_in_string", "_key",
        "_raw", "_state", "fields",
    )

    def __init__(self, on_field: Callable[[str, str], None] | None = None) -> None:
        self._callback = on_field
        self.fields: dict[str, str] = {}
        self._depth = 0           # 1 inside the top-level object
        self._in_string = False
        self._escape = False
        self._raw: list[str] = []  # raw characters of the current top-level string
        # Top-level state: "key" (expecting a key), "colon", "value", "skip" (non-string
        # value or nested container until the next comma).
        self._state = "key"
        self._key: str | None = None
        self._after_key = False

    def feed(self, chunk: str) -> None:
        for ch in chunk:
            self._step(ch)

    def _step(self, ch: str) -> None:
        if self._in_string:
            if self._depth == 1:
                self._raw.append(ch)
            if self._escape:
                self._escape = False
            elif ch == "\\":
                self._escape = True
            elif ch == '"':
                self._in_string = False
                if self._depth == 1:
                    self._string_done()
            return
        if ch == '"':
            self._in_string = True
            if self._depth == 1 and self._state in ("key", "value"):
                self._raw = ['"']
            return
        if ch in "{[":
            self._depth += 1
            if self._depth == 2 and self._state == "value":
                self._state = "skip"
            return
        if ch in "}]":
            self._depth -= 1
            return
        if self._depth != 1:
            return
        if ch == ":" and self._state == "colon":
            self._state = "value"
        elif ch == ",":
            self._state = "key"
            self._key = None
        elif ch not in _WS and self._state == "value":
            self._state = "skip"  # number, true, false, null

    def _string_done(self) -> None:
        try:
            value = json.loads("".join(self._raw))
        except json.JSONDecodeError:
            value = None
        self._raw = []
        if self._state == "key":
            self._key = value if isinstance(value, str) else None
            self._state = "colon"
        elif self._state == "value":
            if self._key is not None and isinstance(value, str) and self._key not in self.fields:
                self.fields[self._key] = value
                if self._callback is not None:
                    self._callback(self._key, value)
            self._state = "skip"
