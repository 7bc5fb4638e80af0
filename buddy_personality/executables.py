"""The installed node executables (setup.py console_scripts, `ros2 run buddy_personality
X`, robot.launch.py): each imports its node module and runs its `main()`.

Why not point the console scripts at `main` directly: the generated script imports the
node module before `main()` runs, and a node's imports (rclpy, the message packages, its
core) take about a second. A Ctrl-C in that second (a launch stopped as soon as it
started, `ros2 launch` shutting down a graph that is still coming up) raised
KeyboardInterrupt in the script's import and ended the node with -2 (SIGINT) and a
traceback. Here the import is inside the same guard as `main()`: a node stopped by
Ctrl-C exits 0 whenever it comes (the brief: `main()` of a node exits 0 on Ctrl-C).
"""

from __future__ import annotations

import importlib


def _run(module: str) -> int:
    try:
        return int(importlib.import_module(f"buddy_personality.nodes.{module}").main() or 0)
    except KeyboardInterrupt:
        return 0


def personality_node() -> int:
    return _run("personality_node")


def governor_node() -> int:
    return _run("governor_node")


def identity_node() -> int:
    return _run("identity_node")


def face_driver_node() -> int:
    return _run("face_driver_node")


def llm_bridge_node() -> int:
    return _run("llm_bridge_node")


def tts_node() -> int:
    return _run("tts_node")


def asr_node() -> int:
    return _run("asr_node")


def parent_dashboard_node() -> int:
    return _run("parent_dashboard_node")
