"""Python bots in-process: a Python object plays as a bot of ``cardsim.match`` without a
process, through the bot protocol's messages (docs/bot-protocol.md), so it sees exactly
what an ``exec:`` bot sees: the same views, legal-action lists and seeds.

A bot is either

- a **strategy**: an object with ``choose(view, legal)`` for the moves (a real-time game's
  move, a Lopti turn) returning the index of an action of ``legal``, the action itself,
  or ``None`` to stay idle (real-time moves only); a method named as an optional
  decision of the game (``slap``, ``spit_pile``, ``give_away`` in Spit; ``swap``,
  ``give``, ``rule_swap`` in Lopti) answers that decision the same way, the built-in
  default answers the others; ``match_start(seat, seed)`` and ``match_end(message)`` are
  called if present; or
- a **protocol bot**: an object with ``handle(message)`` that gets each protocol
  message as a dict and returns the answer dict (``hello``, ``decide``) or ``None``
  (``examples/bots/botlib.py``'s ``Bot`` is one).

Each worker thread that plays the bot gets its own copy: a class is instantiated, an
instance is copied (``copy.deepcopy``), so state kept between decisions stays within a
match of one thread; with randomness drawn from the match's ``seed`` the results are
the same on any thread count.
"""

import copy
import json


class BotError(Exception):
    """An exception raised by a Python bot, with the decision it was answering."""


class Bot:
    """A bot with its label in the tables and, for a real-time game, its reaction preset.

    ``bot`` is a strategy or protocol bot (an instance or a class); the label defaults to
    the bot's ``label`` attribute, else its class name; the preset to its ``preset``
    attribute (none: the game's default preset, as for ``exec:`` bots).
    """

    def __init__(self, bot, label=None, preset=None):
        self.bot = bot
        kind = bot if isinstance(bot, type) else type(bot)
        self.label = label or getattr(bot, "label", None) or kind.__name__
        self.preset = preset or getattr(bot, "preset", None)

    def spec(self):
        """The ``(label, factory)`` pair the compiled module takes: ``factory()`` makes
        one connection."""
        label = f"{self.label}@{self.preset}" if self.preset else self.label
        return (label, self._connect)

    def _connect(self):
        bot = self.bot() if isinstance(self.bot, type) else copy.deepcopy(self.bot)
        return _Connection(bot)


class _Connection:
    """One copy of a bot, handed the protocol's lines one by one."""

    def __init__(self, bot):
        self.bot = bot
        self.protocol = callable(getattr(bot, "handle", None))

    def handle(self, line):
        msg = json.loads(line)
        if self.protocol:
            answer = self._call("handle", msg.get("decision", msg["type"]), self.bot.handle, msg)
            return None if answer is None else json.dumps(answer)
        kind = msg["type"]
        if kind == "hello":
            plays = [d for d in msg["optional"] if callable(getattr(self.bot, d, None))]
            name = getattr(self.bot, "name", None) or type(self.bot).__name__
            return json.dumps({"type": "hello", "protocol": 1, "name": str(name), "version": "1", "plays": plays})
        if kind == "decide":
            decision = msg["decision"]
            method = "choose" if decision == "move" else decision
            answer = self._call(method, decision, getattr(self.bot, method), msg["view"], msg["actions"])
            if isinstance(answer, dict):
                answer = answer["index"]
            return '{"index": null}' if answer is None else '{"index": %d}' % answer
        if kind == "match_start" and hasattr(self.bot, "match_start"):
            self._call("match_start", "match_start", self.bot.match_start, msg["seat"], msg["seed"])
        elif kind == "match_end" and hasattr(self.bot, "match_end"):
            self._call("match_end", "match_end", self.bot.match_end, msg)
        return None

    @staticmethod
    def _call(method, decision, f, *args):
        try:
            return f(*args)
        except Exception as e:
            raise BotError(f"{type(e).__name__}: {e} (in {method}, deciding {decision})") from e


def spec(bot):
    """A bot of ``cardsim.match``'s ``bots`` as the compiled module takes it: a text as
    is, a :class:`Bot` or any other object as an in-process bot."""
    if isinstance(bot, str):
        return bot
    return (bot if isinstance(bot, Bot) else Bot(bot)).spec()
