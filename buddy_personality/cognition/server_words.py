"""What Buddy says (in logs, diagnostics and the live view) about the LLM server, so a
person sees at once why Buddy answers from its rules (issue 15: `--llm-url` pointing at
nothing gave no word anywhere)."""

from __future__ import annotations


def server_reason(probe_error: str, call_error: str) -> str:
    """Why the server is offline: the last probe's failure, else the last call's."""
    return probe_error or (f"failing ({call_error})" if call_error else "not answering")


def offline_line(url: str, reason: str, probe_interval_s: float) -> str:
    return (f"LLM server {url} {reason}: Buddy answers from its rules (layer 0) and "
            f"tries the server again every {probe_interval_s:.0f} s")


def online_line(url: str) -> str:
    return f"LLM server {url} answers: Buddy talks through the LLM (layer 1)"
