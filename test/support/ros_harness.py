"""Fixture `ros`: an rclpy context, the product's executor (make_executor) and a probe node
for one test.

Everything is spun from the test's own thread, so a test waits for a condition with a
deadline (`spin_until`) instead of sleeping and hoping.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest

rclpy = pytest.importorskip("rclpy", reason="rclpy is not importable (run `make setup`)")

from rclpy.context import Context  # noqa: E402
from rclpy.node import Node  # noqa: E402
from rclpy.parameter_client import AsyncParameterClient  # noqa: E402
from rclpy.qos import QoSProfile  # noqa: E402
from rclpy.task import Future  # noqa: E402

from buddy_personality.nodes.common import qos as buddy_qos  # noqa: E402
from buddy_personality.nodes.common.executor import make_executor  # noqa: E402

T = TypeVar("T")
_counter = itertools.count(1)


class RosHarness:
    """A test's view of the ROS graph: add nodes, publish, collect, call, wait."""

    def __init__(self, context: Context, namespace: str) -> None:
        self.context = context
        self.namespace = namespace
        # the executor Buddy's processes spin (issue 28 item 3: the tests run what the
        # product runs; make_executor falls back to rclpy's own only where it must)
        self.executor = make_executor(context)
        self.probe = Node(f"probe_{namespace.strip('/')}", namespace=namespace,
                          context=context)
        self.executor.add_node(self.probe)
        self._nodes: list[Node] = [self.probe]

    # graph -------------------------------------------------------------------------
    def add(self, node: T) -> T:
        """Spin `node` with the probe (it must have been created on `self.context`)."""
        self.executor.add_node(node)  # type: ignore[arg-type]
        self._nodes.append(node)  # type: ignore[arg-type]
        return node

    def node_kwargs(self, **extra: Any) -> dict[str, Any]:
        """Keyword arguments that put a node under test on this context and namespace."""
        return {"context": self.context, "namespace": self.namespace, **extra}

    # waiting -----------------------------------------------------------------------
    def spin_until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
        deadline = time.monotonic() + timeout
        while not predicate():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            self.executor.spin_once(timeout_sec=min(0.05, remaining))
        return True

    def spin_for(self, seconds: float) -> None:
        """Spin for a fixed time (to show that something does NOT happen)."""
        deadline = time.monotonic() + seconds
        while (remaining := deadline - time.monotonic()) > 0:
            self.executor.spin_once(timeout_sec=min(0.05, remaining))

    # topics ------------------------------------------------------------------------
    def collect(self, msg_type: type[T], topic: str,
                qos: QoSProfile = buddy_qos.EVENTS) -> list[T]:
        """Subscribe on the probe; the returned list fills as messages arrive."""
        received: list[T] = []
        self.probe.create_subscription(msg_type, topic, received.append, qos)
        return received

    def publisher(self, msg_type: type, topic: str, qos: QoSProfile = buddy_qos.EVENTS,
                  wait_for_subscribers: int = 1, timeout: float = 5.0) -> Any:
        """A publisher on the probe, returned once `wait_for_subscribers` have matched."""
        pub = self.probe.create_publisher(msg_type, topic, qos)
        if wait_for_subscribers and not self.spin_until(
            lambda: pub.get_subscription_count() >= wait_for_subscribers, timeout
        ):
            raise AssertionError(f"no subscriber matched {topic} within {timeout} s")
        return pub

    # services and parameters -------------------------------------------------------
    def call(self, srv_type: type, name: str, request: Any, timeout: float = 5.0) -> Any:
        client = self.probe.create_client(srv_type, name)
        try:
            if not self.spin_until(client.service_is_ready, timeout):
                raise AssertionError(f"service {name} not available within {timeout} s")
            future = client.call_async(request)
            if not self.spin_until(future.done, timeout):
                raise AssertionError(f"service {name} did not answer within {timeout} s")
            return future.result()
        finally:
            self.probe.destroy_client(client)

    def ask(self, send: Callable[[], Future], what: str, timeout: float = 10.0,
            attempt_s: float = 2.5) -> Any:
        """The result of a read-only service request, sent again when no answer came in
        `attempt_s`. A service's request reader can match a new client before its reply
        writer has matched the client's reply reader; the server's RMW then drops that one
        reply (a known DDS service race, seen in CI on a loaded 2-core machine after
        `service_is_ready`). Asking again is harmless for a request that changes nothing;
        a server that never answers still fails after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            future = send()
            left = deadline - time.monotonic()
            if self.spin_until(future.done, min(attempt_s, max(left, 0.0))):
                return future.result()
            if time.monotonic() >= deadline:
                raise AssertionError(f"{what}: no answer within {timeout} s")

    def get_parameters(self, node_name: str, names: list[str],
                       timeout: float = 5.0) -> dict[str, Any]:
        """Parameter values of a remote node (any process) by name."""
        client = AsyncParameterClient(self.probe, node_name)
        if not self.spin_until(client.services_are_ready, timeout):
            raise AssertionError(f"parameter services of {node_name} not ready")
        result = self.ask(lambda: client.get_parameters(names),
                          f"get_parameters on {node_name}", max(timeout, 10.0))
        from rclpy.parameter import parameter_value_to_python

        return {n: parameter_value_to_python(v) for n, v in zip(names, result.values,
                                                                 strict=True)}

    def set_parameters(self, node_name: str, params: list[Any], timeout: float = 5.0) -> Any:
        client = AsyncParameterClient(self.probe, node_name)
        if not self.spin_until(client.services_are_ready, timeout):
            raise AssertionError(f"parameter services of {node_name} not ready")
        future = client.set_parameters(params)
        if not self.spin_until(future.done, timeout):
            raise AssertionError(f"set_parameters on {node_name} timed out")
        return future.result().results

    def node_names(self) -> set[str]:
        """Fully qualified names of the nodes the probe can see."""
        return {
            f"{ns.rstrip('/')}/{name}"
            for name, ns in self.probe.get_node_names_and_namespaces()
        }

    def close(self) -> None:
        for node in reversed(self._nodes):
            self.executor.remove_node(node)
            node.destroy_node()
        self.executor.shutdown()


@pytest.fixture
def ros() -> Iterator[RosHarness]:
    """A fresh context per test; nodes under test go in a namespace of the test's own."""
    context = Context()
    rclpy.init(context=context)
    harness = RosHarness(context, f"/t{next(_counter)}")
    try:
        yield harness
    finally:
        harness.close()
        rclpy.try_shutdown(context=context)
