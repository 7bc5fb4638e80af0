"""`buddy`: run Buddy, and the tools around it.

    buddy run [--headless] [--port PATH] [--llm-url URL] [--params FILE]
              [--speak [--tts espeak|server|none]] [--listen --stt-url URL]
    buddy run --demo [--out DIR] [--seed N]
                              a scripted morning in sim time: a bag and a report
    buddy say "TEXT" ["TEXT" ...] | --file FILE | --button [TEXT]
                              speak lines (or press the talk button) into a running graph
    buddy face-sim            a simulated face board on a pseudo-terminal
    buddy eval BAG | --simulate-day [--seed N] [--json] [--plot FILE.png]
                              spec 002 Appendix A.2 success indicators
    buddy record [-o DIR] [--duration S]
                              record every /buddy topic (and /diagnostics) to MCAP
    buddy replay BAG [--json] [--tolerance X] [--topics T ...] [--write-bag OUT]
                              replay a bag's inputs under sim time, compare the outputs
    buddy parent set-pin | show | forget-all | consent CHILD grant|revoke
                              a parent's powers, behind the parent PIN
    buddy security policy | init [--keystore DIR]
                              SROS2 policy and keystore for a multi-machine robot
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path

from buddy_personality.tools.cli import argtypes

RUN_DESCRIPTION = """\
Start Buddy: the five nodes in one process, with a live view in the terminal.

Typing stands in for a child's speech: type a line and press Enter. Buddy only
listens to a line that starts with the wake phrase "hey buddy" (for example
"hey buddy, tell me a joke"); after that the conversation runs without it until
you say goodbye ("bye buddy") or stay quiet for 30 seconds. A line without the
wake phrase outside a conversation is not answered (spec PE-5: Buddy never
starts talking on its own); the view says so.

Without --llm-url Buddy answers from its own rules (layer 0); with it, from the
LLM server, falling back to the rules when the server fails. Ctrl-C stops.
"""


def _run(ns: argparse.Namespace) -> int:
    if ns.demo:
        from buddy_personality.tools.sim.demo import run_demo  # noqa: PLC0415

        return run_demo(ns.out, ns.seed)
    from buddy_personality.tools.cli.run import run  # noqa: PLC0415 - keeps `buddy --help` fast

    return run(ns)


def _delegate(module: str, args: list[str]) -> int:
    """Hand the remaining arguments to a tool module's own main()."""
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise  # a real missing dependency, not a command that is not written yet
        print(f"buddy: this command is not available yet ({exc.name})", file=sys.stderr)
        return 2
    return int(mod.main(args) or 0)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="buddy", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser(
        "run", help="the whole graph in one process",
        description=RUN_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("--headless", action="store_true",
                     help="no view and no typed lines: node logs on stdout; speak to "
                          "Buddy with `buddy say` from another shell (without --headless, "
                          "lines piped to stdin reach Buddy)")
    run.add_argument("--port", default="sim", help="face board serial port (default: sim)")
    run.add_argument("--llm-url", default="", help="LLM server URL (default: layer 0)")
    run.add_argument("--guard-model", default=None,
                     help="guard model on the LLM server that checks every reply, e.g. "
                          "meta-llama/Llama-Guard-3-1B (default: the parameter file's; "
                          "without one Buddy says so: README, Using a real LLM server)")
    run.add_argument("--guard-url", default=None,
                     help="--guard-model's server (…/v1) when not the --llm-url one")
    run.add_argument("--no-dashboard", action="store_true",
                     help="leave the parent page out (it serves on 127.0.0.1:8080 by default)")
    run.add_argument("--params", default=None, type=argtypes.params_file,
                     help="parameter file (default robot.yaml)")
    run.add_argument("--speak", action="store_true",
                     help="Buddy speaks through the default speaker (README: Speech)")
    run.add_argument("--listen", action="store_true",
                     help="Buddy listens on the default microphone (needs --stt-url)")
    run.add_argument("--stt-url", default="",
                     help="OpenAI-compatible transcription server (…/v1) for --listen")
    run.add_argument("--echo-canceller", choices=("auto", "server", "software", "off"),
                     default="auto",
                     help="--listen: how Buddy's voice is kept out of the microphone (auto: "
                          "the audio server's module-echo-cancel, loaded if needed, else "
                          "software; README: Speech)")
    run.add_argument("--tts", choices=("espeak", "server", "none"), default="espeak",
                     help="--speak: the voice (default espeak: offline)")
    run.add_argument("--tts-url", default="",
                     help="--tts server: speech server (default: --stt-url)")
    run.add_argument("--duration", type=argtypes.seconds, default=0.0,
                     help="stop after this many seconds (0 = until Ctrl-C)")
    run.add_argument("--state-dir", type=argtypes.state_dir, default=None,
                     help="keep household, memories and the RS-2 daily counter in this "
                          "directory (created) instead of ~/.local/share/buddy: for "
                          "development runs that must not touch the real files")
    run.add_argument("--demo", action="store_true",
                     help="a scripted morning in sim time (scripted replies, not an LLM); "
                          "writes a bag and a report")
    run.add_argument("--out", type=Path, default=None,
                     help="--demo: output directory (default buddy_demo_<date>_<time>)")
    run.add_argument("--seed", type=int, default=1, help="--demo: scenario seed")
    run.set_defaults(func=_run)
    sub.add_parser("say", help="speak lines or press the talk button in a running graph",
                   add_help=False)
    sub.add_parser("face-sim", help="simulated face board on a pseudo-terminal",
                   add_help=False)
    sub.add_parser("eval", help="spec 002 A.2 success indicators (bag or simulated day)",
                   add_help=False)
    sub.add_parser("record", help="record every Buddy topic to a rosbag2 MCAP",
                   add_help=False)
    sub.add_parser("replay", help="replay a bag under sim time and compare its outputs",
                   add_help=False)
    sub.add_parser("parent", help="parent PIN, consent, forget everything", add_help=False)
    sub.add_parser("security", help="SROS2 policy and keystore", add_help=False)
    return parser


# Commands whose module parses its own arguments: `buddy <name> ...` -> module.main(rest)
DELEGATED: dict[str, str] = {
    "say": "buddy_personality.tools.cli.say",
    "face-sim": "buddy_personality.tools.fakes.face_sim",
    "eval": "buddy_personality.tools.evaluation.evaluate",
    "record": "buddy_personality.tools.bags.record",
    "replay": "buddy_personality.tools.bags.replay",
    "parent": "buddy_personality.tools.cli.parent",
    "security": "buddy_personality.security.cli",
}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] and argv[0] in DELEGATED:
            return _delegate(DELEGATED[argv[0]], argv[1:])
        ns = build_parser().parse_args(argv)
        return int(ns.func(ns))
    except KeyboardInterrupt:
        return 0  # Ctrl-C before a command's own handling started (e.g. while importing)


if __name__ == "__main__":
    sys.exit(main())
