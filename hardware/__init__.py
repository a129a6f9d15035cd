"""Devices behind small interfaces: frame sources, the button console, the seat LEDs."""
