"""The personality node's parts (nodes/personality_node.py is the wiring): its parameter
table, its services, its rviz markers and its diagnostics values."""
