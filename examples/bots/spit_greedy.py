#!/usr/bin/env python3
"""Spit `greedy`, as an external bot: an exact clone of the built-in strategy.

Moves: the first legal play in the order cardsim lists them (slots left to right, own
pile first), else the first flip, else the first fill that exposes a face-down card;
with only aimless fills left it stays idle. Slap: the smaller spit pile, its own on a
tie. The spit pile and the give-away decisions are left to cardsim's default (which is
the same rule).

    cardsim match spit --bot exec:examples/bots/spit_greedy.py --bot smart
"""

import botlib


def smaller_pile(view):
    """The smaller spit pile; the viewer's own pile (pile `seat`) on a tie."""
    me = view["seat"]
    other = 1 - me
    piles = view["piles"]
    return other if piles[other]["cards"] < piles[me]["cards"] else me


def decide(msg, match):
    view, actions = msg["view"], msg["actions"]
    if msg["decision"] == "slap":
        return smaller_pile(view)      # the actions are the piles: index = pile
    # A move. Plays come first, then flips, then fills: the first action that is not
    # an aimless fill (moving a slot's only card) is the greedy choice.
    for a in actions:
        if a["action"] != "fill" or a["exposes"]:
            return a["index"]
    return None                        # only aimless fills: stay idle


if __name__ == "__main__":
    botlib.run("spit_greedy", "1.0", decide, games=["spit"], plays=["slap"])
