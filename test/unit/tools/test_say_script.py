"""`buddy say` as a scripted session (issue 28 item 5): several lines in one process, each
said once Buddy has answered the one before and listens again, one discovery and one
settle for the session (README, "Driving a headless run"). The rules that decide when the
next line may go are ROS-free and tested here; the live session is in
test/replay/test_replay_live.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from buddy_personality.msg_constants import Phase
from buddy_personality.tools.cli import say
from buddy_personality.tools.cli.say import (
    EXIT_USAGE,
    answered,
    latched,
    listening_for,
    listens_again,
    script_lines,
)


def test_each_argument_is_one_line_and_a_file_skips_blanks_and_comments() -> None:
    assert script_lines(["hey  buddy, hello ", "i like cats"], None) == [
        "hey buddy, hello", "i like cats"]
    text = "hey buddy\n\n# the child waits here\n   what do whales eat\n  # indented\nbye\n"
    assert script_lines(["ignored"], text) == ["hey buddy", "what do whales eat", "bye"]
    assert script_lines(["  ", ""], None) == []


def test_a_filler_is_not_the_answer() -> None:
    """A turn past its deadline says a filler while the bridge still THINKS; a line sent
    then is dropped 'while thinking' (cognition/bridge.py on_utterance)."""
    assert not answered(0, Phase.LISTENING)
    assert not answered(1, Phase.THINKING)
    assert answered(1, Phase.SPEAKING)
    assert answered(2, Phase.DONE)


def test_the_next_line_waits_until_buddy_listens_again() -> None:
    """The cognition gate answers no line within its cooldown of the last answer (spec 003
    §3.4.3): measured, a second line sent right after the first reply got no answer. A
    LISTENING read before Buddy reacted to the line predates it and is no proof."""
    assert not listens_again([Phase.LISTENING])                  # stale: before the line
    assert not listens_again([Phase.SPEAKING])                   # still speaking
    assert not listens_again([Phase.THINKING, Phase.SPEAKING])
    assert listens_again([Phase.SPEAKING, Phase.LISTENING])
    assert listens_again([Phase.THINKING, Phase.SPEAKING, Phase.LISTENING])
    assert listens_again([Phase.DONE])                           # 'bye buddy' ended it
    assert listens_again([Phase.DONE, Phase.IDLE])


def test_only_a_line_buddy_hears_is_waited_for() -> None:
    """PE-5: outside a conversation only the wake phrase (or the held button) is heard."""
    assert not listening_for(Phase.IDLE, "i like cats", button=False)
    assert not listening_for(None, "i like cats", button=False)
    assert listening_for(Phase.IDLE, "hey buddy, i like cats", button=False)
    assert listening_for(Phase.IDLE, "i like cats", button=True)
    assert listening_for(Phase.LISTENING, "i like cats", button=False)


def test_a_recorder_matched_late_gets_every_line_of_the_session_as_history() -> None:
    """The transient-local writer keeps the whole session, not only the topic's depth."""
    from buddy_personality.nodes.common import qos

    profile = qos.of("speech/utterance")
    assert latched(profile, 1).depth == profile.depth
    assert latched(profile, profile.depth + 7).depth == profile.depth + 7


@pytest.mark.parametrize("argv, says", [
    (["hey buddy", "--file", "-"], "not both"),
    (["--no-wait", "hey buddy", "bye buddy"], "--no-wait says one line"),
    (["--file", "/nonexistent/lines.txt"], "cannot read --file"),
    (["--file", "EMPTY"], "give a line to say"),
])
def test_usage_errors_exit_2_with_one_line(argv: list[str], says: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing but a comment\n\n")
    argv = [str(empty) if a == "EMPTY" else a for a in argv]
    assert say.main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1, err


def test_settle_0_leaves_once_the_readers_acknowledged() -> None:
    """`--settle 0` (nothing records the session): no stay for a late recorder, but every
    matched reader's acknowledgement is still waited for (linger's second half)."""
    assert say.settle_time(4.0, 0.0) == 0.0
    assert say.settle_time(1.0) == say.SETTLE_S
    assert say.settle_time(4.0, 3.0) == 8.0

    class Writer:
        topic_name = "/buddy/speech/utterance"
        asked = 0

        def wait_for_all_acked(self, timeout: object) -> bool:
            Writer.asked += 1
            return True

    spun: list[float] = []
    assert say.linger(spun.append, lambda: 100.5, 100.0, [Writer()], 10.0, settle_s=0.0) == []
    assert spun == [] and Writer.asked == 1
