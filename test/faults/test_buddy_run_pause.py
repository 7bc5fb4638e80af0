"""Issue 19 attack, found with the whole graph in one process (`buddy run`, what `make run`
starts): a child who paused for more than about 6 s between turns lost the session as
`bridge_lost`. The bridge's conversation/events writer then offered AUTOMATIC liveliness,
which Fast DDS asserts with participant messages that a reader in the same participant
ignores; only the bridge's own messages kept it alive, so the personality node saw "no
live bridge" 2 s after the last one and ended the session after its 3 s grace. The writer
now asserts its liveliness every second (nodes/common/qos.py, BRIDGE_EVENTS); the killed
bridge in another process is still noticed (test_llm_bridge_killed.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.processes import TypedBuddyRun

from buddy_msgs.msg import ConversationEvent, PersonalitySnapshot, Utterance
from buddy_personality.nodes.common import qos

pytestmark = [pytest.mark.ros, pytest.mark.process, pytest.mark.slow, pytest.mark.attack]

# Longer than the old failure (2 s lease + 1 s tick + 3 s grace = 6 s) by half of it, and
# far below the bridge's 30 s silence timeout (cognition/bridge.py), which may end it
# (erratum 22: 12 s was twice the failure's time, waited in every run).
PAUSE_S = 9.0


def test_a_child_pausing_between_turns_keeps_the_session_under_buddy_run(
        ros, tmp_path: Path) -> None:
    snaps = ros.collect(PersonalitySnapshot, "/buddy/personality/snapshot", qos.LATCHED)
    events = ros.collect(ConversationEvent, "/buddy/conversation/events", qos.EVENTS)
    heard = ros.collect(Utterance, "/buddy/speech/utterance", qos.EVENTS)
    with TypedBuddyRun("--no-dashboard", "--duration", "90",
                       "--state-dir", str(tmp_path / "state")) as run:
        assert ros.spin_until(lambda: bool(snaps), 60.0), "buddy run published no snapshot"
        run.say_until("hey buddy, hello",
                      lambda wait: ros.spin_until(lambda: bool(heard), wait), tries=20)
        assert ros.spin_until(lambda: snaps[-1].conversation_active, 15.0), \
            "the wake phrase started no conversation"
        started = [e for e in events if e.kind == ConversationEvent.STARTED]
        assert started, "no STARTED event"
        session = started[-1].session_id

        # the child thinks for a while: nothing is said, nothing published by the bridge
        during_pause = len(snaps)
        ros.spin_for(PAUSE_S)
        pause = snaps[during_pause:]
        assert len(pause) >= PAUSE_S - 2, "the snapshot (1 Hz) stopped during the pause"
        ended = [e for e in events if e.kind == ConversationEvent.ENDED]
        assert not ended, f"session ended during a {PAUSE_S:.0f} s pause: " \
                          f"{[e.end_reason for e in ended]}"
        assert all(s.conversation_active for s in pause), \
            "the personality node dropped the conversation during the pause"

        # and the next turn belongs to the same session
        n_heard = len(heard)
        run.say("I like dinosaurs")
        assert ros.spin_until(lambda: len(heard) > n_heard, 10.0)
        ros.spin_for(2.0)
        assert snaps[-1].conversation_active
        assert {e.session_id for e in events if e.kind == ConversationEvent.STARTED} \
            == {session}, "a second session started: the first one was lost"
        assert run.ctrl_c() == 0
