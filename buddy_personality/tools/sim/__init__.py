"""The sim-time graph driver, the simulated day, scripted scenarios and the demo."""
