"""The llm_bridge node, split by concern (DESIGN §4.5): the node itself stays in
nodes/llm_bridge_node.py (wiring, subscriptions, publishers, the tick); here are its
parameters and the core they build (parameters.py), the worker side that runs the
blocking HTTP calls (workers.py), the translation between messages and the core's
records (messages.py) and its diagnostics (health.py)."""
