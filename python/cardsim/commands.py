"""``cardsim.run``, ``cardsim.sprt`` and ``cardsim.trace``: the command line's
``run``, ``sprt`` and ``trace`` run in this process (the same code, with the GIL
released), so they write and return the same bytes as the binary for the same inputs.
``sprt`` and ``trace`` also take Python bots, played in-process as in ``cardsim.match``."""

import json
import os
import re
import tempfile

from . import _cardsim
from . import _csv
from . import bots as _bots


def flag_texts(flags):
    """``{"spit.num_stockpiles": 4, "speed.wrap": False}`` as ``--set`` texts."""
    def text(key, value):
        if isinstance(value, bool):
            value = "true" if value else "false"
        return f"{key}={value}"
    return [text(k, v) for k, v in (flags or {}).items()]


def _options(**options):
    """``--name value`` pairs for the options given (None: left out; True: the flag
    alone; a list: the option repeated)."""
    args = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                args += [flag, str(v)]
        else:
            args += [flag, str(value)]
    return args


def _bot_args(bots):
    """The ``--bot`` texts of ``bots`` (bot texts or Python bots) and the in-process
    bots among them, each named in the texts by its label (``_cardsim.command``'s
    ``bots``). A Python bot given twice is one bot; two different ones, or a Python bot
    and a bot text, may not share a label."""
    if isinstance(bots, str):
        raise TypeError("bots must be a list of bots, e.g. ['smart', 'greedy']")
    texts, peers, owners = [], [], {}
    for bot in bots:
        if isinstance(bot, str):
            texts.append(bot)
            continue
        spec = _bots.spec(bot)
        label = spec[0]
        if label not in owners:
            owners[label] = bot
            peers.append(spec)
        elif owners[label] is not bot:
            raise ValueError(f"in-process bot '{label}': two different bots share this label; give one another label")
        texts.append(label)
    clash = sorted(set(owners) & {t for t in bots if isinstance(t, str)})
    if clash:
        raise ValueError(f"in-process bot '{clash[0]}': a bot text names the same label; give the in-process bot another label")
    return texts, peers


class RunResult:
    """What ``cardsim.run`` did: ``out``, the results folder; ``text``, the summary it
    printed; ``files``, the names of the files it wrote there. ``table(name)`` reads
    one of its CSV files as a header and rows of typed values."""

    def __init__(self, text):
        self.text = text
        wrote = re.findall(r"^wrote (.*)/ \((.*)\)$", text, re.M)
        if not wrote:
            raise RuntimeError(f"cardsim run printed no 'wrote DIR/ (...)' line:\n{text}")
        self.out, files = wrote[-1]
        self.files = files.split(", ")

    def table(self, name="summary.csv"):
        """The CSV file ``name`` of the results folder: ``(header, rows)``."""
        with open(os.path.join(self.out, name), "rb") as f:
            return _csv.parse(f.read())

    def __repr__(self):
        return f"<RunResult {self.out}: {', '.join(self.files)}>"


def run(experiment, out=None, games=None, threads=None, force=False, resume=False, bot_timeout=None):
    """Runs the experiment file ``experiment`` into its results folder, as ``cardsim run
    FILE --quiet`` with ``--out``, ``--games``, ``--threads``, ``--force``,
    ``--resume`` and ``--bot-timeout`` when given, and returns a :class:`RunResult`.

    Raises ``ValueError`` with the command line's one-line message."""
    args = ["run", os.fspath(experiment), "--quiet"]
    args += _options(out=None if out is None else os.fspath(out), games=games, threads=threads, force=force, resume=resume, bot_timeout=bot_timeout)
    return RunResult(_cardsim.command(args).decode("utf-8"))


class SprtResult:
    """What ``cardsim.sprt`` found: ``text``, what the command printed (but the ``wrote``
    line of its CSV file, a temporary one); ``csv``, the
    bytes ``--csv`` writes (one row per batch of 256 deals); ``header`` and ``rows``,
    those rows as dicts; ``verdict`` (``"H1"``, ``"H0"`` or ``"no decision"``),
    ``games`` and ``llr`` of the last batch."""

    def __init__(self, text, csv_bytes):
        self.text = text
        self.csv = bytes(csv_bytes)
        self.header, self.rows = _csv.parse(self.csv)
        last = self.rows[-1]
        self.verdict = "no decision" if last["verdict"] in ("continue", "no decision") else last["verdict"]
        self.games = last["games"]
        self.llr = last["llr"]

    def __repr__(self):
        return f"<SprtResult {self.verdict} after {self.games} games>"


def sprt(game, bots, elo0, elo1, alpha=0.05, beta=0.05, model="normalized", max_games=1_000_000, seed=1, threads=None, flags=None, bot_timeout=None):
    """A sequential probability ratio test of bot A (``bots[0]``) against bot B
    (``bots[1]``), as ``cardsim sprt GAME --bot A --bot B --elo0 ... --elo1 ...`` with
    the same options, and returns a :class:`SprtResult`.

    ``bots`` are bot texts or Python bots (played in-process, as in ``cardsim.match``);
    ``bot_timeout`` applies to both kinds. Raises ``ValueError`` with the command line's
    one-line message."""
    texts, peers = _bot_args(bots)
    with tempfile.TemporaryDirectory(prefix="cardsim-sprt-") as d:
        csv_path = os.path.join(d, "sprt.csv")
        args = ["sprt", game] + _options(bot=texts, set=flag_texts(flags), elo0=elo0, elo1=elo1, alpha=alpha, beta=beta,
                                          model=model, max_games=max_games, seed=seed, threads=threads, bot_timeout=bot_timeout, csv=csv_path)
        text = _cardsim.command(args, peers).decode("utf-8").replace(f"wrote {csv_path}\n", "")
        with open(csv_path, "rb") as f:
            return SprtResult(text, f.read())


def trace(game=None, bots=(), seed=1, index=0, flags=None, seating="all", experiment=None, matchup=1, deal=None, seat=None, bot_timeout=None):
    """The events of match ``index`` of a run, as ``cardsim trace ... --format jsonl``
    prints them: a list of dicts (docs/trace-format.md). Give ``game`` (with ``bots``,
    ``seed``, ``flags`` and ``seating`` as in ``cardsim.match``), or ``experiment`` and
    its ``matchup``; ``deal`` and ``seat`` filter as ``--deal`` and ``--seat``. ``bots``
    are bot texts or Python bots (played in-process, as in ``cardsim.match``).

    Raises ``ValueError`` with the command line's one-line message."""
    peers = []
    if experiment is None:
        if game is None:
            raise TypeError("trace needs a game, or an experiment file")
        texts, peers = _bot_args(bots)
        args = ["trace", game] + _options(bot=texts, set=flag_texts(flags), seed=seed, seating=seating)
    else:
        args = ["trace"] + _options(experiment=os.fspath(experiment), matchup=matchup)
    args += _options(index=index, deal=deal, seat=seat, bot_timeout=bot_timeout, format="jsonl")
    out = _cardsim.command(args, peers).decode("utf-8")
    return [json.loads(line) for line in out.splitlines() if line]
