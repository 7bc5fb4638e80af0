"""What LeanExecutor (executor.py) waits on, gathered once per change of the nodes'
entities: the `Plan` of one wake (entities in rclpy's order, their rcl handles, lookups by
pointer, the cached C wait sets by size), its `plan_signature` (to notice a change cheaply),
and `build_plan`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rclpy.callback_groups import MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup
from rclpy.event_handler import EventHandler
from rclpy.exceptions import InvalidHandle
from rclpy.node import Node

from buddy_personality.nodes.common.rclpy_internals import (
    event_handle,
    is_log_only,
    is_plain_event,
)

KINDS = ("timer", "subscription", "guard_condition", "client", "service")


@dataclass(slots=True)
class Plan:
    """Everything one wake needs, gathered once per change of the nodes' entities."""

    signature: tuple[Any, ...]
    nodes: list[Node]
    timers: list[tuple[Any, Node]] = field(default_factory=list)
    subscriptions: list[tuple[Any, Node]] = field(default_factory=list)
    node_guards: list[tuple[Any, Node]] = field(default_factory=list)
    clients: list[tuple[Any, Node]] = field(default_factory=list)
    services: list[tuple[Any, Node]] = field(default_factory=list)
    events: list[tuple[EventHandler, Node]] = field(default_factory=list)
    log_events: list[tuple[EventHandler, Node]] = field(default_factory=list)
    waitables: list[tuple[Any, Node]] = field(default_factory=list)  # other Waitables
    # the rcl handles, in the order they are added to the wait set
    sub_handles: list[Any] = field(default_factory=list)
    client_handles: list[Any] = field(default_factory=list)
    service_handles: list[Any] = field(default_factory=list)
    timer_handles: list[Any] = field(default_factory=list)
    guard_handles: list[Any] = field(default_factory=list)  # node guards + executor's two
    event_handles: list[Any] = field(default_factory=list)
    log_event_handles: list[Any] = field(default_factory=list)
    entities: list[Any] = field(default_factory=list)   # everything with an executor-event flag
    groups: list[Any] = field(default_factory=list)     # distinct callback groups
    rank: dict[int, int] = field(default_factory=dict)  # id(entity) -> rclpy's order
    by_ptr: dict[str, dict[int, tuple[Any, Node]]] = field(default_factory=dict)
    wait_sets: dict[tuple[int, ...], Any] = field(default_factory=dict)  # by sizes

    def handles(self, with_log_events: bool) -> list[Any]:
        handles = (self.sub_handles + self.client_handles + self.service_handles
                   + self.timer_handles + self.guard_handles + self.event_handles)
        if with_log_events:
            handles += self.log_event_handles
        return handles


def plan_signature(nodes: Iterable[Node]) -> tuple[Any, ...]:
    """Identity of every entity of every node, in order (tuples compare by identity
    first, so an unchanged graph compares in C without touching the entities)."""
    return tuple(
        (node, tuple(node.subscriptions), tuple(node.timers), tuple(node.clients),
         tuple(node.services), tuple(node.guards), tuple(node.waitables))
        for node in nodes
    )


def build_plan(nodes: list[Node], signature: tuple[Any, ...]) -> Plan | None:
    """The plan of `nodes` (None: something LeanExecutor leaves to rclpy's own path)."""
    plan = Plan(signature=signature, nodes=list(nodes))
    plan.by_ptr = {kind: {} for kind in KINDS}
    groups: dict[int, Any] = {}

    def note(entity: Any) -> None:
        plan.rank[id(entity)] = len(plan.entities)
        plan.entities.append(entity)
        groups[id(entity.callback_group)] = entity.callback_group

    try:
        # rclpy's order: all waitables first, then per node timers, subscriptions,
        # guard conditions, clients, services.
        for node in nodes:
            for wt in node.waitables:
                note(wt)
                if is_plain_event(wt) and is_log_only(wt):
                    plan.log_events.append((wt, node))
                    plan.log_event_handles.append(event_handle(wt))
                elif is_plain_event(wt):
                    plan.events.append((wt, node))
                    plan.event_handles.append(event_handle(wt))
                else:
                    plan.waitables.append((wt, node))
        for node in nodes:
            for kind, entities, into, handles in (
                ("timer", node.timers, plan.timers, plan.timer_handles),
                ("subscription", node.subscriptions, plan.subscriptions,
                 plan.sub_handles),
                ("guard_condition", node.guards, plan.node_guards, plan.guard_handles),
                ("client", node.clients, plan.clients, plan.client_handles),
                ("service", node.services, plan.services, plan.service_handles),
            ):
                ptrs = plan.by_ptr[kind]
                for entity in entities:
                    note(entity)
                    into.append((entity, node))
                    handles.append(entity.handle)
                    ptrs[entity.handle.pointer] = (entity, node)
    except InvalidHandle:
        return None  # destroyed while we looked: rclpy's path skips it
    plan.groups = list(groups.values())
    if any(type(g) not in (MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup)
           for g in plan.groups):
        return None  # a custom group may refuse per entity: let rclpy decide
    return plan
