"""Count rejected inputs by cause and log each cause once (DESIGN §5, bad input)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable


class RejectionLog:
    """`reject(cause, detail)` counts the rejection and logs the first one of each cause
    (later ones only count, so a flood of bad input cannot flood the log)."""

    def __init__(self, warn: Callable[[str], None]) -> None:
        self._warn = warn
        self.counts: Counter[str] = Counter()
        self.last_error = ""

    def reject(self, cause: str, detail: str = "") -> None:
        self.counts[cause] += 1
        self.last_error = f"{cause}: {detail}" if detail else cause
        if self.counts[cause] == 1:
            self._warn(f"rejected input ({self.last_error}); further '{cause}' only counted")

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def as_values(self, prefix: str = "rejected") -> dict[str, str]:
        values = {f"{prefix}.total": str(self.total)}
        values.update({f"{prefix}.{cause}": str(n) for cause, n in sorted(self.counts.items())})
        if self.last_error:
            values["last_error"] = self.last_error
        return values
