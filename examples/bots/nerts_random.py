#!/usr/bin/env python3
"""Nerts `random`: moves, the call included, each uniform over what cardsim offers, with
the dice cardsim seeds per match, so a run is reproducible on any thread count.
Run it as: cardsim match nerts --bot exec:examples/bots/nerts_random.py --bot lazy
"""

import botlib

if __name__ == "__main__":
    botlib.run("nerts_random", "1.0", botlib.uniform, games=["nerts"], plays=[])
