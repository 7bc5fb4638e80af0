#!/usr/bin/env python3
"""Count RTPS (DDS) packets on every non-loopback interface while a command runs.

    sudo scripts/dds_leak_check.py [--control] -- .venv/bin/python -m pytest test/node

Runs the command outside any network namespace so that a leak could be seen, sniffs with
an AF_PACKET socket (root), and exits 1 if any UDP datagram carrying the RTPS magic
("RTPS") or addressed to the DDS discovery multicast group 239.255.0.1 left or reached a
non-loopback interface. The check reads packets only; it sends nothing.
"""

from __future__ import annotations

import socket
import struct
import subprocess
import sys
import threading
import time

ETH_P_ALL = 0x0003
# --control also watches loopback: DDS traffic there must be seen, which shows that the
# detector recognises RTPS at all (a positive control that sends nothing off the machine).
WATCH_LO = "--control" in sys.argv


def interfaces() -> list[str]:
    return [name for _, name in socket.if_nameindex() if name != "lo"]


def sniff(stop: threading.Event, counts: dict[str, int]) -> None:
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.ntohs(ETH_P_ALL))
    sock.settimeout(0.2)
    while not stop.is_set():
        try:
            frame, addr = sock.recvfrom(65535)
        except TimeoutError:
            continue
        ifname = addr[0]
        if (ifname == "lo" and not WATCH_LO) or len(frame) < 14 + 20 + 8:
            continue
        counts["frames"] += 1
        if struct.unpack("!H", frame[12:14])[0] != 0x0800:  # IPv4 only (DDS default)
            continue
        ihl = (frame[14] & 0x0F) * 4
        proto = frame[23]
        dst = socket.inet_ntoa(frame[30:34])
        if proto != 17:
            continue
        payload = frame[14 + ihl + 8:]
        if payload[:4] == b"RTPS" or dst == "239.255.0.1":
            counts["rtps"] += 1
            counts[f"rtps@{ifname}"] = counts.get(f"rtps@{ifname}", 0) + 1


def main() -> int:
    cmd = sys.argv[sys.argv.index("--") + 1:]
    counts = {"frames": 0, "rtps": 0}
    stop = threading.Event()
    thread = threading.Thread(target=sniff, args=(stop, counts), daemon=True)
    thread.start()
    time.sleep(0.3)
    rc = subprocess.call(cmd)
    time.sleep(1.0)
    stop.set()
    thread.join()
    print(f"interfaces watched: {', '.join(interfaces()) or 'none'}; non-loopback frames "
          f"seen: {counts['frames']}; RTPS/DDS packets: {counts['rtps']}")
    return 1 if counts["rtps"] else rc


if __name__ == "__main__":
    sys.exit(main())
