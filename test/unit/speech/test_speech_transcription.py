"""The transcription client against the fake OpenAI-compatible STT server: one multipart
request with the turn's WAV (built in memory), the text back, failures as results."""

from __future__ import annotations

import numpy as np

from buddy_personality.speech.transcription import TranscriptionClient
from buddy_personality.tools.fakes.fake_llm_server import closed_port_url
from buddy_personality.tools.fakes.fake_stt_server import FakeSttServer


def test_one_request_per_turn_with_the_wav_and_fields() -> None:
    audio = (np.sin(np.arange(16000) / 5) * 8000).astype(np.int16)
    with FakeSttServer(["hey buddy I like frogs"]) as server:
        client = TranscriptionClient(server.url, model="whisper-small", language="en")
        result = client.transcribe(audio, 16000)
        client.close()
        turns = server.turns()
    assert result.ok and result.text == "hey buddy I like frogs"
    assert len(turns) == 1
    t = turns[0]
    assert t.fields == {"model": "whisper-small", "response_format": "json", "language": "en"}
    assert t.sample_rate == 16000 and t.samples.size == 16000
    assert np.allclose(t.samples * 32768, audio, atol=1)


def test_server_errors_and_refusals_are_results_not_exceptions() -> None:
    with FakeSttServer(mode="error500") as server:
        client = TranscriptionClient(server.url)
        bad = client.transcribe(np.zeros(1600, np.int16), 16000)
        assert not bad.ok and bad.error == "HTTP 500"
        assert not client.probe()
        client.close()
    client = TranscriptionClient(closed_port_url(), connect_timeout_s=0.5)
    down = client.transcribe(np.zeros(1600, np.int16), 16000)
    assert not down.ok and "Connect" in down.error
    assert not client.probe()
    client.close()


def test_probe_counts_any_http_answer_as_up() -> None:
    with FakeSttServer() as server:
        client = TranscriptionClient(server.url)
        assert client.probe()
        client.close()


def test_a_proxy_named_by_the_environment_never_sees_the_audio(monkeypatch) -> None:
    """DESIGN §4.7: the child's audio goes to no host but the configured server. An
    HTTP(S)_PROXY in the robot's environment (a family router's setting, a shell profile)
    must not route it elsewhere: httpx honours those by default."""
    import socket
    import threading

    proxy = socket.socket()
    proxy.bind(("127.0.0.1", 0))
    proxy.listen(4)
    proxy.settimeout(0.2)
    seen: list[object] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = proxy.accept()
            except OSError:
                continue
            seen.append(conn)
            conn.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    proxy_url = f"http://127.0.0.1:{proxy.getsockname()[1]}"
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
        monkeypatch.setenv(name, proxy_url)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    try:
        with FakeSttServer(["hello buddy"]) as server:
            client = TranscriptionClient(server.url)
            result = client.transcribe(np.zeros(1600, np.int16), 16000)
            client.close()
            turns = server.turns()
    finally:
        stop.set()
        thread.join(timeout=2.0)
        proxy.close()
    assert result.ok and result.text == "hello buddy"
    assert len(turns) == 1
    assert seen == []
