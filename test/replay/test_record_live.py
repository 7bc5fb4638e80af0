"""`buddy record` next to a live `buddy run` (issue 30 item 4): every line a child types
with `buddy say` is in the bag, and the bag is one `ros2 bag info` reads."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

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


def test_every_buddy_say_line_is_in_a_live_recording_that_ros2_bag_reads(
        ros, tmp_path: Path) -> None:
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
            res = subprocess.run([str(BUDDY), "say", "-v", line], capture_output=True,
                                 text=True, timeout=60, env=dict(os.environ), check=False)
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
    check_ros2_bag_readable(out)


MCAP_MAGIC = b"\x89MCAP0\r\n"


def check_ros2_bag_readable(bag: Path) -> None:
    """What `ros2 bag info` / `ros2 bag play` of Jazzy read (rosbag2 metadata version 9):
    metadata.yaml names the storage and its files, and per topic its name, type, CDR
    serialization, the offered QoS and a message count that matches the file."""
    meta = yaml.safe_load((bag / "metadata.yaml").read_text())["rosbag2_bagfile_information"]
    assert meta["version"] == 9
    assert meta["storage_identifier"] == "mcap"
    files = [bag / f for f in meta["relative_file_paths"]]
    assert files and all(f.read_bytes().startswith(MCAP_MAGIC) for f in files)
    declared = {t["topic_metadata"]["name"]: t for t in meta["topics_with_message_count"]}
    for entry in declared.values():
        md = entry["topic_metadata"]
        assert md["serialization_format"] == "cdr"
        assert re.fullmatch(r"\w+/msg/\w+", md["type"]), md
        assert "offered_qos_profiles" in md
    assert meta["message_count"] == sum(t["message_count"] for t in declared.values())
    assert meta["duration"]["nanoseconds"] > 0
    store = buddy_typestore()
    counted: dict[str, int] = {}
    with Reader(bag) as reader:
        assert reader.message_count == meta["message_count"]
        types = {c.topic: c.msgtype for c in reader.connections}
        for conn, _, raw in reader.messages():
            store.deserialize_cdr(raw, conn.msgtype)  # every message decodes as its type
            counted[conn.topic] = counted.get(conn.topic, 0) + 1
    assert types == {name: t["topic_metadata"]["type"] for name, t in declared.items()}
    assert counted == {name: t["message_count"] for name, t in declared.items()
                       if t["message_count"]}
    # the graph's behaviour is in it: the lines, Buddy's answers, the mood
    assert types["/buddy/speech/utterance"] == "buddy_msgs/msg/Utterance"
    assert types["/buddy/tts/say"] == "buddy_msgs/msg/Say"
    assert counted["/buddy/tts/say"] >= len(LINES)
    assert types["/buddy/personality/snapshot"] == "buddy_msgs/msg/PersonalitySnapshot"
