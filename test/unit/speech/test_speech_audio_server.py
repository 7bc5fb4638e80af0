"""Which audio server echo canceller `buddy run --listen` uses (DESIGN erratum 24): the
user's own when one is loaded (its source and sink by name, or the defaults), else one it
loads with the WebRTC canceller and its gain controls off."""

from __future__ import annotations

from buddy_personality.speech.audio_server import LOAD_ARGS, SINK_NAME, SOURCE_NAME, parse_loaded

MODULES = ("0\tmodule-native-protocol-unix\t\t\n"
           "1\tmodule-null-sink\tsink_name=speaker rate=16000 channels=1\t\n")


def test_no_canceller_loaded_is_none() -> None:
    assert parse_loaded(MODULES) is None


def test_the_users_canceller_is_used_by_its_names_and_never_unloaded() -> None:
    listed = MODULES + ('7\tmodule-echo-cancel\taec_method=webrtc source_name=mic_ec '
                        'sink_name=spk_ec aec_args="analog_gain_control=0"\t\n')
    route = parse_loaded(listed)
    assert route is not None and (route.source, route.sink, route.module) == (
        "mic_ec", "spk_ec", None)
    assert route.environment() == {"PULSE_SOURCE": "mic_ec", "PULSE_SINK": "spk_ec"}


def test_a_canceller_without_names_leaves_the_default_devices() -> None:
    route = parse_loaded(MODULES + "9\tlibpipewire-module-echo-cancel\t\t\n")
    assert route is not None and route.environment() == {}


def test_the_loaded_canceller_is_webrtc_without_gain_control() -> None:
    args = " ".join(LOAD_ARGS)
    assert "aec_method=webrtc" in args and f"source_name={SOURCE_NAME}" in args
    assert f"sink_name={SINK_NAME}" in args
    assert 'aec_args="analog_gain_control=0 digital_gain_control=0"' in args
