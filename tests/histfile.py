# The history a test reads off the simulated flash: history.json's games, oldest first (a
# header line, then a line a game; firmware/history/entries.py).
import json
import os


def games(folder):
    with open(os.path.join(str(folder), "history.json")) as f:
        lines = f.read().split("\n")
    head = json.loads(lines[0])
    assert head == {"format": "phase10-history", "v": 2} and lines[-1] == ""
    return [json.loads(t) for t in lines[1:-1]]
