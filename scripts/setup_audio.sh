#!/usr/bin/env bash
# The system packages Buddy's speech needs (DESIGN §4.7, README "Speech on the robot"):
# espeak-ng (the offline voice), libportaudio2 (what the sounddevice package plays and
# records through), and for tests and desktops PulseAudio with the ALSA plug-in (the
# null-sink end-to-end test). Called by scripts/setup.sh; never fails the set-up: as root
# with apt it installs what is missing, otherwise it says what is missing and how to get it.
set -uo pipefail

packages=(espeak-ng libportaudio2 pulseaudio pulseaudio-utils libasound2-plugins)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if ! command -v dpkg-query >/dev/null 2>&1; then
    command -v espeak-ng >/dev/null 2>&1 && exit 0
    echo "[setup] speech: not a Debian/Ubuntu system; install espeak-ng, PortAudio and" \
         "PulseAudio (or PipeWire's pulse server) with your package manager" >&2
    exit 0
fi
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    printf '\033[1m[setup]\033[0m %s\n' "installing speech packages with apt: ${missing[*]}"
    mkdir -p "${1:-/tmp}"
    log="${1:-/tmp}/apt-speech.log"
    if DEBIAN_FRONTEND=noninteractive apt-get update >"$log" 2>&1 \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
            "${missing[@]}" >>"$log" 2>&1; then
        exit 0
    fi
    echo "[setup] speech: apt-get could not install ${missing[*]} (log: $log);" \
         "speech tests will skip" >&2
    exit 0
fi
echo "[setup] speech: missing system packages: ${missing[*]}" >&2
echo "        install them with: sudo apt-get install ${missing[*]}" >&2
echo "        (without them Buddy stays silent and deaf, and the speech tests skip)" >&2
exit 0
