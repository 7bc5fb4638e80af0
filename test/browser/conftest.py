"""Browser tests: Playwright for Python driving the system's Chromium (Debian package
`chromium`; `make setup` installs it when it can). They skip with the reason when either
is missing. Chromium runs headless with the background-networking features off, so it
makes no connection but to the page on 127.0.0.1."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # browser_pages: the tests' shared helpers

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions", "--metrics-recording-only",
    "--no-default-browser-check",
]


def chromium_path() -> str | None:
    for name in (os.environ.get("BUDDY_CHROMIUM", ""), "chromium", "chromium-browser"):
        if name and (found := shutil.which(name)):
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    playwright_api = pytest.importorskip("playwright.sync_api",
                                         reason="Playwright for Python is not installed")
    executable = chromium_path()
    if executable is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Screenshots of each panel go here (look at them: the brief asks us to)."""
    path = tmp_path / "screenshots"
    path.mkdir()
    keep = os.environ.get("BUDDY_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        return Path(keep)
    return path
