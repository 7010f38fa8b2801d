"""The learning environments (cardsim.gym, cardsim.pettingzoo): Gymnasium's and
PettingZoo's own API checks for every game, resets in the middle of a match, seeding,
hidden cards against the trace of the same match, and learner seats that play a
built-in strategy's choices giving that strategy's match byte for byte."""

import os
import subprocess
import sys
import threading

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import cardsim
import cardsim.gym
import cardsim.pettingzoo
from cardsim.encoding import card, card_index

BOTS = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "bots")
sys.path.insert(0, BOTS)
import botlib  # noqa: E402
import lopti_lowest  # noqa: E402
import nerts_lazy  # noqa: E402
import speed_greedy  # noqa: E402
import spit_greedy  # noqa: E402

ENVS = ["spit", "speed", "lopti-3p", "nerts-3p"]
JOKERS = {"nerts.jokers_per_deck": 2}


def table_threads():
    return [t for t in threading.enumerate() if t.name == "cardsim-table" and t.is_alive()]


def random_episode(env, seed, steps=None):
    """Plays random legal actions (drawn from a generator seeded by `seed`) until the
    episode ends or `steps` were taken; returns the observations, rewards and last info."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    seen, rewards = [obs.copy()], []
    while steps is None or len(rewards) < steps:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        seen.append(obs.copy())
        rewards.append(reward)
        if terminated or truncated:
            break
    return seen, rewards, info


@pytest.mark.parametrize("env_id, flags", [(e, None) for e in ENVS] + [("nerts-3p", JOKERS)])
def test_gymnasium_check_env_passes(env_id, flags):
    env = cardsim.gym.make(env_id, flags=flags)
    check_env(env, skip_render_check=True)
    env.close()
    assert table_threads() == []


@pytest.mark.parametrize("env_id, flags", [(e, None) for e in ENVS + ["lopti-5p"]] + [("nerts-3p", JOKERS)])
def test_pettingzoo_api_test_passes(env_id, flags):
    env = cardsim.pettingzoo.env(env_id, flags=flags)
    api_test(env, num_cycles=300)
    env.close()
    assert table_threads() == []


@pytest.mark.parametrize("env_id, flags", [(e, None) for e in ENVS + ["lopti-2p", "lopti-5p", "nerts-2p", "nerts-6p"]] + [
    ("spit", {"spit.num_stockpiles": 4, "spit.alternate_colors": True}),
    ("nerts-4p", {"nerts.partnerships": "pairs", "nerts.flip_count": 1}),
    ("lopti-3p", {"lopti.bonus_optional": True}),
    ("nerts-3p", dict(JOKERS, **{"nerts.target": 40})),
    ("nerts-4p", {"nerts.jokers_per_deck": 1, "nerts.joker_identity": "until_uncovered", "nerts.partnerships": "pairs", "nerts.target": 40}),
])
def test_whole_random_episodes_stay_in_their_spaces(env_id, flags):
    env = cardsim.gym.make(env_id, flags=flags, illegal="raise")
    joker_ids = set()
    for seed in range(3):
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        while True:
            assert env.observation_space.contains(obs)
            legal = np.flatnonzero(info["action_mask"])
            # every action of the protocol's list has its own id, and only those (and idle) are legal
            ids = {env.encoder.action_id(a, info["view"]) for a in info["legal"]}
            assert len(ids) == len(info["legal"]) and ids <= set(legal) <= ids | {env.encoder.idle}
            joker_ids |= {i for i in ids if i >= 451 and i != env.encoder.idle}
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            if terminated or truncated:
                assert reward in (-1.0, 0.0, 1.0) and info["result"][0]["seat"] == 0
                break
    env.close()
    if flags and flags.get("nerts.jokers_per_deck"):
        # the Joker declarations were offered: foundation, build and slip-under ids
        assert env.action_space.n == 5980 and env.encoder.idle == 5979
        assert {451 <= i < 763 for i in joker_ids} == {True, False} and any(763 <= i < 5947 for i in joker_ids), sorted(joker_ids)
    elif env_id.startswith("nerts"):
        assert env.action_space.n == 452 and env.encoder.idle == 451 and not joker_ids


@pytest.mark.parametrize("env_id", ENVS)
def test_reset_in_the_middle_of_a_match_stops_and_joins_its_thread(env_id):
    env = cardsim.gym.make(env_id)
    for k in range(5):
        env.reset(seed=k)
        mask = env.action_masks()
        env.step(int(np.flatnonzero(mask)[0]))
        assert len(table_threads()) == 1, "one match runs, the abandoned ones are joined"
    env.reset()
    env.close()
    assert table_threads() == []


def test_a_pettingzoo_reset_mid_match_stops_every_learner():
    env = cardsim.pettingzoo.env("lopti-4p")
    for k in range(4):
        env.reset(seed=k)
        for _ in range(3):
            env.step(int(np.flatnonzero(env.infos[env.agent_selection]["action_mask"])[0]))
        assert len(table_threads()) == 1
    env.close()
    assert table_threads() == []


@pytest.mark.parametrize("env_id", ENVS)
def test_the_same_seed_gives_the_same_episode(env_id):
    a = random_episode(cardsim.gym.make(env_id), 7)
    b = random_episode(cardsim.gym.make(env_id), 7)
    c = random_episode(cardsim.gym.make(env_id), 8)
    assert len(a[0]) == len(b[0]) and all((x == y).all() for x, y in zip(a[0], b[0]))
    assert a[1] == b[1] and a[2]["csv"] == b[2]["csv"]
    assert a[2]["seed"] != c[2]["seed"]


def test_reset_without_a_seed_continues_the_seeded_stream():
    env = cardsim.gym.make("spit")
    seeds = [env.reset(seed=3)[1]["seed"], env.reset()[1]["seed"]]
    again = [env.reset(seed=3)[1]["seed"], env.reset()[1]["seed"]]
    env.close()
    assert seeds == again and seeds[0] != seeds[1]


def trace_of(env_id, bots, seed):
    game = env_id.partition("-")[0]
    return cardsim.trace(game, bots, seed=seed, seating="one")


def test_a_speed_observation_holds_no_hidden_card():
    env = cardsim.gym.make("speed", opponents=["greedy"])
    obs, info = env.reset(seed=11)
    enc = env.encoder
    # the deal does not depend on the bots: a built-in bot in the learner's seat
    events = trace_of("speed", ["random", "greedy"], info["seed"])
    hands = next(e for e in events if e["event"] == "hands")["hands"]
    mine, theirs = {card_index(c) for c in hands[0]}, {card_index(c) for c in hands[1]}
    assert set(np.flatnonzero(enc.field(obs, "hand"))) == mine
    shown = set(np.flatnonzero(enc.field(obs, "shown")))
    assert not shown & theirs and not set(np.flatnonzero(enc.field(obs, "hand"))) & theirs
    assert enc.field(obs, "hand_count_theirs")[0] == len(theirs)
    # the public counts: at the learner's first decision nothing was re-formed, both
    # stocks are as dealt, and hands (a card in flight counted), stocks, side piles and
    # the cards shown make up the deck
    counts = ["hand_count_mine", "hand_count_theirs", "stock_count_mine", "stock_count_theirs", "side_counts"]
    assert sum(enc.field(obs, name).sum() for name in counts) + len(shown) == 52
    assert enc.field(obs, "stock_count_mine")[0] == enc.field(obs, "stock_count_theirs")[0] > 0
    assert enc.field(obs, "recycles")[0] == 0
    env.close()


def test_a_nerts_observation_with_jokers_holds_no_hidden_card():
    """At the learner's first decision (time 0, its layout as dealt) the observation holds
    its Nerts top and its four work cards, a Joker among them as a free Joker (rank 0,
    suit 5), and no other card: not its stock, not the Nerts cards below the top."""
    env = cardsim.gym.make("nerts-3p", opponents=["balanced", "balanced"], flags=JOKERS)
    enc = env.encoder
    shown = lambda name: (0, 5) if name.startswith("Jk") else card(name)
    jokers_seen = 0
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        deal = next(e for e in cardsim.trace("nerts", ["balanced"] * 3, seed=info["seed"], seating="one", flags=JOKERS) if e["event"] == "deal")
        layout = deal["layouts"][deal["layout_of_seat"][0]]
        top = info["view"]["nerts_top"]
        assert top is not None and shown(layout["nerts"][-1]) == (enc.field(obs, "nerts_top_rank")[0], enc.field(obs, "nerts_top_suit")[0])
        assert (enc.field(obs, "waste_top_rank")[0], enc.field(obs, "waste_top_suit")[0]) == (0, 0)
        assert list(enc.field(obs, "work_len")) == [1, 1, 1, 1] and enc.field(obs, "stock")[0] == len(layout["stock"])
        ranks, suits = enc.field(obs, "work_rank").reshape(4, 13), enc.field(obs, "work_suit").reshape(4, 13)
        assert [(ranks[p][0], suits[p][0]) for p in range(4)] == [shown(w[0]) for w in layout["work"]]
        # nothing else: every deeper work slot is empty
        assert not ranks[:, 1:].any() and not suits[:, 1:].any()
        jokers_seen += sum(name.startswith("Jk") for name in [layout["nerts"][-1]] + [w[0] for w in layout["work"]])
    env.close()
    assert jokers_seen > 0, "some deal showed a Joker"


def test_a_lopti_observation_holds_no_hidden_card():
    env = cardsim.gym.make("lopti-3p", opponents=["lowest", "lowest"], seat=1)
    obs, info = env.reset(seed=4)
    enc = env.encoder
    deals = {e["seat"]: e for e in cardsim.trace("lopti", ["lowest", "lowest", "lowest"], seed=info["seed"], seating="one") if e["event"] == "deal"}
    view = info["view"]
    # own hand: as the view shows it (after the setup swaps), counted per rank
    assert enc.field(obs, "hand").sum() == len(view["hand"]) == 3
    assert enc.field(obs, "face_down")[0] == 3, "only the count of the own face-down cards"
    # nothing encodes a face-down card, the draw pile or another seat's hand: the only
    # cards are the own hand, face-up cards and the pile, and nobody's hand is known yet
    assert enc.field(obs, "table_known").sum() == 0
    counted = enc.field(obs, "hand").sum() + enc.field(obs, "table_face_up").sum() + enc.field(obs, "pile_cards").sum()
    assert counted == 3 + 3 * 3 + sum(len(p) for p in view["pile"])
    face_up = enc.field(obs, "table_face_up").reshape(5, 13)
    for i in range(3):
        seat = (1 + i) % 3
        assert face_up[i].sum() == 3 and enc.field(obs, "table_hand")[i] == len(deals[seat]["hand"])
        assert enc.field(obs, "table_face_down")[i] == len(deals[seat]["face_down"])
    env.close()


def choice_id(env, module, info):
    """The action id of `module`'s choice (an example bot's `decide`) at this decision."""
    index = module.decide({"decision": "move", "view": info["view"], "actions": info["legal"]}, botlib.Match(0, 0))
    return env.encoder.idle if index is None else env.encoder.action_id(info["legal"][index], info["view"])


@pytest.mark.parametrize("game, module, label, opponents, preset, flags", [
    ("spit", spit_greedy, "greedy", ["smart@expert"], "expert", None),
    ("speed", speed_greedy, "greedy", ["smart@skilled"], "skilled", None),
    ("lopti-3p", lopti_lowest, "lowest", ["burner", "random"], None, None),
    ("nerts-3p", nerts_lazy, "lazy", ["balanced@skilled", "nerts-first@skilled"], "skilled", None),
    ("nerts-3p", nerts_lazy, "lazy", ["balanced@skilled", "random@skilled"], "skilled", dict(JOKERS, **{"nerts.target": 40})),
])
def test_a_learner_playing_a_built_in_strategy_s_choices_plays_its_match(game, module, label, opponents, preset, flags):
    env = cardsim.gym.make(game, opponents=opponents, label=label, preset=preset, illegal="raise", flags=flags)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        while True:
            obs, reward, terminated, truncated, info = env.step(choice_id(env, module, info))
            if terminated or truncated:
                break
        built_in = f"{label}@{preset}" if preset else label
        want = cardsim.match(game.partition("-")[0], [built_in] + opponents, games=1, seed=info["seed"], seating="one", threads=1, flags=flags)
        assert info["csv"] == want.csv
    env.close()


def test_an_illegal_action_loses_or_raises_as_asked():
    env = cardsim.gym.make("lopti-3p")
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, illegal)
    assert table_threads() == []
    strict = cardsim.gym.make("lopti-3p", illegal="raise")
    obs, info = strict.reset(seed=1)
    with pytest.raises(ValueError, match=f"action {illegal} is not legal now; legal action ids"):
        strict.step(illegal)
    strict.close()


def test_nerts_deal_rewards_add_up_to_the_match_points():
    env = cardsim.gym.make("nerts-2p", rewards="deal", flags={"nerts.target": 30})
    seen, rewards, info = random_episode(env, 2)
    seat_points = info["result"][0]["points"][0]
    assert sum(rewards) == seat_points and len([r for r in rewards if r]) >= 2
    env.close()


@pytest.mark.parametrize("seat", [0, 1])
def test_speed_deal_rewards_add_up_to_the_match_points_and_the_csv_margin(seat):
    env = cardsim.gym.make("speed", seat=seat, rewards="deal", flags={"speed.target": 20})
    for seed in range(2):
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        rewards = []
        while True:
            totals = info["view"]["totals"]
            assert (env.encoder.field(obs, "totals_mine")[0], env.encoder.field(obs, "totals_theirs")[0]) == (totals[seat], totals[1 - seat])
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            rewards.append(reward)
            if terminated or truncated:
                break
        end = info["result"][seat]
        points = end["points"]
        assert terminated and sum(rewards) == points[seat] - points[1 - seat]
        # a deal scores at most the 15 stock cards: the winner's 20 take two scored deals
        assert max(points) >= 20 and min(points) < 20 and len([r for r in rewards if r]) >= 2
        assert (sum(rewards) > 0) == end["won"]
        # the CSV of the match reports the winner's points minus the loser's as `margin` (one match: its max)
        header, rows = cardsim._csv.parse(info["csv"])
        row = next(r for r in rows if r["bot"] == "learner" and r["seat"] == "all")
        assert row["margin_max"] == abs(sum(rewards))
    env.close()


GYM_IDS = ["spit", "speed"] + [f"lopti-{n}p" for n in range(2, 6)] + [f"nerts-{n}p" for n in range(2, 9)]


def test_every_environment_id_is_registered_with_gymnasium():
    registered = [i for i in gymnasium.envs.registry if i.startswith("cardsim/")]
    assert sorted(registered) == sorted(f"cardsim/{i}" for i in GYM_IDS)
    for env_id in GYM_IDS:
        env = gymnasium.make(f"cardsim/{env_id}")
        inner = env.unwrapped
        assert isinstance(inner, cardsim.gym.CardsimEnv) and env.spec.id == f"cardsim/{env_id}"
        game, _, count = env_id.partition("-")
        assert inner._match.game == game and len(inner._match.bots) == (int(count[:-1]) if count else 2)
        assert env.observation_space == cardsim.gym.make(env_id).observation_space
        obs, info = env.reset(seed=1)
        assert env.observation_space.contains(obs) and info["action_mask"].any()
        env.close()
    assert table_threads() == []


def test_gymnasium_make_passes_the_keywords_and_plays_the_same_episodes():
    kwargs = dict(opponents=["lowest", "burner"], seat=1, rewards="match")
    a = random_episode(gymnasium.make("cardsim/lopti-3p", **kwargs), 5)
    b = random_episode(cardsim.gym.make("lopti-3p", **kwargs), 5)
    assert a[1] == b[1] and a[2]["csv"] == b[2]["csv"] and b"lowest" in a[2]["csv"]
    assert all((x == y).all() for x, y in zip(a[0], b[0])) and len(a[0]) == len(b[0])


def test_gymnasium_make_imports_cardsim_gym_when_asked_to():
    code = ("import gymnasium\nenv = gymnasium.make('cardsim.gym:cardsim/nerts-4p')\n"
            "obs, info = env.reset(seed=2)\nprint(len(env.unwrapped._match.bots), obs.shape[0])\nenv.close()")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["4", str(cardsim.gym.make("nerts-4p").observation_space.shape[0])]


def test_bad_environment_arguments_are_one_line_errors():
    for call, text in [
        (lambda: cardsim.gym.make("chess"), "unknown environment 'chess'"),
        (lambda: cardsim.gym.make("lopti-9p"), "lopti is played by 2 to 5 players, not 9"),
        (lambda: cardsim.gym.make("spit", rewards="deal"), "rewards='deal' is offered for nerts and speed only"),
        (lambda: cardsim.gym.make("lopti-3p", seat=3), "seat=3"),
        (lambda: cardsim.pettingzoo.env("speed", bots=["greedy", "smart"]), "no learner seat"),
    ]:
        with pytest.raises(ValueError, match=text):
            call()


def test_the_core_package_imports_without_numpy_gymnasium_or_pettingzoo():
    code = ("import sys\nfor m in ('numpy', 'gymnasium', 'pettingzoo'): sys.modules[m] = None\n"
            "import cardsim\nprint(cardsim.match('spit', games=2, seed=1).rows[0]['games'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "2"
