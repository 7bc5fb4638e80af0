"""The pure parts of replay and the scenario runner: what is an input, the step schedule
and its slack, parameter overrides, the sim setup in a bag, the step policy, and the
timeline read from messages. No ROS: messages are serialized with the rosbags typestore."""

from __future__ import annotations

import pytest

from buddy_personality.tools.bags.bagio import BagMessage
from buddy_personality.tools.bags.replay import (
    apply_overrides,
    compared_topics,
    grid_schedule,
    infer_namespace,
    is_input,
    slack_function,
)
from buddy_personality.tools.bags.typestore import buddy_typestore
from buddy_personality.tools.sim.scenarios.runner import Scenario, StepPolicy, _Activity
from buddy_personality.tools.sim.scenarios.timeline import build_timeline
from buddy_personality.tools.sim.sim_graph import INPUT_TOPICS, SimSetup, relative

STORE = buddy_typestore()


def message(topic: str, type_name: str, t: float, **fields: object) -> BagMessage:
    cls = STORE.types[type_name]
    kwargs = {}
    for name in cls.__dataclass_fields__:
        if name.startswith("__"):
            continue
        if name == "header":
            Header, Time = STORE.types["std_msgs/msg/Header"], STORE.types[
                "builtin_interfaces/msg/Time"]
            kwargs[name] = Header(stamp=Time(sec=int(t), nanosec=0), frame_id="")
        else:
            kwargs[name] = fields.get(name)
    data = STORE.serialize_cdr(cls(**kwargs), type_name)
    return BagMessage(topic, type_name, int(t * 1e9), bytes(data))


def system_event(t: float, kind: int) -> BagMessage:
    return message("/buddy/system/events", "buddy_msgs/msg/SystemEvent", t, kind=kind,
                   battery_pct=-1.0, detail="", user_id="")


def test_inputs_are_what_comes_from_outside_the_graph() -> None:
    """DESIGN §3: speech, TTS, power monitor, identity/consent events, face board."""
    assert is_input(system_event(1.0, 1), "buddy")          # LOW_BATTERY: power monitor
    assert not is_input(system_event(1.0, 5), "buddy")      # SERVER_ONLINE: the bridge's
    say = message("/buddy/tts/say", "buddy_msgs/msg/Say", 1.0, text="hi", emotion="happy",
                  session_id="s", turn_id=1)
    assert not is_input(say, "buddy")
    speaking = message("/buddy/tts/speaking", "std_msgs/msg/Bool", 1.0, data=True)
    assert is_input(speaking, "buddy")
    assert set(INPUT_TOPICS) == {"speech/utterance", "tts/speaking", "system/events",
                                 "identity/events", "consent/events", "face/button",
                                 "face/touch"}


def test_compared_topics_are_the_bags_outputs_or_the_ones_asked_for() -> None:
    types = ["/buddy/tts/say", "/buddy/speech/utterance", "/buddy/system/events",
             "/diagnostics", "/clock", "/buddy/personality/snapshot"]
    assert compared_topics(types, "buddy", None) == [
        "personality/snapshot", "system/events", "tts/say"]
    assert compared_topics(types, "buddy", ["tts/say"]) == ["tts/say"]
    assert compared_topics(types, "buddy", ["/buddy/personality/snapshot"]) == [
        "personality/snapshot"]


def test_the_namespace_is_the_one_most_topics_share() -> None:
    assert infer_namespace(["/clock", "/diagnostics", "/robot7/tts/say",
                            "/robot7/personality/snapshot"]) == "robot7"
    assert infer_namespace(["/clock"]) == "buddy"
    assert relative("/robot7/tts/say", "robot7") == "tts/say"
    assert relative("/clock", "robot7") == "/clock"


def test_a_grid_schedule_covers_the_bag_in_equal_steps() -> None:
    start = 1_000_000_000_000
    grid = grid_schedule(start, start + 1_000_000_000, 0.25)
    assert [t - start for t in grid] == [250_000_000, 500_000_000, 750_000_000,
                                         1_000_000_000]


def test_the_stamp_slack_is_the_step_around_a_time() -> None:
    slack = slack_function([10_000_000_000, 11_000_000_000, 21_000_000_000, 22_000_000_000])
    assert slack(10.5) == pytest.approx(1.0)    # inside a 1 s step
    assert slack(15.0) == pytest.approx(10.0)   # inside a quiet 10 s step
    assert slack(21.0) == pytest.approx(10.0)   # on a point: the larger neighbouring step
    assert slack_function([5])(5.0) == 0.0


def test_overrides_set_parameters_and_seeds_without_touching_the_original() -> None:
    base = SimSetup(seed=3, overrides={"personality": {"tick_hz": 1.0}})
    changed = apply_overrides(base, ["personality.seed=4", "llm_bridge.wake_phrase=hi buddy",
                                     "personality.axes.energy=0.6"], seed=None)
    assert changed.overrides["personality"] == {"tick_hz": 1.0, "seed": 4,
                                                "axes.energy": 0.6}
    assert changed.overrides["llm_bridge"] == {"wake_phrase": "hi buddy"}
    assert base.overrides == {"personality": {"tick_hz": 1.0}}
    assert apply_overrides(base, [], seed=9).seed == 9
    with pytest.raises(ValueError, match=r"NODE\.PARAM=VALUE"):
        apply_overrides(base, ["seed=4"], seed=None)


def test_the_sim_setup_survives_the_bag_metadata() -> None:
    setup = SimSetup(start_s=123.5, seed=2, tz="UTC", daily_conversation_s=1500.0,
                     llm="scripted:dinosaur_talk", overrides={"governor": {"max_steps": 50}})
    assert SimSetup.from_json(setup.to_json()) == setup
    # keys a later version adds are ignored; a non-object is refused
    assert SimSetup.from_json('{"seed": 5, "future_key": 1}').seed == 5
    with pytest.raises(ValueError):
        SimSetup.from_json("[1, 2]")


def test_the_step_policy_is_fine_while_anything_happens_and_coarse_when_quiet() -> None:
    scenario = Scenario("s", "t", SimSetup(start_s=0.0), [], 1000.0,
                        StepPolicy(active_s=1.0, quiet_s=10.0, quiet_after_s=60.0))
    activity = _Activity(scenario, lambda *_a: None)
    assert activity.step_s(30.0) == 1.0        # just started
    assert activity.step_s(61.0) == 10.0       # a quiet minute later
    activity.in_conversation = True
    assert activity.step_s(500.0) == 1.0       # a conversation is never stepped coarsely


def test_the_tts_stand_in_speaks_each_line_for_its_words() -> None:
    scheduled: list[tuple[float, str, object]] = []
    scenario = Scenario("s", "t", SimSetup(start_s=0.0), [], 100.0, speech_rate_wps=2.5)
    activity = _Activity(scenario, lambda t, topic, payload: scheduled.append(
        (t, topic, payload)))
    say = message("/buddy/tts/say", "buddy_msgs/msg/Say", 10.0, text="one two three four five",
                  emotion="happy", session_id="s", turn_id=1)
    from buddy_personality.tools.sim.sim_graph import Captured

    activity.on_capture(Captured(say.topic, say.type_name, say.t_ns, say.data))
    assert scheduled == [(pytest.approx(10.2), "tts/speaking", True),
                         (pytest.approx(12.2), "tts/speaking", False)]


def test_the_timeline_reads_moods_lines_guardrails_and_layer_changes() -> None:
    def snapshot(t: float, mood: str, layer: int) -> BagMessage:
        return message("/buddy/personality/snapshot", "buddy_msgs/msg/PersonalitySnapshot", t,
                       mood=mood, intensity=0.5, valence=0.1, arousal=0.1, tonic_valence=0.0,
                       tonic_arousal=0.0, layer=layer, conversation_active=False,
                       idle_state=0)

    msgs = [
        snapshot(0.0, "neutral", 0),
        system_event(1.0, 5),
        snapshot(1.0, "neutral", 1),
        message("/buddy/personality/guardrail", "buddy_msgs/msg/GuardrailEvent", 2.0,
                rule_id="RS-1", action="end_session", details="900 s"),
        message("/buddy/personality/mood_changed", "buddy_msgs/msg/MoodChanged", 3.0,
                prev="neutral", next="happy", cause="ai_emotion", intensity=0.7),
    ]
    tl = build_timeline(msgs)
    assert [e.text for e in tl.events] == [
        "system event SERVER_ONLINE", "layer 0 -> 1 (LLM)",
        "guardrail RS-1: end_session (900 s)",
        "mood neutral -> happy (ai_emotion, intensity 0.70)"]
    assert tl.mood_at(0.5) == "neutral"
    assert tl.first("guardrail", rule_id="RS-1").t == 2.0


def test_a_recorder_that_joined_late_only_has_the_latched_values_from_before() -> None:
    from buddy_personality.tools.bags.replay import since_recording_began
    from buddy_personality.tools.sim.sim_graph import Captured

    caps = [Captured("/buddy/personality/snapshot", "x", 1, b"a"),
            Captured("/buddy/personality/snapshot", "x", 2, b"b"),
            Captured("/buddy/tts/say", "x", 2, b"hi"),
            Captured("/buddy/personality/snapshot", "x", 5, b"c")]
    got = since_recording_began(caps, 3, "buddy")
    assert [(c.topic, c.t_ns, c.data) for c in got] == [
        ("/buddy/personality/snapshot", 3, b"b"),   # the latched value, when it joined
        ("/buddy/personality/snapshot", 5, b"c")]   # the volatile line said before: gone
    assert since_recording_began(caps, 0, "buddy") == caps


def test_a_robot_bag_starts_the_graph_at_its_oldest_output_stamp() -> None:
    """A recorder started after the graph still gets the latched values the nodes
    published when they were built; their stamps tell when that was."""
    from pathlib import Path

    from buddy_personality.tools.bags.bagio import BagContents
    from buddy_personality.tools.bags.replay import boot_time_ns, setup_from_bag

    latched = message("/buddy/identity/state", "buddy_msgs/msg/IdentityState", 97.0,
                      state=0, user_id="", role="", addressing_state=0, preferred_name="",
                      age_group=0, conversation_mode=0, child_safe=True, participants=[])
    received_late = BagMessage(latched.topic, latched.type_name, 100_000_000_000,
                               latched.data)
    speech = message("/buddy/speech/utterance", "buddy_msgs/msg/Utterance", 50.0,
                     text="hi", session_id="", is_final=True, confidence=1.0)
    speech = BagMessage(speech.topic, speech.type_name, 101_000_000_000, speech.data)
    contents = BagContents(Path("b"), [received_late, speech],
                           {latched.topic: latched.type_name, speech.topic: speech.type_name})
    assert boot_time_ns(contents) == 97_000_000_000  # the input's stamp does not count
    setup, warnings = setup_from_bag(contents)
    assert (setup.start_s, setup.tz, setup.llm) == (97.0, "", "")
    assert "no sim setup in the bag" in warnings[0]
