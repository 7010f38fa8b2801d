"""cardsim.run, cardsim.sprt and cardsim.trace against the command line built from the
same source (CARDSIM_BIN, set by `cargo test --test python_package`), and with Python
bots in-process against the built-in strategies they clone."""

import json
import os
import re
import subprocess
import sys
import time

import pytest

import cardsim

BOTS = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "bots")
sys.path.insert(0, BOTS)
import botlib  # noqa: E402
import lopti_lowest  # noqa: E402
import spit_greedy  # noqa: E402

BIN = os.environ.get("CARDSIM_BIN")
needs_bin = pytest.mark.skipif(not BIN, reason="CARDSIM_BIN is not set (run through `cargo test --test python_package`)")

EXPERIMENT = """description = "A small study for the Python package's tests."
game = "lopti"
seed = 4
games = 60

[[matchup]]
bots = ["lowest", "burner"]

[[matchup]]
bots = ["lowest", "burner", "random"]
set = ["lopti.seven_on_seven=free"]
"""


def cli(*args):
    """Runs the binary; returns (exit code, stdout bytes, stderr text)."""
    p = subprocess.run([BIN, *args], capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode("utf-8")


def folder(path):
    return {name: open(os.path.join(path, name), "rb").read() for name in sorted(os.listdir(path))}


@needs_bin
def test_run_writes_the_same_results_folder_as_the_command_line(tmp_path):
    exp = tmp_path / "small.toml"
    exp.write_text(EXPERIMENT)
    code, out, err = cli("run", str(exp), "--quiet", "--out", str(tmp_path / "cli"))
    assert code == 0, err
    r = cardsim.run(exp, out=tmp_path / "py", threads=2)
    assert r.out == str(tmp_path / "py")
    assert folder(tmp_path / "py") == folder(tmp_path / "cli")
    assert sorted(r.files) == sorted(folder(tmp_path / "py"))
    # The printed summary is the command's, but for the folder it names.
    assert r.text == out.decode("utf-8").replace(str(tmp_path / "cli"), str(tmp_path / "py"))
    header, rows = r.table("summary.csv")
    assert header[:2] == ["game", "bots"] and {row["bot"] for row in rows} >= {"lowest", "burner", "random"}
    # A second run into the same folder replaces it, as on the command line.
    assert folder(tmp_path / "py") == folder(cardsim.run(exp, out=tmp_path / "py").out)


@needs_bin
def test_sprt_gives_the_command_lines_rows_and_verdict(tmp_path):
    args = ["spit", "--bot", "smart@expert", "--bot", "greedy@expert", "--elo0", "0", "--elo1", "20", "--max-games", "3000", "--seed", "3"]
    code, out, err = cli("sprt", *args, "--csv", str(tmp_path / "sprt.csv"))
    assert code == 0, err
    s = cardsim.sprt("spit", ["smart@expert", "greedy@expert"], elo0=0, elo1=20, max_games=3000, seed=3, threads=1)
    assert s.csv == (tmp_path / "sprt.csv").read_bytes()
    # The text for people is the same lines, but for the file the command names.
    assert s.text == "\n".join(line for line in out.decode("utf-8").splitlines() if not line.startswith("wrote ")) + "\n"
    last = s.text.splitlines()[-1]
    assert last.startswith(f"SPRT: {s.verdict} accepted after {s.games} games" if s.verdict != "no decision" else "SPRT: no decision")
    assert [row["batch"] for row in s.rows] == list(range(1, len(s.rows) + 1))


@needs_bin
@pytest.mark.parametrize("game,bots,index,flags", [
    ("lopti", ["lowest", "burner", "random"], 5, {"lopti.seven_on_seven": "free"}),
    ("spit", ["smart@expert", "greedy@expert"], 1, {}),
    ("nerts", ["lazy", "balanced"], 0, {"nerts.target": 10}),
])
def test_trace_gives_the_command_lines_events(game, bots, index, flags):
    cli_args = [game, *sum((["--bot", b] for b in bots), []), "--seed", "7", "--index", str(index), "--format", "jsonl",
                *sum((["--set", t] for t in cardsim.commands.flag_texts(flags)), [])]
    code, out, err = cli("trace", *cli_args)
    assert code == 0, err
    events = cardsim.trace(game, bots, seed=7, index=index, flags=flags)
    assert events == [json.loads(line) for line in out.decode("utf-8").splitlines()]
    assert events[0]["event"] == "match_start" and events[-1]["event"] in ("end", "match_end")
    seat0 = cardsim.trace(game, bots, seed=7, index=index, flags=flags, seat=0)
    code, out, _ = cli("trace", *cli_args, "--seat", "0")
    assert seat0 == [json.loads(line) for line in out.decode("utf-8").splitlines()] and len(seat0) < len(events)


@needs_bin
def test_trace_of_an_experiment_matchup(tmp_path):
    exp = tmp_path / "small.toml"
    exp.write_text(EXPERIMENT)
    code, out, err = cli("trace", "--experiment", str(exp), "--matchup", "2", "--index", "3", "--format", "jsonl")
    assert code == 0, err
    assert cardsim.trace(experiment=exp, matchup=2, index=3) == [json.loads(line) for line in out.decode("utf-8").splitlines()]


@needs_bin
@pytest.mark.parametrize("call,args", [
    (lambda: cardsim.trace("chess"), ["trace", "chess"]),
    (lambda: cardsim.trace("lopti", ["lowest", "burner"], seat=5), ["trace", "lopti", "--bot", "lowest", "--bot", "burner", "--seat", "5", "--format", "jsonl"]),
    (lambda: cardsim.sprt("lopti", ["lowest", "burner", "random"], elo0=0, elo1=10), None),
    (lambda: cardsim.sprt("spit", ["smart", "greedy"], elo0=10, elo1=0), ["sprt", "spit", "--bot", "smart", "--bot", "greedy", "--elo0", "10", "--elo1", "0"]),
    (lambda: cardsim.run("no/such/file.toml"), ["run", "no/such/file.toml", "--quiet"]),
])
def test_errors_raise_the_command_lines_one_line_message(call, args):
    with pytest.raises(ValueError) as e:
        call()
    message = str(e.value)
    assert "\n" not in message and message
    if args is not None:
        code, _, err = cli(*args)
        assert code == 2 and err == f"error: {message}\n"


def lowest_clone():
    return cardsim.Bot(botlib.Bot("lopti_lowest", "1.0", lopti_lowest.decide, plays=["swap"]), label="lowest")


def greedy_clone():
    return cardsim.Bot(botlib.Bot("spit_greedy", "1.0", spit_greedy.decide, plays=["slap"]), label="greedy", preset="expert")


@pytest.mark.parametrize("threads", [1, 2])
def test_sprt_with_a_python_clone_gives_the_built_in_bytes(threads):
    args = dict(elo0=0, elo1=200, max_games=1024, seed=3, flags={"lopti.seven_on_seven": "free"})
    built_in = cardsim.sprt("lopti", ["lowest", "burner"], threads=2, **args)
    clone = cardsim.sprt("lopti", [lowest_clone(), "burner"], threads=threads, **args)
    assert clone.csv == built_in.csv and clone.text == built_in.text
    assert clone.text.startswith("SPRT lopti | A = lowest vs B = burner") and clone.rows[-1]["games"] == clone.games > 0


@pytest.mark.parametrize("game, bots, clone, index", [
    ("lopti", ["lowest", "burner", "random"], lowest_clone, 5),
    ("spit", ["greedy@expert", "smart@expert"], greedy_clone, 1),
])
def test_trace_with_a_python_clone_gives_the_built_in_events(game, bots, clone, index):
    built_in = cardsim.trace(game, bots, seed=7, index=index)
    got = cardsim.trace(game, [clone()] + bots[1:], seed=7, index=index)
    assert got == built_in and len(got) > 10 and got[-1]["event"] in ("end", "match_end")


def test_in_process_bots_in_sprt_and_trace_need_labels_of_their_own():
    with pytest.raises(ValueError, match="in-process bot 'lowest': a bot text names the same label"):
        cardsim.trace("lopti", [lowest_clone(), "lowest"])
    with pytest.raises(ValueError, match="in-process bot 'lowest': two different bots share this label"):
        cardsim.sprt("lopti", [lowest_clone(), lowest_clone()], elo0=0, elo1=10)
    with pytest.raises(TypeError, match="bots must be a list"):
        cardsim.trace("lopti", "lowest")


class Slow:
    """Plays the first legal action after `seconds` of busy work (half a second: five
    times the 0.1 s timeout below, while its start, a few Python lines, is far within it)."""

    seconds = 0.5

    def choose(self, view, legal):
        start = time.perf_counter()
        while time.perf_counter() - start < self.seconds:
            pass
        return 0


class Unhurried(Slow):
    """`Slow` at 50 ms a decision: within a 5 s timeout."""

    seconds = 0.05


def test_bot_timeout_applies_to_in_process_bots():
    # Parallel matches call their Python bots one at a time (the GIL): the time a bot
    # waits for another's call is not its own, so its start is never charged the 0.5 s
    # the other spends deciding.
    late = r"bot 'Slow' \(seat \d\) timed out: no answer line within 0.1 s \(--bot-timeout\) at its decision 0 of the match"
    with pytest.raises(ValueError, match=late):
        cardsim.match("lopti", [Slow, "lowest"], games=2, bot_timeout=0.1)
    with pytest.raises(ValueError, match=late):
        cardsim.trace("lopti", [Slow, "lowest"], bot_timeout=0.1)
    with pytest.raises(ValueError, match=late):
        cardsim.sprt("lopti", [Slow, "lowest"], elo0=0, elo1=10, max_games=4, bot_timeout=0.1)
    # within the timeout the bot plays, and a clone still gives the built-in's bytes
    assert cardsim.match("lopti", [Unhurried, "lowest"], games=2, bot_timeout=5).rows[0]["games"] == 2
    got = cardsim.match("lopti", [lowest_clone(), "burner"], games=40, seed=2, bot_timeout=30)
    assert got.csv == cardsim.match("lopti", ["lowest", "burner"], games=40, seed=2).csv


class Picky:
    """Lopti's `lowest` (the example bot's clone), which raises when it holds 26 cards
    or more: first in match 18 of seed 4."""

    def __init__(self):
        self.lowest = botlib.Bot("lopti_lowest", "1.0", lopti_lowest.decide, plays=["swap"])

    def handle(self, msg):
        if msg["type"] == "decide" and len(msg["view"]["hand"]) >= 26:
            raise RuntimeError("too many cards")
        return self.lowest.handle(msg)


@pytest.mark.parametrize("run", ["match", "sprt"])
def test_an_in_process_bot_s_failure_names_the_python_call_that_reproduces_it(run):
    picky = cardsim.Bot(Picky, label="picky")
    flags = {"lopti.seven_on_seven": "free"}
    with pytest.raises(ValueError) as e:
        if run == "match":
            cardsim.match("lopti", [picky, "lowest"], games=100, seed=4, flags=flags, threads=1)
        else:
            cardsim.sprt("lopti", [picky, "lowest"], elo0=0, elo1=10, seed=4, flags=flags, threads=1)
    message = str(e.value)
    assert "\n" not in message and message.startswith("bot 'picky' (seat "), message
    assert "raised an exception at its decision" in message and "line: 'RuntimeError: too many cards (in handle, deciding move)'" in message
    hint = re.search(r'; reproduce with: cardsim\.trace\("lopti", \["lowest", <in-process bot picky>\], seed=4, '
                     r'flags=\{"lopti\.seven_on_seven": "free"\}, seating="all", index=(\d+)\)$', message)
    assert hint and int(hint.group(1)) > 0, message
    # the call, with the same Python bot where the hint says so, fails with the same line
    with pytest.raises(ValueError) as again:
        cardsim.trace("lopti", ["lowest", picky], seed=4, flags=flags, seating="all", index=int(hint.group(1)))
    assert str(again.value) == message
