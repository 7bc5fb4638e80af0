"""personality"""
