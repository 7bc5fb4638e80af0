"""`buddy security`: DDS Security (SROS2) for a multi-machine robot (DESIGN erratum 19).

    buddy security policy [--namespace /buddy] [--dev-mode] [-o FILE]
        print (or write) the SROS2 policy generated from the graph table
    buddy security init [--keystore DIR] [--namespace /buddy]
        make a keystore with one enclave per node (sros2's tools) and verify it

Then `ros2 launch buddy_personality robot.launch.py dds:=network security:=enforce
keystore:=DIR` runs each node in its own enclave. `buddy run` is one process on this
machine's loopback and needs none. Enforcement needs an RMW built with DDS Security
(the apt packages are; the PyPI Fast DDS wheel is not): docs/SECURITY.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from .policy import DEFAULT_NAMESPACE, policy_xml

DEFAULT_KEYSTORE = "~/.local/share/buddy/sros2_keystore"


def default_keystore() -> Path:
    return Path(os.environ.get("ROS_SECURITY_KEYSTORE") or DEFAULT_KEYSTORE).expanduser()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="buddy security", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    pol = sub.add_parser("policy", help="the SROS2 policy XML from the graph table")
    pol.add_argument("--namespace", default=DEFAULT_NAMESPACE)
    pol.add_argument("--dev-mode", action="store_true",
                     help="also allow the dev-only services (set_guardrail, override_affect)")
    pol.add_argument("-o", "--output", type=Path, default=None, help="write here, not stdout")
    init = sub.add_parser("init", help="make and verify a keystore with one enclave per node")
    init.add_argument("--keystore", type=Path, default=None,
                      help=f"keystore folder (default $ROS_SECURITY_KEYSTORE or "
                           f"{DEFAULT_KEYSTORE})")
    init.add_argument("--namespace", default=DEFAULT_NAMESPACE)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    ns = build_parser().parse_args(argv)
    if ns.command == "policy":
        text = policy_xml(ns.namespace, ns.dev_mode)
        if ns.output is None:
            sys.stdout.write(text)
        else:
            ns.output.write_text(text, encoding="utf-8")
            print(f"buddy security: policy written to {ns.output}")
        return 0
    from .keystore import make_keystore, verify_keystore  # noqa: PLC0415

    keystore = (ns.keystore or default_keystore()).expanduser()
    # sros2 finds its templates through the ament index: in the wheel-based venv the
    # prefix is the venv (apt installs set it by sourcing setup.bash).
    if not os.environ.get("AMENT_PREFIX_PATH"):
        os.environ["AMENT_PREFIX_PATH"] = sys.prefix
    try:
        policy = make_keystore(keystore, ns.namespace)
    except RuntimeError as exc:
        print(f"buddy security: {exc}", file=sys.stderr)
        return 2
    problems = verify_keystore(keystore, ns.namespace)
    for problem in problems:
        print(f"buddy security: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"buddy security: keystore {keystore} ready ({policy.name}); run with\n"
          f"  ros2 launch buddy_personality robot.launch.py dds:=network "
          f"security:=enforce keystore:={keystore}")
    return 0
