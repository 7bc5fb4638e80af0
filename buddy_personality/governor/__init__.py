"""governor"""
