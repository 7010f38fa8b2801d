#!/usr/bin/env python3
"""A linear softmax policy for Lopti, improved by REINFORCE against two `random` bots,
with numpy only (docs/python.md, "Examples"). It prints the learning curve: the win
rate of each block of episodes with its 95% Wilson interval (a random policy wins about
a third of the time).

    pip install "./python[env]"
    python examples/python/learn_lopti.py [--episodes 3000] [--block 250] [--seed 1]
"""

import argparse
import math

import numpy as np

import cardsim.gym


def wilson(wins, n, z=1.96):
    """The 95% Wilson score interval of `wins` out of `n`."""
    p = wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


class LinearPolicy:
    """Logits ``b[a] + W[a] . x`` over the legal actions, ``x`` the observation squashed
    to (-1, 1) with a constant 1 appended."""

    def __init__(self, n_obs, n_actions, rng):
        self.W = np.zeros((n_actions, n_obs + 1))
        self.rng = rng

    @staticmethod
    def features(obs):
        return np.append(obs / (1.0 + np.abs(obs)), 1.0)

    def probabilities(self, x, mask):
        logits = np.where(mask == 1, self.W @ x, -np.inf)
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def act(self, obs, mask):
        x = self.features(obs)
        p = self.probabilities(x, mask)
        return int(self.rng.choice(len(p), p=p)), x, p

    def update(self, steps, advantage, rate):
        """REINFORCE: W += rate * advantage * grad log pi(a|x) for each step (a, x, p)."""
        for a, x, p in steps:
            grad = -p
            grad[a] += 1.0
            self.W += rate * advantage * np.outer(grad, x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=3000)
    ap.add_argument("--block", type=int, default=250)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rate", type=float, default=0.02)
    args = ap.parse_args()

    env = cardsim.gym.make("lopti-3p", opponents=["random", "random"])
    policy = LinearPolicy(env.observation_space.shape[0], env.action_space.n, np.random.default_rng(args.seed))
    baseline, wins, steps_total = 0.0, 0, 0
    print(f"{'episodes':>10} {'win rate':>9} {'95% interval':>16}")
    obs, info = env.reset(seed=args.seed)
    for episode in range(1, args.episodes + 1):
        steps = []
        while True:
            action, x, p = policy.act(obs, info["action_mask"])
            steps.append((action, x, p))
            obs, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                break
        steps_total += len(steps)
        wins += info["result"][0]["won"]
        policy.update(steps, reward - baseline, args.rate)
        baseline += 0.01 * (reward - baseline)
        if episode % args.block == 0:
            lo, hi = wilson(wins, args.block)
            print(f"{episode - args.block + 1:>5}-{episode:<5}{wins / args.block:>8.3f}   [{lo:.3f}, {hi:.3f}]", flush=True)
            wins = 0
        obs, info = env.reset()
    env.close()
    print(f"{steps_total} decisions in {args.episodes} episodes")


if __name__ == "__main__":
    main()
