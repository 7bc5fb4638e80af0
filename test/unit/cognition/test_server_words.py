"""Why Buddy runs on its rules, in words (issue 15: `--llm-url` pointing at nothing, or at
a server that refuses, gave no word anywhere)."""

from __future__ import annotations

from buddy_personality.cognition.client import ClientConfig, LlmClient
from buddy_personality.cognition.server_words import offline_line, server_reason
from buddy_personality.tools.fakes.fake_llm_server import FakeLlmServer, closed_port_url


def test_a_closed_port_is_unreachable() -> None:
    client = LlmClient(ClientConfig(base_url=closed_port_url(), connect_timeout_s=0.5))
    try:
        assert client.probe() is False
        assert client.probe_error.startswith("unreachable (ConnectError")
    finally:
        client.close()


def test_a_server_that_answers_with_an_error_is_refusing(server: FakeLlmServer) -> None:
    server.set_mode("error500")
    client = LlmClient(ClientConfig(base_url=server.url))
    try:
        assert client.probe() is False
        assert client.probe_error == "refusing (GET /models answered HTTP 500)"
        server.set_mode("normal")
        assert client.probe() is True and client.probe_error == ""
    finally:
        client.close()


def test_the_offline_line_says_where_why_and_what_buddy_does() -> None:
    line = offline_line("http://127.0.0.1:9/v1", server_reason("unreachable (ConnectError)",
                                                               ""), 15.0)
    assert line == ("LLM server http://127.0.0.1:9/v1 unreachable (ConnectError): Buddy "
                    "answers from its rules (layer 0) and tries the server again every 15 s")
    assert server_reason("", "HTTP 400: response_format") == "failing (HTTP 400: response_format)"
    assert server_reason("", "") == "not answering"
