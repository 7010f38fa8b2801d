#!/usr/bin/env python3
"""A random Nerts bot: every decision uniform over the legal actions, with the dice
cardsim seeds per match (so a run is reproducible on any thread count).

    cardsim match nerts --bot exec:examples/bots/nerts_random.py --bot greedy
"""

import botlib


def decide(msg, match):
    return match.rng.randrange(len(msg["actions"]))


if __name__ == "__main__":
    botlib.run("nerts_random", "1.0", decide, games=["nerts"])
