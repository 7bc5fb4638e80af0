#!/usr/bin/env bash
# Idempotent set-up of Buddy's workspace: .venv with ROS 2 Jazzy wheels and every Python
# dependency, buddy_msgs built with rosidl into the venv prefix, buddy_personality
# installed (share files, ament index marker, lib/buddy_personality executables).
#
# Each step is skipped when the inputs it depends on are unchanged (hash stamps under
# .venv/.buddy-stamps), so a second run takes seconds.
#
# DESIGN erratum 22 (the suite's budget, set-up included): steps that do not need each
# other overlap. The system packages (apt: speech, chromium) install in the background from
# the start, the ROS 2 tools and colcon beside the buddy_msgs build; the script waits for
# them at the end. pip compiles no bytecode up front (a module is compiled when first
# imported, and most of the 3,500 files never are).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
venv="$root/.venv"

# One set-up at a time in this tree: two `make test` started together (two terminals, or
# an engineer's loop next to a test run) would otherwise both build buddy_msgs and the
# ROS tools into the same prefix and break each other's build half-way. The second waits
# here, then finds every step fresh.
mkdir -p "$root/build"
exec 9>"$root/build/.setup.lock"
if ! flock -n 9; then
    printf '\033[1m[setup]\033[0m %s\n' "another set-up of this tree is running; waiting for it"
    flock 9
fi
stamps="$venv/.buddy-stamps"

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

hash_of() {  # hash of the given files and directory trees (content and names)
    find "$@" -type f ! -name '*.pyc' ! -path '*/__pycache__/*' -print0 2>/dev/null \
        | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16
}

fresh() {  # fresh NAME HASH: true when the step NAME already ran for HASH
    [[ -f "$stamps/$1" && "$(cat "$stamps/$1")" == "$2" ]]
}

stamp() { mkdir -p "$stamps"; echo "$2" > "$stamps/$1"; }

# run_logged LOG TOTAL CMD...: run CMD (a command or a function) with its output in LOG.
# On a terminal a progress bar stands in for the output meanwhile: cmake's own "[ NN%]"
# when it prints one, else the lines pip printed per package against TOTAL packages.
run_logged() {
    local log=$1 total=$2
    shift 2
    if [[ ! -t 1 ]]; then
        "$@" >"$log" 2>&1
        return
    fi
    "$@" >"$log" 2>&1 &
    local pid=$! start=$SECONDS pct done width=30 fill
    while kill -0 "$pid" 2>/dev/null; do
        pct=$(grep -oE '^\[ *[0-9]+%\]' "$log" 2>/dev/null | tail -n 1 | tr -dc '0-9' || true)
        if [[ -z "$pct" && "$total" -gt 0 ]]; then
            done=$(grep -cE '^(Collecting|Processing|Requirement already satisfied)' "$log" \
                2>/dev/null || true)
            pct=$(( ${done:-0} * 100 / total ))
            (( pct > 99 )) && pct=99
        fi
        fill=$(( ${pct:-0} * width / 100 ))
        printf '\r\033[K        [%s%s] %3d%%  %ds' "$(printf '%*s' "$fill" '' | tr ' ' '#')" \
            "$(printf '%*s' $((width - fill)) '' | tr ' ' '.')" "${pct:-0}" $((SECONDS - start))
        sleep 0.5
    done
    printf '\r\033[K'
    wait "$pid"
}

# 0. System packages, in the background from the start: apt downloads and unpacks while
#    pip installs and buddy_msgs builds; nothing before the end of this script needs them.
#    scripts/setup_audio.sh never fails the set-up (it names what it could not install).
bg_pids=()
bg_logs=()
background() {  # background LOG CMD...: run CMD with its output in LOG; waited for at the end
    local log=$1
    shift
    "$@" >"$log" 2>&1 &
    bg_pids+=($!)
    bg_logs+=("$log")
}
finish_background() {  # wait for every background step; print its output; fail if one failed
    local i rc=0
    for i in "${!bg_pids[@]}"; do
        if ! wait "${bg_pids[$i]}"; then rc=1; fi
        cat "${bg_logs[$i]}"
    done
    bg_pids=()
    bg_logs=()
    return $rc
}
chromium_wanted=
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
    chromium_wanted=--chromium
fi
background "$root/build/system-packages.out" \
    bash "$root/scripts/setup_audio.sh" "$root/build" $chromium_wanted

pick_python() {
    # Jazzy's Python on Ubuntu 24.04 is 3.12; 3.11 works too.
    local candidates=("PYENV_VERSION=3.12.1 python3.12" "python3.12" "PYENV_VERSION=3.11.7 python3.11" "python3.11")
    local c
    for c in "${candidates[@]}"; do
        if env $c -c 'import sys, venv; assert sys.version_info[:2] in ((3, 12), (3, 11))' \
            >/dev/null 2>&1; then
            echo "$c"
            return 0
        fi
    done
    return 1
}

# 1. The virtual environment ------------------------------------------------------------
if [[ ! -x "$venv/bin/python" ]]; then
    py=$(pick_python) || { echo "Buddy needs Python 3.12 (or 3.11); none found." >&2; exit 1; }
    if [[ "$py" == *3.11* ]]; then
        say "Python 3.12 not found: falling back to Python 3.11 (supported, but Jazzy targets 3.12)."
    fi
    say "creating .venv with $(env $py -c 'import sys; print(sys.version.split()[0])')"
    env $py -m venv "$venv"
    rm -rf "$stamps"
fi
py="$venv/bin/python"
pyver=$("$py" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')

# 2. Pinned dependencies ----------------------------------------------------------------
h=$(hash_of requirements.txt constraints.txt)
if ! fresh deps "$h"; then
    say "installing pinned ROS 2 Jazzy wheels and Python dependencies"
    mkdir -p "$root/build"
    log="$root/build/pip-requirements.log"
    packages=$(grep -cvE '^\s*(#|$)' constraints.txt || true)
    # uv (pinned here: it installs, it is not a dependency of Buddy) resolves and downloads
    # the 170 pinned wheels in parallel, where pip fetches them one by one (uv: about 1 min
    # on a loaded 2-core machine; pip 3-4 min). pip installs them when uv cannot be had
    # (an offline mirror only pip is configured for). Neither compiles bytecode here (see
    # the header).
    install_deps() {
        if "$py" -m pip install --disable-pip-version-check --no-compile -q uv==0.13.9 \
            && "$venv/bin/uv" pip install --python "$py" -r requirements.txt -c constraints.txt
        then
            return 0
        fi
        echo "uv failed or could not be installed: installing with pip"
        "$py" -m pip install --disable-pip-version-check --no-compile \
            -r requirements.txt -c constraints.txt
    }
    if ! run_logged "$log" "$packages" install_deps; then
        grep -v '^WARNING: Location' "$log" | tail -n 30 >&2
        echo "installing the dependencies failed; full log: $log" >&2
        exit 1
    fi
    stamp deps "$h"
    rm -f "$stamps/cmakefix" "$stamps/msgs"
fi

# 3. Include-path fix: the wheels' exported cmake files name the Python they were built
#    with (/opt/python/cpXY-cpXY/...); point them at this venv's Python and numpy.
if ! fresh cmakefix "$h"; then
    pyinc=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    npinc=$("$py" -c 'import numpy; print(numpy.get_include())')
    say "rewriting wheel cmake include paths to $pyinc"
    { grep -rlZ --include='*.cmake' '/opt/python/' "$venv/share" 2>/dev/null || true; } \
        | xargs -0 -r sed -i -E \
        -e "s#/opt/python/cp3[0-9]+-cp3[0-9]+/lib/python3\.[0-9]+/site-packages/numpy/_core/include#$npinc#g" \
        -e "s#/opt/python/cp3[0-9]+-cp3[0-9]+/include/python3\.[0-9]+#$pyinc#g"
    stamp cmakefix "$h"
fi

export AMENT_PREFIX_PATH="$venv" CMAKE_PREFIX_PATH="$venv" PATH="$venv/bin:$PATH"
export LD_LIBRARY_PATH="$venv/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# 4. Beside the buddy_msgs build (in the background, output shown at the end): colcon and
#    the ROS 2 tools. Both need the wheels (step 2) and the ROS tools' cmake build the fixed
#    include paths (step 3); neither needs buddy_msgs.

# 4a. colcon, for the Pi's build path that CI tests (requirements-colcon.txt says why it
#     lives in a directory of its own)
install_colcon() {
    say "installing colcon into .venv/colcon-tools (the Pi's colcon build, tested in CI)"
    local log="$root/build/pip-colcon.log"
    rm -rf "$venv/colcon-tools"
    if ! "$py" -m pip install --disable-pip-version-check --no-deps --only-binary=:all: \
            --target "$venv/colcon-tools" -r requirements-colcon.txt >"$log" 2>&1; then
        tail -n 30 "$log"
        echo "installing colcon failed; full log: $log"
        return 1
    fi
    stamp colcon "$1"
}
h=$(hash_of requirements-colcon.txt)-$pyver
if ! fresh colcon "$h"; then
    background "$root/build/colcon.out" install_colcon "$h"
fi

# 4b. ROS 2 tools: the ros2 CLI, launch and launch_testing.
# PyPI has no wheels for them; ../shared/ros2-jazzy (beside the repository, as in CI) holds
# their upstream Jazzy sources and an install script. Without it Buddy still runs and
# tests (the launch tests skip and say why); a Pi has these from apt (README).
overlay=${BUDDY_ROS2_JAZZY:-}
if [[ -z "$overlay" ]]; then
    for candidate in "$root/../shared/ros2-jazzy" \
            "$(git -C "$root" rev-parse --path-format=absolute --git-common-dir 2>/dev/null \
               || echo /nonexistent)/../../shared/ros2-jazzy"; do
        if [[ -f "$candidate/install.sh" ]]; then
            overlay=$(cd "$candidate" && pwd)
            break
        fi
    done
fi
install_ros2_tools() {
    local log="$root/build/ros2-jazzy.log"
    if ! bash "$overlay/install.sh" "$venv" >"$log" 2>&1; then
        tail -n 30 "$log"
        echo "installing the ROS 2 tools from $overlay failed; full log: $log"
        return 1
    fi
    say "ros2 CLI, launch and launch_testing: $(tail -n 1 "$log" | sed 's/^\[ros2-jazzy\] //')"
}
if [[ -n "$overlay" && "$overlay" != none && -f "$overlay/install.sh" ]]; then
    background "$root/build/ros2-jazzy.out" install_ros2_tools
else
    say "ros2 CLI, launch and launch_testing: not installed (no ../shared/ros2-jazzy;" \
        "tests under test/launch skip)"
fi

# 4c. buddy_msgs -----------------------------------------------------------------------
h=$(hash_of buddy_msgs)-$pyver
if ! fresh msgs "$h"; then
    say "building buddy_msgs (cmake + rosidl, C and Python) into .venv (about a minute on 2 cores)"
    build="$root/build/buddy_msgs"
    log="$root/build/buddy_msgs.log"
    mkdir -p "$build"
    # Each rosidl generator parses every interface again; the first one's parse is kept
    # for the others (scripts/rosidl_parse_cache/sitecustomize.py says why and how; the
    # generated sources are the same). On PYTHONPATH for this build only.
    parse_cache="$build/rosidl-parse-cache"
    rm -rf "$parse_cache"
    mkdir -p "$parse_cache"
    # No build type (no optimisation flags), as a plain `colcon build` on the Pi: the
    # messages' C only copies fields between Python and the wire. Measured on this 2-core
    # machine: the whole build took 151 CPU-seconds as Release, 99 with the unity sources
    # of buddy_msgs/CMakeLists.txt, 80 with them and no build type.
    build_msgs() {
        cmake -S buddy_msgs -B "$build" -DCMAKE_INSTALL_PREFIX="$venv" \
                -DPython3_EXECUTABLE="$py" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE= \
                -DBUDDY_MSGS_PYTHON_ONLY=ON \
            && BUDDY_ROSIDL_PARSE_CACHE="$parse_cache" \
               PYTHONPATH="$root/scripts/rosidl_parse_cache${PYTHONPATH:+:$PYTHONPATH}" \
               cmake --build "$build" -j "$(nproc)" \
            && cmake --install "$build"
    }
    if ! run_logged "$log" 0 build_msgs; then
        tail -n 40 "$log" >&2
        echo "buddy_msgs failed to build; full log: $log" >&2
        exit 1
    fi
    stamp msgs "$h"
fi

# 5. buddy_personality ------------------------------------------------------------------
# Editable, so code changes need no reinstall.
h=$(hash_of setup.py setup.cfg)-$pyver
if ! fresh pkg "$h"; then
    say "installing buddy_personality (editable)"
    log="$root/build/pip-buddy_personality.log"
    mkdir -p "$root/build"
    if ! "$py" -m pip install --disable-pip-version-check --no-deps --no-build-isolation \
            -e . >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        exit 1
    fi
    stamp pkg "$h"
fi
# Editable installs skip setup.py's data_files, so the share files are linked one by one,
# as `colcon build --symlink-install` does: edits to launch/ and config/ apply at once, and
# `ros2 launch buddy_personality robot.launch.py` finds the file (ros2launch walks the share
# directory with os.walk, which does not descend into a linked directory).
share="$venv/share/buddy_personality"
mkdir -p "$share" "$venv/share/ament_index/resource_index/packages"
link_each() {  # link_each DIR FILE...: DIR a real directory with one link per FILE
    local dir=$1
    shift
    [[ -L "$dir" ]] && rm -f "$dir"   # an older set-up linked the whole directory
    mkdir -p "$dir"
    find "$dir" -maxdepth 1 -xtype l -delete   # links to files removed from the source
    local f
    for f in "$@"; do ln -sfn "$f" "$dir/"; done
}
shopt -s nullglob
ln -sfn "$root/package.xml" "$share/package.xml"
link_each "$share/launch" "$root"/launch/*.launch.py                  # setup.py data_files
link_each "$share/config" "$root"/config/*.yaml "$root"/config/*.xml
link_each "$share/dashboard" "$root"/buddy_personality/dashboard/static/*
shopt -u nullglob
ln -sfn "$root/resource/buddy_personality" \
    "$venv/share/ament_index/resource_index/packages/buddy_personality"
# ros2 run looks for executables in <prefix>/lib/<package>/ (setup.cfg's install_scripts,
# which pip ignores): link every console script of setup.py there.
libdir="$venv/lib/buddy_personality"
mkdir -p "$libdir"
find "$libdir" -maxdepth 1 -xtype l -delete
for exe in $("$py" - <<'PY'
from importlib.metadata import entry_points
print(*sorted(e.name for e in entry_points(group="console_scripts")
              if e.value.startswith("buddy_personality.")))
PY
); do
    [[ -e "$venv/bin/$exe" ]] && ln -sf "../../bin/$exe" "$libdir/$exe"
done

# 6. Wait for the background steps (system packages, colcon, ROS 2 tools) and show their
#    output; a failed colcon or ROS 2 tools install fails the set-up, as before.
if ! finish_background; then
    echo "a set-up step failed (its output is above)" >&2
    exit 1
fi
exit 0
