"""The `main()` of every node (brief: spin; KeyboardInterrupt / ExternalShutdownException;
destroy_node; try_shutdown; exit 0 on Ctrl-C and SIGTERM) and small clock helpers."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node

from buddy_personality.dds_confinement import confine_dds
from buddy_personality.nodes.common.executor import make_executor
from buddy_personality.nodes.common.parameters import ParameterError


def now_s(node: Node) -> float:
    """The node clock in seconds (sim time when use_sim_time is set)."""
    return node.get_clock().now().nanoseconds * 1e-9


def stopped_by_signal(grace_s: float = 1.0) -> bool:
    """Whether an exception that escaped the spin is the echo of Ctrl-C or SIGTERM.

    rclpy's signal handler shuts the context down from its own thread, and the pending
    KeyboardInterrupt can surface inside a pybind11 call as another error (seen:
    `RuntimeError: Unable to convert call argument` from `take_message`, or an error from
    a constructor under which the context went away). So a stop that was asked for may
    show up as a crash a moment before the context reports it: wait briefly for that.
    """
    deadline = time.monotonic() + grace_s
    while rclpy.ok():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


def run_until_stopped(body: Callable[[], None], teardown: Callable[[], None],
                      prog: str) -> int:
    """Run `body` (build and spin) under the one stop policy of every Buddy process:
    Ctrl-C, SIGTERM or an external shutdown exit 0; a bad parameter prints the reason
    and exits 2; `teardown` (shut the executor down, destroy the nodes) always runs,
    then the context is shut down."""
    try:
        body()
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except ParameterError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except Exception:
        if stopped_by_signal():
            return 0
        raise
    finally:
        teardown()
        rclpy.try_shutdown()
    return 0


def run_node(factory: Callable[[], Node], args: Sequence[str] | None = None) -> int:
    """Run one node until Ctrl-C or SIGTERM; returns the process exit code.

    DDS is confined to this machine unless BUDDY_DDS=network (DESIGN §5).
    """
    confine_dds()
    rclpy.init(args=list(args) if args is not None else sys.argv)
    executor = make_executor()  # cached wait set: cheap wake-ups (issue 8, idle CPU)
    built: list[Node] = []

    def body() -> None:
        built.append(factory())
        executor.add_node(built[0])
        executor.spin()

    def teardown() -> None:
        executor.shutdown()
        for node in built:
            node.destroy_node()

    return run_until_stopped(body, teardown, "error")
