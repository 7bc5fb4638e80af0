"""robot.launch.py refuses a graph on the network without SROS2 (DESIGN erratum 19):
`dds:=network` without `security:=enforce` and a keystore does not start a single node
unless `insecure_network:=true` says so explicitly; `security:=enforce` without a keystore
is refused too. Run as typed, through `ros2 launch` (the rules themselves:
test/unit/security/test_security_policy.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support.launching import exit_codes, process_env, require_launch_tools, ros2_command

pytestmark = [pytest.mark.launch, pytest.mark.process]

REFUSE_S = 60.0  # ros2 launch imports and evaluates the description, then stops


def _launch(tmp_path: Path, *args: str) -> tuple[int, str]:
    require_launch_tools()
    ros2 = ros2_command()
    assert ros2 is not None
    res = subprocess.run([ros2, "launch", "buddy_personality", "robot.launch.py", *args],
                         capture_output=True, text=True, timeout=REFUSE_S,
                         env=process_env(tmp_path), check=False)
    return res.returncode, res.stdout + res.stderr


@pytest.mark.parametrize("args,why", [
    (("dds:=network",), "insecure_network:=true"),
    (("dds:=network", "security:=enforce", "keystore:=/nonexistent/keystore"),
     "buddy security init"),
])
def test_an_unsecured_network_graph_does_not_start(tmp_path: Path, args, why) -> None:
    code, output = _launch(tmp_path, *args)
    assert code != 0, output
    assert why in output, output
    started, _ = exit_codes(output)
    assert started == set(), output  # not one node ran
