#!/usr/bin/env python3
"""A Lopti session player, as an external bot: an exact clone of the built-in `lowest`
with the built-in selfish rule maker and voter and uniform rock-paper-scissors
(docs/bot-protocol.md section 5.5).

It plays its rounds as lopti_lowest.py does and answers the session decisions itself,
from the values cardsim's quick simulation gives each option for this bot:
  make_rule  the rule of highest value, if a value is above 0 (the first on a tie);
             else none
  propose    the change of highest gain, if a gain is above one point (0.01); else none
  vote       yes if its gain is above one point, no if below minus one point, else
             abstain
  rps        each sign 1/3, from cardsim's generator seeded with the seat's meta seed
             at the session's first throw (botlib.CardsimRng): the very throws of the
             built-in uniform strategy
Withdrawals and setup votes stay with its built-in strategies (`maker=`, `voter=` after
the program, default selfish).

    cardsim session lopti --bot exec:examples/bots/lopti_session_selfish.py --bot burner --bot random
"""

import botlib
import lopti_lowest

MARGIN = 0.01    # below this gain a selfish player sees none


def best(actions, key, floor):
    """The index of the action whose `key` is highest and above `floor` (the first of
    equal ones), else 0 (none)."""
    pick = None
    for a in actions:
        value = a.get(key)
        if value is not None and value > floor and (pick is None or value > pick[key]):
            pick = a
    return 0 if pick is None else pick["index"]


def ballot(gain):
    if gain is not None and gain > MARGIN:
        return "yes"
    if gain is not None and gain < -MARGIN:
        return "no"
    return "abstain"


SIGNS = ["rock", "paper", "scissors"]
dice = {}    # the session's dice, started again from the seed at its first throw


def throw(msg):
    if msg["view"]["session_throws"] == 0:
        dice["rng"] = botlib.CardsimRng(msg["view"]["seed"])
    sign = SIGNS[dice["rng"].below(3)]
    return next(a["index"] for a in msg["actions"] if a["action"] == sign)


def decide(msg, match):
    kind = msg["decision"]
    if kind == "make_rule":
        return best(msg["actions"], "value", 0.0)
    if kind == "propose":
        return best(msg["actions"], "gain", MARGIN)
    if kind == "vote":
        want = ballot(msg["view"]["proposal"]["gain"])
        return next(a["index"] for a in msg["actions"] if a["action"] == want)
    if kind == "rps":
        return throw(msg)
    return lopti_lowest.decide(msg, match)


if __name__ == "__main__":
    botlib.run("lopti_session_selfish", "1.0", decide, games=["lopti"], plays=["swap", "make_rule", "propose", "vote", "rps"])
