"""cardsim.match and cardsim.games against the command line built from the same source.

CARDSIM_BIN names the binary (the cargo test that runs this suite sets it)."""

import os
import subprocess
import tempfile

import pytest

import cardsim

BIN = os.environ.get("CARDSIM_BIN")
needs_bin = pytest.mark.skipif(not BIN, reason="CARDSIM_BIN is not set (run through `cargo test --test python_package`)")


def cli_csv(args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out.csv")
        subprocess.run([BIN, "match", *args, "--quiet", "--csv", out], check=True, capture_output=True)
        with open(out, "rb") as f:
            return f.read()


@needs_bin
@pytest.mark.parametrize(
    "game,bots,flags,cli_flags",
    [
        ("spit", ["smart@expert", "greedy@expert"], {}, []),
        ("speed", [], {"speed.wrap": False}, ["--set", "speed.wrap=false"]),
        ("lopti", ["lowest", "burner", "random"], {"lopti.seven_on_seven": "free"}, ["--set", "lopti.seven_on_seven=free"]),
        ("nerts", ["lazy@skilled", "balanced@skilled"], {"nerts.target": 20}, ["--set", "nerts.target=20"]),
    ],
)
def test_same_bytes_as_the_command_line(game, bots, flags, cli_flags):
    got = cardsim.match(game, bots, games=120, seed=5, flags=flags)
    args = [game, *sum((["--bot", b] for b in bots), []), "--games", "120", "--seed", "5", *cli_flags]
    assert got.csv == cli_csv(args)


def test_rows_are_the_csv_rows_with_typed_values():
    r = cardsim.match("lopti", ["lowest", "random"], games=200, seed=2, threads=1)
    assert r.header[:3] == ["game", "bots", "flags"]
    alls = {row["bot"]: row for row in r.rows if row["seat"] == "all"}
    assert set(alls) == {"lowest", "random"}
    for row in alls.values():
        assert isinstance(row["games"], int) and row["games"] == 200
        assert row["wins"] == round(row["win_rate"] * row["games"])
        assert row["win_ci_low"] <= row["win_rate"] <= row["win_ci_high"]
    # Two players, no draws: the wins add up to the matches.
    assert sum(row["wins"] for row in alls.values()) + alls["lowest"]["draws"] == 200
    seats = [row["seat"] for row in r.rows if row["bot"] == "any"]
    assert seats == [0, 1]


def test_the_same_seed_gives_the_same_bytes_on_one_and_two_threads():
    one = cardsim.match("speed", [], games=400, seed=9, threads=1)
    two = cardsim.match("speed", [], games=400, seed=9, threads=2)
    assert one.csv == two.csv
    other = cardsim.match("speed", [], games=400, seed=10, threads=2)
    assert other.csv != one.csv


def test_bad_input_raises_the_one_line_message():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        cardsim.match("chess", [])
    with pytest.raises(ValueError, match="unknown strategy"):
        cardsim.match("spit", ["nosuch", "greedy"])
    with pytest.raises(ValueError, match="--games"):
        cardsim.match("spit", [], games=0)
    with pytest.raises(ValueError, match="--threads"):
        cardsim.match("spit", [], threads=0)
    with pytest.raises(ValueError, match="--bot-timeout"):
        cardsim.match("spit", [], bot_timeout=-1)
    with pytest.raises(ValueError, match="seating"):
        cardsim.match("spit", [], seating="some")
    with pytest.raises(TypeError):
        cardsim.match("spit", "smart")


def test_games_lists_every_game_with_its_strategies_and_flags():
    gs = {g["name"]: g for g in cardsim.games()}
    assert set(gs) == {"spit", "speed", "lopti", "nerts"}
    assert gs["lopti"]["real_time"] is False and gs["spit"]["real_time"] is True
    assert gs["nerts"]["players"] == (2, 8)
    assert "lowest" in gs["lopti"]["strategies"]
    assert gs["spit"]["flags"]["spit.num_stockpiles"]["default"] == "5"
    assert "expert" in cardsim.presets()


@needs_bin
def test_games_match_cardsim_list():
    listing = subprocess.run([BIN, "list"], check=True, capture_output=True, text=True).stdout
    for g in cardsim.games():
        assert f"\n{g['name']} (" in listing
        for key in g["flags"]:
            assert f"    {key}=" in listing
