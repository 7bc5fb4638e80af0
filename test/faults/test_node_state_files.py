"""Issue 14 fault suite, persistence: the state files a person may edit or a crash may
leave, read by the deployed node processes; and the writer killed mid-write.

DESIGN §5 Persistence: "JSON with a schema version, written to a temp file, fsynced,
renamed; a corrupt file is moved aside and the node starts with an empty store and a
warning." DESIGN §1.5: "nothing already stored is lost". DESIGN §4.1: "The daily
counter survives restarts".

Every shape of bad file (wrong types, NaN, nested lists, stale temp files, bad entries
quarantined) is unit-tested in test/unit/personality/test_personality_state_files.py; the
personality node killed with SIGKILL mid-session, its RS-2 counter kept, is
test_personality_sigkill_rs2.py. Here: the processes start on each kind of bad file, say so
in their log and /diagnostics; and a writer SIGKILLed 50 times mid-write never leaves an
unreadable file, never loses a committed memory, never resets the daily counter.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from buddy_personality.personality.guardrails import UsageCounter
from buddy_personality.personality.memory import MemoryStore

from .conftest import Diagnostics, ProcStat, log_has

pytestmark = [pytest.mark.ros, pytest.mark.process, pytest.mark.slow, pytest.mark.fault]

VARIANTS = ("truncated", "not_json", "wrong_version", "100_MB")
FILES = ("memory", "usage", "household")


def good_content(kind: str, tmp: Path) -> str:
    path = tmp / f"good-{kind}.json"
    now = time.time()
    if kind == "memory":
        store = MemoryStore(path, now)
        store.remember("likes_dinosaurs", "topic", 0.1, 0.05, now)
        store.save()
    elif kind == "usage":
        usage = UsageCounter(path, float(time.localtime().tm_gmtoff), now)
        usage.add_conversation_time(120.0)
        usage.save()
    else:
        path.write_text(json.dumps({"schema_version": 2, "profiles": []}))
    return path.read_text()


def write_bad(path: Path, kind: str, variant: str, tmp: Path) -> int:
    text = good_content(kind, tmp)
    if variant == "truncated":
        path.write_text(text[: len(text) // 2])
    elif variant == "not_json":
        path.write_bytes(b"this is not JSON \x00\xff\xfe at all")
    elif variant == "wrong_version":
        doc = json.loads(text)
        doc["schema_version" if kind == "household" else "version"] = 99
        path.write_text(json.dumps(doc))
    else:  # 100 MB, sparse: a JSON start and then holes
        with path.open("wb") as f:
            f.write(text[:20].encode())
            f.truncate(100 * 1024 * 1024)
    return path.stat().st_size


LOG = {"memory": r"memory file .* is corrupt", "usage": r"usage file .* corrupt",
       "household": r"household file .* corrupt .* left in place"}


def test_every_state_file_bad_in_every_way_the_nodes_start_and_say_so(
        mros, mproc, module_dir: Path) -> None:
    """Four personality and four identity processes at once; round i gives memory
    variant i, usage variant i+1 and household variant i+2, so each (file, variant)
    pair is met once."""
    diag = Diagnostics(mros)
    runs = []
    for i in range(len(VARIANTS)):
        d = module_dir / f"bad{i}"
        d.mkdir()
        files = {"memory": d / "personality_memory.json", "usage": d / "personality_usage.json",
                 "household": d / "household.json"}
        variants = {kind: VARIANTS[(i + k) % len(VARIANTS)] for k, kind in enumerate(FILES)}
        sizes = {kind: write_bad(files[kind], kind, variants[kind], d) for kind in FILES}
        ns = f"{mros.namespace}_bad{i}"
        pers = mproc("personality_node", ros_args=[
            "-r", f"__ns:={ns}", "-p", f"memory_path:={files['memory']}",
            "-p", f"usage_path:={files['usage']}"])
        ident = mproc("identity_node", ros_args=[
            "-r", f"__ns:={ns}", "-p", f"profiles_path:={files['household']}"])
        runs.append((ns, files, variants, sizes, pers, ident))
    for ns, files, variants, sizes, pers, ident in runs:
        statuses = {"memory": f"{ns}/personality", "usage": f"{ns}/personality",
                    "household": f"{ns}/identity"}
        procs = {"memory": pers, "usage": pers, "household": ident}
        for kind in FILES:
            proc, status = procs[kind], statuses[kind].lstrip("/")
            key = f"state_files.set_aside.{kind}"
            assert mros.spin_until(lambda s=status, k=key: diag.of(s).get(k) is not None, 40), \
                f"{kind} {variants[kind]}: no diagnostics\n{proc.output()[-2000:]}"
            assert proc.popen.poll() is None
            assert diag.of(status)[key] == "1", (kind, variants[kind], diag.of(status))
            assert log_has(proc, LOG[kind]), (kind, variants[kind], proc.output())
            # moved aside whole: nothing the file held is lost; the household file, with
            # no readable generation, stays where it is (issue 31 item 4: its PIN)
            aside = [p for p in files[kind].parent.iterdir()
                     if p.name.startswith(files[kind].name + ".corrupt-")]
            if kind == "household":
                aside = [files[kind]]
            assert len(aside) == 1 and aside[0].stat().st_size == sizes[kind], aside
            if variants[kind] == "100_MB":   # refused by its size, never read whole
                rss = ProcStat(proc.popen.pid).rss_mb()
                print(f"\n{kind} 100 MB: {proc.argv[0].rsplit('/', 1)[-1]} RSS {rss:.0f} MB")
                assert rss < 200


# --- the previous generation (issue 31 item 4) -------------------------------------------

def test_the_nodes_fall_back_to_the_previous_generation_or_leave_the_household_alone(
        mros, mproc, module_dir: Path) -> None:
    """The deployed processes: a corrupt usage file with a good previous generation is
    quarantined and the previous one used (RS-2 never restarts at 0, spec 002 §9.3); a
    household file with no readable generation stays in place, byte for byte, and the
    identity node says so and keeps running (the PIN is not silently dropped)."""
    from buddy_personality.identity.profiles import Profile, write_household

    d = module_dir / "generations"
    d.mkdir()
    usage, household = d / "personality_usage.json", d / "household.json"
    now = time.time()
    offset = float(time.localtime().tm_gmtoff)
    for seconds in (1500.0, 1505.0):
        counter = UsageCounter(usage, offset, now)
        counter.daily_s = seconds
        counter.save(counted_until=now)
    usage.write_text('{"version": 1, "local_day": ')
    write_household(household, [Profile("anna", "Anna", "parent")])
    write_household(household, [Profile("anna", "Anna", "parent")])
    household.write_text("{not json")
    household.with_name("household.json.prev").write_text("[]")
    ns = f"{mros.namespace}_gen"
    pers = mproc("personality_node", ros_args=[
        "-r", f"__ns:={ns}", "-p", f"memory_path:={d / 'personality_memory.json'}",
        "-p", f"usage_path:={usage}"])
    ident = mproc("identity_node", ros_args=[
        "-r", f"__ns:={ns}", "-p", f"profiles_path:={household}"])
    diag = Diagnostics(mros)
    for proc, name, key in ((pers, f"{ns}/personality", "state_files.set_aside.usage"),
                            (ident, f"{ns}/identity", "state_files.set_aside.household")):
        status = name.lstrip("/")
        assert mros.spin_until(lambda s=status, k=key: diag.of(s).get(k) is not None, 40), \
            proc.output()[-2000:]
        assert diag.of(status)[key] == "1" and proc.popen.poll() is None
    assert log_has(pers, r"usage file .* corrupt .* using the previous generation")
    assert json.loads(usage.read_text())["daily_conversation_s"] >= 1500.0   # restored
    assert log_has(ident, r"household file .* left in place")
    assert household.read_text() == "{not json"
    assert household.with_name("household.json.prev").read_text() == "[]"


# --- the writer killed mid-write ------------------------------------------------------

WRITER = r"""
import os, sys, time
from pathlib import Path
from buddy_personality.personality.guardrails import UsageCounter
from buddy_personality.personality.memory import MemoryStore
mem_path, usage_path = Path(sys.argv[1]), Path(sys.argv[2])
out = sys.stdout
for line in sys.stdin:          # one child per line: forked, so it starts in microseconds
    k = int(line)
    pid = os.fork()
    if pid == 0:
        now = time.time()
        store = MemoryStore(mem_path, now)        # the node's own store and counter
        usage = UsageCounter(usage_path, 0.0, now)
        out.write(f"P {os.getpid()}\n"); out.flush()
        j = 0
        while True:                               # the node's writes, in a tight loop
            tag = f"topic_{(k * 7 + j) % 18}"
            store.remember(tag, "topic", 0.1, 0.0, time.time())
            store.save()
            out.write(f"M {tag}\n"); out.flush()
            usage.add_conversation_time(1.0)
            usage.save()
            out.write(f"U {usage.daily_s}\n"); out.flush()
            j += 1
    os.waitpid(pid, 0)
    out.write(f"D {pid}\n"); out.flush()
"""
KILLS = 50


def test_a_writer_sigkilled_50_times_mid_write_loses_nothing_committed(
        module_dir: Path) -> None:
    """Each child loads the memory store and the RS-2 counter as the personality node
    does, then remembers and saves in a tight loop until it is SIGKILLed at a random
    moment (2-30 ms after its first committed round). After every kill: both files load
    without a complaint, every memory whose save returned is there, the daily counter is
    at least the last one saved (a restart never resets it)."""
    d = module_dir / "kills"
    d.mkdir()
    mem, usage = d / "personality_memory.json", d / "personality_usage.json"
    zygote = subprocess.Popen([sys.executable, "-c", WRITER, str(mem), str(usage)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              bufsize=1)
    lines: list[str] = []
    got = threading.Condition()

    def read() -> None:
        assert zygote.stdout is not None
        for line in zygote.stdout:
            with got:
                lines.append(line.strip())
                got.notify_all()

    threading.Thread(target=read, daemon=True).start()

    def wait_for(prefix: str, start: int) -> str:
        with got:
            assert got.wait_for(lambda: any(x.startswith(prefix) for x in lines[start:]), 10)
            return next(x for x in lines[start:] if x.startswith(prefix))

    rng = random.Random(14)
    committed: set[str] = set()
    daily = 0.0
    started = time.monotonic()
    try:
        assert zygote.stdin is not None
        for k in range(KILLS):
            mark = len(lines)
            zygote.stdin.write(f"{k}\n")
            zygote.stdin.flush()
            pid = int(wait_for("P ", mark).split()[1])
            # after the child's first committed round (an event, not a time: a save is an
            # fsync or two, 15 ms each on a busy disk), then at a random moment mid-write
            wait_for("U ", mark)
            time.sleep(rng.uniform(0.002, 0.030))
            os.kill(pid, signal.SIGKILL)
            wait_for(f"D {pid}", mark)
            with got:
                for x in lines[mark:]:
                    if x.startswith("M "):
                        committed.add(x[2:])
                    elif x.startswith("U "):
                        daily = max(daily, float(x[2:]))
            now = time.time()
            store = MemoryStore(mem, now)
            counter = UsageCounter(usage, 0.0, now)
            complaints = [w for w in store.warnings + counter.warnings
                          if "removed" not in w]        # a stale .tmp is expected
            assert not complaints, (k, complaints)
            assert committed <= {e.tag for e in store.entries()}, k
            assert counter.daily_s >= daily, (k, counter.daily_s, daily)
    finally:
        zygote.kill()
        zygote.wait(timeout=5)
    print(f"\n{KILLS} SIGKILLs in {time.monotonic() - started:.1f} s: {len(committed)} "
          f"memories committed, daily counter {daily:.0f} s, all kept")
    assert len(committed) >= 10 and daily >= KILLS   # the kills did land mid-writing
