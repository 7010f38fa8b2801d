"""Fixed-shape encodings of the bot protocol's views and legal actions, one class per
game, for the learning environments (``cardsim.gym``, ``cardsim.pettingzoo``).

An encoder reads the ``view`` of a ``decide`` message (docs/bot-protocol.md section 5)
and nothing else, so an observation holds exactly what the seat sees, never a hidden
card. It maps every legal action of a ``move`` decision to a fixed id of a ``Discrete``
action space; in the real-time games the last id is ``idle`` (the protocol's
``{"index": null}``), legal where it cannot break the game's liveness rule. docs/python.md lists every field.

Cards of Spit, Speed and Nerts: rank value 1 (A) .. 13 (K), 0 for none; suit 1 (c),
2 (d), 3 (h), 4 (s), 0 for none; as a 52-card mask, card ``13 * (suit - 1) + rank - 1``.
A Nerts Joker as it stands: ``Jk`` (free, wild) rank 0 and suit 5; ``Jk:R:red`` /
``Jk:R:black`` (lying on a card, standing for rank R of that colour) rank R and suit 6
(red) / 7 (black); a Joker whose identity is fixed is the card it stands for.
Lopti ranks: 0 (``2``) .. 12 (``A``), the game's order.
"""

import numpy as np

SUITS = "cdhs"
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
LOPTI_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
LOPTI_RANK = {r: i for i, r in enumerate(LOPTI_RANKS)}


def card(name):
    """``(rank value, suit number)`` of a card name such as ``"10h"``; ``(0, 0)`` for
    ``None``."""
    if name is None:
        return 0, 0
    rank = RANKS.get(name[:-1]) or int(name[:-1])
    return rank, SUITS.index(name[-1]) + 1


def eff(name):
    """``(rank value, suit number)`` of a Nerts card as it stands (docs/bot-protocol.md
    section 4): a card name as :func:`card`; ``Jk`` (a free Joker) ``(0, 5)``;
    ``Jk:R:red`` / ``Jk:R:black`` (a Joker standing for rank R) ``(R, 6)`` / ``(R, 7)``."""
    if name is None or not name.startswith("Jk"):
        return card(name)
    if name == "Jk":
        return 0, 5
    _, rank, colour = name.split(":")
    return int(rank), 6 if colour == "red" else 7


def card_index(name):
    """The card's place in a 52-card mask."""
    rank, suit = card(name)
    return 13 * (suit - 1) + rank - 1


class Encoder:
    """One game's encoding: ``size`` observation values, ``actions`` action ids.

    Subclasses set ``fields`` (name, length) in observation order, ``actions`` and
    ``real_time``, and implement ``fill(view, out)`` and ``action_id(action, view)``
    (``view``: the decision's view, which some ids depend on). ``flags``: the rule flags
    of the environment (``{"nerts.jokers_per_deck": 1}``), for encodings that depend on
    them."""

    fields = ()
    actions = 0
    real_time = False
    #: bounds of every observation value (Nerts scores can be negative)
    low, high = -1e6, 1e6

    def __init__(self, flags=None):
        self.size = sum(n for _, n in self.fields)
        self.offsets = {}
        at = 0
        for name, n in self.fields:
            self.offsets[name] = (at, at + n)
            at += n

    @property
    def idle(self):
        """The id of staying idle (real-time games), else ``None``."""
        return self.actions - 1 if self.real_time else None

    def observe(self, view):
        """The view as a float32 vector of ``size`` values."""
        out = np.zeros(self.size, dtype=np.float32)
        self.fill(view, out)
        return out

    def field(self, obs, name):
        """The slice of ``obs`` holding field ``name``."""
        lo, hi = self.offsets[name]
        return obs[lo:hi]

    def put(self, out, name, values):
        """Writes ``values`` into field ``name`` of ``out``."""
        lo, hi = self.offsets[name]
        out[lo:hi] = values

    def legal(self, actions, view=None):
        """The ids of the legal actions ``actions`` (the protocol's list, in its order)
        at a decision on ``view``, as a list parallel to it; an id appears once."""
        ids = [self.action_id(a, view) for a in actions]
        if len(set(ids)) != len(ids):
            raise ValueError(f"two legal actions share an action id: {actions}")
        return ids

    def idle_legal(self, actions):
        """Whether staying idle is offered next to ``actions`` (real-time games): only
        where it cannot break the liveness rule (docs/bot-protocol.md section 3.4)."""
        return False

    def mask(self, ids, actions):
        """The legal-action mask (int8) of the ids ``ids`` of ``actions``, with idle
        where :meth:`idle_legal` offers it."""
        m = np.zeros(self.actions, dtype=np.int8)
        m[ids] = 1
        if self.real_time and ids and self.idle_legal(actions):
            m[self.idle] = 1
        return m


class Spit(Encoder):
    """Spit (2 players, up to 5 slots)."""

    fields = (
        ("seat", 1), ("slots", 1),
        ("mine_top_rank", 5), ("mine_top_suit", 5), ("mine_face_down", 5), ("mine_stock", 1), ("mine_spit", 1),
        ("theirs_top_rank", 5), ("theirs_top_suit", 5), ("theirs_face_down", 5), ("theirs_stock", 1), ("theirs_spit", 1),
        ("pile_top_rank", 2), ("pile_top_suit", 2), ("pile_cards", 2),
    )
    # play slot s onto pile p: 2s+p (10); flip slot s: 10+s (5); fill from f to t: 15+5f+t (25); idle: 40
    actions = 41
    real_time = True

    def idle_legal(self, actions):
        """Idle only when every action is an aimless fill (the others are progress)."""
        return all(a["action"] == "fill" and not a["exposes"] for a in actions)

    def fill(self, view, out):
        self.put(out, "seat", [view["seat"]])
        self.put(out, "slots", [view["slots"]])
        for side in ("mine", "theirs"):
            s = view[side]
            n = len(s["tops"])
            cards = [card(c) for c in s["tops"]]
            out[self.offsets[f"{side}_top_rank"][0]:][:n] = [r for r, _ in cards]
            out[self.offsets[f"{side}_top_suit"][0]:][:n] = [u for _, u in cards]
            out[self.offsets[f"{side}_face_down"][0]:][:n] = s["face_down"]
            self.put(out, f"{side}_stock", [s["stock"]])
            self.put(out, f"{side}_spit", [s["spit"]])
        tops = [card(p["top"]) for p in view["piles"]]
        self.put(out, "pile_top_rank", [r for r, _ in tops])
        self.put(out, "pile_top_suit", [u for _, u in tops])
        self.put(out, "pile_cards", [p["cards"] for p in view["piles"]])

    def action_id(self, a, view=None):
        kind = a["action"]
        if kind == "play":
            return 2 * a["slot"] + a["pile"]
        if kind == "flip":
            return 10 + a["slot"]
        if kind == "fill":
            return 15 + 5 * a["from"] + a["to"]
        raise ValueError(f"unknown Spit action {a}")


class Speed(Encoder):
    """Speed (2 players, one 52-card deck)."""

    fields = (
        ("seat", 1), ("hand", 52), ("shown", 52), ("pile_top_rank", 2), ("pile_top_suit", 2),
        ("hand_count_mine", 1), ("hand_count_theirs", 1), ("totals_mine", 1), ("totals_theirs", 1),
        ("in_flight_mine", 1), ("in_flight_theirs", 1), ("stock_count_mine", 1), ("stock_count_theirs", 1),
        ("side_counts", 2), ("recycles", 1), ("recycled_since_landing", 1),
        ("drawing_theirs", 1), ("exclusions_theirs", 65),
    )
    # play card c onto pile p: 2c+p (104); draw: 104; idle: 105, never legal (every play and
    # the draw are progress: staying idle beside them breaks the liveness rule)
    actions = 106
    real_time = True

    def fill(self, view, out):
        seat = view["seat"]
        self.put(out, "seat", [seat])
        lo = self.offsets["hand"][0]
        for c in view["hand"]:
            out[lo + card_index(c)] = 1
        lo = self.offsets["shown"][0]
        for c in view["shown"]:
            out[lo + card_index(c)] = 1
        tops = [card(c) for c in view["piles"]]
        self.put(out, "pile_top_rank", [r for r, _ in tops])
        self.put(out, "pile_top_suit", [u for _, u in tops])
        self.put(out, "hand_count_mine", [view["hand_counts"][seat]])
        self.put(out, "hand_count_theirs", [view["hand_counts"][1 - seat]])
        self.put(out, "totals_mine", [view["totals"][seat]])
        self.put(out, "totals_theirs", [view["totals"][1 - seat]])
        for name in ("in_flight", "stock_count"):
            per_seat = view[f"{name}s" if name == "stock_count" else name]
            self.put(out, f"{name}_mine", [per_seat[seat]])
            self.put(out, f"{name}_theirs", [per_seat[1 - seat]])
        self.put(out, "side_counts", view["side_counts"])
        self.put(out, "recycles", [view["recycles"]])
        self.put(out, "recycled_since_landing", [view["recycled_since_landing"]])
        self.put(out, "drawing_theirs", [view["drawing"][1 - seat]])
        # slot i of the opponent's hand (oldest first), rank r (1..13): 13 i + r - 1
        lo = self.offsets["exclusions_theirs"][0]
        for i, ranks in enumerate(view["hand_exclusions"][1 - seat]):
            for r in ranks:
                out[lo + 13 * i + r - 1] = 1

    def action_id(self, a, view=None):
        if a["action"] == "play":
            return 2 * card_index(a["card"]) + a["pile"]
        if a["action"] == "draw":
            return 104
        raise ValueError(f"unknown Speed action {a}")


class Nerts(Encoder):
    """Nerts (2-8 players, 4 work piles). With Jokers (``nerts.jokers_per_deck`` > 0 in
    ``flags``) the ids of the actions that declare what a Joker is follow the others,
    and idle is the last id."""

    DEPTH = 13
    fields = (
        ("seat", 1), ("team", 1), ("teams", 1), ("nerts_left", 1), ("nerts_top_rank", 1), ("nerts_top_suit", 1),
        ("waste_top_rank", 1), ("waste_top_suit", 1), ("stock", 1),
        ("work_len", 4), ("work_rank", 52), ("work_suit", 52), ("needs", 52), ("foundation_cards", 1),
        ("totals", 8), ("deal_scores", 8), ("fewest_other_nerts", 1), ("partner_busy", 1), ("open", 3),
        ("nerts_counts", 8),
    )
    # flip_n 0, flip3 1, recycle 2, rotate 3, call 4; to_foundation from source s: 5+s (6);
    # build from nerts/waste onto p: 11+4k+p (8), from work (q, depth d) onto p: 19+52q+4d+p (208);
    # fill: the same from 227 (216); slip_under from nerts/waste under p: 443+4k+p (8).
    # With Jokers: an open Joker from source s to the foundations as card c: 451+52s+c (312);
    # build b (its id minus 11: 0..215) declaring the moving Joker's suit j and the covered
    # Joker's suit v (1..4 = c, d, h, s; 0 = no declaration; not both 0): 763+24b+5j+v-1
    # (5184); a Joker slipped from nerts/waste under p declaring suit j: 5947+16k+4p+j-1 (32).
    # Idle: the last id (451 without Jokers, 5979 with).
    SIMPLE = {"flip_n": 0, "flip3": 1, "recycle": 2, "rotate": 3, "call": 4}
    JOKER_FOUNDATION, JOKER_BUILD, JOKER_SLIP = 451, 763, 5947
    real_time = True

    def __init__(self, flags=None):
        self.jokers = str((flags or {}).get("nerts.jokers_per_deck", 0)) != "0"
        self.actions = 5980 if self.jokers else 452
        super().__init__(flags)

    def idle_legal(self, actions):
        """Always: a Nerts hand may wait (the engine's stall rules handle a table where
        nobody moves)."""
        return True

    def fill(self, view, out):
        for name in ("seat", "team", "teams", "nerts_left", "stock", "foundation_cards", "fewest_other_nerts"):
            self.put(out, name, [view[name]])
        self.put(out, "partner_busy", [view["partner_busy"]])
        for name in ("nerts_top", "waste_top"):
            r, s = eff(view[name])
            self.put(out, f"{name}_rank", [r])
            self.put(out, f"{name}_suit", [s])
        rank_at, suit_at = self.offsets["work_rank"][0], self.offsets["work_suit"][0]
        for p, pile in enumerate(view["work"]):
            out[self.offsets["work_len"][0] + p] = len(pile)
            for d, c in enumerate(pile[: self.DEPTH]):
                r, s = eff(c)
                out[rank_at + self.DEPTH * p + d] = r
                out[suit_at + self.DEPTH * p + d] = s
        lo = self.offsets["needs"][0]
        for c in view["needs"]:
            out[lo + card_index(c)] = 1
        for name in ("totals", "deal_scores", "nerts_counts"):
            out[self.offsets[name][0]:][: len(view[name])] = view[name]
        o = view["open"]
        self.put(out, "open", [o["nerts"], o["waste"], o["work"]])

    @staticmethod
    def _top(source):
        return {"nerts": 0, "waste": 1}.get(source) if isinstance(source, str) else None

    def _source(self, source):
        """0 (Nerts top), 1 (waste top) or 2 + q (work pile q)."""
        k = self._top(source)
        return k if k is not None else 2 + source["work"]

    @staticmethod
    def _open_joker(view, source):
        """Whether ``source`` shows an open Joker in ``view`` (``Jk`` or ``Jk:R:...``; a
        Joker whose identity is fixed shows as its card)."""
        if view is None:
            return False
        if isinstance(source, str):
            shown = view[f"{source}_top"]
        else:
            shown = view["work"][source["work"]][source["depth"]]
        return shown is not None and shown.startswith("Jk")

    def _moved(self, a):
        """The build or fill ``a`` as 0..215: from the Nerts / waste top (k = 0 / 1)
        onto ``to``: 4k + to; a work stack (pile q, depth d): 8 + 52q + 4d + to."""
        k = self._top(a["from"])
        if k is not None:
            return 4 * k + a["to"]
        w = a["from"]
        return 8 + 52 * w["work"] + 4 * w["depth"] + a["to"]

    def action_id(self, a, view=None):
        """The id of legal action ``a`` at a decision on ``view`` (needed with Jokers: an
        open Joker sent to the foundations has an id per card it is declared as)."""
        kind = a["action"]
        if kind in self.SIMPLE:
            return self.SIMPLE[kind]
        joker = 0 if a.get("joker") is None else SUITS.index(a["joker"][-1]) + 1
        cover = 0 if a.get("cover") is None else a["cover"] + 1
        declares = joker or cover or (kind == "to_foundation" and self._open_joker(view, a["from"]))
        if declares and not self.jokers:
            raise ValueError(f"a Joker declaration without Jokers (nerts.jokers_per_deck=0): {a}")
        if kind == "to_foundation":
            s = self._source(a["from"])
            return self.JOKER_FOUNDATION + 52 * s + card_index(a["card"]) if declares else 5 + s
        if kind == "build":
            b = self._moved(a)
            return self.JOKER_BUILD + 24 * b + 5 * joker + cover - 1 if declares else 11 + b
        if kind == "fill":
            return 227 + self._moved(a)
        if kind == "slip_under":
            k, p = self._top(a["from"]), a["pile"]
            return self.JOKER_SLIP + 16 * k + 4 * p + joker - 1 if declares else 443 + 4 * k + p
        raise ValueError(f"unknown Nerts action {a}")


class Lopti(Encoder):
    """Lopti (2-5 players, one deck): the seats are listed from the viewer's, clockwise."""

    fields = (
        ("players", 1), ("current", 1), ("setup", 1), ("obligation", 1), ("bonus", 1), ("draw_owed", 1),
        ("draw_pile", 1), ("run3", 1), ("face_down", 1),
        ("hand", 13), ("face_up", 13), ("pile_cards", 13), ("pile_plays", 1),
        ("pile_top_rank", 1), ("pile_top_count", 1), ("pile_below_rank", 1), ("pile_below_count", 1),
        ("out_of_round", 13),
        ("table_present", 5), ("table_hand", 5), ("table_face_down", 5), ("table_out", 5), ("table_picked_up", 5),
        ("table_known", 65), ("table_face_up", 65),
    )
    # play rank r (0 = "2" .. 12 = "A") count c (1..4): 4r+c-1 (52); blind 52, pickup 53, pass 54
    actions = 55

    @staticmethod
    def _count(out, lo, ranks):
        for r in ranks:
            out[lo + LOPTI_RANK[r]] += 1

    def fill(self, view, out):
        players, seat = view["players"], view["seat"]
        self.put(out, "players", [players])
        self.put(out, "current", [(view["current"] - seat) % players])
        for name in ("setup", "obligation", "bonus", "draw_owed", "draw_pile", "run3", "face_down"):
            self.put(out, name, [view[name]])
        for name in ("hand", "face_up", "out_of_round"):
            self._count(out, self.offsets[name][0], view[name])
        pile = view["pile"]
        for play in pile:
            self._count(out, self.offsets["pile_cards"][0], play)
        self.put(out, "pile_plays", [len(pile)])
        for name, k in (("top", 1), ("below", 2)):
            if len(pile) >= k:
                play = pile[-k]
                self.put(out, f"pile_{name}_rank", [LOPTI_RANK[play[0]] + 1])
                self.put(out, f"pile_{name}_count", [len(play)])
        for i in range(players):
            t = view["table"][(seat + i) % players]
            for name, value in (("present", 1), ("hand", t["hand"]), ("face_down", t["face_down"]), ("out", t["out"]), ("picked_up", t["picked_up"])):
                out[self.offsets[f"table_{name}"][0] + i] = value
            self._count(out, self.offsets["table_known"][0] + 13 * i, t["known"])
            self._count(out, self.offsets["table_face_up"][0] + 13 * i, t["face_up"])

    def action_id(self, a, view=None):
        kind = a["action"]
        if kind == "play":
            return 4 * LOPTI_RANK[a["rank"]] + a["count"] - 1
        return {"blind": 52, "pickup": 53, "pass": 54}[kind]


ENCODERS = {"spit": Spit, "speed": Speed, "nerts": Nerts, "lopti": Lopti}

