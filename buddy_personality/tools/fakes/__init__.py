"""Stand-ins for the world outside the graph: a fake LLM server and a face board on a pty."""
