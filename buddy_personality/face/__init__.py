"""Face board driver core (ROS-free): serial protocol codec, transports, simulated
board, link manager and the face policy with its staleness backstop (DESIGN §4.4,
spec 002 §11, `face-protocol.md`)."""
