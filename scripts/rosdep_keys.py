"""Write test/data/rosdep_keys_jazzy_noble.txt from a checkout of ros/rosdistro: the rosdep
keys a Raspberry Pi with Ubuntu 24.04 and ROS 2 Jazzy can resolve (ROS packages released
into jazzy, and system keys of rosdep/base.yaml and rosdep/python.yaml with a noble rule).

    python scripts/rosdep_keys.py PATH/TO/rosdistro > test/data/rosdep_keys_jazzy_noble.txt

test/deploy/test_rosdep_keys.py checks every dependency of the package.xml files against it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

UBUNTU_RELEASE = "noble"


def resolves_on_noble(entry: Any) -> bool:
    ubuntu = entry.get("ubuntu") if isinstance(entry, dict) else None
    if ubuntu is None:
        return False
    if isinstance(ubuntu, dict):
        if UBUNTU_RELEASE in ubuntu:
            return ubuntu[UBUNTU_RELEASE] is not None
        # no per-release rule: a rule for every release ('*') or an installer section
        return any(key in ubuntu for key in ("*", "pip", "packages", "apt"))
    return True


def main(rosdistro: Path) -> int:
    system = set()
    for name in ("base.yaml", "python.yaml"):
        rules = yaml.safe_load((rosdistro / "rosdep" / name).read_text())
        system |= {key for key, entry in rules.items() if resolves_on_noble(entry)}
    dist = yaml.safe_load((rosdistro / "jazzy" / "distribution.yaml").read_text())
    ros = set()
    for repo_name, repo in dist["repositories"].items():
        release = repo.get("release")
        if release:
            ros |= set(release.get("packages", [repo_name]))
    git = ["git", "-C", str(rosdistro), "log", "-1", "--format=%h (%cs)"]
    version = subprocess.run(git, capture_output=True, text=True, check=False).stdout.strip()
    print("# rosdep keys that resolve on Ubuntu 24.04 (noble) for ROS 2 Jazzy: the ROS packages")
    print("# released into jazzy (jazzy/distribution.yaml) and the system keys of")
    print(f"# rosdep/base.yaml and rosdep/python.yaml with a rule for noble. ros/rosdistro "
          f"{version or '(unknown commit)'}.")
    print("# Written by scripts/rosdep_keys.py; test/deploy/test_rosdep_keys.py reads it.")
    for key in sorted(ros | system):
        print(key)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
