"""The face driver node's parts (nodes/face_driver_node.py is the wiring): its parameter
table and the pacing of its tick (a fixed 50 Hz while the board is busy, paused until
the next deadline or board news when idle)."""
