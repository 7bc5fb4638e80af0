"""A SingleThreadedExecutor that does not rebuild its wait set in Python on every wake.

Why: rclpy's executor (Jazzy, rclpy 7.x) gathers every subscription, timer, service,
guard condition and QoS event handler of every node, enters each one's handle through a
`contextlib.ExitStack`, adds up `NumberOfEntities` objects, builds a new rcl wait set and
scans all waitables again (`wt in waitables`, quadratic) on *every* wake. The all-in-one
graph has about 330 such entities (five nodes: 50 services, 26 subscriptions, 112 QoS
event handlers, ...), so each wake cost ~2-3 ms of CPU, and each callback also
re-triggered the executor's own guard condition, which forced one more empty wake. At
the face driver's 50 Hz tick that was ~25 % of one core with nobody talking (issue 8
measured 27.9 %).

`LeanExecutor` runs the same callbacks in the same order with the same rules, but:
- the list of entities is kept between wakes and rebuilt only when a node's entity
  lists change (compared by identity: cheap tuples, no Python loop per entity);
- the rcl wait set is reused while its sizes stay the same; each wake only re-adds the
  handles (rcl_wait empties the slots of entities that were not ready);
- handles are still marked in use (entered) for the duration of each wait, as rclpy
  does, so an entity destroyed from another thread is finalised only after the wait;
- only the entities that rcl reports ready are looked up (a dict by pointer);
- a handler does not re-trigger the executor's guard condition after taking its work:
  that wake-up exists for multi-threaded executors, a single thread rebuilds anyway;
- the spin_once timeout is a deadline passed to rcl_wait, not a new rcl timer per call;
- rclpy's default QoS event handlers, which only log an incompatible QoS or type found
  at discovery, are waited on at the first wake a second after the last time
  (LOG_EVENT_PERIOD_NS), and wake the executor themselves only after three seconds.

Coroutine callbacks are resumed as rclpy does. Anything unusual falls back to rclpy's
own implementation for that wake: an entity still marked as being executed, a busy
mutually exclusive callback group (a coroutine awaiting), a callback group other than
rclpy's two standard kinds, or a handle destroyed while the plan was gathered. It uses
rclpy 7 internals (Jazzy), all named in rclpy_internals.py (the adapter); if this rclpy
lacks them, `make_executor()` returns the stock SingleThreadedExecutor. What one wake
waits on (the plan) is gathered in executor_plan.py.
"""


from __future__ import annotations

import contextlib
import os
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from operator import methodcaller
from typing import Any

from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
from rclpy.context import Context
from rclpy.event_handler import EventHandler
from rclpy.exceptions import InvalidHandle
from rclpy.executors import (
    ConditionReachedException,
    ExternalShutdownException,
    ShutdownException,
    SingleThreadedExecutor,
    TimeoutException,
    TimeoutObject,
)
from rclpy.experimental import EventsExecutor
from rclpy.node import Node
from rclpy.task import Task
from rclpy.utilities import timeout_sec_to_nsec

from buddy_personality.nodes.common.executor_plan import (
    Plan,
    build_plan,
    plan_signature,
)
from buddy_personality.nodes.common.isolation import IsolatingExecutor
from buddy_personality.nodes.common.rclpy_internals import (
    RCLPY_EXECUTOR_INTERNALS,
    active_entity,
    executor_event,
    guard_fired,
    mark_guard_fired,
    missing_rclpy_internals,
    new_wait_set,
    set_executor_event,
)

__all__ = ["RCLPY_EXECUTOR_INTERNALS", "ExecutorStats", "LeanExecutor",
           "align_periodic_timers", "make_executor", "missing_rclpy_internals"]

# rclpy's log-only QoS event handlers are waited on at most this often. A QoS event
# stays pending in rmw until it is taken, so none is lost; its warning is at most this
# late. Two per publisher and subscription (112 in the all-in-one graph), they were
# most of each wake's work.
LOG_EVENT_PERIOD_NS = 1_000_000_000
LOG_EVENT_LATEST_NS = 3_000_000_000


@dataclass(slots=True)
class ExecutorStats:
    """Counters for benchmarks and tests: how often the executor woke and rebuilt."""

    waits: int = 0          # rcl_wait calls on the lean path
    plan_builds: int = 0    # entity lists gathered again (a node's entities changed)
    wait_set_builds: int = 0
    fallbacks: int = 0      # wakes handled by rclpy's own implementation


def _consume(iterator: Iterable[Any]) -> None:
    deque(iterator, maxlen=0)


_exit = methodcaller("__exit__", None, None, None)


class LeanExecutor(IsolatingExecutor):
    """SingleThreadedExecutor with a cached wait set (see the module docstring); a
    callback's exception is counted for its node, not raised (isolation.py)."""

    def __init__(self, *, context: Context | None = None) -> None:
        super().__init__(context=context)
        self._plan: Plan | None = None
        self._plan_dirty = True
        self._next_log_poll = 0   # monotonic ns: when the log-only events are due
        self.stats = ExecutorStats()

    # --- rclpy hooks ---------------------------------------------------------------------

    def shutdown(self, timeout_sec: float | None = None) -> bool:
        done = super().shutdown(timeout_sec)
        # The cached wait sets hold the entities they were given; a node's destroy_node
        # waits until nothing uses its services. A Ctrl-C traceback can keep the last
        # wait set alive, so destroy_service hung at shutdown (1 run in 20 of the Ctrl-C
        # test): release them here.
        if self._plan is not None:
            for wait_set in self._plan.wait_sets.values():
                with contextlib.suppress(Exception):
                    wait_set.destroy_when_not_in_use()
            self._plan.wait_sets.clear()
        self._plan = None
        return done

    def add_node(self, node: Node) -> bool:
        self._plan_dirty = True
        return super().add_node(node)

    def remove_node(self, node: Node) -> None:
        super().remove_node(node)
        self._plan = None

    def wake(self) -> None:
        # rclpy calls this when a node creates or destroys an entity (and when a future
        # completes): look at the nodes' entity lists again before the next wait.
        self._plan_dirty = True
        super().wake()

    def _make_handler(self, entity: Any, node: Node, take_from_wait_list: Callable) -> Task:
        """rclpy's handler, minus the guard-condition triggers after the take and after
        the callback (they only wake other threads of a multi-threaded executor; here
        they cost one empty wake per callback)."""
        set_executor_event(entity, True)

        async def handler(entity: Any, gc: Any, is_shutdown: bool, work_tracker: Any) -> None:
            if is_shutdown or not entity.callback_group.beginning_execution(entity):
                set_executor_event(entity, False)
                gc.trigger()
                return
            with work_tracker:
                call_coroutine = take_from_wait_list(entity)
                set_executor_event(entity, False)
                try:
                    if call_coroutine is not None:
                        await call_coroutine()
                finally:
                    entity.callback_group.ending_execution(entity)

        task = Task(handler, (entity, self._guard, self._is_shutdown, self._work_tracker),
                    executor=self)
        with self._tasks_lock:
            self._tasks.append((task, entity, node))
        return task

    def _wait_for_ready_callbacks(
        self,
        timeout_sec: float | TimeoutObject | None = None,
        nodes: list[Node] | None = None,
        condition: Callable[[], bool] = lambda: False,
    ) -> Generator[tuple[Task, Any, Node], None, None]:
        timeout_nsec = timeout_sec_to_nsec(
            timeout_sec.timeout if isinstance(timeout_sec, TimeoutObject) else timeout_sec)
        deadline = None if timeout_nsec < 0 else time.monotonic_ns() + timeout_nsec
        yielded_work = False
        while not yielded_work and not self._is_shutdown and not condition():
            nodes_to_use = nodes if nodes is not None else self.get_nodes()
            # As rclpy: resume tasks in progress (coroutine callbacks awaiting a future)
            # before waiting for new work, and forget the finished ones.
            with self._tasks_lock:
                tasks = list(self._tasks)
            if tasks:
                for task, entity, node in reversed(tasks):
                    if (not task.executing() and not task.done()
                            and (node is None or node in nodes_to_use)):
                        yielded_work = True
                        yield task, entity, node
                with self._tasks_lock:
                    self._tasks = [t for t in self._tasks
                                   if not t[0].done() and not t[0].cancelled()]
            plan = self._usable_plan(nodes_to_use)
            if plan is None:
                # rclpy's own implementation for this wake, bounded by what is left of
                # our deadline; its TimeoutException is ours only once that has passed.
                self.stats.fallbacks += 1
                remaining = None if deadline is None else max(
                    0.0, (deadline - time.monotonic_ns()) * 1e-9)
                try:
                    for work in super()._wait_for_ready_callbacks(remaining, nodes, condition):
                        yielded_work = True
                        yield work
                except TimeoutException:
                    if deadline is None or time.monotonic_ns() < deadline:
                        continue
                    raise
                continue
            # Handlers are made one at a time, as rclpy does: each after the previous
            # one ran, so a group made busy meanwhile is respected.
            for entity, node, take in self._wait(plan, deadline):
                if entity.callback_group.can_execute(entity):
                    yielded_work = True
                    yield self._make_handler(entity, node, take), entity, node
            if deadline is not None and time.monotonic_ns() >= deadline:
                raise TimeoutException()
        if self._is_shutdown:
            raise ShutdownException()
        if condition():
            raise ConditionReachedException()

    # --- the plan ------------------------------------------------------------------------

    def _usable_plan(self, nodes: list[Node]) -> Plan | None:
        """The cached plan if the lean path may serve this wake, else None (fallback)."""
        plan = self._plan
        if plan is None or self._plan_dirty or plan.nodes != nodes:
            self._plan_dirty = False
            signature = plan_signature(nodes)
            if plan is None or plan.signature != signature:
                plan = self._plan = self._build_plan(nodes, signature)
                if plan is None:
                    self._plan_dirty = True  # try again next wake
                    return None
        if any(map(executor_event, plan.entities)):
            return None
        for group in plan.groups:
            if type(group) is MutuallyExclusiveCallbackGroup and active_entity(group) is not None:
                return None
        return plan

    def _build_plan(self, nodes: list[Node], signature: tuple[Any, ...]) -> Plan | None:
        self.stats.plan_builds += 1
        return build_plan(nodes, signature)

    # --- one wake ------------------------------------------------------------------------

    def _wait(self, plan: Plan, deadline: int | None) -> list[tuple[Any, Node, Callable]]:
        """Wait once on the plan's wait set; (entity, node, take) for what became ready,
        in rclpy's order. Raises ShutdownException / ExternalShutdownException."""
        # A guard condition that fired while its node could not take it: fire it again.
        for gc, _node in plan.node_guards:
            if guard_fired(gc):
                gc.trigger()
        own_guards = (self._guard, self._sigint_gc)
        if None in own_guards:   # shutdown() (another thread) destroyed them already
            raise ShutdownException()
        now = time.monotonic_ns()
        with_logs = now >= self._next_log_poll or not plan.log_events
        if not with_logs:
            # Polled at the first wake a second after the last poll; a wake of their own
            # only if nothing else woke the executor for LOG_EVENT_LATEST_NS (forcing one
            # every second was one empty wake a second per executor, issue 14).
            latest = self._next_log_poll + LOG_EVENT_LATEST_NS - LOG_EVENT_PERIOD_NS
            deadline = latest if deadline is None else min(deadline, latest)
        events = plan.events + plan.log_events if with_logs else plan.events
        handles = plan.handles(with_logs)
        handles.extend(gc.handle for gc in own_guards)
        entered: list[Any] = []
        generic: list[tuple[Any, Node]] = []
        try:
            try:
                for handle in handles:  # in use: not finalised during the wait
                    handle.__enter__()
                    entered.append(handle)
                for wt, node in plan.waitables:
                    wt.__enter__()
                    entered.append(wt)
                    generic.append((wt, node))
                self._context.handle.__enter__()
                entered.append(self._context.handle)
                wait_set = self._wait_set_for(plan, generic, len(events))
                # Entered like every handle: shutdown() from another thread releases the
                # cached wait sets with destroy_when_not_in_use, which must wait until
                # this wake is over (freeing it inside wait() crashed the process).
                wait_set.__enter__()
                entered.append(wait_set)
            except InvalidHandle:
                self._plan = None  # something was destroyed: gather again next time
                return []
            wait_set.clear_entities()
            _consume(map(wait_set.add_subscription, plan.sub_handles))
            _consume(map(wait_set.add_client, plan.client_handles))
            _consume(map(wait_set.add_service, plan.service_handles))
            _consume(map(wait_set.add_timer, plan.timer_handles))
            _consume(map(wait_set.add_guard_condition, plan.guard_handles))
            for gc in own_guards:
                wait_set.add_guard_condition(gc.handle)
            event_handles = (plan.event_handles + plan.log_event_handles if with_logs
                             else plan.event_handles)
            for (handler, _node), index in zip(
                    events, map(wait_set.add_event, event_handles), strict=True):
                handler._event_index = index
            if not with_logs:
                for handler, _node in plan.log_events:
                    handler._event_index = None   # not in this wait set
            for wt, _ in generic:
                wt.add_to_wait_set(wait_set)

            timeout = -1 if deadline is None else max(0, deadline - time.monotonic_ns())
            self.stats.waits += 1
            wait_set.wait(timeout)
            if with_logs:
                self._next_log_poll = time.monotonic_ns() + LOG_EVENT_PERIOD_NS
            if self._is_shutdown:
                raise ShutdownException()
            if not self._context.ok():
                raise ExternalShutdownException()
            return self._collect(plan, wait_set, own_guards, events, generic)
        finally:
            _consume(map(_exit, reversed(entered)))

    def _wait_set_for(self, plan: Plan, generic: list[tuple[Any, Node]],
                      num_events: int) -> Any:
        sizes = [len(plan.sub_handles), len(plan.guard_handles) + 2, len(plan.timer_handles),
                 len(plan.client_handles), len(plan.service_handles), num_events]
        for wt, _ in generic:
            n = wt.get_num_entities()
            sizes[0] += n.num_subscriptions
            sizes[1] += n.num_guard_conditions
            sizes[2] += n.num_timers
            sizes[3] += n.num_clients
            sizes[4] += n.num_services
            sizes[5] += n.num_events
        key = tuple(sizes)
        wait_set = plan.wait_sets.get(key)
        if wait_set is None:
            self.stats.wait_set_builds += 1
            wait_set = plan.wait_sets[key] = new_wait_set(key, self._context.handle)
        return wait_set

    def _collect(self, plan: Plan, wait_set: Any, own_guards: tuple[Any, Any],
                 events: list[tuple[EventHandler, Node]],
                 generic: list[tuple[Any, Node]]) -> list[tuple[Any, Node, Callable]]:
        guards_ready = wait_set.get_ready_entities("guard_condition")
        if guards_ready:
            for gc, _node in plan.node_guards:
                if gc.handle.pointer in guards_ready:
                    mark_guard_fired(gc)
            if own_guards[0].handle.pointer in guards_ready:
                # woken by wake(): entities may have been created or destroyed
                self._plan_dirty = True
        found: list[tuple[int, Any, Node, Callable]] = []
        rank = plan.rank
        for handler, node in events:
            if handler.is_ready(wait_set):
                found.append((rank[id(handler)], handler, node, self._take_waitable))
        for wt, node in generic:
            if wt.is_ready(wait_set):
                found.append((rank[id(wt)], wt, node, self._take_waitable))
        takes = (("timer", self._take_timer), ("subscription", self._take_subscription),
                 ("client", self._take_client), ("service", self._take_service))
        for kind, take in takes:
            by_ptr = plan.by_ptr[kind]
            for ptr in wait_set.get_ready_entities(kind):
                hit = by_ptr.get(ptr)
                if hit is None:
                    continue
                # rclpy re-checks timers: rcl reports cancelled ones as ready
                if kind == "timer" and not hit[0].handle.is_timer_ready():
                    continue
                found.append((rank[id(hit[0])], hit[0], hit[1], take))
        for gc, node in plan.node_guards:
            if guard_fired(gc):
                found.append((rank[id(gc)], gc, node, self._take_guard_condition))
        found.sort(key=lambda item: item[0])
        return [(entity, node, take) for _rank, entity, node, take in found]


def make_executor(context: Context | None = None) -> SingleThreadedExecutor:
    """The executor Buddy's processes spin: `LeanExecutor`, or rclpy's own
    SingleThreadedExecutor if this rclpy lacks what LeanExecutor relies on; either way
    one whose callbacks' exceptions end no other node (isolation.py, issue 31).

    `BUDDY_EXECUTOR` picks another for a measurement (issue 28 item 3, the executor
    decision: benchmarks/idle_cpu.py and face_latency.py run the same graph on each):
    `single` is rclpy's SingleThreadedExecutor (with isolation), `events` rclpy's
    experimental EventsExecutor (without it: a measurement, not a product mode)."""
    chosen = os.environ.get("BUDDY_EXECUTOR", "")
    if chosen == "single":
        return IsolatingExecutor(context=context)
    if chosen == "events":
        return EventsExecutor(context=context)
    executor = LeanExecutor(context=context)
    if not missing_rclpy_internals(executor):
        return executor
    executor.shutdown()
    return IsolatingExecutor(context=context)


def align_periodic_timers(nodes: Iterable[Node], period_s: float = 1.0) -> int:
    """Put every timer of `nodes` with this period on one phase; returns how many.

    Each node has a 1 Hz diagnostics timer and most have a 1 Hz tick. Created a few ms
    apart, they fire a few ms apart: one executor wake each, about fourteen a second in
    `buddy run` (issue 14 idle CPU: a wake costs about a millisecond of Python). Reset
    together, they are ready in the same wake, and the executor runs them one after the
    other as before. Only the phase moves (each fires at most one period later once).
    Timers of a whole multiple of the period (a 2 s file check) join the same phase."""
    period_ns = round(period_s * 1e9)
    timers = [t for node in nodes for t in node.timers
              if not t.is_canceled() and t.timer_period_ns % period_ns == 0]
    for timer in timers:
        timer.reset()
    return len(timers)
