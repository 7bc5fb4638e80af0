"""Keep DDS traffic on this machine (DESIGN §5, network confinement).

Every entry point (the `buddy` CLI, `make run`, the test fixtures, the benchmarks) calls
`confine_dds` before rclpy initialises, so the default is loopback and shared memory
only. A real multi-machine robot opts out with the environment variable
`BUDDY_DDS=network`, which leaves the ROS environment as the user set it.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from pathlib import Path

PROFILE_NAME = "fastdds_localhost.xml"
# Jazzy ships Fast DDS 2.14, which reads the profile from FASTRTPS_DEFAULT_PROFILES_FILE and
# ignores FASTDDS_DEFAULT_PROFILES_FILE (the name Fast DDS 3 uses, from ROS 2 Kilted on).
# Both are set, so the profile applies on either; until issue 19 found that a SIGKILLed
# node stayed on the graph for the default 20 s lease, only the first name was set and the
# profile had never been loaded (the discovery range alone kept DDS on this machine).
PROFILE_VARIABLES = ("FASTRTPS_DEFAULT_PROFILES_FILE", "FASTDDS_DEFAULT_PROFILES_FILE")
OPT_OUT_VARIABLE = "BUDDY_DDS"
OPT_OUT_VALUE = "network"


def profile_path() -> Path:
    """The loopback-only Fast DDS profile, from the source tree or the installed share."""
    source = Path(__file__).resolve().parents[1] / "config" / PROFILE_NAME
    if source.is_file():
        return source
    from ament_index_python.packages import get_package_share_directory  # noqa: PLC0415

    return Path(get_package_share_directory("buddy_personality")) / "config" / PROFILE_NAME


def confine_dds(
    env: MutableMapping[str, str] | None = None, domain_id: int | None = None
) -> MutableMapping[str, str]:
    """Set the variables that confine DDS to this machine in `env` (default os.environ).

    `domain_id` gives the process its own ROS_DOMAIN_ID (tests use one per process).
    Respects the BUDDY_DDS=network opt-out, except that a given domain_id is still set.
    """
    target = os.environ if env is None else env
    if domain_id is not None:
        if not 0 <= domain_id <= 101:
            raise ValueError(f"ROS_DOMAIN_ID must be in [0, 101], got {domain_id}")
        target["ROS_DOMAIN_ID"] = str(domain_id)
    if target.get(OPT_OUT_VARIABLE) == OPT_OUT_VALUE:
        return target
    target["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"
    target.pop("ROS_LOCALHOST_ONLY", None)  # deprecated in Jazzy; the range replaces it
    target["RMW_IMPLEMENTATION"] = "rmw_fastrtps_cpp"
    for variable in PROFILE_VARIABLES:
        target[variable] = str(profile_path())
    target.pop("ROS_STATIC_PEERS", None)
    return target
