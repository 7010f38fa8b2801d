#!/usr/bin/env python3
"""Spit `random`: moves, slaps, stall spits and give-aways, each uniform over what
cardsim offers, with the dice cardsim seeds per match, so a run is reproducible on any
thread count.
Run it as: cardsim match spit --bot exec:examples/bots/spit_random.py --bot greedy
"""

import botlib

if __name__ == "__main__":
    botlib.run("spit_random", "1.0", botlib.uniform, games=["spit"], plays=["slap", "spit_pile", "give_away"])
