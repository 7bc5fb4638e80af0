"""Where Buddy keeps what it remembers between runs, as one table (README "Data and
privacy"): node -> parameter -> file name inside a state directory.

`buddy run --state-dir DIR` points every row into DIR, so a development run (or a test,
or a demo) neither reads nor changes the household's real files under
~/.local/share/buddy/. A node that adds a state file adds its row here.
"""

from __future__ import annotations

from pathlib import Path

DEFAULT_STATE_DIR = Path("~/.local/share/buddy")

STATE_FILES: dict[str, dict[str, str]] = {
    "personality": {
        "memory_path": "personality_memory.json",     # memory tags (spec 002 §8), consent only
        "usage_path": "personality_usage.json",       # RS-1/RS-2 conversation time today
    },
    "identity": {
        "profiles_path": "household.json",            # household profiles (spec 004)
        "greetings_path": "birthday_greetings.json",  # birthdays already greeted
    },
    "llm_bridge": {
        "household_path": "household.json",           # the same file, read for names
        "alert_log_path": "safety_alerts.jsonl",      # HC-9 alerts for the parent page
    },
    "parent_dashboard": {
        "sessions_path": "dashboard_sessions.json",   # sessions of 14 days, no transcripts
        "alerts_path": "safety_alerts.jsonl",         # the bridge's HC-9 alerts, read
        "acks_path": "dashboard_acks.json",           # alerts a parent acknowledged
        "profiles_path": "household.json",            # PIN set? which children? (read only)
    },
}


def state_dir_overrides(state_dir: Path) -> dict[str, dict[str, str]]:
    """Parameter overrides that put every state file into `state_dir` (created)."""
    state_dir = state_dir.expanduser().resolve()
    state_dir.mkdir(parents=True, exist_ok=True)
    return {node: {param: str(state_dir / name) for param, name in files.items()}
            for node, files in STATE_FILES.items()}


def state_dirs_in_params(params_file: Path) -> list[Path]:
    """The folders the state files of a parameter file are in (issue 31 item 3: the graph
    that runs with this file owns them, state_dir_lock). A row the file does not set keeps
    its node's default under DEFAULT_STATE_DIR; one set empty lies beside another row."""
    import yaml  # noqa: PLC0415 - only `buddy run` and the launch need it

    try:
        doc = yaml.safe_load(params_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        doc = None
    found: dict[str, dict[str, object]] = {}
    if isinstance(doc, dict):
        for key, body in doc.items():
            node = str(key).rsplit("/", 1)[-1]
            params = body.get("ros__parameters") if isinstance(body, dict) else None
            if node in STATE_FILES and isinstance(params, dict):
                found.setdefault(node, {}).update(params)
    dirs: list[Path] = []
    for node, files in STATE_FILES.items():
        for param in files:
            value = found.get(node, {}).get(param)
            if value == "":
                continue
            folder = (Path(value).expanduser().parent if isinstance(value, str)
                      else DEFAULT_STATE_DIR.expanduser())
            if folder.resolve() not in dirs:
                dirs.append(folder.resolve())
    return dirs


def claim_state_dirs(state_dir: Path | None, params_file: Path, what: str) -> str | None:
    """Take this process's lock on every state folder of the graph it is about to run
    (issue 31 item 3: `--state-dir`, or the folders of the parameter file). None when
    taken, else one line saying why not (held by another graph, pid and name)."""
    from buddy_personality.state_dir_lock import StateDirBusy, hold_state_dir  # noqa: PLC0415

    folders = [state_dir] if state_dir is not None else state_dirs_in_params(params_file)
    try:
        for folder in folders:
            hold_state_dir(folder, what)
    except StateDirBusy as exc:
        return str(exc)
    except OSError as exc:
        return f"cannot use the state directory {exc.filename or ''}: {exc.strerror or exc}"
    return None
