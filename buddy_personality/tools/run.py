"""`buddy run`: the five nodes in one process on one executor."""

from __future__ import annotations

import argparse
import sys
import time

from buddy_personality.dds_confinement import confine_dds


def run(ns: argparse.Namespace) -> int:
    confine_dds()
    import rclpy  # noqa: PLC0415 - after confine_dds: rmw reads the environment at init
    from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor  # noqa: PLC0415

    from buddy_personality.nodes.bringup import (  # noqa: PLC0415
        GraphOptions,
        create_graph,
        default_params_file,
    )
    from buddy_personality.nodes.common.parameters import ParameterError  # noqa: PLC0415

    params = ns.params or str(default_params_file())
    rclpy.init(args=["buddy", "--ros-args", "--params-file", params])
    options = GraphOptions(overrides={
        "face_driver": {"port": ns.port},
        "llm_bridge": {"server_url": ns.llm_url},
    })
    nodes = []
    executor = SingleThreadedExecutor()
    try:
        nodes = create_graph(options)
        for node in nodes:
            executor.add_node(node)
        print(f"buddy: {len(nodes)} nodes running under /buddy (Ctrl-C to stop)", flush=True)
        deadline = time.monotonic() + ns.duration if ns.duration > 0 else None
        while rclpy.ok() and (deadline is None or time.monotonic() < deadline):
            executor.spin_once(timeout_sec=0.1)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except ParameterError as exc:
        print(f"buddy: {exc}", file=sys.stderr)
        return 2
    finally:
        executor.shutdown()
        for node in nodes:
            node.destroy_node()
        rclpy.try_shutdown()
    return 0
