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

import csv as _csv
import io as _io
import re as _re

from . import _cardsim

__all__ = ["match", "games", "presets", "MatchResult", "__version__"]
__version__ = _cardsim.__version__

_INT = _re.compile(r"^-?[0-9]+$")
_FLOAT = _re.compile(r"^-?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][-+]?[0-9]+)?$")


def _typed(cell):
    """A CSV cell as the value it holds: None when empty, int, float, or the text."""
    if cell == "":
        return None
    if _INT.match(cell):
        return int(cell)
    if _FLOAT.match(cell):
        return float(cell)
    return cell


class MatchResult:
    """The summary of a run of matches: one row per bot, seat and neighbour, as the CSV.

    ``rows`` is a list of dicts keyed by the CSV's columns (docs/usage.md, "The CSV
    summary"); empty cells are ``None``, numbers are ``int`` or ``float``, and the
    ``seat`` column holds ``"all"`` or a seat number. ``csv`` holds the exact bytes
    ``cardsim match --csv`` writes.
    """

    def __init__(self, csv_bytes):
        self.csv = bytes(csv_bytes)
        reader = _csv.reader(_io.StringIO(self.csv.decode("utf-8")))
        self.header = next(reader)
        self.rows = [dict(zip(self.header, map(_typed, line))) for line in reader]

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


def _flag_text(key, value):
    if isinstance(value, bool):
        value = "true" if value else "false"
    return f"{key}={value}"


def match(game, bots=(), games=10_000, seed=1, threads=None, flags=None, seating="all", bot_timeout=None):
    """Plays ``games`` matches of ``game`` and returns their summary.

    - ``bots``: the ``--bot`` texts, e.g. ``["smart@expert", "greedy"]``, bot files
      (``"strategies/fast.toml"``) or external programs (``"exec:my_bot.py"``); empty
      for the game's default bots.
    - ``games``: matches to play, rounded up to whole deals (every deal is played under
      every seating of ``seating``: ``"all"``, ``"rotations"`` or ``"one"``).
    - ``seed``: master seed; the same seed gives the same bytes on any thread count.
    - ``threads``: worker threads (default: all cores).
    - ``flags``: rule variants as ``{"spit.num_stockpiles": 4}`` (``--set``).
    - ``bot_timeout``: seconds an external bot may take per answer.

    Bad input raises ``ValueError`` with the command line's one-line message.
    """
    if isinstance(bots, str):
        raise TypeError("bots must be a list of bot texts, e.g. ['smart', 'greedy']")
    sets = [_flag_text(k, v) for k, v in (flags or {}).items()]
    return MatchResult(_cardsim.match_csv(game, list(bots), int(games), int(seed), threads, sets, seating, bot_timeout))


def games():
    """Every game: name, players (min, max), real_time, default_bots, strategies
    (name to description), flags (key to default, accepted values and doc) and metrics."""
    return _cardsim.games_list()


def presets():
    """The reaction presets of the real-time games (``STRATEGY@PRESET``)."""
    return _cardsim.presets()
