"""cardsim.run, cardsim.sprt and cardsim.trace against the command line built from the
same source (CARDSIM_BIN, set by `cargo test --test python_package`)."""

import json
import os
import subprocess

import pytest

import cardsim

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


def test_python_bots_play_only_in_match():
    with pytest.raises(TypeError, match="in-process Python bots play in cardsim.match only"):
        cardsim.trace("lopti", [object(), "lowest"])
