"""deploy/: what starts Buddy at boot on the Pi (issue 18, README "On a Raspberry Pi").

- buddy.service: `ros2 launch buddy_personality robot.launch.py` (through buddy-launch) at
  boot, restarted on failure, as an unprivileged user in the dialout and audio groups,
  with a state directory, logging to the journal, stopped with SIGINT as Ctrl-C stops it;
  checked by `systemd-analyze verify` where systemd is installed.
- 99-buddy-face.rules: /dev/buddy-face for the ESP32-S3 face board by its USB vendor id,
  the same id the face driver's `auto` finder ranks first; parsed and matched here
  against device descriptions, as udev would.
- buddy-launch: valid bash that refuses a missing workspace with a clear message (the
  colcon test, test/launch/test_colcon_install.py, runs it for real).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

from buddy_personality.face.transport import ESPRESSIF_VID

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNIT = DEPLOY / "buddy.service"
RULE = DEPLOY / "99-buddy-face.rules"
LAUNCHER = DEPLOY / "buddy-launch"


def unit_sections(text: str) -> dict[str, dict[str, list[str]]]:
    """systemd's unit syntax: [Section], Key=Value (a key may repeat), # and ; comments."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], defaultdict(list))
            continue
        assert current is not None and "=" in line, f"not a unit line: {raw!r}"
        key, value = line.split("=", 1)
        current[key.strip()].append(value.strip())
    return sections


def test_the_unit_starts_ros2_launch_at_boot_and_restarts_on_failure() -> None:
    unit = unit_sections(UNIT.read_text())
    service, install = unit["Service"], unit["Install"]
    assert install["WantedBy"] == ["multi-user.target"]
    exec_start = service["ExecStart"][0].split()
    launcher = Path(exec_start[0])
    assert launcher.name == LAUNCHER.name
    script = LAUNCHER.read_text()
    assert re.search(r"^exec ros2 launch buddy_personality robot\.launch\.py", script, re.M)
    assert service["Restart"] == ["on-failure"]


def test_the_unit_runs_unprivileged_with_its_groups_state_and_journal() -> None:
    service = unit_sections(UNIT.read_text())["Service"]
    assert service["User"] and service["User"] != ["root"]
    groups = " ".join(service["SupplementaryGroups"]).split()
    assert {"dialout", "audio"} <= set(groups)
    assert service["StateDirectory"] == ["buddy"]
    # robot.yaml keeps state under ~/.local/share/buddy: HOME must be the state directory
    env = " ".join(service["Environment"])
    assert "HOME=%S/buddy" in env.split()
    assert service["StandardOutput"] == ["journal"] and service["StandardError"] == ["journal"]
    assert service["NoNewPrivileges"] == ["yes"]


def test_the_unit_stops_the_graph_as_ctrl_c_does() -> None:
    """SIGINT to launch only (KillMode=mixed): launch stops every node with SIGINT, each
    exits 0 (test/launch/test_ctrl_c.py); SIGKILL only for what outlives the timeout."""
    service = unit_sections(UNIT.read_text())["Service"]
    assert service["KillSignal"] == ["SIGINT"]
    assert service["KillMode"] == ["mixed"]
    assert 5 < int(service["TimeoutStopSec"][0]) <= 60


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze not installed (apt-get install systemd)")
def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    # verify checks that ExecStart exists: point it at the script in the repository
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text().replace("/usr/local/bin/buddy-launch", str(LAUNCHER)))
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                          text=True, timeout=60, check=False)
    # it exits 0 on unknown keys and bad values too, and only says so: any line about
    # our unit is a finding
    findings = [line for line in (done.stdout + done.stderr).splitlines()
                if UNIT.name in line]
    assert done.returncode == 0 and not findings, done.stdout + done.stderr


# --- udev ------------------------------------------------------------------------------

RULE_TOKEN = re.compile(r'\s*(?P<key>[A-Z_]+(?:\{[^}]+\})?)\s*(?P<op>==|!=|\+=|-=|:=|=)\s*'
                        r'"(?P<value>[^"]*)"\s*(?:,|$)')
MATCH_KEYS = {"SUBSYSTEM", "SUBSYSTEMS", "KERNEL", "KERNELS", "ACTION", "DRIVERS", "ENV"}
ASSIGN_KEYS = {"SYMLINK", "GROUP", "MODE", "OWNER", "TAG", "ENV", "RUN"}


def parse_rule(line: str) -> list[tuple[str, str, str]]:
    """One udev rule line as (key, operator, value), checked the way udev reads it."""
    tokens, pos = [], 0
    while pos < len(line):
        m = RULE_TOKEN.match(line, pos)
        assert m, f"udev cannot parse at column {pos}: {line[pos:]!r}"
        tokens.append((m["key"], m["op"], m["value"]))
        pos = m.end()
    for key, op, _ in tokens:
        base = key.split("{")[0]
        if op in ("==", "!="):
            assert base in MATCH_KEYS | {"ATTRS", "ATTR"}, f"{key} cannot be matched"
        else:
            assert base in ASSIGN_KEYS, f"{key} cannot be assigned"
    return tokens


def rules() -> list[list[tuple[str, str, str]]]:
    lines = [ln for ln in RULE.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return [parse_rule(ln) for ln in lines]


def symlinks_for(device: dict[str, str]) -> set[str]:
    """What udev would add for `device` (its subsystem and the attributes of it and its
    parents, all in one dict here): the SYMLINK+= of every rule whose matches hold."""
    links: set[str] = set()
    for rule in rules():
        matches = [(k, op, v) for k, op, v in rule if op in ("==", "!=")]
        if all((device.get(k) == v) == (op == "==") for k, op, v in matches):
            links |= {v for k, op, v in rule if k == "SYMLINK" and op in ("+=", "=")}
    return links


def test_the_udev_rule_parses() -> None:
    parsed = rules()
    assert len(parsed) == 1
    keys = {k for k, _, _ in parsed[0]}
    assert {"SUBSYSTEM", "ATTRS{idVendor}", "SYMLINK", "GROUP"} <= keys


def test_the_face_board_gets_a_stable_name_and_nothing_else_does() -> None:
    vid = f"{ESPRESSIF_VID:04x}"  # the id the face driver's `auto` finder ranks first
    esp32_s3 = {"SUBSYSTEM": "tty", "ATTRS{idVendor}": vid, "ATTRS{idProduct}": "1001"}
    esp32_tinyusb = {"SUBSYSTEM": "tty", "ATTRS{idVendor}": vid, "ATTRS{idProduct}": "4001"}
    cp2102 = {"SUBSYSTEM": "tty", "ATTRS{idVendor}": "10c4", "ATTRS{idProduct}": "ea60"}
    esp_usb_interface = {"SUBSYSTEM": "usb", "ATTRS{idVendor}": vid}
    assert symlinks_for(esp32_s3) == {"buddy-face"}
    assert symlinks_for(esp32_tinyusb) == {"buddy-face"}
    assert symlinks_for(cp2102) == set()
    assert symlinks_for(esp_usb_interface) == set()  # only the serial port, not the device
    group = {v for k, _, v in rules()[0] if k == "GROUP"}
    assert group == {"dialout"}  # the group buddy.service runs in


def has_udevadm_verify() -> bool:
    return shutil.which("udevadm") is not None and subprocess.run(
        ["udevadm", "verify", "--help"], capture_output=True, check=False).returncode == 0


@pytest.mark.skipif(not has_udevadm_verify(), reason="no `udevadm verify` here (systemd >= 254)")
def test_udevadm_verify_accepts_the_rule() -> None:
    done = subprocess.run(["udevadm", "verify", str(RULE)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


# --- buddy-launch ------------------------------------------------------------------------

def test_the_launcher_is_valid_bash_and_refuses_a_missing_workspace(tmp_path: Path) -> None:
    assert subprocess.run(["bash", "-n", str(LAUNCHER)], check=False).returncode == 0
    done = subprocess.run([str(LAUNCHER)], env={"PATH": "/usr/bin:/bin",
                                                "BUDDY_WS": str(tmp_path / "nowhere")},
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 1
    assert "build the workspace first" in done.stderr
