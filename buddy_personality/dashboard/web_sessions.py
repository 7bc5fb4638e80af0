"""Browser sessions of the parent page: an HttpOnly, SameSite=Strict cookie names a
server-side session that holds the identity node's parent token (erratum 18) and a CSRF
token every state-changing request must carry. Nothing secret reaches page scripts but
the CSRF token, which is useless without the cookie.

ROS-free and clock-free: the caller passes `now` (monotonic seconds)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

COOKIE_NAME = "buddy_parent"


@dataclass(slots=True)
class WebSession:
    parent_token: str
    csrf: str
    expires: float                  # monotonic seconds


class WebSessions:
    """At most `max_sessions` live sessions (a household has a few parents and devices);
    the oldest is dropped first when full."""

    def __init__(self, lifetime_s: float = 1800.0, max_sessions: int = 16) -> None:
        self.lifetime_s = lifetime_s
        self.max_sessions = max_sessions
        self._by_cookie: dict[str, WebSession] = {}

    def open(self, parent_token: str, now: float,
             token_lifetime_s: float) -> tuple[str, WebSession]:
        self._expire(now)
        while len(self._by_cookie) >= self.max_sessions:
            oldest = min(self._by_cookie, key=lambda k: self._by_cookie[k].expires)
            del self._by_cookie[oldest]
        lifetime = min(self.lifetime_s, token_lifetime_s) if token_lifetime_s > 0 \
            else self.lifetime_s
        cookie = secrets.token_urlsafe(32)
        session = WebSession(parent_token=parent_token, csrf=secrets.token_urlsafe(32),
                             expires=now + lifetime)
        self._by_cookie[cookie] = session
        return cookie, session

    def get(self, cookie: str | None, now: float) -> WebSession | None:
        if not cookie:
            return None
        session = self._by_cookie.get(cookie)
        if session is None:
            return None
        if session.expires <= now:
            del self._by_cookie[cookie]
            return None
        return session

    def close(self, cookie: str | None) -> WebSession | None:
        return self._by_cookie.pop(cookie, None) if cookie else None

    def check_csrf(self, session: WebSession, presented: str | None) -> bool:
        return bool(presented) and secrets.compare_digest(session.csrf, presented or "")

    def __len__(self) -> int:
        return len(self._by_cookie)

    def _expire(self, now: float) -> None:
        for cookie in [c for c, s in self._by_cookie.items() if s.expires <= now]:
            del self._by_cookie[cookie]
