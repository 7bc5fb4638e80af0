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
