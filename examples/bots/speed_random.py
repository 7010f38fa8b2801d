#!/usr/bin/env python3
"""Speed `random`: moves (plays and draws), each uniform over what cardsim offers, with
the dice cardsim seeds per match, so a run is reproducible on any thread count.
Run it as: cardsim match speed --bot exec:examples/bots/speed_random.py --bot greedy
"""

import botlib

if __name__ == "__main__":
    botlib.run("speed_random", "1.0", botlib.uniform, games=["speed"], plays=[])
