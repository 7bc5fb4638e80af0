"""An exit that happens even while the main thread is stuck in C holding the GIL.

Why: Fast DDS 2.14 (Jazzy) can deadlock while a process deletes its DDS entities. A
receiver thread removing a remote writer holds the PDP mutex and waits for the event
thread; the event thread, checking a remote participant's lease, waits for the PDP
mutex. The main thread, deleting a reader, waits for the event thread too, inside
rclpy's pybind11 call with the GIL held. This was caught with gdb in a Ctrl-C stress
run. It is eProsima/Fast-DDS#6502, open upstream, with the same stacks. No Python
thread or signal handler can run then. faulthandler's watchdog is a C thread, but it
can only exit with status 1.

So a POSIX timer (timer_create, SIGEV_THREAD) calls libc's `_exit(status)` on a thread
that glibc starts. That call needs no GIL and no Python. Linux and glibc only (the robot
and CI); elsewhere `arm_exit` returns False and the caller keeps its other watchdog.

This module is the whole Fast DDS teardown workaround, in one place: the bound
(`DDS_TEARDOWN_BOUND_S`), arming it once only DDS is left (`bound_teardown`, called by
runtime.destroy_nodes through runtime.bound_dds_teardown), and the exit timer itself.

When it can go: once the Fast DDS that ROS 2 Jazzy ships (ros-jazzy-fastrtps, 2.14.x)
has the fix of eProsima/Fast-DDS#6502 ("A deadlock occurs between
ResourceEvent::unregister_timer and PDP::check_remote_participant_liveliness", still
open upstream in 2026-09 and reproduced on 3.6.2 too), and `benchmarks/ctrl_c_stress.py`
shows no "Timeout" line over a few hundred stops under load (it was about one stop in
160-700). Then delete this module and the call in runtime.destroy_nodes; the stop's own
watchdog (runtime.STOP_DEADLINE_S) stays.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import faulthandler
import sys

_SIGEV_THREAD = 2
_CLOCK_MONOTONIC = 1


class _SigevThread(ctypes.Structure):
    _fields_ = [("function", ctypes.c_void_p), ("attribute", ctypes.c_void_p)]


class _SigevUnion(ctypes.Union):
    _fields_ = [("pad", ctypes.c_int * 12), ("tid", ctypes.c_int), ("thread", _SigevThread)]


class _Sigevent(ctypes.Structure):   # glibc's struct sigevent: 64 bytes on 64-bit Linux
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int), ("notify", ctypes.c_int),
                ("un", _SigevUnion)]


class _Timespec(ctypes.Structure):
    _fields_ = [("sec", ctypes.c_long), ("nsec", ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("interval", _Timespec), ("value", _Timespec)]


_armed: list[ctypes.c_void_p] = []   # timer ids, kept for the life of the process


def arm_exit(after_s: float, status: int) -> bool:
    """In `after_s` seconds, end the process with `status` unless it has ended by then
    (no atexit handlers, no flush: flush first). One-shot; returns False when this
    platform has no such timer."""
    if not sys.platform.startswith("linux") or ctypes.sizeof(_Sigevent) != 64:
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        event = _Sigevent(value=status, notify=_SIGEV_THREAD)
        # _exit(int) receives the sigval union, whose int member is `status`
        event.un.thread.function = ctypes.cast(libc._exit, ctypes.c_void_p).value
        timer = ctypes.c_void_p()
        if libc.timer_create(_CLOCK_MONOTONIC, ctypes.byref(event), ctypes.byref(timer)):
            return False
        whole = int(after_s)
        spec = _Itimerspec(value=_Timespec(whole, int((after_s - whole) * 1e9)))
        if libc.timer_settime(timer, 0, ctypes.byref(spec), None):
            return False
    except (OSError, AttributeError):
        return False
    _armed.append(timer)
    return True


# Once Buddy's own resources are closed (threads, ports, state files written), what is
# left is DDS: destroy the entities, delete the participant. That normally takes tens of
# ms, but Fast DDS can deadlock in it (eProsima/Fast-DDS#6502, above; seen about once in
# 160-700 node stops under load). Past this bound the process prints every thread's
# stack and ends with the status it was going to have: the stop was done, only the
# freeing of memory the OS frees anyway was stuck. Other nodes then see this one leave
# when its participant lease ends (20 s) instead of at once. 1.0 s, not more: with 1.5 s
# a cut-short stop took 2.57 s from Ctrl-C to launch's exit, over issue 18's 2.5 s limit.
DDS_TEARDOWN_BOUND_S = 1.0


def bound_teardown(exit_status: int, fallback_deadline_s: float) -> None:
    """From now on only DDS is torn down: end the process with `exit_status` if that
    takes over DDS_TEARDOWN_BOUND_S, printing every thread's stack just before. Replaces
    the stop's faulthandler watchdog; where no exit timer can be armed, that watchdog
    is set again to `fallback_deadline_s` (it exits 1)."""
    sys.stdout.flush()
    sys.stderr.flush()
    faulthandler.cancel_dump_traceback_later()
    if arm_exit(DDS_TEARDOWN_BOUND_S, exit_status):
        # the stack of a stuck teardown, printed just before the exit timer ends it
        faulthandler.dump_traceback_later(DDS_TEARDOWN_BOUND_S - 0.1, exit=False)
    else:
        faulthandler.dump_traceback_later(fallback_deadline_s, exit=True)
