#!/usr/bin/env python3
"""Speed `greedy`, as an external bot: an exact clone of the built-in strategy.

cardsim lists the legal actions as plays in card order (lowest card first, pile 0
before pile 1), then the draw; greedy takes the first one.

    cardsim match speed --bot exec:examples/bots/speed_greedy.py --bot smart
"""

import botlib


def decide(msg, match):
    return msg["actions"][0]["index"]


if __name__ == "__main__":
    botlib.run("speed_greedy", "1.0", decide, games=["speed"])
