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
from collections.abc import Callable


def _run(module: str) -> int:
    try:
        return int(importlib.import_module(f"buddy_personality.nodes.{module}").main() or 0)
    except KeyboardInterrupt:
        return 0


def _executable(module: str) -> Callable[[], int]:
    def run() -> int:
        return _run(module)

    run.__name__ = run.__qualname__ = module
    return run


# setup.py's console_scripts name these (one per node of robot.launch.py)
personality_node = _executable("personality_node")
governor_node = _executable("governor_node")
identity_node = _executable("identity_node")
face_driver_node = _executable("face_driver_node")
llm_bridge_node = _executable("llm_bridge_node")
tts_node = _executable("tts_node")
asr_node = _executable("asr_node")
parent_dashboard_node = _executable("parent_dashboard_node")
