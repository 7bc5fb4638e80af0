"""cognition"""
