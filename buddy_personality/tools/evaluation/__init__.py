"""Spec 002 Appendix A.2 indicators: metrics, evaluation and plots."""
