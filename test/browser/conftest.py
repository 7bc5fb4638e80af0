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


class Shots:
    """Screenshots of the panels, for a person to look at (the brief asks us to): taken
    only when BUDDY_SCREENSHOTS names a folder to keep them in. Nothing asserts on them,
    and a run that keeps none spent ~0.2-0.5 s of Chromium per picture on a loaded
    2-core machine (21 pictures: ~6 s of the browser tests' wall, issue 28 item 5)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def __call__(self, target: object, name: str, **options: object) -> None:
        if self.folder is not None:
            target.screenshot(path=str(self.folder / name), **options)  # type: ignore[attr-defined]


@pytest.fixture
def shots() -> Shots:
    """`shots(page_or_locator, "name.png", full_page=...)`; BUDDY_SCREENSHOTS=<folder>
    keeps them (e.g. `make test ARGS="test/browser" BUDDY_SCREENSHOTS=/tmp/shots`)."""
    keep = os.environ.get("BUDDY_SCREENSHOTS")
    if not keep:
        return Shots(None)
    Path(keep).mkdir(parents=True, exist_ok=True)
    return Shots(Path(keep))
