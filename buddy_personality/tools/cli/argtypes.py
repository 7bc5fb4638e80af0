"""Argument types of the `buddy` commands (issue 31 item 8).

A bad argument ends in one clear line and exit status 2, as argparse's own errors do:
argparse turns an `ArgumentTypeError` raised here into `buddy run: error: argument
--duration: ...`. Before, a missing or unreadable `--params` and an unusable
`--state-dir` ended in Python tracebacks, and `--duration -5` or `nan` ran forever.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

import yaml


def seconds(text: str) -> float:
    """A duration in seconds: a finite number >= 0 (0 = no limit where the option says)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(
            f"must be a finite number of seconds, 0 or more: {text!r}")
    return value


def params_file(text: str) -> str:
    """A ROS 2 parameter file that exists and reads as YAML: node name -> ros__parameters
    (rcl's own parse error surfaced as a traceback from rclpy.init)."""
    path = Path(text).expanduser()
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such parameter file: {text}")
    try:
        content = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise argparse.ArgumentTypeError(f"cannot read parameter file {text}: {reason}") \
            from None
    if not isinstance(content, dict) or not all(
            isinstance(v, dict) and isinstance(v.get("ros__parameters", {}), dict)
            for v in content.values()):
        raise argparse.ArgumentTypeError(
            f"{text} is not a ROS 2 parameter file (node name: ros__parameters: ...)")
    return str(path)


def state_dir(text: str) -> Path:
    """A directory Buddy can keep its files in: created if missing, writable."""
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"not a directory: {text}")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise argparse.ArgumentTypeError(
            f"cannot create {text}: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"cannot write in {text}")
    return path
