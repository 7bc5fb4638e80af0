"""Runs the dashboard's ASGI app with uvicorn on a thread of its own, off the ROS
executor thread (docs/NODES.md: blocking work never runs on the executor)."""

from __future__ import annotations

import asyncio
import contextlib
import threading

import uvicorn

from buddy_personality.dashboard.port import ChangeFeed


class DashboardServer:
    """`start()` returns once the socket is bound (or raises with the reason, e.g. the port
    is taken); `stop()` asks uvicorn to finish open responses and joins the thread."""

    def __init__(self, app: object, host: str, port: int, feed: ChangeFeed) -> None:
        self.config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                                     lifespan="off", access_log=False,
                                     timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(self.config)
        self.feed = feed
        self.thread: threading.Thread | None = None
        self.error: BaseException | None = None
        self.bound: tuple[str, int] | None = None
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None

    def start(self, timeout: float = 10.0) -> tuple[str, int]:
        self.thread = threading.Thread(target=self._run, name="parent_dashboard_http",
                                       daemon=True)
        self.thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError("the dashboard's web server did not start in time")
        if self.bound is None:
            raise RuntimeError(f"the dashboard's web server could not start: {self.error}")
        return self.bound

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._loop = loop
        self.feed.bind(loop)
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:
            self.error = exc
        finally:
            self._ready.set()
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _serve(self) -> None:
        config = self.config
        if not config.loaded:
            config.load()
        self.server.lifespan = config.lifespan_class(config)
        try:
            await self.server.startup()
        except SystemExit as exc:   # uvicorn exits on a bind error after logging it
            self.error = OSError(f"cannot listen on {config.host}:{config.port}")
            raise RuntimeError(str(self.error)) from exc
        if self.server.should_exit:
            self.error = OSError(f"cannot listen on {config.host}:{config.port}")
            return
        sockets = [s for server in self.server.servers for s in server.sockets]
        if sockets:
            name = sockets[0].getsockname()
            self.bound = (name[0], name[1])
        self._ready.set()
        await self._main_loop()
        await self.server.shutdown()

    async def _main_loop(self) -> None:
        """uvicorn's own main loop wakes ten times a second to look at `should_exit`: the
        idle robot's largest single source of wake-ups after the executor (issue 14 idle
        CPU). Here it wakes once a second (uvicorn's date header is per second anyway)
        and `stop()` wakes it at once."""
        self._wake = asyncio.Event()
        counter = 0
        while not await self.server.on_tick(counter):
            counter = (counter + 10) % 864000   # on_tick's once-a-second work each time
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), 1.0)

    def stop(self, timeout: float = 5.0) -> None:
        self.server.should_exit = True
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            with contextlib.suppress(RuntimeError):   # the loop already closed
                loop.call_soon_threadsafe(wake.set)
        if self.thread is not None:
            self.thread.join(timeout)
