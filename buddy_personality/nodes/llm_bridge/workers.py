"""The llm_bridge node's worker side (DESIGN §4.5): LLM requests, server probes and guard
checks are blocking HTTP, so they run in thread pools, never on the executor thread.

Every worker hands its output back through the node's one `Inbox` (nodes/common/inbox.py,
issue 28: the worker-thread hand-off written once), as `(kind, key, payload)`:
("inline", ticket, emotion), ("result", ticket, CallResult), ("guard", check id,
GuardVerdict), ("probe", 0, ok) and the node's own ("reset", session id, None). The node's
handler feeds them to the core on the executor thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from buddy_personality.cognition.bridge import CallRequest
from buddy_personality.cognition.client import CallResult, LlmClient
from buddy_personality.cognition.guard import GuardClient, GuardVerdict, unavailable
from buddy_personality.cognition.reply_gate import GuardCheck
from buddy_personality.nodes.common.inbox import Inbox

WORKERS = 4       # LLM calls and probes; each ends by its deadline (issue 19)
GUARD_WORKERS = 8  # guard checks: a reply's sentences all at once (reply_gate.py)

WorkerItem = tuple[str, Any, Any]


class BridgeWorkers:
    def __init__(self, node: Any, client: LlmClient | None, guard: GuardClient | None,
                 handler: Callable[[WorkerItem], None]) -> None:
        self._client = client
        self._guard = guard
        self._pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="llm_bridge")
        self._guard_pool = ThreadPoolExecutor(max_workers=GUARD_WORKERS,
                                              thread_name_prefix="llm_guard")
        self._cancels: dict[int, threading.Event] = {}
        self._jobs: list[Future[None]] = []  # submitted worker jobs (read by jobs_in_flight)
        self._inbox: Inbox[WorkerItem] = Inbox(node, handler)

    @property
    def closed(self) -> bool:
        return self._inbox.closed

    @property
    def jobs_in_flight(self) -> int:
        """LLM calls and server probes that have not finished yet."""
        return sum(1 for j in self._jobs if not j.done())

    def post(self, item: WorkerItem) -> None:
        """Any thread: hand an item to the executor thread (dropped once closed)."""
        self._inbox.post(item)

    # -- executor thread: what a Step asks for -------------------------------------------

    def call(self, req: CallRequest) -> None:
        if self._client is None or self.closed:
            return
        cancel = threading.Event()
        self._cancels[req.ticket] = cancel
        self._track(self._pool.submit(self._run_call, req, cancel))

    def answered(self, ticket: int) -> None:
        """The call's result reached the executor: nothing left to cancel."""
        self._cancels.pop(ticket, None)

    def cancel(self, ticket: int) -> None:
        ev = self._cancels.pop(ticket, None)
        if ev is not None:
            ev.set()

    def probe(self) -> None:
        if self._client is None or self.closed:
            return
        self._track(self._pool.submit(self._run_probe))

    def check(self, check: GuardCheck) -> None:
        if self._guard is None or self.closed:
            # cannot happen (the core asks only when a guard is configured); never
            # leave the turn waiting on it
            self.post(("guard", check.check_id, GuardVerdict(
                "unavailable", reason="no guard client")))
            return
        self._guard_pool.submit(self._run_guard, check)

    def close(self) -> None:
        """Late results are dropped, calls in flight cancelled, the pools stop taking work,
        the HTTP clients close (the node's _close_own)."""
        self._inbox.close()
        for ev in self._cancels.values():
            ev.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._guard_pool.shutdown(wait=False, cancel_futures=True)
        if self._client is not None:
            self._client.close()
        if self._guard is not None:
            self._guard.close()

    def _track(self, job: Future[None]) -> None:
        self._jobs = [j for j in self._jobs if not j.done()]
        self._jobs.append(job)

    # -- worker threads ------------------------------------------------------------------

    def _run_call(self, req: CallRequest, cancel: threading.Event) -> None:
        assert self._client is not None

        posted: list[bool] = []

        def inline(emotion: str) -> None:
            self.post(("inline", req.ticket, emotion))

        def answer(result: CallResult) -> None:
            # Handed over as soon as it is known; the client then tidies the connection.
            posted.append(True)
            self.post(("result", req.ticket, result))

        try:
            self._client.complete(req.messages, req.policy, on_emotion=inline, cancel=cancel,
                                  on_result=answer, deadline_s=req.deadline_s)
        except Exception as exc:  # the client catches HTTP errors; anything else is a bug
            if not posted:
                answer(CallResult(ok=False, errors=[f"client error: {exc!r}"],
                                  failed_attempts=1))

    def _run_guard(self, check: GuardCheck) -> None:
        assert self._guard is not None
        try:
            verdict = self._guard.check(check.child, check.reply, check.deadline_s)
        except Exception as exc:  # the client catches HTTP errors; anything else is a bug
            verdict = unavailable(f"guard client error: {exc!r}")
        self.post(("guard", check.check_id, verdict))

    def _run_probe(self) -> None:
        assert self._client is not None
        self.post(("probe", 0, self._client.probe()))
