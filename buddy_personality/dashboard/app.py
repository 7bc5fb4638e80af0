"""The parent page's web app (Starlette): static files, a JSON API and server-sent events.

It holds no rule of the spec (DESIGN §4.6): it shows what the port reports and forwards a
parent's actions, with the parent's token, to the port. What it does hold is the web's own
safety: nothing is shown and nothing changes without a login (the PIN is checked by the
identity node, erratum 18); an HttpOnly SameSite=Strict session cookie with an expiry; a
CSRF token on every state-changing request; a strict Content-Security-Policy; and every
value that came from a child or the LLM (memory tags, names) reaches the page as JSON
that the page only ever puts into text nodes."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from buddy_personality.dashboard.port import COMMAND_STEPS, HOUSEHOLD_ACTIONS, DashboardPort
from buddy_personality.dashboard.records import to_json
from buddy_personality.dashboard.web_sessions import COOKIE_NAME, WebSession, WebSessions

log = logging.getLogger(__name__)

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS: dict[str, str] = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}
MAX_BODY_BYTES = 4096            # every request body the page sends is a few bytes
PIN_MAX_CHARS = 64
SSE_KEEPALIVE_S = 15.0
SSE_MIN_INTERVAL_S = 0.02        # at most 50 pushes a second per page


class SecurityHeaders:
    """Adds the headers above to every response (pure ASGI: streams are not buffered)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                for name, value in SECURITY_HEADERS.items():
                    if name.encode() not in present:
                        headers.append((name.encode(), value.encode()))
                if scope["path"].startswith("/api/"):
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


@dataclass(slots=True)
class DashboardStats:
    """Counters for the node's diagnostics."""

    logins_ok: int = 0
    logins_failed: int = 0
    logins_locked: int = 0
    csrf_refused: int = 0
    unauthenticated: int = 0
    bad_requests: int = 0
    actions: dict[str, int] = field(default_factory=dict)
    actions_refused: dict[str, int] = field(default_factory=dict)

    def as_values(self) -> dict[str, object]:
        values: dict[str, object] = {
            "logins_ok": self.logins_ok, "logins_failed": self.logins_failed,
            "logins_locked_out": self.logins_locked, "csrf_refused": self.csrf_refused,
            "unauthenticated_requests": self.unauthenticated,
            "bad_requests": self.bad_requests,
        }
        values.update({f"actions.{k}": n for k, n in sorted(self.actions.items())})
        values.update({f"actions_refused.{k}": n for k, n in sorted(self.actions_refused.items())})
        return values


def default_static_dir() -> Path:
    """The page's files: the source tree (editable install), else the installed share."""
    source = Path(__file__).resolve().parent / "static"
    if source.is_dir():
        return source
    from ament_index_python.packages import get_package_share_directory  # noqa: PLC0415

    return Path(get_package_share_directory("buddy_personality")) / "dashboard"


class DashboardApp:
    """Builds the Starlette app around a port. `clock` is monotonic seconds (tests pass a
    fake one to expire sessions)."""

    def __init__(self, port: DashboardPort, static_dir: Path | None = None,
                 sessions: WebSessions | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.port = port
        self.static_dir = static_dir or default_static_dir()
        self.sessions = sessions if sessions is not None else WebSessions()
        self.clock = clock
        self.wall_clock = wall_clock
        self.stats = DashboardStats()
        self.closing = False   # set on shutdown: open event streams end at once
        self.app = Starlette(
            routes=[
                Route("/", self.index),
                Route("/api/state", self.state),
                Route("/api/login", self.login, methods=["POST"]),
                Route("/api/logout", self.logout, methods=["POST"]),
                Route("/api/overview", self.overview),
                Route("/api/memories", self.memories),
                Route("/api/events", self.events),
                Route("/api/forget-everything", self.forget_everything, methods=["POST"]),
                Route("/api/forget-child", self.forget_child, methods=["POST"]),
                Route("/api/consent", self.consent, methods=["POST"]),
                Route("/api/limits", self.limits, methods=["POST"]),
                Route("/api/alerts/acknowledge", self.acknowledge, methods=["POST"]),
                Route("/api/alerts/clear", self.clear_alerts, methods=["POST"]),
                Route("/api/household", self.household, methods=["POST"]),
                Mount("/static", StaticFiles(directory=self.static_dir), name="static"),
            ],
            middleware=[Middleware(SecurityHeaders)],
        )

    # -- helpers ------------------------------------------------------------------------
    def _session(self, request: Request) -> WebSession | None:
        return self.sessions.get(request.cookies.get(COOKIE_NAME), self.clock())

    def _denied(self) -> JSONResponse:
        self.stats.unauthenticated += 1
        return JSONResponse({"error": "Please log in with the parent PIN."}, status_code=401)

    async def _authorised_body(self, request: Request) -> tuple[WebSession, dict] | Response:
        """The session and the JSON body of a state-changing request, or the refusal."""
        session = self._session(request)
        if session is None:
            return self._denied()
        if not self.sessions.check_csrf(session, request.headers.get("x-csrf-token")):
            self.stats.csrf_refused += 1
            log.warning("refused a request without a valid CSRF token: %s", request.url.path)
            return JSONResponse({"error": "This page is out of date: reload it."},
                                status_code=403)
        body = await self._json_body(request)
        if body is None:
            self.stats.bad_requests += 1
            return JSONResponse({"error": "bad request"}, status_code=400)
        return session, body

    @staticmethod
    async def _json_body(request: Request) -> dict | None:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return None
        raw = await request.body()
        if len(raw) > MAX_BODY_BYTES:
            return None
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return None
        return body if isinstance(body, dict) else None

    def _outcome(self, name: str, result: Any) -> JSONResponse:
        bucket = self.stats.actions if result.ok else self.stats.actions_refused
        bucket[name] = bucket.get(name, 0) + 1
        self.port.changes().notify()
        return JSONResponse({"ok": result.ok, "message": result.message},
                            status_code=200 if result.ok else 409)

    # -- pages --------------------------------------------------------------------------
    async def index(self, request: Request) -> Response:
        return FileResponse(self.static_dir / "index.html", media_type="text/html")

    async def state(self, request: Request) -> JSONResponse:
        session = self._session(request)
        return JSONResponse({
            "pin_set": self.port.pin_is_set(),
            "logged_in": session is not None,
            "csrf": session.csrf if session else "",
            "set_pin_command": "buddy parent set-pin",
            "household_problem": self.port.household_problem(),
        })

    async def login(self, request: Request) -> Response:
        body = await self._json_body(request)
        pin = body.get("pin") if body else None
        if not isinstance(pin, str) or not pin or len(pin) > PIN_MAX_CHARS:
            self.stats.bad_requests += 1
            return JSONResponse({"error": "Type the parent PIN."}, status_code=400)
        if not self.port.pin_is_set():
            problem = self.port.household_problem()
            return JSONResponse({"error": problem or "No parent PIN is set yet."},
                                status_code=409)
        result = await self.port.login(pin)
        if not result.ok:
            if result.retry_after_s > 0:
                self.stats.logins_locked += 1
            else:
                self.stats.logins_failed += 1
            client = request.client.host if request.client else "?"
            log.warning("parent login refused from %s: %s", client, result.message)
            return JSONResponse({"error": result.message or "Wrong PIN.",
                                 "retry_after_s": result.retry_after_s}, status_code=403)
        self.stats.logins_ok += 1
        cookie, session = self.sessions.open(result.token, self.clock(), result.expires_in_s)
        response = JSONResponse({"ok": True, "csrf": session.csrf})
        response.set_cookie(COOKIE_NAME, cookie, max_age=int(session.expires - self.clock()),
                            httponly=True, samesite="strict", path="/")
        return response

    async def logout(self, request: Request) -> Response:
        checked = await self._authorised_body(request)
        if isinstance(checked, Response):
            return checked
        session = self.sessions.close(request.cookies.get(COOKIE_NAME))
        if session is not None:
            await self.port.logout(session.parent_token)
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE_NAME, path="/", httponly=True, samesite="strict")
        return response

    def _overview(self) -> dict[str, Any]:
        now = self.wall_clock()
        return {
            "now": to_json(self.port.now()),
            "usage": to_json(self.port.usage()),
            "sessions": to_json(self.port.sessions(14.0)),
            "alerts": to_json(self.port.alerts()),
            "consent": to_json(self.port.consent()),
            "children": self.port.children(),
            "household": to_json(self.port.household()),
            "server_time": now,
        }

    async def overview(self, request: Request) -> Response:
        if self._session(request) is None:
            return self._denied()
        return JSONResponse(self._overview())

    async def memories(self, request: Request) -> Response:
        if self._session(request) is None:
            return self._denied()
        try:
            entries = await self.port.memories()
        except TimeoutError:
            return JSONResponse({"error": "Buddy did not answer: is it running?"},
                                status_code=504)
        return JSONResponse({"memories": to_json(entries)})

    async def events(self, request: Request) -> Response:
        """Server-sent events: the overview (without memories) whenever the graph changed
        it, at most every SSE_MIN_INTERVAL_S; a comment line keeps proxies from closing."""
        if self._session(request) is None:
            return self._denied()
        feed = self.port.changes()
        cookie = request.cookies.get(COOKIE_NAME)

        async def stream():
            feed.listeners += 1
            try:
                seen = -1
                while not self.closing:
                    if self.sessions.get(cookie, self.clock()) is None:
                        yield "event: logout\ndata: {}\n\n"
                        return
                    if seen != feed.version:
                        seen = feed.version
                        yield f"data: {json.dumps(self._overview())}\n\n"
                        await asyncio.sleep(SSE_MIN_INTERVAL_S)
                        continue
                    version = await feed.wait(seen, SSE_KEEPALIVE_S)
                    if self.closing:
                        return
                    if version == seen:
                        yield ": keepalive\n\n"
                    if await request.is_disconnected():
                        return
            finally:
                feed.listeners -= 1

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"x-accel-buffering": "no"})

    def close(self) -> None:
        """End every open event stream (the server is stopping)."""
        self.closing = True
        self.port.changes().notify()

    # -- actions ------------------------------------------------------------------------
    async def forget_everything(self, request: Request) -> Response:
        checked = await self._authorised_body(request)
        if isinstance(checked, Response):
            return checked
        session, body = checked
        step = body.get("step")
        if step not in COMMAND_STEPS:
            return JSONResponse({"error": "bad step"}, status_code=400)
        result = await self.port.forget_everything(session.parent_token, step)
        return self._outcome(f"forget_everything.{step}", result)

    async def forget_child(self, request: Request) -> Response:
        checked = await self._authorised_body(request)
        if isinstance(checked, Response):
            return checked
        session, body = checked
        step, child = body.get("step"), body.get("child")
        if step not in COMMAND_STEPS or not isinstance(child, str) or not child:
            return JSONResponse({"error": "bad request"}, status_code=400)
        result = await self.port.forget_child(session.parent_token, child[:64], step)
        return self._outcome(f"forget_child.{step}", result)

    async def consent(self, request: Request) -> Response:
        checked = await self._authorised_body(request)
        if isinstance(checked, Response):
            return checked
        session, body = checked
        child, scope, grant = body.get("child"), body.get("scope"), body.get("grant")
        if not isinstance(child, str) or not child or not isinstance(scope, str) \
                or not scope or not isinstance(grant, bool):
            return JSONResponse({"error": "bad request"}, status_code=400)
        result = await self.port.set_consent(session.parent_token, child[:64], scope[:32], grant)
        return self._outcome("consent.grant" if grant else "consent.revoke", result)

    async def limits(self, request: Request) -> Response:
        checked = await self._authorised_body(request)
        if isinstance(checked, Response):
            return checked
        session, body = checked
        values: dict[str, float | None] = {}
        for key in ("session_limit_min", "daily_limit_min"):
            value = body.get(key)
            if value is None:
                values[key] = None
            elif isinstance(value, (int, float)) and not isinstance(value, bool) \
                    and 1 <= value <= 24 * 60:
                values[key] = float(value) * 60.0
            else:
                return JSONResponse({"error": f"{key} must be minutes from 1"},
                                    status_code=400)
        result = await self.port.lower_limits(session.parent_token,
                                              values["session_limit_min"],
                                              values["daily_limit_min"])
        return self._outcome("lower_limits", result)

    async def clear_alerts(self, request: Request) -> Response:
        """Clear the safety alerts the parent saw (offered with "forget everything",
        issue 30); `up_to` is the newest alert's time on the page, so one that arrived
        since stays."""
        checked = await self._authorised_body(request)
        if isinstance(checked, Response):
            return checked
        session, body = checked
        up_to = body.get("up_to")
        if isinstance(up_to, bool) or not isinstance(up_to, (int, float)) \
                or not math.isfinite(up_to):
            return JSONResponse({"error": "bad request"}, status_code=400)
        result = await self.port.clear_alerts(session.parent_token, float(up_to))
        return self._outcome("clear_alerts", result)

    async def household(self, request: Request) -> Response:
        """Add, edit or remove a child (issue 30): the identity node validates and
        writes; the page only forwards what the parent typed."""
        checked = await self._authorised_body(request)
        if isinstance(checked, Response):
            return checked
        session, body = checked
        action = body.get("action")
        fields = [body.get(k, "") for k in ("child", "name", "birthdate", "addressing")]
        if action not in HOUSEHOLD_ACTIONS or not all(isinstance(f, str) for f in fields):
            return JSONResponse({"error": "bad request"}, status_code=400)
        child, name, birthdate, addressing = (f[:64] for f in fields)
        if action != "add" and not child:
            return JSONResponse({"error": "bad request"}, status_code=400)
        result = await self.port.manage_child(session.parent_token, action, child, name,
                                              birthdate, addressing)
        return self._outcome(f"household.{action}", result)

    async def acknowledge(self, request: Request) -> Response:
        checked = await self._authorised_body(request)
        if isinstance(checked, Response):
            return checked
        session, body = checked
        alert_id = body.get("alert_id")
        if not isinstance(alert_id, str) or not alert_id:
            return JSONResponse({"error": "bad request"}, status_code=400)
        result = await self.port.acknowledge_alert(session.parent_token, alert_id[:128])
        return self._outcome("acknowledge_alert", result)
