"""`buddy face-sim`: the simulated face board on a pseudo-terminal, shown live.

Prints the pty path; start the driver with `port:=<that path>` and watch the face
state in the terminal. Type a letter and Enter to act as the board:

    p  PTT button click        a  ACTION button click     t  touch press + release
    r  replug (board restarts on v1)                      q  quit
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
import time

from rich.console import Console
from rich.live import Live
from rich.table import Table

from buddy_personality.face.protocol import (
    MOOD_NAMES,
    NO_GESTURE,
    ButtonEventType,
    ButtonId,
    ConvState,
    GestureId,
    SystemMode,
    TouchEventType,
)
from buddy_personality.face.sim_board import SimulatedBoard
from buddy_personality.face.sim_pty import PtyBoardRunner
from buddy_personality.tools.cli import argtypes


def _name(enum: type, value: int) -> str:
    try:
        return enum(value).name.lower()
    except ValueError:
        return f"? ({value})"


def face_table(runner: PtyBoardRunner) -> Table:
    with runner.lock:
        board = runner.board
        face = board.face
        rows = [
            ("port", runner.path),
            ("protocol", f"v{board.version}" + (" (v1-only firmware)" if board.v1_only else "")),
            ("mood", MOOD_NAMES.get(face.mood_id, f"? ({face.mood_id})")),
            ("intensity", f"{face.intensity}/255 ({face.intensity / 255:.2f})"),
            ("conversation", _name(ConvState, face.conv_state)),
            ("talking", f"{board.talking_at(time.monotonic())} (energy {face.energy}; "
                        "stops 450 ms after the last SET_TALKING)"),
            ("flags", f"0x{face.flags:02x}"),
            ("gaze", f"{face.gaze_x}, {face.gaze_y}"),
            ("gesture", "none" if face.gesture == NO_GESTURE else _name(GestureId, face.gesture)),
            ("system", f"{_name(SystemMode, face.system_mode)} (param {face.system_param})"),
            ("brightness", str(face.brightness)),
            ("frames rx / tx", f"{board.counters.frames_rx} / {board.counters.frames_tx}"),
            ("SET_STATE rx", str(board.counters.set_state_rx)),
            ("moods ignored (> 11)", str(board.counters.ignored_moods)),
            ("resets", str(board.counters.resets)),
            ("dropped", str(board.counters.drops.total() + board.counters.malformed)),
        ]
    table = Table(title="Buddy face (simulated board)", show_header=False)
    table.add_column(style="bold cyan")
    table.add_column()
    for key, value in rows:
        table.add_row(key, value)
    table.caption = ("p PTT · a action · t touch · r replug · s MCU reset (port kept) · "
                     "q quit (then Enter)")
    return table


def _handle(command: str, runner: PtyBoardRunner) -> bool:
    """Apply one typed command; False to quit."""
    command = command.strip().lower()
    if command == "q":
        return False
    if command == "p":
        runner.button(ButtonId.PTT, ButtonEventType.TOGGLE, 1)  # a PTT tap (firmware)
    elif command == "a":
        runner.button(ButtonId.ACTION, ButtonEventType.CLICK, 1)
    elif command == "t":
        runner.touch(TouchEventType.PRESS, 240, 240)
        runner.touch(TouchEventType.RELEASE, 240, 240)
    elif command == "r":
        runner.replug()
    elif command == "s":
        runner.reset()
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="buddy face-sim", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--link", help="also expose the pty as this symlink (stable "
                        "across replugs), e.g. /tmp/buddy-face")
    parser.add_argument("--v1-only", action="store_true",
                        help="behave like old firmware that ignores SET_PROTOCOL_VERSION")
    parser.add_argument("--mute", action="store_true", help="never answer (a dead board)")
    parser.add_argument("--duration", type=argtypes.seconds, default=0.0,
                        help="stop after this many seconds (0 = until q or Ctrl-C)")
    parser.add_argument("--plain", action="store_true",
                        help="no live view: print the state once per second")
    args = parser.parse_args(argv)

    board = SimulatedBoard(v1_only=args.v1_only, mute=args.mute, now=time.monotonic())
    runner = PtyBoardRunner(board, link_path=args.link)
    console = Console()
    console.print(f"face board simulator on [bold]{runner.path}[/bold]")
    print(f"PORT {runner.path}", flush=True)  # machine-readable line for scripts
    stop = threading.Event()

    def read_commands() -> None:
        for line in sys.stdin:
            if not _handle(line, runner):
                break
        stop.set()

    if sys.stdin is not None and sys.stdin.isatty():
        threading.Thread(target=read_commands, daemon=True).start()
    deadline = time.monotonic() + args.duration if args.duration > 0 else None
    try:
        if args.plain or not console.is_terminal:
            while not stop.wait(1.0) and (deadline is None or time.monotonic() < deadline):
                console.print(face_table(runner))
        else:
            with Live(face_table(runner), console=console, refresh_per_second=10) as live:
                while not stop.wait(0.1) and (deadline is None or time.monotonic() < deadline):
                    live.update(face_table(runner))
    except KeyboardInterrupt:
        pass
    finally:
        with contextlib.suppress(Exception):
            runner.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
