"""The parent page in a real browser (issue 16; DESIGN §4.6), served by the dashboard's
own web server on 127.0.0.1 with an in-memory port standing in for the graph. The graph
side (identity's PIN check, forget-everything on disk, consent over DDS, face/state) is
tested through the node in test_dashboard_graph.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_pages import (
    LAPTOP,
    PHONE,
    PIN,
    SharedPage,
    log_in,
    logged_in_once,
    open_page,
    seeded_port,
    serving,
)

from buddy_personality.dashboard.records import FaceView
from buddy_personality.dashboard.testing import InMemoryPort


@pytest.fixture
def served() -> Iterator[tuple[str, InMemoryPort]]:
    port = seeded_port()
    with serving(port) as url:
        yield url, port


@pytest.fixture(scope="module")
def read_only(browser) -> Iterator[SharedPage]:
    """One logged-in laptop page for the tests below that only read it (the dialog
    handler is on from before the login, so a script run by the memories panel is seen)."""
    with logged_in_once(browser, seeded_port(), LAPTOP, "#panels:not([hidden])",
                        "#memories table") as shared:
        yield shared


def test_without_a_pin_the_page_only_says_how_to_set_one(browser, served, shots) -> None:
    url, port = served
    port.pin = None
    context, page = open_page(browser, url, LAPTOP)
    page.wait_for_selector("#no-pin:not([hidden])")
    assert page.is_hidden("#panels") and page.is_hidden("#login")
    assert "buddy parent set-pin" in page.text_content("#no-pin")
    shots(page, "no-pin.png")
    context.close()


def test_a_wrong_pin_is_refused_and_repeated_ones_lock_out(browser, served, shots) -> None:
    url, _ = served
    context, page = open_page(browser, url, LAPTOP)
    page.wait_for_selector("#login:not([hidden])")
    log_in(page, "1111")
    page.wait_for_selector("#login-message:not(:empty)")
    assert "Wrong PIN" in page.text_content("#login-message")
    for _ in range(2):  # each attempt answered before the next, as a parent types them
        with page.expect_response(lambda r: r.url.endswith("/api/login")):
            log_in(page, "1111")
    page.wait_for_selector("#login-message:has-text('Try again')")
    with page.expect_response(lambda r: r.url.endswith("/api/login")) as answer:
        log_in(page, PIN)  # the right PIN during the lockout is refused too
    assert answer.value.status == 403 and answer.value.json()["retry_after_s"] > 0
    assert page.is_hidden("#panels")
    shots(page, "lockout.png")
    context.close()


def test_after_login_every_panel_shows_the_graphs_data(read_only, shots) -> None:
    page = read_only.page
    assert page.text_content("#now-mood") == "very happy"
    assert page.get_attribute("#face", "data-mood") == "happy"
    assert page.get_attribute("#face", "data-talking") == "true"
    assert "25 min of 45 min" in page.text_content("#daily-text")
    assert page.locator("#sessions tbody tr").count() == 2
    first_alert = page.locator("#alerts li").first
    assert "find a grown-up" in first_alert.text_content()
    assert "distress" in first_alert.get_attribute("class")
    assert "likes_dinosaurs" in page.text_content("#memories")
    consent_rows = page.locator("#consent tbody tr")
    assert consent_rows.count() == 2   # Leo (granted) and Mia (no consent yet)
    for panel in ("now", "alerts", "today", "sessions", "memories", "consent"):
        shots(page.locator(f"#panel-{panel}"), f"panel-{panel}.png")
    shots(page, "laptop.png", full_page=True)


def test_a_memory_tag_holding_script_is_shown_as_text(read_only) -> None:
    page = read_only.page
    cells = page.locator("#memories td.tag").all_text_contents()
    assert "<script>alert('x')</script>" in cells
    assert page.locator("#memories script").count() == 0
    assert read_only.dialogs == []


def test_forget_everything_asks_first_then_empties_the_view(browser, served, shots) -> None:
    url, port = served
    context, page = open_page(browser, url, LAPTOP)
    page.wait_for_selector("#login:not([hidden])")
    log_in(page)
    page.wait_for_selector("#memories table")
    page.click("#forget-all")
    page.wait_for_selector("#confirm:not([hidden])")
    assert "Forget everything" in page.text_content("#confirm-question")
    assert port.memory_views, "nothing is forgotten before the parent confirms"
    shots(page.locator("#panel-memories"), "forget-confirm.png")
    page.click("#confirm-yes")
    page.wait_for_selector("#memories-empty:not([hidden])")
    assert port.memory_views == []
    assert ("forget_everything", "confirm") in port.calls
    context.close()


def test_the_face_is_redrawn_when_the_graph_changes_it(browser, served) -> None:
    url, port = served
    context, page = open_page(browser, url, LAPTOP)
    page.wait_for_selector("#login:not([hidden])")
    log_in(page)
    page.wait_for_selector("#face[data-mood='happy']")
    port.now_view.face = FaceView(mood="sleepy", intensity=0.6, conv_state="idle",
                                  connected=True)
    port.feed.notify()
    page.wait_for_selector("#face[data-mood='sleepy']", timeout=1000)
    assert page.get_attribute("#face", "data-talking") == "false"
    context.close()


def test_the_page_reads_on_a_phone(browser, served, shots) -> None:
    url, _ = served
    context, page = open_page(browser, url, PHONE)
    page.wait_for_selector("#login:not([hidden])")
    shots(page, "phone-login.png")
    log_in(page)
    page.wait_for_selector("#memories table")
    # nothing wider than the screen: no sideways scrolling on a phone
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= PHONE["width"], overflow
    shots(page, "phone.png", full_page=True)
    context.close()
