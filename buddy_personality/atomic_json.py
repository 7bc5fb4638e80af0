"""Atomic JSON files (DESIGN §5 Persistence): written once, in buddy_personality.state_files,
which also keeps the previous generation of every state file; this name stays for the
side files that import it."""

from buddy_personality.state_files import atomic_write_json

__all__ = ["atomic_write_json"]
