"""`buddy record` next to a live `buddy run` (issue 30 item 4): every line a child types
with `buddy say` is in the bag, and the bag is one `ros2 bag info` reads."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.ros, pytest.mark.process]

from rosbags.rosbag2 import Reader  # noqa: E402

from buddy_msgs.msg import ConversationPhase  # noqa: E402
from buddy_personality.nodes.common import qos  # noqa: E402
from buddy_personality.tools.bags.typestore import buddy_typestore  # noqa: E402

BUDDY = Path(sys.prefix) / "bin" / "buddy"
LINES = ["hey buddy, hello", "what is your name", "i like dinosaurs",
         "do you like cats", "tell me a joke", "what do you eat"]


def _buddy(*args: str, **kw: object) -> subprocess.Popen[str]:
    return subprocess.Popen([str(BUDDY), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ), **kw)


def test_every_buddy_say_line_is_in_the_bag_of_a_live_recording(ros, tmp_path: Path) -> None:
    """DESIGN §1.6: recorded sessions are regression tests, so a recording must hold every
    input. Six short-lived `buddy say` processes each send one line; the bag holds all six,
    in order (before the fix it kept 3-4 of 6 while Buddy answered every one)."""
    phases: list[int] = []
    ros.probe.create_subscription(ConversationPhase, "/buddy/conversation/phase",
                                  lambda m: phases.append(m.phase), qos.LATCHED)
    run = _buddy("run", "--headless", "--duration", "120",
                 "--state-dir", str(tmp_path / "state"))
    out = tmp_path / "bag"
    rec = None
    try:
        assert ros.spin_until(lambda: ros.probe.count_publishers("/buddy/tts/say") >= 1
                              and phases, 40.0), "buddy run did not come up"
        rec = _buddy("record", "-o", str(out))
        assert rec.stderr is not None
        assert "recording" in rec.stderr.readline()

        def recorder_listens() -> bool:
            subs = ros.probe.get_subscriptions_info_by_topic("/buddy/speech/utterance")
            return any(s.node_name == "buddy_recorder" for s in subs)

        assert ros.spin_until(recorder_listens, 20.0), "the recorder never subscribed"
        said: list[str] = []
        for line in LINES:
            res = subprocess.run([str(BUDDY), "say", line], capture_output=True, text=True,
                                 timeout=40, env=dict(os.environ), check=False)
            assert res.returncode == 0, res.stdout + res.stderr
            assert "buddy [" in res.stdout, res.stdout  # Buddy answered this line
            said.append(res.stderr)
        rec.send_signal(signal.SIGINT)
        assert rec.wait(timeout=20) == 0
    finally:
        for proc in (rec, run):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    store = buddy_typestore()
    heard: list[str] = []
    with Reader(out) as reader:
        conns = [c for c in reader.connections if c.topic == "/buddy/speech/utterance"]
        for _, _, raw in reader.messages(connections=conns):
            heard.append(store.deserialize_cdr(raw, "buddy_msgs/msg/Utterance").text)
    assert heard == LINES, said
