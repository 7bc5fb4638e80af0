"""The package.xml files name every dependency with a rosdep key a Raspberry Pi (Ubuntu
24.04, ROS 2 Jazzy) can resolve, so `rosdep install --from-paths src` installs them, and
every Python library the code needs is either such a key or comes from pip on the robot
(requirements-robot.txt, README "On a Raspberry Pi"). Issue 18.

The keys are those of the ROS index (ros/rosdistro), written to
test/data/rosdep_keys_jazzy_noble.txt by scripts/rosdep_keys.py (tests have no network).
"""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
KEYS_FILE = REPO / "test" / "data" / "rosdep_keys_jazzy_noble.txt"
PACKAGE_XMLS = sorted([REPO / "package.xml", *REPO.glob("*/package.xml")])
DEPEND_TAGS = ("depend", "build_depend", "buildtool_depend", "exec_depend", "test_depend",
               "build_export_depend", "buildtool_export_depend")
# pip name -> rosdep key where the key is not simply python3-<name>
PIP_TO_ROSDEP = {"pyserial": "python3-serial", "pyyaml": "python3-yaml"}
# needed to build and install the package, not at run time (ament_python brings it)
BUILD_ONLY = {"setuptools"}


def known_keys() -> set[str]:
    lines = KEYS_FILE.read_text().splitlines()
    return {ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")}


def dependencies(package_xml: Path) -> set[str]:
    root = ET.parse(package_xml).getroot()
    return {el.text.strip() for tag in DEPEND_TAGS for el in root.iter(tag) if el.text}


def own_packages() -> set[str]:
    return {ET.parse(p).getroot().findtext("name") for p in PACKAGE_XMLS}


def pip_name(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].strip().lower().replace("_", "-")


def install_requires() -> list[str]:
    tree = ast.parse((REPO / "setup.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "install_requires":
            return [ast.literal_eval(elt) for elt in node.value.elts]
    raise AssertionError("setup.py has no install_requires")


def robot_pip_requirements() -> set[str]:
    lines = (REPO / "requirements-robot.txt").read_text().splitlines()
    return {pip_name(ln) for ln in lines if ln.strip() and not ln.lstrip().startswith("#")}


def test_the_key_list_is_the_ros_index() -> None:
    keys = known_keys()
    assert len(keys) > 2000  # the whole index, not a hand-picked list
    assert {"rclpy", "launch_ros", "python3-numpy", "python3-serial"} <= keys
    assert "python3-rosbags" not in keys  # rosbags has no key: it comes from pip


def test_every_package_xml_dependency_is_a_rosdep_key_of_jazzy_on_noble() -> None:
    keys, own = known_keys(), own_packages()
    unknown = {f"{p.relative_to(REPO)}: {dep}" for p in PACKAGE_XMLS
               for dep in dependencies(p) if dep not in keys and dep not in own}
    assert not unknown, (
        f"rosdep cannot resolve {sorted(unknown)} on Ubuntu 24.04 / Jazzy: use the key of the "
        "ROS index, or install it from pip on the robot (requirements-robot.txt, README)")


def test_every_python_library_comes_from_rosdep_or_from_pip_on_the_robot() -> None:
    declared = dependencies(REPO / "package.xml")
    keys, from_pip = known_keys(), robot_pip_requirements()
    missing = []
    for requirement in install_requires():
        name = pip_name(requirement)
        if name in BUILD_ONLY:
            continue
        key = PIP_TO_ROSDEP.get(name, f"python3-{name}")
        if key in declared:
            continue
        if name in from_pip and key not in keys:
            continue  # no rosdep key at all: pip on the robot (README says so)
        missing.append(f"{name} (declare <exec_depend>{key}</exec_depend>"
                       if key in keys else f"{name} (add it to requirements-robot.txt")
    assert not missing, f"not installed on the Pi by rosdep or pip: {missing}"
