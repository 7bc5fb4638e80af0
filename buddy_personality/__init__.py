"""Buddy's on-robot inner life: ROS-free cores (personality, governor, identity,
cognition, face) and the thin ROS 2 nodes that host them (DESIGN §1)."""
