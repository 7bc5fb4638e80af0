"""The parent page's web layer without ROS (DESIGN §4.6, erratum 18): nothing is shown and
nothing changes without a login; the session cookie is HttpOnly and SameSite=Strict with
an expiry; every state-changing request needs the CSRF token; failed logins lock out;
a Content-Security-Policy forbids inline script; actions go to the port with the
parent's token and report the graph's answer."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from buddy_personality.dashboard.app import CSP, DashboardApp
from buddy_personality.dashboard.records import AlertView, MemoryView, UsageView
from buddy_personality.dashboard.testing import InMemoryPort
from buddy_personality.dashboard.web_sessions import COOKIE_NAME, WebSessions

PIN = "2468"


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def port() -> InMemoryPort:
    return InMemoryPort(
        pin=PIN,
        usage_view=UsageView(session_s=60, session_limit_s=900, daily_s=600,
                             daily_limit_s=2700, known=True),
        memory_views=[MemoryView(tag="likes_dinosaurs", category="topic", strength=0.8,
                                 created=1.7e9, last_reinforced=1.7e9, reinforcement_count=2)],
        alert_views=[AlertView(alert_id="a1", time=1.7e9, rule_id="HC-9",
                               sentence="distress", distress=True)],
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(port: InMemoryPort, clock: FakeClock) -> TestClient:
    app = DashboardApp(port, sessions=WebSessions(lifetime_s=600.0), clock=clock)
    return TestClient(app.app, base_url="http://127.0.0.1")


def login(client: TestClient, pin: str = PIN):
    return client.post("/api/login", json={"pin": pin})


def test_without_a_pin_the_page_says_how_to_set_one_and_shows_nothing(client, port) -> None:
    port.pin = None
    state = client.get("/api/state").json()
    assert state == {"pin_set": False, "logged_in": False, "csrf": "",
                     "set_pin_command": "buddy parent set-pin", "household_problem": ""}
    assert login(client, "anything").status_code == 409
    assert client.get("/api/overview").status_code == 401
    assert client.get("/api/memories").status_code == 401


def test_nothing_is_shown_before_login(client) -> None:
    for path in ("/api/overview", "/api/memories", "/api/events"):
        assert client.get(path).status_code == 401, path


def test_login_sets_an_httponly_samesite_strict_cookie_with_an_expiry(client) -> None:
    response = login(client)
    assert response.status_code == 200
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE_NAME}=")
    lowered = cookie.lower()
    assert "httponly" in lowered and "samesite=strict" in lowered and "max-age=600" in lowered
    assert client.get("/api/overview").status_code == 200


def test_the_session_expires(client, clock) -> None:
    login(client)
    clock.t += 601
    assert client.get("/api/overview").status_code == 401


def test_wrong_pins_lock_out_with_a_growing_wait(client, port) -> None:
    codes = [login(client, "0000").json() for _ in range(3)]
    assert codes[0]["retry_after_s"] == 0
    assert codes[-1]["retry_after_s"] > 0
    # even the right PIN is refused during the lockout
    locked = login(client, PIN)
    assert locked.status_code == 403 and locked.json()["retry_after_s"] > 0
    port.locked_until = 0.0
    second = login(client, "0000").json()["retry_after_s"]
    assert second > codes[-1]["retry_after_s"]


def test_state_changes_need_the_csrf_token(client, port) -> None:
    token_csrf = login(client).json()["csrf"]
    refused = client.post("/api/forget-everything", json={"step": "request"})
    assert refused.status_code == 403
    wrong = client.post("/api/forget-everything", json={"step": "request"},
                        headers={"X-CSRF-Token": "nope"})
    assert wrong.status_code == 403
    assert port.calls == []
    ok = client.post("/api/forget-everything", json={"step": "request"},
                     headers={"X-CSRF-Token": token_csrf})
    assert ok.status_code == 200
    assert port.calls == [("forget_everything", "request")]


def test_forget_everything_needs_the_confirmation_step(client, port) -> None:
    csrf = login(client).json()["csrf"]
    h = {"X-CSRF-Token": csrf}
    # confirming without a request first is refused and forgets nothing
    early = client.post("/api/forget-everything", json={"step": "confirm"}, headers=h)
    assert early.status_code == 409
    assert port.memory_views
    asked = client.post("/api/forget-everything", json={"step": "request"}, headers=h).json()
    assert "Forget everything" in asked["message"]
    assert port.memory_views
    done = client.post("/api/forget-everything", json={"step": "confirm"}, headers=h)
    assert done.json()["ok"] is True
    assert client.get("/api/memories").json()["memories"] == []


def test_a_refused_action_says_why(client, port) -> None:
    csrf = login(client).json()["csrf"]
    port.tokens.clear()  # the identity node no longer accepts the token
    r = client.post("/api/consent", json={"child": "leo", "scope": "memory", "grant": True},
                    headers={"X-CSRF-Token": csrf})
    assert r.status_code == 409 and r.json() == {"ok": False, "message": "Not logged in."}


def test_bad_bodies_are_refused(client) -> None:
    csrf = login(client).json()["csrf"]
    h = {"X-CSRF-Token": csrf}
    assert client.post("/api/consent", json={"child": "leo"}, headers=h).status_code == 400
    assert client.post("/api/consent", content=b"x" * 10000, headers={
        **h, "content-type": "application/json"}).status_code == 400
    assert client.post("/api/forget-everything", data={"step": "request"},
                       headers=h).status_code == 400
    assert client.post("/api/limits", json={"daily_limit_min": -5}, headers=h).status_code == 400


def test_logout_closes_the_session(client, port) -> None:
    csrf = login(client).json()["csrf"]
    assert client.post("/api/logout", json={}, headers={"X-CSRF-Token": csrf}).status_code == 200
    assert port.tokens == set()
    assert client.get("/api/overview").status_code == 401


def test_every_response_carries_a_strict_csp(client) -> None:
    for path in ("/", "/api/state", "/static/dashboard.js"):
        response = client.get(path)
        assert response.headers["content-security-policy"] == CSP, path
        assert response.headers["x-content-type-options"] == "nosniff"
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP


def test_the_page_has_no_inline_script_and_puts_values_in_text_only() -> None:
    from buddy_personality.dashboard.app import default_static_dir

    static = default_static_dir()
    html = (static / "index.html").read_text()
    assert "<script>" not in html and "onclick" not in html
    for name in ("dashboard.js", "face.js"):
        js = (static / name).read_text()
        assert "innerHTML" not in js and "outerHTML" not in js and "insertAdjacentHTML" not in js


def test_overview_shows_the_ports_views(client) -> None:
    login(client)
    o = client.get("/api/overview").json()
    assert o["usage"]["daily_limit_s"] == 2700
    assert o["alerts"][0]["rule_id"] == "HC-9"
    assert set(o) >= {"now", "usage", "sessions", "alerts", "consent", "children"}


def test_the_live_view_shows_the_parent_pages_address() -> None:
    """Issue 16: `buddy run` shows the page's URL in the live view."""
    from rich.console import Console

    from buddy_personality.tools.cli.live_view import ViewState, render

    state = ViewState(dashboard_url="http://127.0.0.1:8080/")
    console = Console(width=80, record=True)
    console.print(render(state, 80, 24))
    assert "parent page: http://127.0.0.1:8080/" in console.export_text()


@pytest.mark.parametrize("path,body", [
    ("/api/household", {"action": "add", "name": "Leo", "birthdate": "2021-03-03"}),
    ("/api/alerts/clear", {"up_to": 1.7e9}),
])
def test_the_household_and_clearing_alerts_need_a_login_and_the_csrf_token(
        client, port, path: str, body: dict) -> None:
    """Issue 30's two new state-changing requests are guarded like the others."""
    assert client.post(path, json=body).status_code == 401
    csrf = login(client).json()["csrf"]
    assert client.post(path, json=body).status_code == 403
    assert client.post(path, json=body, headers={"X-CSRF-Token": "nope"}).status_code == 403
    assert port.calls == []
    ok = client.post(path, json=body, headers={"X-CSRF-Token": csrf})
    assert ok.status_code == 200 and ok.json()["ok"] is True
    assert len(port.calls) == 1


@pytest.mark.parametrize("body", [
    {"action": "adopt", "name": "Leo"}, {"action": "add", "name": 5},
    {"action": "edit", "name": "Leo"}, {"action": "remove"},
    {"action": "add", "name": "Leo", "birthdate": ["2021"]},
])
def test_bad_household_requests_are_refused(client, port, body: dict) -> None:
    csrf = login(client).json()["csrf"]
    r = client.post("/api/household", json=body, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 400 and port.calls == []


@pytest.mark.parametrize("up_to", [None, "soon", True, float("inf")])
def test_clearing_alerts_needs_a_time(client, port, up_to) -> None:
    csrf = login(client).json()["csrf"]
    r = client.post("/api/alerts/clear", content=f'{{"up_to": {up_to!r}}}'.replace(
        "None", "null").replace("True", "true").replace("'", '"').replace("inf", "1e999"),
        headers={"X-CSRF-Token": csrf, "content-type": "application/json"})
    assert r.status_code == 400 and port.calls == []


def test_an_unreadable_household_file_is_said_on_the_page_not_no_pin(client, port) -> None:
    """Issue 31 item 4: with no readable generation the identity node leaves the
    household file as it is; the page says so (not "no PIN is set yet", which would send
    the parent to set a new PIN over the old one) and login is refused with that reason."""
    port.pin = None
    port.household_unreadable = "The household file cannot be read (not JSON)."
    state = client.get("/api/state").json()
    assert state["household_problem"] == "The household file cannot be read (not JSON)."
    refused = login(client, "2468")
    assert refused.status_code == 409 and "cannot be read" in refused.json()["error"]
