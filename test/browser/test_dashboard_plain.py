"""The parent page speaks plainly (issue 30 item 5; DESIGN §4.6): no rule codes, moods
that read as English, "Buddy's mood" said to be Buddy's, where answers come from taken from
the LLM bridge's health, nothing cut off on a 390 px phone, and "forget everything" says
what it keeps (the safety alerts, with the child's words) and offers to clear those too.
In a real browser against the dashboard's web server with an in-memory port."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from browser_pages import (
    LAPTOP,
    NOW,
    PHONE,
    SharedPage,
    log_in,
    logged_in_once,
    open_page,
    seeded_port,
    serving,
)

from buddy_personality.dashboard.plain_words import mood_in_words
from buddy_personality.dashboard.records import AlertView, NowView

RULE_CODE = re.compile(r"\b(HC|RS)-\d")


def plain_port():
    port = seeded_port()
    # Buddy deep in thought after a distress stop, with no home server set up at all
    port.now_view = NowView(activity="awake", mood="thinking",
                            mood_words=mood_in_words("thinking", 0.9), layer="llm",
                            thinking_with="rules_no_server")
    port.alert_views.append(AlertView("hc9-2", NOW - 3000, "HC-9", "Leo said something "
                                      "that sounded like being lost: \u201cI can't find mum\u201d.",
                                      distress=True, what="Buddy stopped the chat and told Leo "
                                      "to find a grown-up", words="I can't find mum"))
    return port


@pytest.fixture
def served():
    port = plain_port()
    with serving(port) as url:
        yield url, port


@pytest.fixture(scope="module")
def read_only(browser) -> Iterator[SharedPage]:
    """One logged-in laptop page for the tests that only read it."""
    with logged_in_once(browser, plain_port(), LAPTOP, "#memories table",
                        "#alerts li") as shared:
        yield shared


def logged_in(browser, url: str, viewport: dict):
    context, page = open_page(browser, url, viewport)
    page.wait_for_selector("#login:not([hidden])")
    log_in(page)
    page.wait_for_selector("#memories table")
    page.wait_for_selector("#alerts li")
    return context, page


def test_no_rule_codes_only_what_happened(read_only, shots) -> None:
    """"HC-9" becomes what happened: "Buddy stopped the chat and told Leo to find a
    grown-up"; the conversations say how they ended in words."""
    page = read_only.page
    text = page.inner_text("#panels")
    assert not RULE_CODE.search(text), RULE_CODE.search(text)
    first = page.locator("#alerts li").first.inner_text()
    assert "Buddy stopped the chat and told Leo to find a grown-up" in first
    assert "find a grown-up" in page.inner_text("#sessions")
    shots(page.locator("#panel-alerts"), "alerts-plain.png")


def test_buddys_mood_reads_as_english_and_is_said_to_be_buddys(read_only) -> None:
    page = read_only.page
    assert page.text_content("#now-mood") == "deep in thought"   # not "very thinking"
    assert "Buddy's mood" in page.inner_text("#sessions thead")
    assert "Buddy's mood" in page.inner_text("#panel-sessions .legend")
    assert "Mood mix" not in page.inner_text("#panels")


def test_thinking_with_follows_the_bridges_health_not_the_snapshot(browser, served) -> None:
    """The snapshot's layer says llm; the bridge says no server is set up: the page says
    what the bridge says."""
    url, port = served
    context, page = logged_in(browser, url, LAPTOP)
    assert "no home server" in page.text_content("#now-layer")
    port.now_view.thinking_with = "server"
    port.feed.notify()
    page.wait_for_selector("#now-layer:text-is('the home server')", timeout=2000)
    context.close()


# Every element of the panels inside the screen, and none clipping its own text; every
# column of every table shown (no column hidden to make it fit).
CUT_OFF = """() => {
  const width = document.documentElement.clientWidth, bad = [];
  for (const el of document.querySelectorAll('#panels *')) {
    if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > width + 0.5 || r.left < -0.5)
      bad.push(`${el.tagName}#${el.id}.${el.className} right=${r.right}`);
    const clip = getComputedStyle(el).overflowX;
    if ((clip === 'hidden' || clip === 'clip') && el.scrollWidth > el.clientWidth + 1
        && !el.classList.contains('bar') && !el.classList.contains('mix'))
      bad.push(`${el.tagName}.${el.className} clipped`);
  }
  for (const td of document.querySelectorAll('#panels td'))
    if (getComputedStyle(td).display === 'none') bad.push(`hidden column ${td.dataset.label}`);
  return bad;
}"""


def test_nothing_is_cut_off_on_a_phone(browser, served, shots) -> None:
    url, _ = served
    context, page = logged_in(browser, url, PHONE)
    assert page.evaluate(CUT_OFF) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    labels = page.eval_on_selector_all("#sessions td", "tds => tds.map(t => t.dataset.label)")
    assert "Buddy's mood" in labels and "How it ended" in labels
    shots(page, "phone-plain.png", full_page=True)
    context.close()


def test_forget_everything_says_it_keeps_the_alerts_and_offers_to_clear_them(
        browser, served, shots) -> None:
    url, port = served
    context, page = logged_in(browser, url, LAPTOP)
    page.click("#forget-all")
    page.wait_for_selector("#confirm-alerts:not([hidden])")
    keeps = page.text_content("#confirm-keeps")
    assert "2 safety alerts" in keeps
    assert "\u201cit hurts\u201d" in keeps and "\u201cI can't find mum\u201d" in keeps
    assert "your child's words" in page.text_content("#confirm-clear-label")
    shots(page.locator("#panel-memories"), "forget-keeps-alerts.png")
    page.check("#confirm-clear-alerts")
    page.click("#confirm-yes")
    page.wait_for_selector("#memories-empty:not([hidden])")
    page.wait_for_selector("#alerts li.distress", state="detached", timeout=3000)
    assert [a for a in port.alert_views if a.distress] == []
    assert any(c[0] == "clear_alerts" for c in port.calls)
    context.close()


def test_forget_everything_keeps_the_alerts_unless_asked(browser, served) -> None:
    url, port = served
    context, page = logged_in(browser, url, LAPTOP)
    page.click("#forget-all")
    page.wait_for_selector("#confirm:not([hidden])")
    page.click("#confirm-yes")
    page.wait_for_selector("#memories-empty:not([hidden])")
    assert len([a for a in port.alert_views if a.distress]) == 2
    assert not any(c[0] == "clear_alerts" for c in port.calls)
    context.close()
