"""The `main()` of every node (brief: spin; KeyboardInterrupt / ExternalShutdownException;
destroy_node; try_shutdown; exit 0 on Ctrl-C and SIGTERM) and small clock helpers.

Ctrl-C in the terminal running `ros2 launch` sends SIGINT to every process of the group,
and launch, when its stdin is not a terminal, sends each node a SIGINT of its own a few
milliseconds later. A second signal must not interrupt the first one's teardown: an
uncaught KeyboardInterrupt there ended a node with -2, and a teardown cut in the middle
once left governor_node hanging until SIGKILL (issue 18). So the first SIGINT or SIGTERM
starts the one stop, later ones are counted and ignored, and a watchdog dumps every
thread's stack and exits if the stop ever takes longer than STOP_DEADLINE_S. The last
part, the DDS teardown, has a bound of its own (destroy_nodes): the Fast DDS teardown
workaround, its upstream issue and when it can go are all in exit_timer.py.
"""

from __future__ import annotations

import contextlib
import faulthandler
import signal
import sys
import time
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any, TypeVar

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from rclpy.signals import (
    SignalHandlerOptions,
    get_current_signal_handlers_options,
    install_signal_handlers,
    uninstall_signal_handlers,
)

from buddy_personality.dds_confinement import confine_dds
from buddy_personality.nodes.common.executor import align_periodic_timers, make_executor
from buddy_personality.nodes.common.exit_timer import bound_teardown
from buddy_personality.nodes.common.parameters import ParameterError

T = TypeVar("T")


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


# A stop (teardown, destroy the nodes, shut rclpy down) takes well under a second; past
# this something is stuck: print where and exit, before launch escalates to SIGTERM (5 s)
# and SIGKILL. Exits 1, so a stuck stop is seen, not hidden.
STOP_DEADLINE_S = 4.0
SIGNAL_SHUTDOWN_WAIT_S = 0.5   # rclpy's signal thread shuts the context down in ~ms
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopSignals:
    """The process's SIGINT/SIGTERM policy: the first signal stops (KeyboardInterrupt in
    the main thread); from then on both are ignored at the OS level, through the teardown
    and through the interpreter's exit. (Python's exit puts its own handlers back to the
    default action, so a second Ctrl-C arriving while Fast DDS is being torn down used to
    kill the process with -2: an ignored signal stays ignored.)"""

    def __init__(self) -> None:
        self.stopping = False
        self.signalled = False   # the stop came from SIGINT or SIGTERM
        self.exit_status = 1     # the status of a stop cut short; run_until_stopped sets it

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if not self.stopping:
            self.signalled = True
            self.begin_stop()
            raise KeyboardInterrupt

    def begin_stop(self) -> None:
        """From now on signals are ignored; the watchdog bounds the rest of the process."""
        if self.stopping:
            return
        self.stopping = True
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)
        faulthandler.dump_traceback_later(STOP_DEADLINE_S, exit=True)


stop_signals = StopSignals()


def install_stop_signals() -> None:
    """Make `stop_signals` the Python handler of SIGINT and SIGTERM, beneath rclpy's own
    (which wakes the executor and chains to the Python handler). Best called before
    rclpy.init; after it, rclpy's handlers are taken out and put back on top."""
    if all(signal.getsignal(s) is stop_signals for s in STOP_SIGNALS):
        return
    options = get_current_signal_handlers_options()
    if options != SignalHandlerOptions.NO:
        uninstall_signal_handlers()
    for signum in STOP_SIGNALS:
        signal.signal(signum, stop_signals)
    if options != SignalHandlerOptions.NO:
        install_signal_handlers(options)


def run_until_stopped(body: Callable[[], None], teardown: Callable[[], None],
                      prog: str) -> int:
    """Run `body` (build and spin) under the one stop policy of every Buddy process:
    Ctrl-C, SIGTERM or an external shutdown exit 0; a bad parameter prints the reason
    and exits 2; `teardown` (shut the executor down, destroy the nodes) always runs,
    then the context is shut down. A second Ctrl-C or SIGTERM changes nothing of this."""
    install_stop_signals()
    status = 0
    finished = False   # no exception is on its way out
    try:
        try:
            body()
        except (KeyboardInterrupt, ExternalShutdownException):
            pass
        except ParameterError as exc:
            print(f"{prog}: {exc}", file=sys.stderr)
            status = 2
        except Exception:
            if not (stop_signals.stopping or stopped_by_signal()):
                raise
            # the signal surfaced inside a pybind11 call as another error: exit 0
        finished = True
        # teardown below runs after the exception is cleared: its traceback held the
        # executor's frames (and wait set), so destroy_node waited on entities in use
    finally:
        stop_signals.begin_stop()
        if stop_signals.signalled:
            # rclpy's own signal thread shuts the context down (rcl_shutdown) as we get
            # here; destroying the nodes meanwhile (the last one deletes the DDS
            # participant) is two threads tearing down one context at once. Let that
            # thread finish first (this wait releases the GIL). A rare hang in
            # destroy_node at Ctrl-C (about 1 launch in 50 under load) was seen before
            # and after this ordering: it narrows a race, it is not proven to be the fix.
            stopped_by_signal(SIGNAL_SHUTDOWN_WAIT_S)
        stop_signals.exit_status = status if finished else 1
        teardown()
        # rclpy's signal handler may shut the context down from its own thread between
        # try_shutdown's check and its call ("rcl_shutdown already called": RCLError, a
        # RuntimeError): seen once in 20 Ctrl-C runs under load. Shut down either way.
        with contextlib.suppress(RuntimeError):
            rclpy.try_shutdown()
    return status


def build_within_stop(build: Callable[[], T]) -> T:
    """`build()` (nodes being created), where a Ctrl-C meanwhile is a stop like any other.

    The half-built nodes are held only by the Ctrl-C's traceback, and clearing it
    (run_until_stopped) frees their DDS entities: DDS teardown, where Fast DDS can deadlock
    with the GIL held (exit_timer.py), racing rclpy's signal thread. Seen in 1 of 40 node
    stops of the Ctrl-C test on a loaded machine (llm_bridge 2.5 s into its start), stuck
    there until the stop watchdog exited 1. Nothing built has run, so nothing is left to
    write: the stop is done, and that freeing is bounded as destroy_nodes bounds it."""
    try:
        return build()
    except BaseException as exc:
        # A stop may also surface as another error: the KeyboardInterrupt raised inside an
        # import's callback is ignored ("Exception ignored in ... _get_module_lock"), and
        # rclpy's signal thread shuts the context down under the next declaration (seen in
        # 1 of 40 node stops: exit 2, "publisher's context is invalid").
        if not (isinstance(exc, (KeyboardInterrupt, ExternalShutdownException))
                or (isinstance(exc, Exception) and stop_signals.stopping)):
            raise
        stop_signals.begin_stop()
        stop_signals.exit_status = 0
        bound_dds_teardown()
        if isinstance(exc, (KeyboardInterrupt, ExternalShutdownException)):
            raise
        raise KeyboardInterrupt from exc   # the stop it is, whatever it surfaced as


def run_node(factory: Callable[[], Node], args: Sequence[str] | None = None) -> int:
    """Run one node until Ctrl-C or SIGTERM; returns the process exit code.

    DDS is confined to this machine unless BUDDY_DDS=network (DESIGN §5). rclpy.init runs
    under the stop policy too, so a Ctrl-C that lands during it also exits 0.
    """
    confine_dds()
    install_stop_signals()  # before rclpy.init, so that rclpy's handlers chain to it
    built: list[Node] = []
    executors: list[Any] = []

    def body() -> None:
        rclpy.init(args=list(args) if args is not None else sys.argv)
        executors.append(make_executor())  # cached wait set: cheap wake-ups (issue 8)
        built.append(build_within_stop(factory))
        align_periodic_timers(built)   # its diagnostics and its tick: one wake a second
        executors[0].add_node(built[0])
        executors[0].spin()

    def teardown() -> None:
        for executor in executors:
            executor.shutdown()
        destroy_nodes(built)

    return run_until_stopped(body, teardown, "error")


class ClosesOwnResources:
    """Mixed into a node (before Node) that has resources of its own: threads, a device,
    an HTTP client, a web server, state files. `close()` releases them once
    (`_close_own`); `destroy_node()` closes, then destroys the DDS entities. So
    `destroy_nodes` can close every node before any DDS teardown, which it bounds, and
    any other caller of destroy_node (tests, an in-process graph) still closes."""

    _closed = False

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._close_own()

    def _close_own(self) -> None:
        raise NotImplementedError

    def destroy_node(self) -> None:
        self.close()
        super().destroy_node()  # type: ignore[misc]


def destroy_nodes(nodes: Sequence[Node]) -> None:
    """The end of a stop: each node's own resources first (ClosesOwnResources), then its
    DDS entities, within exit_timer.DDS_TEARDOWN_BOUND_S of the moment only DDS is left."""
    for node in nodes:
        if isinstance(node, ClosesOwnResources):
            node.close()
    bound_dds_teardown()
    for node in nodes:
        node.destroy_node()


def bound_dds_teardown() -> None:
    """From now on only DDS is torn down: bound it (exit_timer.DDS_TEARDOWN_BOUND_S).
    Within a stop only; the stop's own watchdog (STOP_DEADLINE_S, exit 1) is replaced, or
    kept where no exit timer can be armed."""
    if not stop_signals.stopping:
        return
    bound_teardown(stop_signals.exit_status, STOP_DEADLINE_S)
