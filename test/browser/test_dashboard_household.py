"""The parent sets up the household on the page (issue 30 item 1; spec 004 profiles,
DESIGN erratum 18): a first run shows a hint that says how to add a child, not an empty
panel; a child is added, edited and removed (after a confirmation that says Buddy forgets
them), each through the port (the identity node's identity/manage_household in the
graph); a refusal is shown with its reason. The rules themselves are the identity
core's (test/unit/identity/test_household.py)."""

from __future__ import annotations

import pytest
from browser_pages import LAPTOP, PHONE, log_in, open_page, serving

from buddy_personality.dashboard.testing import InMemoryPort

PIN = "1357"


@pytest.fixture
def served():
    port = InMemoryPort(pin=PIN)   # a first run: a PIN, no children yet
    with serving(port) as url:
        yield url, port


def test_a_first_run_says_how_to_add_a_child_and_adds_one(browser, served, shots) -> None:
    url, port = served
    context, page = open_page(browser, url, LAPTOP)
    page.wait_for_selector("#login:not([hidden])")
    log_in(page, PIN)
    page.wait_for_selector("#household-empty:not([hidden])")
    assert "Add your child" in page.text_content("#household-empty")
    shots(page.locator("#panel-household"), "household-first-run.png")
    page.fill("#child-name", "Leo")
    page.fill("#child-birthdate", "2021-03-03")
    page.fill("#child-addressing", "Captain Leo")
    page.click("#child-save")
    page.wait_for_selector("#household li[data-child='leo']")
    assert ("household", "add", "", "Leo", "2021-03-03", "Captain Leo") in port.calls
    assert page.is_hidden("#household-empty")
    assert "Captain Leo" in page.text_content("#household")
    # the consent panel lists the new child at once
    page.wait_for_selector("#consent tbody tr")
    assert "Leo" in page.text_content("#consent")
    shots(page.locator("#panel-household"), "household.png")
    context.close()


def test_edit_then_remove_after_a_confirmation(browser, served) -> None:
    url, port = served
    context, page = open_page(browser, url, PHONE)
    page.wait_for_selector("#login:not([hidden])")
    log_in(page, PIN)
    page.wait_for_selector("#household-empty:not([hidden])")
    page.fill("#child-name", "Mia")
    page.click("#child-save")
    page.wait_for_selector("#household li[data-child='mia']")
    page.click("#household li[data-child='mia'] >> text=Edit")
    assert page.input_value("#child-name") == "Mia"
    page.fill("#child-birthdate", "2020-06-01")
    page.click("#child-save")
    page.wait_for_selector("#household li[data-child='mia'] >> text=years old")
    assert ("household", "edit", "mia", "Mia", "2020-06-01", "") in port.calls
    page.click("#household li[data-child='mia'] >> text=Remove")
    page.wait_for_selector("#remove-confirm:not([hidden])")
    assert "forgets everything" in page.text_content("#remove-question")
    assert not any(c[:2] == ("household", "remove") for c in port.calls)
    page.click("#remove-yes")
    page.wait_for_selector("#household-empty:not([hidden])")
    assert ("household", "remove", "mia", "", "", "") in port.calls
    context.close()


def test_a_refusal_is_shown_with_its_reason(browser, served) -> None:
    url, port = served
    context, page = open_page(browser, url, LAPTOP)
    page.wait_for_selector("#login:not([hidden])")
    log_in(page, PIN)
    page.wait_for_selector("#household-empty:not([hidden])")
    port.refuse_next = "a child born on 1990-01-01 would be 36 today"
    page.fill("#child-name", "Tom")
    page.fill("#child-birthdate", "1990-01-01")
    page.click("#child-save")
    page.wait_for_selector("#household-message:not(:empty)")
    assert "would be 36" in page.text_content("#household-message")
    assert page.input_value("#child-name") == "Tom"   # what was typed stays to be fixed
    context.close()
