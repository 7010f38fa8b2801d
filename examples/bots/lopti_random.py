#!/usr/bin/env python3
"""A random Lopti bot: every decision uniform over the legal actions, with the dice
cardsim seeds per match (so a run is reproducible on any thread count).

    cardsim match lopti --bot exec:examples/bots/lopti_random.py --bot lowest
"""

import botlib


def decide(msg, match):
    return match.rng.randrange(len(msg["actions"]))


if __name__ == "__main__":
    botlib.run("lopti_random", "1.0", decide, games=["lopti"], plays=["swap", "give", "rule_swap"])
