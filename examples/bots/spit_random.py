#!/usr/bin/env python3
"""A random Spit bot: every decision uniform over the legal actions, with the dice
cardsim seeds per match (so a run is reproducible on any thread count).

    cardsim match spit --bot exec:examples/bots/spit_random.py --bot greedy
"""

import botlib


def decide(msg, match):
    return match.rng.randrange(len(msg["actions"]))


if __name__ == "__main__":
    botlib.run("spit_random", "1.0", decide, games=["spit"], plays=["slap", "spit_pile", "give_away"])
