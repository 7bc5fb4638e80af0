"""The deployed face driver never stalls (issue 14): `face_driver_node` as its own process
on a pseudo-terminal with the firmware-like board emulator, snapshots published from
this (another) process, through three silences (about 15 s).

DESIGN §4.4: SET_STATE at least once a second; spec 002 §11.3: the backstop starts when
the snapshot is older than 3000 ms. A stall of the driver's executor thread (issue 14 saw
one snapshot 950 ms late and a 2.1 s silence with the backstop at 4.8 s) fails this: a
gap between two SET_STATEs over 1.2 s, a backstop outside 3.0-3.3 s after the last
snapshot, or a snapshot reaching the board more than 0.5 s late.

DESIGN erratum 22: the run is as long as the behaviour needs, three bursts each followed
by a silence that lasts until the backstop comes (it ran a fixed minute, ~10 of them, then
six silences of a fixed 3.6-4.2 s). The long exposure, 10 minutes of the same bursts and
silences with the same gap bound, is benchmarks/face_latency.py, whose figures are in
issue 14's note.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from support.face_rig import FaceExecutableRig, gaps

from buddy_msgs.msg import PersonalitySnapshot
from buddy_personality.face.protocol import MOOD_IDS, PacketType, intensity_to_wire
from buddy_personality.nodes.common import qos

pytestmark = [pytest.mark.ros, pytest.mark.process, pytest.mark.slow]

SILENCES = 3     # bursts of mood changes, each followed by a silence and the backstop
MOODS = ("happy", "curious", "love", "silly", "excited", "sleepy", "surprised")
BACKSTOP = (MOOD_IDS["neutral"], intensity_to_wire(0.2))   # spec 002 §11.3


def test_bursts_of_snapshots_and_silences_without_a_stall(ros, node_process,
                                                        tmp_path: Path) -> None:
    rig = FaceExecutableRig(ros, node_process, tmp_path)
    try:
        rig.wait_connected()
        snaps = ros.publisher(PersonalitySnapshot, rig.topic("personality/snapshot"),
                              qos.LATCHED)
        # Both ends matched before the run: the writer may see the driver's reader before
        # the reader has matched the writer, and a latched depth-1 writer keeps only its
        # newest sample, so the first snapshots of a run could be lost to discovery (seen
        # under load). One snapshot the board shows is the handshake.
        hello = (MOOD_IDS["curious"], intensity_to_wire(0.5))
        began = time.monotonic()
        snaps.publish(PersonalitySnapshot(mood="curious", intensity=0.5))
        assert ros.spin_until(lambda: any(
            (r.packet.payload.mood_id, r.packet.payload.intensity) == hello
            for r in rig.of_type(PacketType.SET_STATE, since=began)), timeout=15), \
            rig.proc.output()
        rng = random.Random(14)
        sent: list[tuple[float, tuple[int, int]]] = []
        silences: list[float] = []       # last snapshot time before each silence
        key = None
        while len(silences) < SILENCES:
            for _ in range(rng.randint(5, 10)):     # a burst of mood changes ...
                mood = rng.choice(MOODS)
                intensity = rng.randrange(60, 250)
                if (MOOD_IDS[mood], intensity) == key:
                    intensity += 1
                key = (MOOD_IDS[mood], intensity)
                at = time.monotonic()
                snaps.publish(PersonalitySnapshot(mood=mood, intensity=intensity / 255.0))
                sent.append((at, key))
                ros.spin_for(rng.uniform(0.05, 0.4))
            last = sent[-1][0]
            silences.append(last)
            # ... then silence until the board shows the backstop (its time is checked
            # below; 5 s: not in 3.0-3.3 s either), and a random bit of keepalive after it
            ros.spin_until(lambda last=last: any(
                (r.packet.payload.mood_id, r.packet.payload.intensity) == BACKSTOP
                for r in rig.of_type(PacketType.SET_STATE, since=last)), timeout=5.0)
            ros.spin_for(rng.uniform(0.0, 0.6))
        end = time.monotonic()
        states = [(r.at, (r.packet.payload.mood_id, r.packet.payload.intensity))
                  for r in rig.of_type(PacketType.SET_STATE, since=sent[0][0])
                  if r.at <= end]

        # DESIGN §4.4: at least once a second (1.2 s: scheduling on a loaded machine).
        longest = max(gaps([t for t, _ in states]))
        assert longest <= 1.2, f"keepalive gap {longest:.3f} s\n{rig.proc.output()}"
        # spec 002 §11.3: the backstop just after 3000 ms, after every silence.
        for last in silences:
            backstop = next(t for t, k in states if t > last and k == BACKSTOP)
            assert 3.0 <= backstop - last <= 3.3, f"backstop at {backstop - last:.3f} s"
        # every snapshot reached the board within 0.5 s (latched, depth 1: one replaced
        # by the next before the driver took it counts as on time if the next one is)
        late = []
        for i, (at, wanted) in enumerate(sent):
            arrival = next((t for t, k in states if at <= t and k == wanted), None)
            if arrival is None and i + 1 < len(sent):
                arrival = next((t for t, k in states if t >= sent[i + 1][0]
                                and k == sent[i + 1][1]), None)
            if arrival is None or arrival - at > 0.5:
                late.append((i, None if arrival is None else round(arrival - at, 3)))
        assert not late, f"snapshots late or lost (index, seconds): {late}"
        assert len(silences) == SILENCES
    finally:
        rig.close()
