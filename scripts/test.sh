#!/usr/bin/env bash
# The whole test suite (README's test command; .ci/run calls it). Performs the set-up if
# needed, then runs pytest inside a network namespace that has only loopback when we are
# root and `unshare -n` is available, so no DDS packet can leave this machine. The
# fixtures confine DDS in any case (LOCALHOST range, loopback profile, own domain id).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bash scripts/setup.sh

venv="$root/.venv"
# Bytecode is written (into __pycache__, ignored by git): the set-up compiles none up front
# (DESIGN erratum 22), so each module is compiled once, when first imported, not in every
# test process again. An environment that sets PYTHONDONTWRITEBYTECODE (CI images often do)
# would make each of the suite's hundreds of Python processes compile its ~200 modules again,
# up to a second of CPU each; the suite writes its caches whatever the caller's default.
unset PYTHONDONTWRITEBYTECODE
export AMENT_PREFIX_PATH="$venv" PATH="$venv/bin:$PATH"
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
# Fast DDS 2.14 (Jazzy) reads FASTRTPS_...; Fast DDS 3 reads FASTDDS_... (dds_confinement.py)
export FASTRTPS_DEFAULT_PROFILES_FILE="$root/config/fastdds_localhost.xml"
export FASTDDS_DEFAULT_PROFILES_FILE="$FASTRTPS_DEFAULT_PROFILES_FILE"
export RMW_IMPLEMENTATION=rmw_fastrtps_cpp
export ROS_DOMAIN_ID=$(( 1 + $$ % 100 ))   # the fixtures refine this per test process

# Three workers (pytest-xdist), whole files per worker (module-scoped graphs stay together),
# each worker on its own block of ROS domains (test/support/domains.py). On 2 cores with two
# workers the tests kept the CPU busy only about half the time: most of them wait on
# processes, DDS and real-time behaviour (a backstop, a pause, a stall), and a third worker
# fills those waits (DESIGN erratum 22). BUDDY_TEST_WORKERS=N sets another count, 0 runs
# serially.
workers=${BUDDY_TEST_WORKERS:-3}
xdist=()
if [[ "$workers" != 0 ]]; then xdist=(-n "$workers" --dist loadfile); fi
pytest_cmd=("$venv/bin/python" -m pytest -p no:cacheprovider "${xdist[@]}" "$@")

if [[ $(id -u) -eq 0 ]] && command -v unshare >/dev/null && unshare -n true 2>/dev/null; then
    echo "[test] running inside a network namespace with loopback only (unshare -n)"
    exec unshare -n bash -c 'ip link set lo up 2>/dev/null || python3 - <<PY
import fcntl, socket, struct
s = socket.socket(); ifr = struct.pack("16sH", b"lo", 0)
flags = struct.unpack("16sH", fcntl.ioctl(s, 0x8913, ifr))[1]
fcntl.ioctl(s, 0x8914, struct.pack("16sH", b"lo", flags | 1))
PY
exec "$@"' bash "${pytest_cmd[@]}"
fi
echo "[test] unshare -n unavailable: DDS confined by profile and discovery range only"
exec "${pytest_cmd[@]}"
