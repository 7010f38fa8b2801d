"""What the Gymnasium and PettingZoo environments share: the environment ids, the
seats of a table, the learner seats' observations, masks and rewards, and the rule for
an illegal action. ``cardsim.gym`` and ``cardsim.pettingzoo`` wrap a :class:`Match`.
"""

import numpy as np

from . import _cardsim
from .encoding import ENCODERS
from .table import Decision, Table

REWARDS = ("match", "deal")
#: the games whose views show the match points, so that ``rewards="deal"`` can pay each
#: deal's points when they show
DEAL_REWARDS = ("nerts", "speed")
ILLEGAL = ("lose", "raise")


def parse_id(env_id, players=None):
    """``"lopti-3p"`` as ``("lopti", 3)``; ``"spit"`` as ``("spit", 2)``; ``players``
    given as a keyword must agree with the id's."""
    game, _, count = env_id.partition("-")
    info = {g["name"]: g for g in _cardsim.games_list()}
    if game not in ENCODERS or game not in info:
        raise ValueError(f"unknown environment {env_id!r}; games: {', '.join(ENCODERS)} (e.g. 'lopti-3p', 'nerts-4p', 'spit')")
    if count:
        if not (count.endswith("p") and count[:-1].isdigit()):
            raise ValueError(f"environment {env_id!r}: write the players as GAME-Np, e.g. 'lopti-3p'")
        if players is not None and players != int(count[:-1]):
            raise ValueError(f"environment {env_id!r} has {count[:-1]} players, players={players} disagrees")
        players = int(count[:-1])
    low, high = info[game]["players"]
    players = low if players is None else players
    if not low <= players <= high:
        raise ValueError(f"{game} is played by {low} to {high} players, not {players}")
    return game, players, info[game]["default_bots"]


def env_ids():
    """Every environment id, in ``cardsim.games()``'s order: the game's name for a game of
    one table size (``"spit"``, ``"speed"``), else ``GAME-Np`` for each size
    (``"lopti-2p"`` .. ``"lopti-5p"``, ``"nerts-2p"`` .. ``"nerts-8p"``)."""
    ids = []
    for g in _cardsim.games_list():
        if g["name"] in ENCODERS:
            low, high = g["players"]
            ids += [g["name"]] if low == high else [f"{g['name']}-{n}p" for n in range(low, high + 1)]
    return ids


def default_opponents(defaults, players):
    """The game's default bots after the first, cycled over ``players - 1`` seats."""
    return [defaults[(k + 1) % len(defaults)] for k in range(players - 1)]


class Match:
    """The learner seats of one environment: starts a :class:`Table` per episode and
    turns its events into observations, masks, rewards and episode ends.

    ``bots[i]`` plays seat ``i``; ``None`` is a learner seat. ``rewards``: ``"match"``
    (+1 won, -1 lost, 0 without a winner, at the end) or ``"deal"`` (each deal's points,
    when they show: Nerts, the learner's team's; Speed, the learner's minus the
    opponent's). ``illegal``: ``"lose"`` (the match is abandoned; the learner gets -1 and
    the episode ends) or ``"raise"`` (``ValueError``).
    """

    def __init__(self, game, players, bots, flags=None, rewards="match", illegal="lose", label="learner", preset=None):
        if rewards not in REWARDS:
            raise ValueError(f"rewards={rewards!r}: must be one of {REWARDS}")
        if rewards == "deal" and game not in DEAL_REWARDS:
            raise ValueError(f"rewards='deal' is offered for nerts and speed only (a {game} view shows no match points); use rewards='match'")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal={illegal!r}: must be one of {ILLEGAL}")
        if len(bots) != players:
            raise ValueError(f"{game} with {players} players needs {players} seats, got {len(bots)}")
        self.game, self.bots = game, list(bots)
        self.flags, self.rewards, self.illegal, self.preset = flags, rewards, illegal, preset
        self.encoder = ENCODERS[game](flags)
        self.learners = [s for s, b in enumerate(self.bots) if b is None]
        if not self.learners:
            raise ValueError("no learner seat: mark at least one seat None")
        # one learner: ``label``; several: ``label-SEAT`` (labels name one bot each)
        self.labels = {s: label if len(self.learners) == 1 else f"{label}-{s}" for s in self.learners}
        self.table = None
        self.seed = None

    def start(self, rng):
        """Closes the running match and starts the next one from a seed drawn from
        ``rng``, up to the first decision of a learner (a match that ends before any
        is skipped, drawing the next seed); returns that decision's reward (0)."""
        self.close()
        self.obs = {s: np.zeros(self.encoder.size, dtype=np.float32) for s in self.learners}
        self.masks = {s: self._no_mask() for s in self.learners}
        while True:
            self.seed = int(rng.integers(0, 2**63))
            self.table = Table(self.game, self.bots, self.seed, self.flags, self.labels, self.preset).start()
            self.totals = {s: 0 for s in self.learners}
            self.decision = None
            event = self.table.next_event()
            if isinstance(event, Decision):
                return self._decide(event)

    def _decide(self, event):
        """Records a learner's decision: its observation, legal ids and mask; returns the
        reward that came to it since its last decision (rewards="deal")."""
        seat = event.seat
        self.decision = event
        self.ids = self.encoder.legal(event.legal, event.view)
        self.obs[seat] = self.encoder.observe(event.view)
        self.masks[seat] = self.encoder.mask(self.ids, event.legal)
        if self.rewards == "deal":
            view = event.view
            total = self._standing(view["totals"], view["team"] if self.game == "nerts" else seat)
            gain, self.totals[seat] = total - self.totals[seat], total
            return gain
        return 0

    def _standing(self, points, i):
        """The learner's standing that ``rewards="deal"`` pays the changes of, from the
        match points ``points`` (a view's ``totals``, per team in Nerts, or
        ``match_end``'s ``points``, per seat) at index ``i`` (its team or seat): Nerts,
        its team's points; Speed, its points minus the opponent's (only a deal's winner
        scores, so a lost deal costs what the opponent scored)."""
        if self.game == "speed":
            return points[i] - points[1 - i]
        return points[i]

    def _no_mask(self):
        """The mask of a seat with no decision pending: nothing legal."""
        return np.zeros(self.encoder.actions, dtype=np.int8)

    def info(self, seat):
        """The info dict of learner seat ``seat``: its ``action_mask``, and at its
        decision the protocol's ``view`` and ``legal`` actions; the match's ``seed``."""
        info = {"action_mask": self.masks[seat].copy(), "seed": self.seed}
        if self.decision is not None and self.decision.seat == seat:
            info["view"], info["legal"] = self.decision.view, self.decision.legal
        return info

    def is_legal(self, action):
        """Whether id ``action`` is legal at the pending decision."""
        return 0 <= action < self.encoder.actions and bool(self.masks[self.decision.seat][action])

    def play(self, action):
        """Plays id ``action`` at the pending decision. Returns ``("decide", seat,
        reward)`` for the next learner decision, or ``("end", rewards, truncated,
        extra)`` with each learner seat's final reward when the match ended (a capped
        match is truncated); an illegal action under ``illegal="lose"`` ends it with
        -1 for the seat that chose it."""
        seat = self.decision.seat
        if not self.is_legal(action):
            legal = np.flatnonzero(self.masks[seat]).tolist()
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal now; legal action ids: {legal}")
            self.close()
            rewards = {s: 0 for s in self.learners}
            rewards[seat] = -1
            return ("end", rewards, False, {"illegal": action})
        index = None if action == self.encoder.idle else self.ids.index(action)
        self.decision = None
        self.masks[seat] = self._no_mask()
        self.table.answer(seat, index)
        event = self.table.next_event()
        if isinstance(event, Decision):
            return ("decide", event.seat, self._decide(event))
        rewards = {s: self._final(s, event.results[s]) for s in self.learners}
        capped = any(r["ending"] == "capped" for r in event.results.values())
        return ("end", rewards, capped, {"result": event.results, "csv": event.csv})

    def _final(self, seat, result):
        if self.rewards == "deal":
            return self._standing(result["points"], seat) - self.totals[seat]
        if result["won"]:
            return 1
        return 0 if result["winner"] is None else -1

    def close(self):
        """Ends the running match at once and joins its thread."""
        if self.table is not None:
            self.table.close()
            self.table = None
            self.decision = None
