"""Turning camera frames into card observations (detect, rectify, classify, track)."""
