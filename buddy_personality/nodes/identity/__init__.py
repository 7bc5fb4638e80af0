"""The identity node's parts (nodes/identity_node.py is the wiring): its parameter table
and its calls into the personality node."""
