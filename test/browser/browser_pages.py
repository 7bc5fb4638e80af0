"""What the parent page's browser tests share: a port seeded with a day of data, and
opening and logging in to the page."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from buddy_personality.dashboard.app import DashboardApp
from buddy_personality.dashboard.plain_words import rule_words
from buddy_personality.dashboard.records import (
    AlertView,
    ChildView,
    ConsentView,
    FaceView,
    MemoryView,
    NowView,
    SessionView,
    UsageView,
)
from buddy_personality.dashboard.server import DashboardServer
from buddy_personality.dashboard.sessions import END_REASON_WORDS
from buddy_personality.dashboard.testing import InMemoryPort

PIN = "2468"
NOW = time.time()
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


def seeded_port() -> InMemoryPort:
    return InMemoryPort(
        pin=PIN,
        now_view=NowView(activity="talking", mood="happy", mood_words="very happy",
                         layer="llm", face=FaceView(mood="happy", intensity=0.8,
                                                    conv_state="speaking", talking=True,
                                                    connected=True)),
        usage_view=UsageView(session_s=300, session_limit_s=900, daily_s=1500,
                             daily_limit_s=2700, known=True, can_lower=True),
        session_views=[
            SessionView("s1", NOW - 7200, 420, 9, "said goodbye",
                        {"positive": 0.6, "neutral": 0.4}),
            SessionView("s2", NOW - 3600, 95, 3, END_REASON_WORDS["hc9_distress"],
                        {"neutral": 0.7, "negative": 0.3}),
        ],
        alert_views=[
            AlertView("hc9-1", NOW - 3500, "HC-9", "Leo said something that sounded like "
                      "being hurt: \u201cit hurts\u201d.", distress=True,
                      what=rule_words("HC-9", "Leo"), words="it hurts"),
            AlertView("g1", NOW - 600, "RS-1", "", distress=False, what=rule_words("RS-1")),
        ],
        consent_views=[ConsentView("Leo", "memory", "granted")],
        child_ids=["Leo", "Mia"],
        child_views=[ChildView("leo", "Leo", "2021-03-03", "Captain Leo"),
                     ChildView("mia", "Mia", "2020-06-01", "")],
        memory_views=[
            MemoryView("likes_dinosaurs", "topic", 0.9, NOW - 86400 * 3, NOW - 3600, 4, "Leo"),
            MemoryView("<script>alert('x')</script>", "preference", 0.4, NOW - 86400, NOW - 86400,
                       1, "Leo"),
        ],
    )


def open_page(browser, url: str, viewport: dict):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(url)
    return context, page


def log_in(page, pin: str = PIN) -> None:
    page.fill("#pin", pin)
    page.click("#login-form button[type=submit]")


@contextlib.contextmanager
def serving(port: InMemoryPort) -> Iterator[str]:
    """The parent page's app over `port`, served on 127.0.0.1 on a free port for one
    test: yields the page's URL, then closes the app and stops the server."""
    app = DashboardApp(port)
    server = DashboardServer(app.app, "127.0.0.1", 0, port.feed)
    host, number = server.start()
    try:
        yield f"http://{host}:{number}/"
    finally:
        app.close()
        server.stop()


@dataclass(slots=True)
class SharedPage:
    """A page logged in once and only read by the tests that share it."""
    page: object
    port: InMemoryPort
    dialogs: list[str] = field(default_factory=list)   # every alert()/confirm() it showed


@contextlib.contextmanager
def logged_in_once(browser, port: InMemoryPort, viewport: dict,
                   *ready: str) -> Iterator[SharedPage]:
    """Serve `port`, open the page, log in and wait for each selector in `ready`: for a
    module's tests that only read the page (issue 28 item 5: a context, a page and a
    login cost ~1 s of Chromium each on the 2-core machine). A test that clicks, types or
    changes the port opens its own page."""
    with serving(port) as url:
        context, page = open_page(browser, url, viewport)
        shared = SharedPage(page, port)
        page.on("dialog", lambda d: (shared.dialogs.append(d.message), d.dismiss()))
        try:
            page.wait_for_selector("#login:not([hidden])")
            log_in(page)
            for selector in ready:
                page.wait_for_selector(selector)
            yield shared
        finally:
            context.close()
