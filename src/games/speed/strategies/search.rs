//! `search`: looks ahead by determinized rollouts. For each decision with two or more
//! candidate moves (its plays; a draw only when it has no play, so then it is alone), it
//! samples positions consistent with its view: the opponent's hand dealt at random from
//! the cards it has not seen (as many as he holds), each of his cards among the ranks the
//! public hand memory leaves it ([`HandMemory`](crate::games::speed::state::HandMemory):
//! what his draws, his waiting and the stalls showed), the two stocks and the side piles
//! from the rest (the cards it remembers leaving the centre when the side piles were
//! re-formed go to the side piles), new hidden-zone keys, and an opponent's card in
//! flight guessed. From each sample it plays every candidate and the next `horizon`
//! landed actions on the real-time engine with `smart` (its default weights) for both
//! players, both timed by its own reaction model, and takes the candidate with the best
//! mean of (opponent's cards left − its own, hand and stock, ± 10 for ending the deal).
//! Every candidate is played out on the same samples and random numbers (common random
//! numbers, [`Lookahead::best_candidate`]), all drawn from the player's own stream. The
//! rollouts it runs cost `ms_per_rollout` each: that think time is reported to the
//! engine, which adds it to the action's time.

use super::smart::Smart;
use super::{Registered, SpeedStrategy};
use crate::cards::{deal_split, Card, CardSet};
use crate::games::params::{ParamDef, ParamValues};
use crate::games::speed::moves::SpeedMoves;
use crate::games::speed::rules::{SpeedAction, SpeedRules};
use crate::games::speed::state::{PlayerCards, SpeedState};
use crate::games::speed::view::SpeedView;
use crate::games::StrategyInfo;
use crate::reaction::{Motion, PreparedModel, ReactionModel};
use crate::realtime::lookahead::{budget_params, Lookahead, RolloutBudget, Sample};
use crate::realtime::{after, ActionList, Bot, Hand, Pile, RoundEnd, Seated, MAX_PLAYERS};
use crate::rng::{ChanceKey, SimRng};
use rand::RngExt;

/// Rollout search with charged think time.
pub struct Search {
    budget: RolloutBudget,
    /// Deal the opponent's hand slot by slot from the public memory of what his draws
    /// and the stalls showed ([`HandMemory`](crate::games::speed::state::HandMemory)), rather than uniformly.
    memory: bool,
}

/// The rollout budget's parameters ([`budget_params`]).
const BUDGET: [ParamDef; 3] = budget_params(16.0, 8.0, 0.05);

/// The parameters, in the order [`Search`] reads them.
const PARAMS: &[ParamDef] = &[
    BUDGET[0],
    BUDGET[1],
    BUDGET[2],
    ParamDef { name: "memory", about: "1: deal the opponent's hand from what his draws, his waiting and the stalls showed (public hand memory); 0: uniformly from the unseen cards", default: 1.0, min: 0.0, max: 1.0, integer: true },
];

/// Registry entry.
pub const REGISTERED: Registered = Registered {
    info: StrategyInfo {
        name: "search",
        about: "determinized rollouts of the next actions (smart playing both sides) from each play; think time charged per rollout; draws only with no play",
        params: PARAMS,
    },
    make: |v| Box::new(Search::new(v)),
};

/// A deal won (or lost) within a rollout, in cards.
const DEAL_END: f64 = 10.0;

/// The rollout policy: `smart` with its default weights. A unit type, so a boxed one
/// allocates nothing.
struct Rollout;

impl SpeedStrategy for Rollout {
    fn choose(&self, view: &SpeedView, legal: &[SpeedAction], _: &mut SimRng) -> Option<SpeedAction> {
        Smart::STANDARD.pick(view, legal.iter().copied())
    }
    fn choose_moves(&self, view: &SpeedView, moves: &SpeedMoves, _: &mut SimRng) -> Option<SpeedAction> {
        Smart::STANDARD.pick_moves(view, moves)
    }
    fn reads_hand_memory(&self) -> bool {
        false
    }
}

/// Every card whose rank is in `ranks` (bit `r - 1` for rank `r`).
fn cards_of_ranks(ranks: u16) -> CardSet {
    CardSet((0..13).filter(|r| ranks >> r & 1 == 1).fold(0, |m, r| m | 0xF << (4 * r)))
}

/// Removes `n` uniformly chosen cards from `pool` (fewer if it holds fewer).
fn take(pool: &mut CardSet, n: u32, rng: &mut SimRng) -> CardSet {
    let (out, rest) = deal_split(rng, *pool, n.min(pool.len()));
    *pool = rest;
    out
}

impl Search {
    /// The strategy with parameters `v` (in [`PARAMS`] order).
    pub fn new(v: &ParamValues) -> Search {
        Search { budget: RolloutBudget::from_params(v), memory: v.int(3) == 1 }
    }

    /// The think time charged for a decision among `candidates` moves
    /// ([`RolloutBudget::think_ms`]).
    pub fn think_ms(&self, candidates: usize) -> f64 {
        self.budget.think_ms(candidates)
    }

    /// A position consistent with `view`, drawn from `rng`. Kept from the view: its own
    /// hand, the centre piles, the shown cards, the counts of every hand, stock and side
    /// pile, the re-forming count and flag, the match points. The cards it remembers
    /// that are in no centre pile were re-formed into the side piles: they are dealt
    /// there first, at random between the two. Every card it has not seen is dealt at
    /// random: the opponent's card in flight if he has one (among those that fit a
    /// centre top; he is taken to be playing it there, or, if none fits, to be taking
    /// it back), his hand (slot by slot from his hand memory, [`Search::deal_hand`]; or
    /// uniformly with `memory=0`), the searcher's stock, his stock, then what the side piles
    /// still lack. The hidden-zone key is new, so the order in which stocks and side
    /// piles reveal cards is sampled too. A card in flight lands (or is back) after a
    /// uniform share of one of his action times.
    fn sample(&self, view: &SpeedView, reaction: &PreparedModel, rng: &mut SimRng) -> Sample<SpeedRules> {
        let me = view.seat();
        let opp = 1 - me;
        let mut centre = [Pile::EMPTY; 2];
        for (j, pile) in centre.iter_mut().enumerate() {
            *pile = Pile { cards: view.centre_cards(j), top: view.pile_top(j) };
        }
        let mut pool = view.unseen();
        let mut players = [PlayerCards::default(); 2];
        players[me].hand = view.hand();

        let mut hands = [Hand::Idle; MAX_PLAYERS];
        if view.in_flight(false) {
            let targets: [u64; 2] = std::array::from_fn(|j| view.pile_top(j).map_or(0, |t| view.fitting(t).0 & pool.0));
            let fitting = CardSet(targets[0] | targets[1]);
            let mut from = if fitting.is_empty() { pool } else { fitting };
            let c = from.draw(rng);
            pool.remove(c);
            players[opp].flying = Some(c);
            let at = after(0, rng.random::<f64>() * reaction.action_time(Motion::Play, 5, 3, rng));
            hands[opp] = match (0..2).find(|&j| targets[j] >> c.0 & 1 == 1) {
                Some(j) => Hand::Acting { at, action: SpeedAction::Play { card: c, pile: j as u8 } },
                None => Hand::Returning { at, action: SpeedAction::Play { card: c, pile: 0 } },
            };
        }
        let in_hand = view.hand_count(false) - view.in_flight(false) as u32;
        players[opp].hand = if self.memory { Self::deal_hand(view, players[opp].flying, &mut pool, rng) } else { take(&mut pool, in_hand, rng) };
        for p in [me, opp] {
            players[p].memory = view.hand_memory(p == me);
        }
        for p in [me, opp] {
            players[p].stock = take(&mut pool, view.stock_count(p == me), rng);
        }

        // The remembered cards out of the centre, then unseen ones, into the side piles.
        let mut remembered = CardSet(view.shown().0 & !view.centre_cards(0).0 & !view.centre_cards(1).0);
        let need = [view.side_count(0), view.side_count(1)];
        let mut side = [CardSet::EMPTY; 2];
        let mut room = need;
        while !remembered.is_empty() && room[0] + room[1] > 0 {
            let c = remembered.draw(rng);
            let j = if rng.random_range(0..room[0] + room[1]) < room[0] { 0 } else { 1 };
            side[j].insert(c);
            room[j] -= 1;
        }
        for j in 0..2 {
            side[j] = side[j].union(take(&mut pool, room[j], rng));
        }

        let state = SpeedState {
            players,
            side,
            centre,
            shown: view.shown(),
            recycled_since_landing: view.recycled_since_landing(),
            recycles: view.recycles(),
            zone: ChanceKey(rng.random()),
            totals: view.totals().map(|t| t as u16),
        };
        Sample { state, hands }
    }

    /// The opponent's hand cards (his card in flight, `flying`, already dealt) drawn from
    /// `pool` slot by slot, oldest (most excluded) first: each among the cards whose
    /// rank its slot does not exclude, or among all of `pool` if none is left. The card
    /// in flight takes the oldest slot its rank fits, as a landing play would.
    fn deal_hand(view: &SpeedView, flying: Option<Card>, pool: &mut CardSet, rng: &mut SimRng) -> CardSet {
        let mut memory = view.hand_memory(false);
        let mut slots = view.hand_count(false);
        if let Some(c) = flying {
            memory.remove(c.rank(), slots);
            slots -= 1;
        }
        let mut hand = CardSet::EMPTY;
        for i in 0..slots {
            let mut allowed = CardSet(pool.0 & !cards_of_ranks(memory.slot(i)).0);
            if allowed.is_empty() {
                allowed = *pool;
            }
            let c = allowed.draw(rng);
            pool.remove(c);
            hand.insert(c);
        }
        hand
    }

    /// The value of a rollout's end for player `me`: the opponent's cards (hand, stock,
    /// card in flight) minus his own, plus or minus [`DEAL_END`] for the player who
    /// went out.
    fn value(s: &SpeedState, me: usize, end: RoundEnd) -> f64 {
        let mut v = s.players[1 - me].count() as f64 - s.players[me].count() as f64;
        match end.first_out {
            Some(p) if p == me => v += DEAL_END,
            Some(_) => v -= DEAL_END,
            None => {}
        }
        v
    }

    /// The search: the candidate with the best mean rollout value (ties go to the
    /// earlier candidate; `smart`'s choice is put first), and the think time charged.
    fn search(&self, view: &SpeedView, legal: impl Iterator<Item = SpeedAction> + Clone, reaction: &ReactionModel, rng: &mut SimRng) -> (Option<SpeedAction>, f64) {
        let Some(first) = Smart::STANDARD.pick(view, legal.clone()) else { return (None, 0.0) };
        let mut candidates: ActionList<SpeedAction> = ActionList::new();
        candidates.push(first);
        let mut options = 0;
        for a in legal {
            options += 1;
            if a != first && matches!(a, SpeedAction::Play { .. }) {
                candidates.push(a);
            }
        }
        let think = self.think_ms(candidates.len());
        if candidates.len() < 2 {
            return (Some(first), think);
        }
        let bots: [Bot<dyn SpeedStrategy>; 2] = std::array::from_fn(|_| Bot { strategy: Box::new(Rollout) as Box<dyn SpeedStrategy>, reaction: *reaction });
        let seats = Seated::new(&[&bots[0], &bots[1]]);
        // The rollouts' smart reads no hand memory: they play without it.
        let rules = SpeedRules::for_seats(*view.rules(), &seats);
        let me = view.seat();
        let search = Lookahead { rules: &rules, seats: &seats, me, options };
        let best = search.best_candidate(&candidates, think, &self.budget, rng, |r| self.sample(view, seats.reaction(me), r), |s, end| Self::value(s, me, end));
        (Some(candidates[best]), think)
    }
}

impl SpeedStrategy for Search {
    /// Without the engine's reaction model (a caller outside a match), the search
    /// models both players with the default preset.
    fn choose(&self, view: &SpeedView, legal: &[SpeedAction], rng: &mut SimRng) -> Option<SpeedAction> {
        self.search(view, legal.iter().copied(), &crate::realtime::DEFAULT_PRESET.model(), rng).0
    }
    fn choose_moves(&self, view: &SpeedView, moves: &SpeedMoves, rng: &mut SimRng) -> Option<SpeedAction> {
        self.search(view, moves.iter(), &crate::realtime::DEFAULT_PRESET.model(), rng).0
    }
    fn choose_timed(&self, view: &SpeedView, moves: &SpeedMoves, reaction: &ReactionModel, rng: &mut SimRng) -> (Option<SpeedAction>, f64) {
        self.search(view, moves.iter(), reaction, rng)
    }
    /// With `memory=1` (the default) it deals the opponent's hand from the memory.
    fn reads_hand_memory(&self) -> bool {
        self.memory
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rollout_policy_is_smart_with_its_defaults() {
        let v = ParamValues::defaults(super::super::smart::REGISTERED.info.params);
        assert_eq!(Smart::new(&v), Smart::STANDARD);
    }

    #[test]
    fn a_boxed_rollout_policy_is_a_unit() {
        assert_eq!(std::mem::size_of::<Rollout>(), 0, "boxing it must not allocate");
    }
}
