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
"""

from __future__ import annotations

import ctypes
import ctypes.util
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
