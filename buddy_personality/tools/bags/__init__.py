"""Recording, reading, replaying and comparing bags (MCAP)."""
