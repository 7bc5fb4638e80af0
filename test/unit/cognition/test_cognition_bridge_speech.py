"""The bridge and Buddy's speech (DESIGN §4.7, issue 21): a child speaking shows LISTENING
(also over Buddy's voice: barge-in), the real voice ends SPEAKING, and the ears' fault is
said once through the usual say path. Layer 0 (no server): no LLM needed."""

from __future__ import annotations

import random

from buddy_personality.cognition.bridge import (
    PHASE_LISTENING,
    PHASE_SPEAKING,
    BridgeCore,
)
from buddy_personality.speech.ears import FAULT_NAME
from buddy_personality.speech.notices import SPOKEN_FAULTS


def core_in_speaking() -> tuple[BridgeCore, float]:
    core = BridgeCore(random.Random(1), server_configured=False)
    step = core.on_utterance(0.0, "hey buddy I like dinosaurs very much")
    assert step.says and core.phase == PHASE_SPEAKING
    return core, 0.0


def test_child_speaking_over_buddy_switches_to_listening() -> None:
    core, _ = core_in_speaking()
    step = core.on_speech_activity(0.4, True)
    assert [p.phase for p in step.phases] == [PHASE_LISTENING]
    assert core.on_speech_activity(0.5, True).phases == []      # already listening


def test_activity_outside_a_session_changes_nothing_pe5() -> None:
    core = BridgeCore(random.Random(1), server_configured=False)
    assert core.on_speech_activity(0.0, True).empty()


def test_real_voice_holds_speaking_until_its_last_sample() -> None:
    core, _ = core_in_speaking()
    core.on_tts_speaking(0.1, True)
    # the text-length estimate of a 7-word line (~3.3 s) no longer ends SPEAKING
    assert core.tick(5.0).phases == []
    core.on_tts_speaking(6.0, False)
    assert [p.phase for p in core.tick(6.05).phases] == [PHASE_LISTENING]


def test_ears_fault_is_said_through_tts_say_in_and_out_of_a_session() -> None:
    core = BridgeCore(random.Random(1), server_configured=False)
    idle = core.on_fault_raised(0.0, FAULT_NAME)
    assert [s.text for s in idle.says] == [SPOKEN_FAULTS[FAULT_NAME]]
    assert idle.says[0].session_id == ""
    core.on_utterance(1.0, "hey buddy")
    sid = core.session.session_id if core.session else ""
    in_session = core.on_fault_raised(2.0, FAULT_NAME)
    assert in_session.says[0].session_id == sid
    assert core.on_fault_raised(3.0, "battery_thermal").empty()   # not a speech fault
