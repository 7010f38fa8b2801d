#!/usr/bin/env python3
"""Lopti `lowest`, as an external bot: an exact clone of the built-in strategy.

Setup swap: move the most useful hand card face-up for the least useful face-up card,
if that improves the face-up cards. Turns: play every card of the lowest ordinary rank
it may play; with no ordinary play, one special card (2, then 7, 3, 10) as few as it
may; else reveal a face-down card (blind); else take the pile.

    cardsim match lopti --bot exec:examples/bots/lopti_lowest.py --bot burner --bot random
"""

import botlib

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SPECIALS = {"2", "3", "7", "10"}
# How useful a card is late in the round: the specials above the ace, the 10 best.
LATE_VALUE = {r: i for i, r in enumerate(RANKS)}
LATE_VALUE.update({"10": 16, "2": 15, "7": 14, "3": 13})
SPECIALS_CHEAPEST_FIRST = ["2", "7", "3", "10"]


def swap(view, actions):
    if not view["hand"] or not view["face_up"]:
        return 0
    give = max(view["hand"], key=LATE_VALUE.get)
    take = min(view["face_up"], key=LATE_VALUE.get)
    if LATE_VALUE[give] <= LATE_VALUE[take]:
        return 0                                   # action 0 is "keep"
    for a in actions:
        if a["action"] == "swap" and a["hand"] == give and a["face_up"] == take:
            return a["index"]
    raise ValueError("the swap is always offered")


def move(actions):
    plays = [a for a in actions if a["action"] == "play"]
    # Plays come by rank, low to high, each by count: the first ordinary play has the
    # lowest rank; take the last play of that rank (all its cards).
    ordinary = [a for a in plays if a["rank"] not in SPECIALS]
    if ordinary:
        rank = ordinary[0]["rank"]
        return [a for a in ordinary if a["rank"] == rank][-1]["index"]
    for special in SPECIALS_CHEAPEST_FIRST:
        for a in plays:
            if a["rank"] == special:
                return a["index"]                  # the fewest cards of it
    for fallback in ("blind", "pickup"):
        for a in actions:
            if a["action"] == fallback:
                return a["index"]
    return 0


def decide(msg, match):
    if msg["decision"] == "swap":
        return swap(msg["view"], msg["actions"])
    return move(msg["actions"])


if __name__ == "__main__":
    botlib.run("lopti_lowest", "1.0", decide, games=["lopti"], plays=["swap"])
