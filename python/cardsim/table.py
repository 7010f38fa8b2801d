"""One match played on its own thread with some seats left to the caller: the inversion
of control the learning environments need (``cardsim.gym``, ``cardsim.pettingzoo``).

The engine calls its bots; an environment is called by its learner. A :class:`Table`
runs ``cardsim.match`` (one match, ``seating="one"``) on a thread; each *learner seat*
is an in-process bot whose ``move`` decision hands the view and the legal actions to
the caller (:meth:`Table.next_event`) and blocks until the caller answers
(:meth:`Table.answer`). Every hand-over is an event on a queue: nothing waits on a
clock. :meth:`Table.close` ends an unfinished match at once: every learner decision
then raises, which stops the match as a bot fault would (docs/bot-protocol.md section
7), and the thread is joined.

Learner seats answer only ``move`` decisions; the optional ones (Spit's slap, spit pile
and give-away, Lopti's setup swap) are made by cardsim's built-in defaults.
"""

import queue
import threading

from . import _cardsim
from . import bots as _bots
from .commands import flag_texts


class _Abort(Exception):
    """Raised in a learner's decision when its table is closed."""


class Decision:
    """A learner seat's turn: ``seat``, the protocol's ``view`` and ``legal`` actions."""

    def __init__(self, seat, view, legal):
        self.seat, self.view, self.legal = seat, view, legal


class End:
    """The match is over: ``csv`` (the summary's bytes, as ``cardsim.match`` returns
    them) and ``results``, the ``match_end`` message of each learner seat."""

    def __init__(self, csv, results):
        self.csv, self.results = csv, results


class _Seat:
    """The in-process bot of one learner seat (a strategy of cardsim.bots)."""

    def __init__(self, table, seat):
        self.table, self.seat = table, seat

    def choose(self, view, legal):
        return self.table._ask(self.seat, view, legal)

    def match_end(self, message):
        self.table._results[self.seat] = message


class Table:
    """One match of ``game`` between ``bots`` (bot texts or Python bots; ``None`` marks a
    learner seat, which plays with reaction preset ``preset``),
    seat ``i`` taken by ``bots[i]``, from master seed ``seed``. ``labels`` maps each
    learner seat to its label. ``start()`` begins it."""

    def __init__(self, game, bots, seed, flags, labels, preset=None):
        self._events = queue.SimpleQueue()
        self._answers = {}
        self._results = {}
        self._closing = False
        specs = []
        for seat, bot in enumerate(bots):
            if bot is None:
                self._answers[seat] = queue.SimpleQueue()
                learner = _bots.Bot(_Seat(self, seat), label=labels[seat], preset=preset)
                connection = _bots._Connection(learner.bot)
                # untimed: the seat waits for the caller of step(), as long as it takes
                specs.append((learner.spec()[0], lambda c=connection: c, False))
            else:
                specs.append(_bots.spec(bot))
        self._args = (game, specs, 1, int(seed), 1, flag_texts(flags), "one", None)
        self._thread = threading.Thread(target=self._play, name="cardsim-table", daemon=True)

    def start(self):
        """Starts the match; returns ``self``."""
        self._thread.start()
        return self

    def _play(self):
        try:
            self._events.put(End(_cardsim.match_csv(*self._args), dict(self._results)))
        except Exception as e:  # a fault, or the abort of close()
            self._events.put(e)

    def _ask(self, seat, view, legal):
        if self._closing:
            raise _Abort("the environment was reset or closed")
        self._events.put(Decision(seat, view, legal))
        index = self._answers[seat].get()
        if index is _Abort:
            raise _Abort("the environment was reset or closed")
        return index

    def next_event(self):
        """Blocks until a learner must decide (a :class:`Decision`) or the match ends
        (an :class:`End`); raises the match's error (``ValueError``) if it failed."""
        event = self._events.get()
        if isinstance(event, Exception):
            self._thread.join()
            raise event
        if isinstance(event, End):
            self._thread.join()
        return event

    def answer(self, seat, index):
        """Answers the pending decision of learner seat ``seat`` with the index of one of
        its legal actions, or ``None`` (idle, real-time games)."""
        self._answers[seat].put(index)

    def close(self):
        """Ends the match at once if it is still running and joins its thread."""
        if not self._thread.is_alive():
            return
        self._closing = True
        for answers in self._answers.values():
            answers.put(_Abort)
        self._thread.join()
