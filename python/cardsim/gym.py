"""Gymnasium environments: one learner seat against built-in or Python bots, for every
game (docs/python.md, "Gymnasium"). Needs the ``env`` extra: ``pip install
"./python[env]"``. Importing it registers every environment id with Gymnasium as
``cardsim/ID``, so ``gymnasium.make("cardsim/lopti-3p", opponents=[...])`` makes the
same environment as ``cardsim.gym.make("lopti-3p", opponents=[...])`` (inside
Gymnasium's usual wrappers); ``gymnasium.make("cardsim.gym:cardsim/lopti-3p")``
imports this module first.

::

    import cardsim.gym
    env = cardsim.gym.make("lopti-3p", opponents=["lowest", "burner"])
    obs, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
"""

import gymnasium
import numpy as np
from gymnasium import spaces

from .envs import Match, default_opponents, env_ids, parse_id

__all__ = ["make", "CardsimEnv", "NAMESPACE"]

#: the Gymnasium namespace of the registered ids: ``cardsim/lopti-3p``
NAMESPACE = "cardsim"


class CardsimEnv(gymnasium.Env):
    """One seat of a match of ``game`` played by the agent, the others by
    ``opponents`` (bot texts or Python bots; default: the game's default bots after the
    first). Each episode is one match; ``reset(seed=...)`` seeds the episodes as
    Gymnasium specifies (the match seed of each episode is drawn from ``np_random``; it
    is in ``info["seed"]``, so ``cardsim.trace(..., seed=info["seed"], seating="one")``
    replays it).

    - ``seat``: the learner's seat (0-based); the opponents take the others in order.
    - ``preset``: the learner's reaction preset in the real-time games (default: the
      game's default, ``casual``, as for an ``exec:`` bot); its actions take time from it
      exactly as a built-in bot's do.
    - ``label``: its label in ``info["csv"]`` (with ``@preset``).
    - ``flags``: rule variants, as for ``cardsim.match``.
    - ``rewards``: ``"match"`` (+1 won, -1 lost, 0 without a winner, when the match
      ends) or ``"deal"`` (each deal's points when they show: Nerts, the learner's
      team's; Speed, the learner's minus the opponent's).
    - ``illegal``: ``"lose"`` (an action outside the mask ends the episode with reward
      -1 and ``info["illegal"]``) or ``"raise"`` (``ValueError``).

    Observations: a float32 vector (docs/python.md lists every field). Actions:
    ``Discrete``; ``info["action_mask"]`` and ``action_masks()`` give the legal ones.
    """

    metadata = {"render_modes": []}

    def __init__(self, game, players=2, opponents=None, seat=0, preset=None, flags=None, rewards="match", illegal="lose", label="learner", defaults=()):
        opponents = list(default_opponents(defaults, players) if opponents is None else opponents)
        if not 0 <= seat < players:
            raise ValueError(f"seat={seat}: {game} with {players} players has seats 0 to {players - 1}")
        bots = opponents[:seat] + [None] + opponents[seat:]
        self.seat = seat
        self._match = Match(game, players, bots, flags, rewards, illegal, label, preset)
        enc = self._match.encoder
        self.observation_space = spaces.Box(enc.low, enc.high, shape=(enc.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(enc.actions)
        self.encoder = enc

    def reset(self, *, seed=None, options=None):
        """Abandons the running match (its thread is stopped and joined) and starts the
        next: returns the learner's first observation and info."""
        super().reset(seed=seed)
        self._match.start(self.np_random)
        return self._match.obs[self.seat].copy(), self._match.info(self.seat)

    def step(self, action):
        """Plays action id ``action``; returns ``(obs, reward, terminated, truncated,
        info)``. A capped match (``sim.max_actions``, or a liveness break) is truncated;
        at the end ``info`` holds ``result`` (each learner's ``match_end`` message) and
        ``csv`` (the match's summary, as ``cardsim.match`` writes it)."""
        if self._match.decision is None:
            raise RuntimeError("step() needs a running episode: call reset() first")
        outcome = self._match.play(int(action))
        info = self._match.info(self.seat)
        if outcome[0] == "decide":
            return self._match.obs[self.seat].copy(), float(outcome[2]), False, False, info
        _, rewards, truncated, extra = outcome
        info.update(extra)
        return self._match.obs[self.seat].copy(), float(rewards[self.seat]), not truncated, truncated, info

    def action_masks(self):
        """The legal-action mask of the pending decision (int8, 1 = legal)."""
        return self._match.masks[self.seat]

    def close(self):
        """Stops the running match, if any, and joins its thread."""
        self._match.close()

    def __del__(self):
        if getattr(self, "_match", None) is not None:
            self._match.close()


def make(env_id, *, players=None, opponents=None, **kwargs):
    """The environment ``env_id``: ``"spit"``, ``"speed"``, ``"lopti-Np"`` (2-5),
    ``"nerts-Np"`` (2-8), or the game's name with ``players=N``; the other keywords are
    :class:`CardsimEnv`'s."""
    game, players, defaults = parse_id(env_id, players)
    return CardsimEnv(game, players, opponents, defaults=defaults, **kwargs)


def _register():
    """Registers every environment id (``envs.env_ids()``) with Gymnasium as
    ``cardsim/ID``, made by :func:`make`; an id already registered is left as it is."""
    for env_id in env_ids():
        name = f"{NAMESPACE}/{env_id}"
        if name not in gymnasium.envs.registry:
            gymnasium.register(name, entry_point=f"{__name__}:make", kwargs={"env_id": env_id})


_register()
