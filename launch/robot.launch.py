"""Buddy's graph as five processes under the namespace `buddy` (DESIGN §3, §7).

    ros2 launch buddy_personality robot.launch.py [face_port:=/dev/ttyACM0]
        [llm_url:=http://server:8000/v1] [use_sim_time:=true] [log_level:=debug]
        [params_file:=/path/robot.yaml] [dds:=network] [dashboard_host:=0.0.0.0]

Parameters come from config/robot.yaml; the launch arguments override the face port and
the LLM server URL. DDS stays on this machine unless dds:=network (DESIGN §5).
"""

from launch.actions import DeclareLaunchArgument, SetEnvironmentVariable
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import LifecycleNode, Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

from launch import LaunchDescription

PACKAGE = "buddy_personality"
NAMESPACE = "buddy"


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
        }

    def parameters(**overrides: object) -> list:
        return [params_file, {"use_sim_time": use_sim_time, **overrides}]

    return LaunchDescription([
        DeclareLaunchArgument(
            "params_file",
            default_value=PathJoinSubstitution([FindPackageShare(PACKAGE), "config",
                                                "robot.yaml"]),
            description="parameter file for all five nodes"),
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
        SetEnvironmentVariable("BUDDY_DDS", LaunchConfiguration("dds")),
        Node(**common("personality"), parameters=parameters()),
        Node(**common("governor"), parameters=parameters()),
        Node(**common("identity"), parameters=parameters()),
        Node(**common("llm_bridge"), parameters=parameters(
            server_url=ParameterValue(LaunchConfiguration("llm_url"), value_type=str))),
        # Lifecycle node: it configures and activates itself (parameter autostart), so
        # no launch-side transitions are needed.
        LifecycleNode(**common("face_driver"), parameters=parameters(
            port=ParameterValue(LaunchConfiguration("face_port"), value_type=str))),
        Node(**common("parent_dashboard"), parameters=parameters(
            host=ParameterValue(LaunchConfiguration("dashboard_host"), value_type=str))),
    ])
