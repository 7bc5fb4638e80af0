"""Buddy's graph as eight processes (one per node) under the namespace `buddy` (DESIGN §3, §7).

    ros2 launch buddy_personality robot.launch.py [face_port:=/dev/ttyACM0]
        [llm_url:=http://server:8000/v1] [use_sim_time:=true] [log_level:=debug]
        [params_file:=/path/robot.yaml] [dds:=network]
        [tts:=espeak|server|none] [tts_url:=http://server:8000/v1]
        [stt_url:=http://server:8000/v1] [audio_out:=DEVICE] [audio_in:=DEVICE]
        [security:=enforce] [keystore:=DIR] [insecure_network:=true]
        [dashboard_host:=0.0.0.0]

Parameters come from config/robot.yaml; the launch arguments override the face port and
the LLM server URL, and for speech (DESIGN §4.7) the voice, the speech servers and the
audio devices (empty = the system default). DDS stays on this machine unless dds:=network
(DESIGN §5), which refuses to start without security:=enforce (SROS2, each node in its own
enclave of the keystore `buddy security init` made) unless insecure_network:=true
(erratum 19).
"""

from launch.actions import (
    DeclareLaunchArgument,
    LogInfo,
    OpaqueFunction,
    SetEnvironmentVariable,
)
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import LifecycleNode, Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

from launch import LaunchDescription

PACKAGE = "buddy_personality"
NAMESPACE = "buddy"


def _security(context, *args, **kwargs) -> list:
    """Erratum 19: refuse dds:=network without SROS2; set the security environment."""
    from buddy_personality.security.launch_policy import decide  # noqa: PLC0415

    def arg(name: str) -> str:
        return LaunchConfiguration(name).perform(context)

    out = decide(arg("dds"), arg("security"), arg("keystore"), arg("insecure_network"))
    if out.error:
        raise RuntimeError(f"buddy: {out.error}")
    actions: list = [SetEnvironmentVariable(k, v) for k, v in out.env.items()]
    if out.warning:
        actions.append(LogInfo(msg=f"WARNING: {out.warning}"))
    return actions


def _own_state_dirs(context, *args, **kwargs) -> list:
    """Issue 31 item 3: one graph per state directory. This launch process holds the lock
    (buddy_personality/state_dir_lock.py) for as long as it runs its nodes; a second graph
    on the same folders (a launch or a `buddy run`) is refused with the owner's pid."""
    from pathlib import Path  # noqa: PLC0415

    from buddy_personality.nodes.state_files import claim_state_dirs  # noqa: PLC0415

    params = LaunchConfiguration("params_file").perform(context)
    busy = claim_state_dirs(None, Path(params), "ros2 launch")
    if busy:
        raise RuntimeError(f"buddy: {busy}")
    return []


def generate_launch_description() -> LaunchDescription:
    params_file = LaunchConfiguration("params_file")
    use_sim_time = ParameterValue(LaunchConfiguration("use_sim_time"), value_type=bool)
    log_level = LaunchConfiguration("log_level")

    def common(name: str) -> dict:
        return {
            "package": PACKAGE,
            "executable": f"{name}_node",
            "name": name,
            "namespace": NAMESPACE,
            "output": "screen",
            "ros_arguments": ["--log-level", log_level],
            # Its SROS2 enclave; used only when security:=enforce sets ROS_SECURITY_ENABLE.
            "additional_env": {"ROS_SECURITY_ENCLAVE_OVERRIDE": f"/{NAMESPACE}/{name}"},
        }

    def parameters(**overrides: object) -> list:
        return [params_file, {"use_sim_time": use_sim_time, **overrides}]

    return LaunchDescription([
        DeclareLaunchArgument(
            "params_file",
            default_value=PathJoinSubstitution([FindPackageShare(PACKAGE), "config",
                                                "robot.yaml"]),
            description="parameter file for all nodes"),
        DeclareLaunchArgument("face_port", default_value="sim",
                              description="face board serial port, 'auto', or 'sim'"),
        DeclareLaunchArgument("llm_url", default_value="",
                              description="OpenAI-compatible LLM server URL; empty = layer 0"),
        DeclareLaunchArgument("dashboard_host", default_value="127.0.0.1",
                              description="parent page address; 0.0.0.0 opens it to the "
                                          "home network"),
        DeclareLaunchArgument("use_sim_time", default_value="false",
                              description="use /clock (bag replay)"),
        DeclareLaunchArgument("log_level", default_value="info",
                              description="debug, info, warn, error or fatal"),
        DeclareLaunchArgument("dds", default_value="localhost",
                              description="'localhost' keeps DDS on this machine; 'network' "
                                          "for a multi-machine robot"),
        # Speech (DESIGN §4.7; README "Speech on the robot").
        DeclareLaunchArgument("tts", default_value="espeak",
                              description="the voice: espeak (offline), server, none"),
        DeclareLaunchArgument("tts_url", default_value="",
                              description="speech server (…/v1) for tts:=server"),
        DeclareLaunchArgument("stt_url", default_value="",
                              description="transcription server (…/v1); empty = not listening"),
        DeclareLaunchArgument("audio_out", default_value="",
                              description="PortAudio output device; empty = system default"),
        DeclareLaunchArgument("audio_in", default_value="",
                              description="PortAudio input device; empty = system default"),
        DeclareLaunchArgument("security", default_value="off",
                              description="'enforce': SROS2, each node in its own enclave"),
        DeclareLaunchArgument("keystore", default_value="",
                              description="SROS2 keystore (default $ROS_SECURITY_KEYSTORE "
                                          "or ~/.local/share/buddy/sros2_keystore)"),
        DeclareLaunchArgument("insecure_network", default_value="false",
                              description="allow dds:=network without SROS2 (not advised)"),
        OpaqueFunction(function=_security),
        OpaqueFunction(function=_own_state_dirs),
        SetEnvironmentVariable("BUDDY_DDS", LaunchConfiguration("dds")),
        Node(**common("personality"), parameters=parameters()),
        Node(**common("governor"), parameters=parameters()),
        Node(**common("identity"), parameters=parameters()),
        Node(**common("llm_bridge"), parameters=parameters(
            server_url=ParameterValue(LaunchConfiguration("llm_url"), value_type=str))),
        Node(**common("tts"), parameters=parameters(
            backend=ParameterValue(LaunchConfiguration("tts"), value_type=str),
            server_url=ParameterValue(LaunchConfiguration("tts_url"), value_type=str),
            output_device=ParameterValue(LaunchConfiguration("audio_out"), value_type=str))),
        Node(**common("asr"), parameters=parameters(
            server_url=ParameterValue(LaunchConfiguration("stt_url"), value_type=str),
            input_device=ParameterValue(LaunchConfiguration("audio_in"), value_type=str))),
        # Lifecycle node: it configures and activates itself (parameter autostart), so
        # no launch-side transitions are needed.
        LifecycleNode(**common("face_driver"), parameters=parameters(
            port=ParameterValue(LaunchConfiguration("face_port"), value_type=str))),
        Node(**common("parent_dashboard"), parameters=parameters(
            host=ParameterValue(LaunchConfiguration("dashboard_host"), value_type=str))),
    ])
