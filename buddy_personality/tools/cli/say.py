"""`buddy say`: speak lines (or press the talk button) into a running Buddy graph.

    buddy say "hey buddy, tell me a joke"     one utterance, then print Buddy's reply
    buddy say "hey buddy" "i like cats" "bye buddy"
                                              a scripted session: each line said once
                                              Buddy has answered the one before and
                                              listens again
    buddy say --file lines.txt                the same, one line per line of the file
                                              ('-': standard input; blank lines and
                                              lines starting with '#' are skipped)
    buddy say --button                        press and release the push-to-talk button
    buddy say --button "what do whales eat"   press, say the line, release (PTT session)

Each argument is one line (quote it). A scripted session finds the graph once and stays
on it once, so ten lines take about as long as Buddy's ten answers, not ten start-ups;
each line comes half a second after Buddy listens again (a child's pause), and the
session stops at the first line Buddy does not answer in time (exit 3).

For a headless run (`buddy run --headless`, `ros2 launch ...`) or a recording (`buddy
record`): the line goes to `speech/utterance` exactly as the speech recogniser would
send it (final, confidence 1.0); the button to `face/button` as the face board would.
DDS stays on this machine (DESIGN §5) and the graph is found on the same ROS_DOMAIN_ID
as this shell's, as every other `ros2` tool finds it.

The graph is looked for `--discovery` seconds (15; DDS discovery is slow on a loaded
machine), and `buddy say` stays at least SETTLE_S (6 s, `--settle`) on the graph, so a
`buddy record` it discovers late still gets the line (`-v` says which readers it
matched); with `--settle 0` (nothing records) it leaves once every reader acknowledged.

Exit status: 0 sent (and, unless --no-wait, Buddy answered every line that was for
Buddy), 1 no running graph was found, 2 a usage error, 3 a line sent but no answer in
time (the lines after it are not said).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from buddy_personality.dds_confinement import confine_dds
from buddy_personality.msg_constants import Phase
from buddy_personality.tools.cli import argtypes

NAMESPACE = "/buddy"
DEFAULT_WAIT_S = 15.0       # a layer-1 answer may take a few seconds
# How long to look for the graph's readers before saying there is no graph (exit 1).
# Discovery is a DDS exchange between processes, each of which needs the CPU: on a loaded
# 2-core machine a graph that was running all along was found 3.4 s after this process
# joined, and a whole-suite run once missed it in 5 s (issue 30 item 4).
DISCOVERY_S = 15.0
# The writer (and the line in its transient-local history) lives at least this long after
# this process joined the graph. A reader in a process found late (`buddy record`) gets
# the line as history only if it matches the writer before the writer is gone, and this
# process cannot wait for a reader it has not discovered: every participant re-announces
# itself every 3 s (Fast DDS's default announcement period), so two rounds bound how late
# a running process is found. Measured on a loaded 2-core machine: the recorder's readers
# were found up to 3.7 s after joining; staying only 2 s after sending lost a line from
# the bag in 1 of 2 ten-line sessions (issue 30 item 4).
SETTLE_S = 6.0
# ...and at least this many times as long as finding the graph took: a machine so loaded
# that discovery of the graph was slow discovers the recorder as slowly (issue 30 item 4).
SETTLE_FACTOR = 2.0
DELIVERY_S = 10.0           # how long to wait for every reader to acknowledge the line
WAKE_PHRASE = "hey buddy"   # the bridge's default (robot.yaml llm_bridge.wake_phrase)
EXIT_OK, EXIT_NO_GRAPH, EXIT_USAGE, EXIT_NO_ANSWER = 0, 1, 2, 3


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="buddy say", description=__doc__.split("\n\n")[0],
        epilog="Buddy only listens to a line that starts with the wake phrase "
               f"('{WAKE_PHRASE}') unless a conversation is already running (PE-5); "
               "--button starts one without it.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("text", nargs="*", default=[],
                    help="what the child says: one argument per line, each said once "
                         "Buddy has answered the one before and listens again")
    ap.add_argument("--file", metavar="PATH", default=None,
                    help="read the lines from PATH ('-' for standard input), one a line; "
                         "blank lines and lines starting with '#' are skipped")
    ap.add_argument("--button", action="store_true",
                    help="press the push-to-talk button (and release it after the first line)")
    ap.add_argument("--no-wait", action="store_true",
                    help="do not wait for Buddy's reply (one line only)")
    ap.add_argument("--wait", type=argtypes.seconds, default=DEFAULT_WAIT_S,
                    help=f"seconds to wait for each reply (default {DEFAULT_WAIT_S:.0f})")
    ap.add_argument("--discovery", type=argtypes.seconds, default=DISCOVERY_S,
                    help="seconds to look for a running graph before exit 1 (default "
                         f"{DISCOVERY_S:.0f}: discovery is slow on a loaded machine)")
    ap.add_argument("--settle", type=argtypes.seconds, default=SETTLE_S,
                    help=f"stay at least this long on the graph (default {SETTLE_S:.0f}, "
                         "and twice as long as finding the graph took), so a `buddy record` "
                         "found late still gets the lines; 0 when nothing records: leave "
                         "once every reader acknowledged")
    ap.add_argument("--namespace", default=NAMESPACE, help=f"graph namespace ({NAMESPACE})")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="say on stderr which readers were matched when the line was "
                         "sent and when buddy say left")
    return ap


def script_lines(args: Sequence[str], file_text: str | None) -> list[str]:
    """The lines to say, in order: each argument is one line; a file's lines, blank ones
    and '#' comments skipped. Whitespace inside a line is collapsed, as a recogniser's
    final text has it."""
    raw = list(args) if file_text is None else [
        line for line in file_text.splitlines() if not line.lstrip().startswith("#")]
    return [text for text in (" ".join(line.split()) for line in raw) if text]


def read_script(path: str) -> str:
    """The text of --file PATH ('-': standard input). Raises OSError/UnicodeDecodeError."""
    if path == "-":
        return sys.stdin.read()
    return Path(path).expanduser().read_text(encoding="utf-8")


def listening_for(phase: int | None, text: str, button: bool) -> bool:
    """Whether Buddy acts on `text` said now (PE-5): in a conversation, with the wake
    phrase, or with the talk button held."""
    idle = phase is None or phase in (Phase.IDLE, Phase.DONE)
    return not idle or button or starts_with_wake(text)


def answered(new_replies: int, phase: int | None) -> bool:
    """The reply to a line is in: a line was said since it was sent and Buddy is no longer
    thinking. A turn that runs past its deadline says a filler first (the bridge keeps
    THINKING until the answer); a line sent then would be dropped as 'while thinking'."""
    return new_replies > 0 and phase != Phase.THINKING


# Buddy has reacted to a line (it speaks, or the line ended the session) ...
REACTED = frozenset({Phase.SPEAKING, Phase.DONE})
# ... and listens again: the next line of a scripted session may come.
LISTENS = frozenset({Phase.LISTENING, Phase.IDLE, Phase.DONE})
# A line never lasts a minute (the bridge's own bound on SPEAKING, bridge_session.VOICE_HOLD_S).
LISTEN_AGAIN_S = 60.0
# The pause between Buddy listening again and the next line, as a child's (and the ears',
# which send a line only after it was spoken). Without it a line came 7-15 ms after the
# phase turned LISTENING, and `buddy replay` of the recording, whose timers land up to
# ~0.1 s off the live ones, took the line before that change: 7 of 10 phases differed.
TURN_GAP_S = 0.5


def listens_again(phases_since_line: Sequence[int]) -> bool:
    """A child waits for Buddy's answer to end before the next line (and the cognition
    gate does not answer a line within its cooldown of the last answer, spec 003 §3.4.3):
    since the line, Buddy reacted, and the newest phase is listening (or the session
    ended). A phase read before Buddy reacted is no proof: it may predate the line."""
    return (any(p in REACTED for p in phases_since_line)
            and phases_since_line[-1] in LISTENS)


def starts_with_wake(text: str, wake_phrase: str = WAKE_PHRASE) -> bool:
    from buddy_personality.cognition.conversation import split_wake  # noqa: PLC0415

    return split_wake(text, wake_phrase)[0]


def _spin_until(node: Any, done: Callable[[], bool], timeout_s: float) -> bool:
    import rclpy  # noqa: PLC0415

    deadline = time.monotonic() + timeout_s
    while not done():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        rclpy.spin_once(node, timeout_sec=min(0.1, left))
    return True


# The nodes that act on what we send: the button starts a session in the bridge (phases)
# and wakes personality (PE-5); a line is answered by the bridge. Several nodes read each
# topic (tts too); a reliable, volatile message reaches only the readers matched when it
# is written, so we wait for the acting nodes and for every reader the graph knows about.
ACTING_NODES = {"face/button": {"personality", "llm_bridge"},
                "speech/utterance": {"llm_bridge"}}


def _all_readers_matched(node: Any, pub: Any, namespace: str, topic: str) -> bool:
    readers = node.get_subscriptions_info_by_topic(f"{namespace}/{topic}")
    return (ACTING_NODES[topic] <= {r.node_name for r in readers}
            and pub.get_subscription_count() >= len(readers))


def describe_readers(node: Any, writers: Sequence[tuple[Any, str]], since: float) -> str:
    """One line for --verbose: per topic, the readers the graph shows and how many of
    them this writer has matched (a reader not matched yet may still get the line)."""
    parts = []
    for pub, topic in writers:
        names = sorted(r.node_name for r in node.get_subscriptions_info_by_topic(
            pub.topic_name))
        parts.append(f"{topic}: matched {pub.get_subscription_count()} of "
                     f"{len(names)} ({', '.join(names)})")
    return f"{time.monotonic() - since:.2f} s on the graph; " + "; ".join(parts)


def settle_time(found_after_s: float, settle_s: float = SETTLE_S) -> float:
    """How long to stay on the graph when finding it took `found_after_s`; `settle_s` 0
    (--settle 0: nothing records the session) stays only until the readers acknowledge."""
    return max(settle_s, SETTLE_FACTOR * found_after_s) if settle_s > 0 else 0.0


def linger(spin: Callable[[float], None], clock: Callable[[], float], joined: float,
           writers: Sequence[Any], ack_timeout: Any, settle_s: float = SETTLE_S) -> list[str]:
    """Keep `writers` alive until this process has been on the graph `settle_s` (a reader
    found meanwhile gets the line from the transient-local history), then wait until
    every matched reader acknowledged it. Returns the topics not acknowledged in time."""
    while (left := joined + settle_s - clock()) > 0:
        spin(min(0.1, left))
    return [w.topic_name for w in writers if not w.wait_for_all_acked(ack_timeout)]


def deeper(profile: Any, depth: int) -> Any:
    """`profile` keeping `depth` messages (matching is unchanged: depth is not part of it)."""
    from rclpy.qos import QoSProfile  # noqa: PLC0415

    return QoSProfile(history=profile.history, depth=max(profile.depth, depth),
                      reliability=profile.reliability, durability=profile.durability)


def latched(profile: Any, lines: int = 1) -> Any:
    """`profile`, transient-local, keeping at least `lines` messages: a reader matched late
    gets every line of a scripted session as history, not only the newest ones."""
    from rclpy.qos import DurabilityPolicy, QoSProfile  # noqa: PLC0415

    return QoSProfile(history=profile.history, depth=max(profile.depth, lines),
                      reliability=profile.reliability,
                      durability=DurabilityPolicy.TRANSIENT_LOCAL)


def main(argv: list[str] | None = None) -> int:
    ns = build_parser().parse_args(argv)
    if ns.file is not None and ns.text:
        print("buddy say: give the lines as arguments or with --file, not both",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        lines = script_lines(ns.text, None if ns.file is None else read_script(ns.file))
    except (OSError, UnicodeDecodeError) as exc:
        print(f"buddy say: cannot read --file {ns.file}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if not lines and not ns.button:
        print("buddy say: give a line to say, or --button", file=sys.stderr)
        return EXIT_USAGE
    if ns.no_wait and len(lines) > 1:
        print("buddy say: --no-wait says one line (a scripted session waits for each "
              "reply before the next line)", file=sys.stderr)
        return EXIT_USAGE
    confine_dds()
    import rclpy  # noqa: PLC0415 - after confine_dds: rmw reads the environment at init
    from rclpy.duration import Duration  # noqa: PLC0415
    from rclpy.node import Node  # noqa: PLC0415

    from buddy_msgs.msg import ButtonEvent, ConversationPhase, Say, Utterance  # noqa: PLC0415
    from buddy_personality.nodes.common import qos  # noqa: PLC0415

    rclpy.init(args=["buddy_say", "--ros-args", "--disable-stdout-logs"])
    joined = time.monotonic()   # the DDS participant exists (and announces itself) from here
    try:
        # No parameter services: this short-lived node is no part of the graph a recording
        # describes (`buddy record` asks every node under the namespace for its parameters).
        node = Node("buddy_say", namespace=ns.namespace, start_parameter_services=False)
        # Transient-local (history kept while this process lives): a reader that matches
        # this short-lived writer only after the line was written still gets it if it
        # asks for history (`buddy record` does, record.LATCHED_INPUTS); the graph's
        # volatile readers match it as before. The history holds every line of the session.
        speech = node.create_publisher(Utterance, "speech/utterance",
                                       latched(qos.of("speech/utterance"), len(lines)))
        button = node.create_publisher(ButtonEvent, "face/button", latched(qos.of("face/button")))
        replies: list[Any] = []
        phases: list[int] = []
        node.create_subscription(Say, "tts/say", replies.append, qos.of("tts/say"))
        # every phase, not only the newest (the topic's latched depth is 1): SPEAKING may
        # last half a second between two spins on a loaded machine
        node.create_subscription(ConversationPhase, "conversation/phase",
                                 lambda m: phases.append(int(m.phase)),
                                 deeper(qos.of("conversation/phase"), 10))
        used = ([(button, "face/button")] if ns.button else []) + \
            ([(speech, "speech/utterance")] if lines else [])
        if not _spin_until(node, lambda: all(_all_readers_matched(node, p, ns.namespace, t)
                                             for p, t in used)
                           and node.count_publishers(f"{ns.namespace}/tts/say") > 0,
                           ns.discovery):
            domain = os.environ.get("ROS_DOMAIN_ID", "0")
            print(f"buddy say: no running Buddy graph under {ns.namespace} on "
                  f"ROS_DOMAIN_ID={domain} within {ns.discovery:.0f} s (start `buddy run` "
                  "or `ros2 launch buddy_personality robot.launch.py` in a shell with the same "
                  "ROS_DOMAIN_ID)", file=sys.stderr)
            return EXIT_NO_GRAPH
        settle_s = settle_time(time.monotonic() - joined, ns.settle)
        if ns.verbose:
            print(f"buddy say: found the graph, {describe_readers(node, used, joined)}",
                  file=sys.stderr)
        _spin_until(node, lambda: bool(phases), 1.0)   # the latched phase, if any

        def phase() -> int | None:
            return phases[-1] if phases else None

        def stamp(msg: Any) -> Any:
            msg.header.stamp = node.get_clock().now().to_msg()
            return msg

        def press(event_type: int, state: int) -> None:
            button.publish(stamp(ButtonEvent(button_id=ButtonEvent.BUTTON_PTT,
                                             event_type=event_type, state=state)))

        def delivered(code: int) -> int:
            for topic in linger(lambda dt: rclpy.spin_once(node, timeout_sec=dt),
                                time.monotonic, joined, (speech, button),
                                Duration(seconds=DELIVERY_S), settle_s):
                print(f"buddy say: not every reader acknowledged {topic} "
                      f"within {DELIVERY_S:.0f} s", file=sys.stderr)
            if ns.verbose:
                print(f"buddy say: leaving, {describe_readers(node, used, joined)}",
                      file=sys.stderr)
            return code

        if ns.button:
            press(ButtonEvent.PRESS, 1)
            print("buddy say: talk button pressed")
            if not lines:
                press(ButtonEvent.RELEASE, 0)
        for n, text in enumerate(lines):
            held = ns.button and n == 0   # the button is held over the first line only
            heard = listening_for(phase(), text, held)
            if not heard:
                print(f"buddy say: note: Buddy is not in a conversation and the line does "
                      f"not start with '{WAKE_PHRASE}', so Buddy will not answer (PE-5)",
                      file=sys.stderr)
            mark, since = len(replies), len(phases)   # what came before this line
            speech.publish(stamp(Utterance(text=text, session_id="", is_final=True,
                                           confidence=1.0)))
            print(f"child: {text}", flush=True)
            if held:
                press(ButtonEvent.RELEASE, 0)
            if ns.no_wait or not heard:
                continue
            left = len(lines) - n - 1
            if not _spin_until(node, lambda mark=mark: answered(len(replies) - mark, phase()),
                               ns.wait):
                print(f"buddy say: no reply within {ns.wait:.0f} s"
                      + (f"; {left} more line(s) not said" if left else ""), file=sys.stderr)
                return delivered(EXIT_NO_ANSWER)
            if not left:
                _spin_until(node, lambda: False, 0.3)   # a closing line may follow at once
            elif not _spin_until(node, lambda since=since: listens_again(phases[since:]),
                                 LISTEN_AGAIN_S):   # (a closing line comes before that)
                print(f"buddy say: Buddy did not listen again within {LISTEN_AGAIN_S:.0f} s; "
                      f"{left} more line(s) not said", file=sys.stderr)
                return delivered(EXIT_NO_ANSWER)
            else:
                _spin_until(node, lambda: False, TURN_GAP_S)
            for r in replies[mark:]:
                print(f"buddy [{r.emotion}]: {r.text}", flush=True)
        return delivered(EXIT_OK)
    except KeyboardInterrupt:
        return EXIT_OK
    finally:
        if rclpy.ok():
            rclpy.shutdown()


if __name__ == "__main__":
    raise SystemExit(main())
