"""Process measurements for the benchmarks, read from /proc (Linux): resident memory
(RSS and the fairer PSS, which splits shared pages between processes) and CPU time,
plus starting Buddy's processes with DDS confined to this machine."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from buddy_personality.dds_confinement import confine_dds  # noqa: E402

VENV_BIN = Path(sys.prefix) / "bin"
NODE_EXECUTABLES = ("personality_node", "governor_node", "identity_node", "face_driver_node",
                    "llm_bridge_node")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def confined_env(domain_id: int) -> dict[str, str]:
    env = dict(os.environ)
    confine_dds(env, domain_id=domain_id)
    env.setdefault("AMENT_PREFIX_PATH", sys.prefix)
    return env


@dataclass(slots=True)
class Memory:
    rss_kb: int
    pss_kb: int


def memory(pid: int) -> Memory:
    rss = pss = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1])
        elif line.startswith("Pss:"):
            pss = int(line.split()[1])
    return Memory(rss, pss)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the process (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


@dataclass(slots=True, frozen=True)
class ThreadStat:
    name: str
    cpu_s: float            # user + system
    voluntary_switches: int  # each is the thread going to sleep: about one per wake-up


def thread_stats(pid: int) -> dict[int, ThreadStat]:
    """Per-thread CPU time and voluntary context switches of a process, by thread id
    (the main thread's id is the pid). Threads that end while being read are skipped."""
    out: dict[int, ThreadStat] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
            status = (task / "status").read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        switches = next(int(line.split()[1]) for line in status.splitlines()
                        if line.startswith("voluntary_ctxt_switches:"))
        out[int(task.name)] = ThreadStat(name, (int(fields[11]) + int(fields[12])) / CLOCK_TICKS,
                                         switches)
    return out


def start(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(argv, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def wait_for_nodes(names: set[str], env: dict[str, str], timeout: float = 30.0) -> None:
    """Block until every fully qualified node name is visible in the graph."""
    code = (
        "import sys, time, rclpy\n"
        "rclpy.init(); n = rclpy.create_node('bench_probe')\n"
        f"want = {sorted(names)!r}; end = time.monotonic() + {timeout}\n"
        "while time.monotonic() < end:\n"
        "    rclpy.spin_once(n, timeout_sec=0.2)\n"
        "    have = {f\"{ns.rstrip('/')}/{x}\" for x, ns in n.get_node_names_and_namespaces()}\n"
        "    if set(want) <= have: sys.exit(0)\n"
        "sys.exit(1)\n"
    )
    if subprocess.call([sys.executable, "-c", code], env=env, timeout=timeout + 10) != 0:
        raise RuntimeError(f"nodes {sorted(names)} did not appear within {timeout} s")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def settle(seconds: float) -> None:
    time.sleep(seconds)
