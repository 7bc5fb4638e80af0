"""`buddy run`: the graph's nodes in one process on one executor, with a live terminal view
(mood, affect, face, governor, identity, the last utterance and reply) and the keyboard
standing in for a child's speech; `--headless` for scripts."""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
import time
from pathlib import Path
from typing import Any

from buddy_personality.dds_confinement import confine_dds

REDRAW_PERIOD_S = 0.1  # at most 10 redraws a second, and only when something changed
FACE_NODE = "face_driver"
FACE_SWITCH_INTERVAL_S = 0.001   # GIL hand-over between the face thread and the rest


def speech_overrides(ns: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """tts and asr parameters for --speak / --listen (DESIGN §4.7): the devices of the
    parameter file (robot.yaml: the computer's default speaker and microphone, which is
    PulseAudio's default where it runs). Without them Buddy is silent (tts backend none)
    and deaf (asr without a server)."""
    speak, listen = getattr(ns, "speak", False), getattr(ns, "listen", False)
    voice = getattr(ns, "tts", "espeak")
    stt_url = getattr(ns, "stt_url", "")
    tts: dict[str, Any] = {"backend": voice if speak else "none"}
    if speak and voice == "server":
        tts["server_url"] = getattr(ns, "tts_url", "") or stt_url or ns.llm_url
    asr: dict[str, Any] = {"server_url": stt_url if listen else ""}
    if listen and getattr(ns, "echo_canceller", "auto") != "auto":
        asr["echo_canceller"] = ns.echo_canceller
    return {"tts": tts, "asr": asr}


def listen_through_echo_canceller(ns: argparse.Namespace) -> Any:
    """--listen (DESIGN erratum 24): Buddy's voice out of the microphone. With `auto` or
    `server`, the audio server's module-echo-cancel (the user's, or one loaded now and
    unloaded at exit: the returned route), Buddy's streams pointed at it through
    PULSE_SOURCE / PULSE_SINK; without an audio server, `auto` falls back to the asr
    node's software canceller."""
    import os  # noqa: PLC0415

    from buddy_personality.speech.audio_server import ensure_echo_cancel  # noqa: PLC0415

    mode = getattr(ns, "echo_canceller", "auto")
    if not getattr(ns, "listen", False) or mode in ("software", "off"):
        return None
    route = ensure_echo_cancel()
    if isinstance(route, str):
        print(f"buddy: no audio server echo canceller ({route}); "
              + ("the ears cancel Buddy's voice in software" if mode == "auto"
                 else "Buddy may hear itself"), file=sys.stderr, flush=True)
        ns.echo_canceller = "software" if mode == "auto" else mode
        return None
    os.environ.update(route.environment())
    ns.echo_canceller = "server"
    print("buddy: listening through the audio server's echo canceller "
          f"({route.source or 'default source'})", flush=True)
    return route


def run(ns: argparse.Namespace) -> int:
    if getattr(ns, "listen", False) and not getattr(ns, "stt_url", ""):
        print("buddy: --listen needs --stt-url URL (the home server's OpenAI-compatible "
              "/v1/audio/transcriptions)", file=sys.stderr)
        return 2
    echo_route = listen_through_echo_canceller(ns)
    try:
        return _run(ns)
    finally:
        if echo_route is not None:
            from buddy_personality.speech.audio_server import release  # noqa: PLC0415

            release(echo_route)


def _run(ns: argparse.Namespace) -> int:
    confine_dds()
    import rclpy  # noqa: PLC0415 - after confine_dds: rmw reads the environment at init

    from buddy_personality.nodes.bringup import (  # noqa: PLC0415
        GraphOptions,
        create_graph,
        default_params_file,
    )
    from buddy_personality.nodes.common.executor import (  # noqa: PLC0415
        align_periodic_timers,
        make_executor,
    )
    from buddy_personality.nodes.common.runtime import (  # noqa: PLC0415
        build_within_stop,
        destroy_nodes,
        run_until_stopped,
    )

    params = ns.params or str(default_params_file())
    # issue 31 item 3: one graph per state directory (state_dir_lock.py)
    from buddy_personality.nodes.state_files import claim_state_dirs  # noqa: PLC0415

    busy = claim_state_dirs(ns.state_dir, Path(params), "buddy run")
    if busy:
        print(f"buddy run: error: {busy}", file=sys.stderr)
        return 2
    ros_args = ["--params-file", params]
    if not ns.headless and sys.stdout.isatty():
        # log lines would scroll the live view apart; it shows warnings from /rosout
        # instead, and everything still goes to the log files under ~/.ros/log
        ros_args.append("--disable-stdout-logs")
    try:
        rclpy.init(args=["buddy", "--ros-args", *ros_args])
    except RuntimeError as exc:   # rcl cannot use the parameter file (issue 31 item 8)
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"buddy run: error: parameter file {params}: {reason}", file=sys.stderr)
        return 2
    overrides: dict[str, dict[str, Any]] = {
        "face_driver": {"port": ns.port},
        "llm_bridge": {"server_url": ns.llm_url, **{  # issue 27: the guard model
            k: v for k in ("guard_model", "guard_url")
            if (v := getattr(ns, k, None)) is not None}},
        **speech_overrides(ns),
    }
    if ns.state_dir is not None:
        from buddy_personality.nodes.state_files import state_dir_overrides  # noqa: PLC0415

        for node, params in state_dir_overrides(ns.state_dir).items():
            overrides.setdefault(node, {}).update(params)
        print(f"buddy: state files in {ns.state_dir.expanduser().resolve()}", flush=True)
    options = GraphOptions(overrides=overrides,
                           without=frozenset({"parent_dashboard"})
                           if getattr(ns, "no_dashboard", False) else frozenset())
    nodes: list[Any] = []
    executor = make_executor()  # a SingleThreadedExecutor with a cached wait set (issue 8)
    # The face driver spins on an executor and thread of its own (issue 14/20): a snapshot
    # must reach the board within a few ms, and on the shared executor it waited behind
    # whichever callback of another node was running (p99.9 40 ms under load). With the
    # GIL switch interval at 1 ms the face thread gets the interpreter within ~1 ms of a
    # frame arriving. robot.launch.py runs it as its own process anyway.
    face_executor = make_executor()
    face_thread: threading.Thread | None = None
    view: _View | None = None

    def body() -> None:
        nonlocal view, face_thread
        nodes.extend(build_within_stop(lambda: create_graph(options)))
        # every node's diagnostics and 1 Hz tick in the same wake (issue 14 idle CPU)
        align_periodic_timers(n for n in nodes if n.get_name() != FACE_NODE)
        for node in nodes:
            if node.get_name() == FACE_NODE:
                face_executor.add_node(node)
            else:
                executor.add_node(node)
        if face_executor.get_nodes():
            sys.setswitchinterval(FACE_SWITCH_INTERVAL_S)
            face_thread = threading.Thread(target=_spin_quietly, args=(face_executor,),
                                           name="face-executor", daemon=True)
            face_thread.start()
        print(f"buddy: {len(nodes)} nodes running under /{options.namespace} "
              "(Ctrl-C to stop)", flush=True)
        page = next((n.url for n in nodes if getattr(n, "url", "")), "")
        if page:   # the parent page (DESIGN §4.6)
            print(f"buddy: parent page on {page}", flush=True)
        if not ns.headless:
            view = _View(options.namespace)
            view.node.state.dashboard_url = page
            executor.add_node(view.node)
            nodes.append(view.node)
        deadline = time.monotonic() + ns.duration if ns.duration > 0 else None
        # The live view redraws at 10 Hz; headless, the loop only checks --duration, so
        # it wakes once a second (issue 14 idle CPU: a 0.1 s timeout alone was 10 of the
        # graph's 25 wake-ups a second). A stop signal or rclpy.shutdown wakes it at once.
        wait_s = 0.1 if view is not None else 1.0
        while rclpy.ok() and (deadline is None or time.monotonic() < deadline):
            left = wait_s if deadline is None else min(wait_s, deadline - time.monotonic())
            executor.spin_once(timeout_sec=max(left, 0.0))
            if view is not None:
                view.redraw()

    def teardown() -> None:
        if view is not None:
            view.close()
        face_executor.shutdown()
        if face_thread is not None:
            face_thread.join(timeout=5.0)
        executor.shutdown()
        destroy_nodes(nodes)

    return run_until_stopped(body, teardown, "buddy")


def _spin_quietly(executor: Any) -> None:
    """The face executor's thread: spins until the context or the executor is shut down
    (the main thread's stop policy decides the exit status)."""
    from rclpy.executors import ExternalShutdownException  # noqa: PLC0415

    with contextlib.suppress(KeyboardInterrupt, ExternalShutdownException):
        executor.spin()


class _View:
    """The console node, the keyboard thread and, on a terminal, the rich Live display."""

    def __init__(self, namespace: str) -> None:
        import queue  # noqa: PLC0415

        from rich.console import Console  # noqa: PLC0415
        from rich.live import Live  # noqa: PLC0415

        from buddy_personality.tools.cli.console_node import ConsoleNode, KeyboardReader  # noqa: PLC0415
        from buddy_personality.tools.cli.live_view import render  # noqa: PLC0415

        self._render = render
        self._console = Console()
        inputs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.node = ConsoleNode(inputs, namespace=namespace)
        self.live: Any = None
        self._next_draw = 0.0
        console = self._console
        if console.is_terminal:
            self.live = Live(self._draw(), console=console, auto_refresh=False,
                             screen=False, vertical_overflow="crop")
            self.live.start()
        else:
            print("buddy: stdout is not a terminal: no live view; lines on stdin are still "
                  "spoken to Buddy", flush=True)
        self.keyboard = KeyboardReader(inputs)

    def redraw(self) -> None:
        now = time.monotonic()
        if self.live is None or not self.node.changed or now < self._next_draw:
            return
        self.node.changed = False
        self._next_draw = now + REDRAW_PERIOD_S
        self.live.update(self._draw(), refresh=True)

    def _draw(self) -> Any:
        """Laid out for the terminal's size now (it may have been resized)."""
        width, height = self._console.size
        return self._render(self.node.state, width, height)

    def close(self) -> None:
        self.keyboard.close()
        if self.live is not None:
            self.live.stop()
