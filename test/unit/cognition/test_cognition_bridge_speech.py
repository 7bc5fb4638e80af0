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


def test_a_fillers_voice_ending_does_not_end_the_answer_that_queues_behind_it() -> None:
    """Issue 19's filler ("Hmm, let me think.") and the answer are lines of one turn, and
    "Lines of one turn queue in order" (tts_core, DESIGN §4.7): when the answer arrives
    while the filler plays, the filler's `tts/speaking` false is not the end of the
    answer. SPEAKING used to end there, so LISTENING showed (and the child was listened
    to) while Buddy said its answer."""
    from buddy_personality.cognition.client import CallResult
    from buddy_personality.cognition.schema import validate_response
    from buddy_personality.cognition.turn_deadline import FILLER_LINES
    from buddy_personality.tools.fakes.fake_llm_server import DEFAULT_ANSWER

    core = BridgeCore(random.Random(3), server_configured=True)
    step = core.on_utterance(0.0, "hey buddy why is the sky blue")
    assert step.call is not None
    filler = core.tick(2.6)
    assert next(s.text for s in filler.says) in FILLER_LINES
    core.on_tts_speaking(2.8, True)                         # the filler plays
    answer = core.on_call_result(3.0, step.call.ticket, CallResult(
        ok=True, response=validate_response(DEFAULT_ANSWER).response))
    assert answer.says and core.phase == PHASE_SPEAKING
    core.on_tts_speaking(4.3, False)                        # the filler's last sample
    assert core.tick(4.4).phases == [] and core.phase == PHASE_SPEAKING
    core.on_tts_speaking(4.5, True)                         # the answer's first sample
    assert core.tick(30.0).phases == []                     # held by the voice
    core.on_tts_speaking(31.0, False)                       # the answer's last sample
    assert [p.phase for p in core.tick(31.05).phases] == [PHASE_LISTENING]


def test_answer_without_a_filler_still_ends_on_its_own_voice() -> None:
    """The usual turn: no line playing when the answer comes, so its text-length estimate
    holds until its voice starts, and its voice's end ends SPEAKING."""
    core, _ = core_in_speaking()
    assert core.tick(0.05).phases == []
    core.on_tts_speaking(0.2, True)
    core.on_tts_speaking(2.0, False)
    assert [p.phase for p in core.tick(2.05).phases] == [PHASE_LISTENING]
