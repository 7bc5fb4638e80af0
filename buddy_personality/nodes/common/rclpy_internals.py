"""The one place that names rclpy's private internals (rclpy 7, ROS 2 Jazzy) which
`LeanExecutor` (executor.py) relies on (issue 28 item 3).

rclpy's executor API has no public hook for "wait on a cached wait set", so LeanExecutor
reuses what `rclpy.executors.Executor` keeps private: its own attributes (listed in
`RCLPY_EXECUTOR_INTERNALS`, inherited by the subclass), and a few names on the entities
it serves (the QoS event handler's rcl handle, a guard condition's "fired" flag, an
entity's "being executed" flag, a mutually exclusive group's active entity, the C wait
set). Every such name is spelled here and nowhere else in the package.

An rclpy update that renames one must not break Buddy silently:
- `missing_rclpy_internals` lists what this rclpy lacks; `make_executor()` then falls
  back to the stock executor (with isolation) instead of failing at the first wake;
- `test/node/test_lean_executor.py` fails loudly, naming what moved, so the fallback
  (about 2.8x the idle CPU, docs/WRITING_NODES.md) cannot ship unnoticed.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
from rclpy.event_handler import EventHandler
from rclpy.executors import SingleThreadedExecutor
from rclpy.impl.implementation_singleton import rclpy_implementation as _rclpy

# The Executor's own private attributes that LeanExecutor (a subclass) uses.
RCLPY_EXECUTOR_INTERNALS = (
    "_guard", "_sigint_gc", "_tasks", "_tasks_lock", "_is_shutdown", "_work_tracker",
    "_take_timer", "_take_subscription", "_take_client", "_take_service",
    "_take_guard_condition", "_take_waitable", "_context")

# rclpy keeps the rcl event handle of a QoS EventHandler private (name-mangled).
_EVENT_ATTR = "_EventHandler__event"
# rclpy's default QoS event callbacks, which only log (incompatible QoS or type).
_LOG_ONLY_CALLBACKS = frozenset({"_default_incompatible_qos_callback",
                                 "_default_incompatible_type_callback"})

# An entity's "a handler for it is pending or running" flag (rclpy sets it when it
# makes a handler, clears it when the handler took the work).
executor_event = attrgetter("_executor_event")


def set_executor_event(entity: Any, value: bool) -> None:
    entity._executor_event = value


def guard_fired(gc: Any) -> bool:
    """A node guard condition that fired and whose callback has not run yet."""
    return gc._executor_triggered


def mark_guard_fired(gc: Any) -> None:
    gc._executor_triggered = True


def active_entity(group: Any) -> Any:
    """The entity a MutuallyExclusiveCallbackGroup is executing (None: idle)."""
    return group._active_entity


def event_handle(handler: EventHandler) -> Any:
    """The rcl event handle of a QoS event handler (added to the wait set directly)."""
    return getattr(handler, _EVENT_ATTR)


def is_plain_event(waitable: Any) -> bool:
    """A QoS event handler whose wait-set methods are rclpy's own, so its rcl event
    handle can be added directly (skipping its Python context-manager layers)."""
    kind = type(waitable)
    return (isinstance(waitable, EventHandler)
            and hasattr(waitable, _EVENT_ATTR)
            and kind.add_to_wait_set is EventHandler.add_to_wait_set
            and kind.is_ready is EventHandler.is_ready
            and kind.__enter__ is EventHandler.__enter__)


def is_log_only(handler: EventHandler) -> bool:
    """rclpy's own default QoS event callback (incompatible QoS or type between a
    publisher and a subscription found at discovery), which only logs a warning."""
    callback = getattr(handler, "callback", None)
    return (getattr(callback, "__module__", None) == EventHandler.__module__
            and getattr(callback, "__name__", "") in _LOG_ONLY_CALLBACKS)


def new_wait_set(sizes: tuple[int, ...], context_handle: Any) -> Any:
    """rclpy's C wait set: (subscriptions, guard conditions, timers, clients, services,
    events)."""
    return _rclpy.WaitSet(*sizes, context_handle)


def missing_rclpy_internals(executor: SingleThreadedExecutor) -> list[str]:
    """The rclpy internals LeanExecutor needs that this rclpy lacks (empty: all there)."""
    missing = [name for name in RCLPY_EXECUTOR_INTERNALS if not hasattr(executor, name)]
    if not hasattr(EventHandler, "is_ready"):
        missing.append("EventHandler.is_ready")
    if not hasattr(_rclpy, "WaitSet"):
        missing.append("_rclpy.WaitSet")
    guard = getattr(executor, "_guard", None)
    if guard is not None:
        # the flags rclpy keeps on every guard condition and entity it serves
        missing += [f"GuardCondition.{name}" for name in ("_executor_triggered",
                                                          "_executor_event")
                    if not hasattr(guard, name)]
    if not hasattr(MutuallyExclusiveCallbackGroup(), "_active_entity"):
        missing.append("MutuallyExclusiveCallbackGroup._active_entity")
    return missing
