"""What robot.launch.py does with dds / security / keystore / insecure_network (DESIGN
erratum 19), as one ROS-free function the launch file calls and the tests check.

- dds:=localhost (default): DDS stays on this machine; security optional.
- security:=enforce: every node runs in its own enclave (/buddy/<node>) of the keystore
  with ROS_SECURITY_STRATEGY=Enforce; a missing or incomplete keystore refuses to start.
- dds:=network without security:=enforce refuses to start, unless insecure_network:=true
  says, explicitly, that an unauthenticated graph on the home network is wanted.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .cli import DEFAULT_KEYSTORE

ENCLAVE_ENV = "ROS_SECURITY_ENCLAVE_OVERRIDE"   # rcl: the enclave of this process


@dataclass(slots=True)
class LaunchSecurity:
    env: dict[str, str] = field(default_factory=dict)   # set for every node process
    error: str = ""                                    # non-empty: refuse to start
    warning: str = ""


def _truthy(text: str) -> bool:
    return text.strip().lower() in ("1", "true", "yes", "on")


def decide(dds: str, security: str, keystore: str, insecure_network: str) -> LaunchSecurity:
    out = LaunchSecurity()
    dds, security = dds.strip().lower(), security.strip().lower()
    if dds not in ("localhost", "network"):
        out.error = f"dds:={dds}: expected 'localhost' or 'network'"
        return out
    if security not in ("off", "enforce"):
        out.error = f"security:={security}: expected 'off' or 'enforce'"
        return out
    if security == "enforce":
        store = Path(keystore or os.environ.get("ROS_SECURITY_KEYSTORE", "")
                     or DEFAULT_KEYSTORE).expanduser()
        if not (store / "enclaves").is_dir() or not (store / "public").is_dir():
            out.error = (f"security:=enforce but {store} is no SROS2 keystore: run "
                         f"`buddy security init --keystore {store}` first")
            return out
        out.env = {"ROS_SECURITY_ENABLE": "true", "ROS_SECURITY_STRATEGY": "Enforce",
                   "ROS_SECURITY_KEYSTORE": str(store)}
        return out
    if dds == "network":
        if not _truthy(insecure_network):
            out.error = ("dds:=network without security:=enforce would let any computer on "
                         "the network command Buddy (DESIGN erratum 19). Make a keystore "
                         "(`buddy security init`) and add security:=enforce, or add "
                         "insecure_network:=true if you really mean it.")
            return out
        out.warning = "dds:=network without DDS Security (insecure_network:=true)"
    return out
