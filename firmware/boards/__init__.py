# One module per board: its I2C bus, display pins, button pins and a wiring table in the
# comments. firmware/board.py picks one at start (or /board.json names it).
