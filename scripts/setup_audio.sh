#!/usr/bin/env bash
# The system packages Buddy's speech needs (DESIGN §4.7, README "Speech on the robot"):
# espeak-ng (the offline voice), libportaudio2 (what the sounddevice package plays and
# records through), and for tests and desktops PulseAudio with the ALSA plug-in (the
# null-sink end-to-end test). Called by scripts/setup.sh (in the background, beside pip and
# the buddy_msgs build); never fails the set-up: as root with apt it installs what is
# missing, otherwise it says what is missing and how to get it.
#
# setup_audio.sh LOGDIR [--chromium]: --chromium adds Debian/Ubuntu's chromium (the parent
# page's browser tests drive the system's browser; nothing is downloaded at test time) to
# the same apt transaction, one `apt-get update` for both.
set -uo pipefail

packages=(espeak-ng libportaudio2 pulseaudio pulseaudio-utils libasound2-plugins)
with_chromium=0
[[ "${2:-}" == --chromium ]] && with_chromium=1

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if ! command -v dpkg-query >/dev/null 2>&1; then
    (( with_chromium )) && echo "[setup] no chromium: the parent page's browser tests will skip" >&2
    command -v espeak-ng >/dev/null 2>&1 && exit 0
    echo "[setup] speech: not a Debian/Ubuntu system; install espeak-ng, PortAudio and" \
         "PulseAudio (or PipeWire's pulse server) with your package manager" >&2
    exit 0
fi
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
[[ ${#missing[@]} -eq 0 && $with_chromium -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    mkdir -p "${1:-/tmp}"
    log="${1:-/tmp}/apt-speech.log"
    apt() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 "$@" >>"$log" 2>&1; }
    : >"$log"
    if ! apt update; then
        echo "[setup] apt-get update failed (log: $log): speech and browser tests will skip" >&2
        exit 0
    fi
    if [[ ${#missing[@]} -gt 0 ]]; then
        printf '\033[1m[setup]\033[0m %s\n' "installing speech packages with apt: ${missing[*]}"
        apt install -y --no-install-recommends "${missing[@]}" \
            || echo "[setup] speech: apt-get could not install ${missing[*]} (log: $log);" \
                    "speech tests will skip" >&2
    fi
    if (( with_chromium )); then
        printf '\033[1m[setup]\033[0m %s\n' "installing chromium with apt (browser tests of the parent page)"
        apt install -y chromium \
            || echo "[setup] chromium could not be installed (log: $log): browser tests will skip" >&2
    fi
    exit 0
fi
(( with_chromium )) && echo "[setup] no chromium: the parent page's browser tests will skip (apt-get install chromium)" >&2
[[ ${#missing[@]} -eq 0 ]] && exit 0
echo "[setup] missing system packages: ${missing[*]}" >&2
echo "        install them with: sudo apt-get install ${missing[*]}" >&2
echo "        (without them Buddy stays silent and deaf, and the speech tests skip)" >&2
exit 0
