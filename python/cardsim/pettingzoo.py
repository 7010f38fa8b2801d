"""PettingZoo AEC environments: several learners at one table (self-play), for every
game (docs/python.md, "PettingZoo"). Needs the ``env`` extra: ``pip install
"./python[env]"``.

::

    import cardsim.pettingzoo
    env = cardsim.pettingzoo.env("lopti-3p")          # three learners
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(info["action_mask"])
        env.step(action)
"""

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from .envs import Match, parse_id

__all__ = ["env", "CardsimAEC"]


class CardsimAEC(AECEnv):
    """A match of ``game`` whose learner seats are the agents ``player_SEAT``: ``bots``
    gives one entry per seat, ``None`` for a learner (default: every seat), a bot text
    or Python bot for the others. The agent to act is the learner the engine asks next
    (in the real-time games, in simulated time). The other keywords, the observations,
    actions, masks (``info["action_mask"]``), rewards and seeding are those of
    ``cardsim.gym.CardsimEnv``; ``preset`` and ``label`` apply to every learner."""

    metadata = {"render_modes": [], "name": "cardsim_v0", "is_parallelizable": False}

    def __init__(self, game, players=2, bots=None, preset=None, flags=None, rewards="match", illegal="lose", label="learner"):
        super().__init__()
        bots = [None] * players if bots is None else list(bots)
        self._match = Match(game, players, bots, flags, rewards, illegal, label, preset)
        enc = self._match.encoder
        self.possible_agents = [f"player_{s}" for s in self._match.learners]
        self._seat = {a: s for a, s in zip(self.possible_agents, self._match.learners)}
        self._agent = {s: a for a, s in self._seat.items()}
        self.observation_spaces = {a: spaces.Box(enc.low, enc.high, shape=(enc.size,), dtype=np.float32) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(enc.actions) for a in self.possible_agents}
        self._rng = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        """The agent's observation at its latest decision (zeros before its first)."""
        return self._match.obs[self._seat[agent]].copy()

    def reset(self, seed=None, options=None):
        """Abandons the running match (its thread is stopped and joined) and starts the
        next, seeded as ``cardsim.gym.CardsimEnv.reset``."""
        if seed is not None or self._rng is None:
            self._rng, _ = seeding.np_random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        first = self._match.start(self._rng)
        self._decided(self._match.decision.seat, first)

    def _decided(self, seat, reward):
        """The engine asks learner ``seat``; ``reward`` came to it since its last turn."""
        self.agent_selection = self._agent[seat]
        self.rewards[self.agent_selection] += float(reward)
        self._infos()

    def _infos(self, extra=None):
        self.infos = {a: dict(self._match.info(self._seat[a]), **(extra or {})) for a in self.agents}

    def step(self, action):
        """Plays the selected agent's action id (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        outcome = self._match.play(int(action))
        if outcome[0] == "decide":
            self._decided(outcome[1], outcome[2])
        else:
            _, rewards, truncated, extra = outcome
            for a in self.agents:
                self.rewards[a] = float(rewards[self._seat[a]])
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
            self._infos(extra)
        self._accumulate_rewards()

    def close(self):
        """Stops the running match, if any, and joins its thread."""
        self._match.close()

    def __del__(self):
        if getattr(self, "_match", None) is not None:
            self._match.close()


def env(env_id, *, players=None, **kwargs):
    """The AEC environment ``env_id`` (``"lopti-3p"``, ``"nerts-4p"``, ``"spit"``,
    ``"speed"``); the other keywords are :class:`CardsimAEC`'s."""
    game, players, _ = parse_id(env_id, players)
    return CardsimAEC(game, players, **kwargs)
