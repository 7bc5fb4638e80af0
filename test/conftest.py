"""Shared pytest fixtures (issue 2 test harness).

(a) pure core tests need nothing from here but `rng`;
(b) `ros`: nodes spun in-process over real DDS, on a fresh rclpy context per test;
(c) `node_process`: node executables started as processes and observed over DDS.

DDS is confined before rclpy loads: loopback and shared memory only, the LOCALHOST
discovery range, and a ROS_DOMAIN_ID of this test process's own (DESIGN §5).
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

# One domain per test process, away from 0 (the default every other ROS user is on);
# one block of domains per xdist worker (support/domains.py).
from support.domains import DOMAIN_ID

from buddy_personality.dds_confinement import confine_dds

confine_dds(domain_id=DOMAIN_ID)
os.environ.setdefault("AMENT_PREFIX_PATH", sys.prefix)
os.environ.setdefault("RCUTILS_COLORIZED_OUTPUT", "0")

REPO = Path(__file__).resolve().parents[1]

pytest_plugins = ["support.ros_harness", "support.processes", "support.speech"]


@pytest.fixture
def rng() -> random.Random:
    """A seeded RNG, as every core takes one (DESIGN §1)."""
    return random.Random(1234)


@pytest.fixture
def repo() -> Path:
    return REPO
