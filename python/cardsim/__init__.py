"""cardsim for Python: simulate Spit, Speed, Nerts and Lopti bot against bot.

The simulation is the same compiled code as the ``cardsim`` command line, run in this
process with the GIL released on all cores, so ``cardsim.match(...)`` gives the same
bytes and figures as ``cardsim match ... --csv`` for the same inputs::

    import cardsim
    result = cardsim.match("spit", ["smart@expert", "greedy@expert"], games=10_000, seed=1)
    for row in result.rows:
        if row["seat"] == "all":
            print(row["bot"], row["score"], row["score_ci_low"], row["score_ci_high"])

See docs/python.md in the repository for every function and column.
"""

from . import _cardsim
from . import _csv
from .bots import Bot, BotError
from . import bots as _bots
from .commands import run, sprt, trace, RunResult, SprtResult
from .commands import flag_texts as _flag_texts

__all__ = ["match", "run", "sprt", "trace", "games", "presets", "MatchResult", "RunResult", "SprtResult", "Bot", "BotError", "__version__"]
__version__ = _cardsim.__version__


class MatchResult:
    """The summary of a run of matches: one row per bot, seat and neighbour, as the CSV.

    ``rows`` is a list of dicts keyed by the CSV's columns (docs/usage.md, "The CSV
    summary"); empty cells are ``None``, numbers are ``int`` or ``float``, and the
    ``seat`` column holds ``"all"`` or a seat number. ``csv`` holds the exact bytes
    ``cardsim match --csv`` writes.
    """

    def __init__(self, csv_bytes):
        self.csv = bytes(csv_bytes)
        self.header, self.rows = _csv.parse(self.csv)

    def __len__(self):
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows)

    def __repr__(self):
        return f"<MatchResult {len(self.rows)} rows: {self.rows[0]['bots'] if self.rows else ''}>"

    def to_pandas(self):
        """The rows as a pandas DataFrame (pandas is optional: install it to use this)."""
        try:
            import pandas
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("MatchResult.to_pandas needs pandas: pip install pandas") from e
        return pandas.DataFrame(self.rows, columns=self.header)


def match(game, bots=(), games=10_000, seed=1, threads=None, flags=None, seating="all", bot_timeout=None):
    """Plays ``games`` matches of ``game`` and returns their summary.

    - ``bots``: the ``--bot`` texts, e.g. ``["smart@expert", "greedy"]``, bot files
      (``"strategies/fast.toml"``), external programs (``"exec:my_bot.py"``) or Python
      bots played in-process (objects with ``choose(view, legal)``, see
      ``cardsim.bots``; wrap one in ``cardsim.Bot(bot, label, preset)`` to name it);
      empty for the game's default bots.
    - ``games``: matches to play, rounded up to whole deals (every deal is played under
      every seating of ``seating``: ``"all"``, ``"rotations"`` or ``"one"``).
    - ``seed``: master seed; the same seed gives the same bytes on any thread count.
    - ``threads``: worker threads (default: all cores).
    - ``flags``: rule variants as ``{"spit.num_stockpiles": 4}`` (``--set``).
    - ``bot_timeout``: seconds an external or in-process bot may take per answer
      (default 10; an in-process bot cannot be interrupted: an answer that comes back
      later fails the run as a time-out; its time counts from when its call holds the GIL).

    Bad input raises ``ValueError`` with the command line's one-line message.
    """
    if isinstance(bots, str):
        raise TypeError("bots must be a list of bot texts, e.g. ['smart', 'greedy']")
    sets = _flag_texts(flags)
    return MatchResult(_cardsim.match_csv(game, [_bots.spec(b) for b in bots], int(games), int(seed), threads, sets, seating, bot_timeout))


def games():
    """Every game: name, players (min, max), real_time, default_bots, strategies
    (name to description), flags (key to default, accepted values and doc) and metrics."""
    return _cardsim.games_list()


def presets():
    """The reaction presets of the real-time games (``STRATEGY@PRESET``)."""
    return _cardsim.presets()
