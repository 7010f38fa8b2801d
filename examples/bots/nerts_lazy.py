#!/usr/bin/env python3
"""Nerts `lazy`, as an external bot: an exact clone of the built-in strategy.

Every legal move falls in a kind; lazy ranks the kinds (LAZY_ORDER) and takes the first
action of the best kind in the order cardsim lists them. It calls at once, plays what is
open, rearranges its work piles only when that opens a play at once, and turns the
stock only when it has nothing else to do. With only aimless moves left it takes the
first, unless a partner's action holds a pile of its layout: then it waits.

    cardsim match nerts --bot exec:examples/bots/nerts_lazy.py --bot balanced
"""

import botlib

LAZY_ORDER = ["call", "nerts_found", "work_found", "waste_found", "nerts_work", "flip_n",
              "waste_work", "stack_for_nerts", "stack_useful", "stock", "rotate"]


def where(source):
    """'nerts', 'waste' or 'work' for an action's "from"."""
    return source if isinstance(source, str) else "work"


def kind(a):
    """The kind of move `a` is, as the built-in styles classify it."""
    name = a["action"]
    if name in ("call", "flip_n", "rotate"):
        return name
    if name in ("flip3", "recycle"):
        return "stock"
    origin = where(a["from"])
    if name == "to_foundation":
        return origin + "_found"
    # build, fill or slip_under: onto the work piles.
    if origin != "work":
        return origin + "_work"
    opens = a["opens"]                 # what a move between work piles opens at once
    if opens["nerts"]:
        return "stack_for_nerts"
    if opens["nerts"] or opens["waste"] or opens["work"]:
        return "stack_useful"
    return "stack_other"               # opens nothing: not in lazy's order


def decide(msg, match):
    actions = msg["actions"]
    best = None
    for a in actions:
        k = kind(a)
        if k in LAZY_ORDER:
            rank = LAZY_ORDER.index(k)
            if best is None or rank < best[0]:
                best = (rank, a["index"])
    if best is not None:
        return best[1]
    if msg["view"]["partner_busy"]:
        return None                    # wait for the partner's hand to leave the layout
    return actions[0]["index"]


if __name__ == "__main__":
    botlib.run("nerts_lazy", "1.0", decide, games=["nerts"])
