"""test/launch: the ROS user's own commands (`ros2 launch`, `launch_test`, colcon)."""

# launch_testing files are run by `launch_test` (test_launch_testing.py), never by pytest.
collect_ignore_glob = ["*_launch_test.py"]
