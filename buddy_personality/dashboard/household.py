"""A read-only look at the household file the identity node owns (spec 004; erratum 18):
whether a parent PIN is set (the page says how to set one otherwise) and which children
the consent panel lists. The dashboard never writes it and never moves it aside: a file
the identity node cannot read is the identity node's to report."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from buddy_personality.dashboard.records import ChildView

MAX_BYTES = 1024 * 1024
# issue 31 item 4: the identity node leaves an unreadable household file in place and
# writes nothing over it; the page says so instead of "no PIN is set yet"
UNREADABLE = ("The household file {path} cannot be read ({why}). Buddy keeps it as it is, "
              "writes nothing over it and accepts no parent PIN until it is repaired: "
              "restore it from {path}.prev or a backup, or remove it to start again.")


@dataclass(slots=True)
class HouseholdGlance:
    path: Path | None
    _stat: tuple[float, int] | None = None
    _pin_set: bool = False
    _problem: str = ""
    _children: list[ChildView] = field(default_factory=list)

    def pin_is_set(self) -> bool:
        self._refresh()
        return self._pin_set

    def problem(self) -> str:
        """Why the household file cannot be read, in a parent's words; "" when it can."""
        self._refresh()
        return self._problem

    def children(self) -> list[tuple[str, str]]:
        """(user_id, name) of each child profile, in file order."""
        self._refresh()
        return [(c.user_id, c.name) for c in self._children]

    def child_views(self) -> list[ChildView]:
        """Each child profile with its birthdate and addressing (issue 30: the page lists
        and edits them; changes go through the identity node)."""
        self._refresh()
        return list(self._children)

    def _refresh(self) -> None:
        if self.path is None:
            return
        try:
            st = self.path.stat()
        except OSError:
            self._stat, self._pin_set, self._children = None, False, []
            return
        key = (st.st_mtime, st.st_size)
        if key == self._stat:
            return
        self._stat = key
        try:
            if st.st_size > MAX_BYTES:
                raise ValueError("too large")
            data = json.loads(self.path.read_bytes())
            if not isinstance(data, dict):
                raise ValueError("not a household file")
        except (OSError, ValueError) as exc:
            why = "not JSON" if isinstance(exc, json.JSONDecodeError) else str(exc)
            self._pin_set, self._children = False, []
            self._problem = UNREADABLE.format(path=self.path, why=why)
            return
        self._problem = ""
        pin = data.get("parent_pin")
        self._pin_set = isinstance(pin, dict) and bool(pin)
        children: list[ChildView] = []
        for row in data.get("profiles") or []:
            if isinstance(row, dict) and row.get("role") == "child" \
                    and isinstance(row.get("user_id"), str) and isinstance(row.get("name"), str):
                born, call = row.get("birthdate"), row.get("addressing")
                children.append(ChildView(row["user_id"][:64], row["name"][:64],
                                          born[:10] if isinstance(born, str) else "",
                                          call[:64] if isinstance(call, str) else ""))
        self._children = children
