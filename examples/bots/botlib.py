"""The cardsim bot protocol, version 1 (docs/bot-protocol.md), for Python bots.

A bot is a function that answers one decision: it gets the `decide` message (a dict
with "decision", "view" and "actions") and the current match, and returns the index of
the action it takes (or None to stay idle in a real-time move). `run` does the rest:
it answers the hello, keeps track of the match, and writes one JSON line per answer.

    import botlib
    def decide(msg, match):
        return 0                      # always the first legal action
    botlib.run("first", "1.0", decide, games=["speed"])

Standard library only. Logs go to standard error: standard output is the protocol's.
"""

import json
import random
import sys


class Match:
    """The match being played: the bot's seat and its own dice, seeded by cardsim so
    that the same deal gives the same dice on any thread count."""

    def __init__(self, seat, seed):
        self.seat = seat
        self.rng = random.Random(seed)


class CardsimRng:
    """cardsim's own generator (PCG64-MCG, seeded as Rust's rand seeds it from a u64), for
    a bot that wants exactly the dice of a built-in strategy from a seed cardsim sends."""

    MASK64 = (1 << 64) - 1

    def __init__(self, seed):
        state, words = seed, b""
        for _ in range(4):                       # four PCG32 outputs make the 128-bit seed
            state = (state * 0x5851F42D4C957F2D + 0xA17654E46FBE17F3) & self.MASK64
            x = (((state >> 18) ^ state) >> 27) & 0xFFFFFFFF
            rot = state >> 59
            words += (((x >> rot) | (x << ((32 - rot) & 31))) & 0xFFFFFFFF).to_bytes(4, "little")
        self.state = int.from_bytes(words, "little") | 1

    def next_u64(self):
        self.state = (self.state * 0x2360ED051FC65DA44385DF649FCCF645) & ((1 << 128) - 1)
        rot = self.state >> 122
        x = ((self.state >> 64) ^ self.state) & self.MASK64
        return ((x >> rot) | (x << ((64 - rot) & 63))) & self.MASK64

    def below(self, n):
        """A number from 0 to n - 1 (n < 2^32), as Rust's `random_range(0..n)` draws it."""
        m = (self.next_u64() & 0xFFFFFFFF) * n
        result, low = m >> 32, m & 0xFFFFFFFF
        if low > (-n & 0xFFFFFFFF):
            high = ((self.next_u64() & 0xFFFFFFFF) * n) >> 32
            result += low + high > 0xFFFFFFFF
        return result


def send(message):
    """Writes one message as one line and flushes it (cardsim waits for the line)."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(*words):
    """Writes a line to standard error, which cardsim passes through."""
    print(*words, file=sys.stderr, flush=True)


def uniform(msg, match):
    """A random bot's decision: uniform over the legal actions, from the match's dice."""
    return match.rng.randrange(len(msg["actions"]))


class Bot:
    """A bot of the protocol: answers the hello, keeps track of the match and asks
    `decide` for each decision. `handle` takes one message (a dict) and returns the
    answer (a dict) or None; `run` feeds it standard input, and cardsim's Python package
    plays it in-process: cardsim.match("spit", [botlib.Bot(...), "greedy"]).

    name, version: how the bot introduces itself.
    decide: decide(msg, match) -> index of an action in msg["actions"], or None.
    games: the games the bot plays (None: it does not say).
    plays: the optional decisions it answers itself (e.g. ["slap"] in Spit); cardsim's
           built-in default makes the others.
    """

    def __init__(self, name, version, decide, games=None, plays=()):
        self.name, self.version, self.decide = name, version, decide
        self.games, self.plays = games, plays
        self.match = None

    def handle(self, msg):
        kind = msg["type"]
        if kind == "hello":
            answer = {"type": "hello", "protocol": 1, "name": self.name, "version": self.version, "plays": list(self.plays)}
            if self.games is not None:
                answer["games"] = list(self.games)
            return answer
        if kind == "match_start":
            self.match = Match(msg["seat"], msg["seed"])
        elif kind == "decide":
            return {"index": self.decide(msg, self.match)}
        elif kind == "match_end":
            self.match = None
        return None


def run(name, version, decide, games=None, plays=()):
    """Plays until cardsim sends quit (or closes the input); the arguments are those of
    `Bot`."""
    bot = Bot(name, version, decide, games, plays)
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "quit":
            return
        answer = bot.handle(msg)
        if answer is not None:
            send(answer)
