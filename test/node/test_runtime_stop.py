"""`stopped_by_signal`: an exception that escapes the spin counts as a requested stop only
when the context goes down (rclpy's signal handler does that on Ctrl-C / SIGTERM)."""

from __future__ import annotations

import threading

import pytest
import rclpy

from buddy_personality.nodes.common.runtime import stopped_by_signal

pytestmark = pytest.mark.ros


def test_a_live_context_means_a_real_error() -> None:
    rclpy.init()
    try:
        assert stopped_by_signal(grace_s=0.05) is False
    finally:
        rclpy.try_shutdown()


def test_a_context_shut_down_a_moment_later_is_a_requested_stop() -> None:
    rclpy.init()
    # the signal handler's thread shuts the context down after the error surfaced
    timer = threading.Timer(0.1, rclpy.try_shutdown)
    timer.start()
    try:
        assert stopped_by_signal(grace_s=2.0) is True
    finally:
        timer.join()
        rclpy.try_shutdown()
