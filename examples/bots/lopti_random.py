#!/usr/bin/env python3
"""Lopti `random`: setup swaps, turns, gifts and special-rule swaps, each uniform over
what cardsim offers, with the dice cardsim seeds per match, so a run is reproducible
on any thread count.
Run it as: cardsim match lopti --bot exec:examples/bots/lopti_random.py --bot lowest
"""

import botlib

if __name__ == "__main__":
    botlib.run("lopti_random", "1.0", botlib.uniform, games=["lopti"], plays=["swap", "give", "rule_swap"])
