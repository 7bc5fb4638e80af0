"""Shared plumbing of the thin nodes: QoS, parameters, diagnostics, rejections, main()."""
