"""Worker threads -> the executor thread: one hand-off for every node that has workers
(audio callbacks, HTTP requests, listening loops).

A worker `post`s an item; the node's executor wakes through a guard condition and calls
`handler(item)` for each item in order, on the executor thread, so every core call and
every publish happens there (NODES.md: cores are not thread-safe). After `close()` posts
are dropped: a worker finishing during shutdown neither raises nor wakes a destroyed
guard condition.

    self._inbox = Inbox(self, self._on_item)      # in __init__
    self._inbox.post(("result", payload))         # from any thread
    self._inbox.close()                           # in _close_own, before the threads stop
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Inbox(Generic[T]):
    def __init__(self, node: Any, handler: Callable[[T], None]) -> None:
        self._handler = handler
        self._items: queue.SimpleQueue[T] = queue.SimpleQueue()
        self._closed = threading.Event()
        self._guard = node.create_guard_condition(self._drain)

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def post(self, item: T) -> None:
        """Any thread: queue `item` and wake the executor (dropped once closed)."""
        if self._closed.is_set():
            return
        self._items.put(item)
        try:
            self._guard.trigger()
        except Exception:
            # the guard condition is destroyed with the node: a late worker is harmless
            if not self._closed.is_set():
                raise

    def close(self) -> None:
        self._closed.set()

    def _drain(self) -> None:
        while True:
            try:
                item = self._items.get_nowait()
            except queue.Empty:
                return
            self._handler(item)
