"""One node's failing callback is not the end of the others (issue 31 item 1).

rclpy's SingleThreadedExecutor re-raises a callback's exception out of spin_once. In
`buddy run` all nodes share one executor and one process, so one OverflowError in the
dashboard's face/state callback ended every node (exit 1 within 1.4 s). The executors
of Buddy's processes (`buddy run` and each node of the launch, through
executor.make_executor) are `IsolatingExecutor`s: an exception of a callback is logged
with its traceback (once per callback, then only counted) and counted for its node;
`DiagnosticsPublisher` reports the counts in that node's /diagnostics
(`callback_errors.*`, WARN while new ones come). A stop (context shut down, Ctrl-C,
ExternalShutdownException) still ends the spin as before.
"""

from __future__ import annotations

import traceback
import weakref
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rclpy.executors import (
    ConditionReachedException,
    ExternalShutdownException,
    ShutdownException,
    SingleThreadedExecutor,
    TimeoutException,
    TimeoutObject,
)
from rclpy.node import Node


@dataclass(slots=True)
class CallbackFaults:
    """The callback exceptions of one node: counts by callback, and the last one."""

    counts: Counter[str] = field(default_factory=Counter)
    last: str = ""
    reported: int = 0     # total at the last diagnostics publish

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def as_values(self) -> dict[str, str]:
        values = {"callback_errors.total": str(self.total)}
        values.update({f"callback_errors.{name}": str(n)
                       for name, n in sorted(self.counts.items())})
        if self.last:
            values["last_callback_error"] = self.last
        return values


_FAULTS: weakref.WeakKeyDictionary[Node, CallbackFaults] = weakref.WeakKeyDictionary()


def callback_faults(node: Node) -> CallbackFaults | None:
    """The faults counted for `node`, or None if it never had one."""
    return _FAULTS.get(node)


def _callback_name(entity: Any) -> str:
    callback = getattr(entity, "callback", None)
    name = getattr(callback, "__qualname__", None) or type(entity).__name__
    return name.replace("<locals>.", "")


def record_callback_fault(node: Node | None, entity: Any, exc: BaseException) -> None:
    """Count `exc` for `node` and log it (with its traceback the first time per callback)."""
    name = _callback_name(entity)
    if node is None:
        return
    faults = _FAULTS.setdefault(node, CallbackFaults())
    faults.counts[name] += 1
    faults.last = f"{name}: {type(exc).__name__}: {exc}"[:200]
    logger = node.get_logger()
    if faults.counts[name] == 1:
        text = "".join(traceback.format_exception(exc)).rstrip()
        logger.error(f"callback {name} raised; the node goes on (counted in "
                     f"diagnostics callback_errors, further ones only counted):\n{text}")


def _is_a_stop(exc: BaseException, context_ok: Callable[[], bool]) -> bool:
    return (not isinstance(exc, Exception) or isinstance(exc, ExternalShutdownException)
            or not context_ok())


class IsolatingExecutor(SingleThreadedExecutor):
    """SingleThreadedExecutor whose spin_once counts a callback's exception for its
    node instead of raising it (see the module docstring)."""

    def _spin_once_impl(
        self,
        timeout_sec: float | TimeoutObject | None = None,
        wait_condition: Callable[[], bool] = lambda: False,
    ) -> None:
        try:
            handler, entity, node = self.wait_for_ready_callbacks(
                timeout_sec, None, wait_condition)
        except (ShutdownException, TimeoutException, ConditionReachedException):
            return
        handler()
        exc = handler.exception()
        if exc is None:
            return
        if _is_a_stop(exc, self._context.ok):
            raise exc
        record_callback_fault(node, entity, exc)
