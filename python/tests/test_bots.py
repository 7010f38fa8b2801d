"""Python bots in-process (cardsim.bots): the example bots of examples/bots/, played
through botlib.Bot without a process, are twins of the built-in strategies they clone."""

import os
import sys

import pytest

import cardsim

BOTS = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "bots")
sys.path.insert(0, BOTS)
import botlib  # noqa: E402
import lopti_lowest  # noqa: E402
import spit_greedy  # noqa: E402


def in_process(module, name, plays, label, preset=None):
    """The example bot `module` (its `decide`) as an in-process bot labelled `label`."""
    return cardsim.Bot(botlib.Bot(name, "1.0", module.decide, plays=plays), label=label, preset=preset)


@pytest.mark.parametrize("threads", [1, 2])
def test_the_spit_greedy_clone_in_process_gives_the_built_in_bytes(threads):
    clone = in_process(spit_greedy, "spit_greedy", ["slap"], "greedy", "expert")
    got = cardsim.match("spit", [clone, "smart@expert"], games=120, seed=5, threads=threads)
    assert got.csv == cardsim.match("spit", ["greedy@expert", "smart@expert"], games=120, seed=5, threads=threads).csv


def test_the_lopti_lowest_clone_in_process_gives_the_built_in_bytes():
    clone = in_process(lopti_lowest, "lopti_lowest", ["swap"], "lowest")
    got = cardsim.match("lopti", ["burner", clone, "random"], games=240, seed=2, threads=2)
    assert got.csv == cardsim.match("lopti", ["burner", "lowest", "random"], games=240, seed=2, threads=2).csv


class First:
    """A strategy: the first legal action; counts its matches to check per-thread copies."""

    def __init__(self):
        self.matches = 0

    def match_start(self, seat, seed):
        self.matches += 1

    def choose(self, view, legal):
        return legal[0]


class Uniform:
    """A strategy drawing from the match's seed: deterministic on any thread count."""

    def match_start(self, seat, seed):
        self.rng = botlib.CardsimRng(seed)

    def choose(self, view, legal):
        return self.rng.below(len(legal))


def test_a_strategy_class_or_instance_plays_and_is_seeded_per_match():
    r = cardsim.match("lopti", [First, "lowest"], games=20, seed=1)
    assert {row["bot"] for row in r.rows} >= {"First", "lowest"}
    first = First()
    cardsim.match("lopti", [first, "lowest"], games=20, seed=1)
    assert first.matches == 0, "each connection plays a copy of an instance"
    one = cardsim.match("lopti", [cardsim.Bot(Uniform(), label="uniform"), "burner"], games=200, seed=9, threads=1)
    two = cardsim.match("lopti", [cardsim.Bot(Uniform(), label="uniform"), "burner"], games=200, seed=9, threads=2)
    assert one.csv == two.csv
    assert one.csv != cardsim.match("lopti", [cardsim.Bot(Uniform(), label="uniform"), "burner"], games=200, seed=10, threads=2).csv


class Boom:
    def choose(self, view, legal):
        return 0

    def swap(self, view, legal):
        raise KeyError("no such card")


class OutOfRange:
    def choose(self, view, legal):
        return len(legal)


def test_an_exception_in_a_python_bot_is_one_error_naming_the_bot_and_the_decision():
    with pytest.raises(ValueError) as e:
        cardsim.match("lopti", [cardsim.Bot(Boom, label="boomer"), "lowest"], games=4)
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith("bot 'boomer' (seat ") and "raised an exception at its decision 0 of the match" in message, message
    assert "KeyError: 'no such card' (in swap, deciding swap)" in message, message
    with pytest.raises(ValueError, match=r"bot 'OutOfRange' \(seat \d\) answered an index out of range"):
        cardsim.match("lopti", [OutOfRange(), "lowest"], games=4)


def test_bad_python_bots_and_labels():
    with pytest.raises(ValueError, match="two different bots share this label"):
        cardsim.match("lopti", [cardsim.Bot(First, label="x"), cardsim.Bot(Boom, label="x")], games=4)
    with pytest.raises(ValueError, match="unknown preset|preset"):
        cardsim.match("spit", [cardsim.Bot(First, preset="warp"), "greedy"], games=4)
