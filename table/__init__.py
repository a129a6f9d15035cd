"""Pure game logic: cards, hand evaluation, engine, equity, Tock marks, chips, histories.

Imports no cv2, gpiozero, flask, nor any other tocktable package: everything depends on
``table``, never the reverse.
"""
