"""Shared fixtures for the cognition tests: one loopback fake LLM server per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from buddy_personality.tools.fakes.fake_llm_server import FakeLlmServer


@pytest.fixture(scope="module")
def _module_server() -> Iterator[FakeLlmServer]:
    with FakeLlmServer(slow_s=1.0) as srv:
        yield srv


@pytest.fixture
def server(_module_server: FakeLlmServer) -> FakeLlmServer:
    _module_server.reset()
    _module_server.slow_s = 1.0
    _module_server.chunk_delay_s = 0.0
    return _module_server
