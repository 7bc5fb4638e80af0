"""Each node executable, started as a process from lib/buddy_personality/ (where `ros2 run`
looks): appears in the graph with its parameters from the parameter file, publishes
/diagnostics, exits 0 on SIGINT and SIGTERM, and refuses bad parameter values (issue 2)."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest
import yaml
from diagnostic_msgs.msg import DiagnosticArray

from buddy_personality.nodes.common import qos

pytestmark = [pytest.mark.ros, pytest.mark.process]

REPO = Path(__file__).resolve().parents[2]
ROBOT_YAML = REPO / "config" / "robot.yaml"

# One value per node changed from robot.yaml (within range), to prove the file is read.
CHANGED: dict[str, tuple[str, Any]] = {
    "personality": ("seed", 42),
    "governor": ("max_steps", 77),
    "identity": ("tick_hz", 2.0),
    "face_driver": ("keepalive_s", 0.5),
    "llm_bridge": ("silence_timeout_s", 45.0),
    "tts": ("max_queue", 5),
    "asr": ("end_silence_s", 1.1),
}


def node_section(doc: dict[str, Any], node: str) -> dict[str, Any]:
    return doc[f"/**/{node}"]["ros__parameters"]


def write_params(tmp_path: Path, node: str, changes: dict[str, Any]) -> tuple[Path, dict]:
    doc = yaml.safe_load(ROBOT_YAML.read_text())
    node_section(doc, node).update(changes)
    path = tmp_path / "robot.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path, node_section(doc, node)


@pytest.mark.parametrize("node", sorted(CHANGED))
def test_node_starts_with_file_parameters_publishes_diagnostics_and_stops_on_sigint(
    node: str, ros, node_process, tmp_path: Path
) -> None:
    key, value = CHANGED[node]
    params_file, expected = write_params(tmp_path, node, {key: value})
    ns = f"{ros.namespace}_proc"
    diagnostics = ros.collect(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)
    proc = node_process(f"{node}_node", ros_args=["--params-file", str(params_file),
                                                  "-r", f"__ns:={ns}"])
    full_name = f"{ns}/{node}"
    assert ros.spin_until(lambda: full_name in ros.node_names(), timeout=20), proc.output()

    values = ros.get_parameters(full_name, sorted(expected))
    assert values == expected
    assert values[key] == value

    status_name = full_name.lstrip("/")
    assert ros.spin_until(
        lambda: any(s.name == status_name for m in diagnostics for s in m.status), timeout=5
    ), f"no diagnostics from {status_name}"

    proc.signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 0, proc.output()


def test_node_exits_zero_on_sigterm(ros, node_process) -> None:
    ns = f"{ros.namespace}_term"
    proc = node_process("governor_node", ros_args=["-r", f"__ns:={ns}"])
    assert ros.spin_until(lambda: f"{ns}/governor" in ros.node_names(), timeout=20)
    proc.signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0, proc.output()


@pytest.mark.parametrize(
    ("node", "key", "bad"),
    [
        ("personality", "axes.energy", 1.5),        # out of the [0, 1] axis range
        ("personality", "axes.reactivity", "high"),  # a string where a double belongs
        ("governor", "max_steps", 0),               # below its range
        ("face_driver", "stale_after_s", -1.0),     # negative staleness
        ("tts", "backend", "loudspeaker"),          # not one of espeak, server, none
        ("asr", "end_silence_s", 0.0),              # below its range
    ],
)
def test_bad_parameter_in_file_is_refused_with_a_clear_message(
    node: str, key: str, bad: Any, node_process, tmp_path: Path
) -> None:
    params_file, _ = write_params(tmp_path, node, {key: bad})
    proc = node_process(f"{node}_node", ros_args=["--params-file", str(params_file)])
    assert proc.wait(timeout=20) != 0
    assert key in proc.output()
