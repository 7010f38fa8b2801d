//! `search`: looks ahead by determinized rollouts. For each decision with two or more
//! candidate moves (plays, flips, fills that expose a card), it samples positions
//! consistent with its view (the hidden cards dealt at random among the unseen ones,
//! new hidden-zone keys, an opponent's card in flight guessed), plays the next
//! `horizon` landed actions from each candidate on the real-time engine with `smart`
//! for both players and its own reaction model for both, and takes the candidate with
//! the best mean of (opponent's stockpile cards − its own, ± 10 for ending the round).
//! Every candidate is played out on the same samples and random numbers (common random
//! numbers), all drawn from the player's own stream. The rollouts it runs cost
//! `ms_per_rollout` each: that think time is reported to the engine, which adds it to
//! the action's time.

use super::smart::Smart;
use super::{Registered, SpitStrategy};
use crate::cards::CardSet;
use crate::games::params::{ParamDef, ParamValues};
use crate::games::spit::moves::{rebuild, SpitMoves};
use crate::games::spit::rules::{may_target, SpitAction, SpitRules};
use crate::games::spit::state::{Slot, SpitState};
use crate::games::spit::view::SpitView;
use crate::games::StrategyInfo;
use crate::reaction::{PreparedModel, ReactionModel};
use crate::realtime::lookahead::{budget_params, Lookahead, RolloutBudget, Sample};
use crate::realtime::{after, ActionList, Bot, Hand, RoundEnd, Seated, MAX_PLAYERS};
use crate::rng::{ChanceKey, SimRng};
use rand::RngExt;

/// Rollout search with charged think time.
pub struct Search {
    budget: RolloutBudget,
}

/// The parameters, in the order [`Search`] reads them.
const PARAMS: &[ParamDef] = &budget_params(16.0, 8.0, 0.05);

/// Registry entry.
pub const REGISTERED: Registered = Registered {
    info: StrategyInfo {
        name: "search",
        about: "determinized rollouts of the next actions (smart playing both sides) from each candidate move; think time charged per rollout; slaps the smaller pile",
        params: PARAMS,
    },
    make: |v| Box::new(Search::new(v)),
};

/// A round won (or lost) within a rollout, in stockpile cards.
const ROUND_END: f64 = 10.0;

/// The rollout policy: `smart` with its standard weights. A unit type, so a boxed one
/// allocates nothing.
struct Rollout;

impl SpitStrategy for Rollout {
    fn choose(&self, view: &SpitView, legal: &[SpitAction], _: &mut SimRng) -> Option<SpitAction> {
        Smart::STANDARD.pick(view, legal.iter().copied())
    }
    fn choose_moves(&self, view: &SpitView, moves: &SpitMoves, _: &mut SimRng) -> Option<SpitAction> {
        Smart::STANDARD.pick_moves(view, moves)
    }
}

/// Removes `n` uniformly chosen cards from `pool` (fewer if it holds fewer).
fn take(pool: &mut CardSet, n: u32, rng: &mut SimRng) -> CardSet {
    let mut out = CardSet::EMPTY;
    for _ in 0..n.min(pool.len()) {
        out.insert(pool.draw(rng));
    }
    out
}

impl Search {
    /// The strategy with parameters `v` (in [`PARAMS`] order).
    pub fn new(v: &ParamValues) -> Search {
        Search { budget: RolloutBudget::from_params(v) }
    }

    /// The think time charged for a decision among `candidates` moves
    /// ([`RolloutBudget::think_ms`]).
    pub fn think_ms(&self, candidates: usize) -> f64 {
        self.budget.think_ms(candidates)
    }

    /// A position consistent with `view`, drawn from `rng`: every card the view does not
    /// show is dealt at random to the two players' hidden cards, then to the spit piles'
    /// lower cards; both hidden zones get new keys (so the order of reveals is sampled
    /// too). An opponent whose stockpile count exceeds what his slots show holds a card
    /// in flight: it is drawn from the unseen cards that fit a pile he may play on
    /// (he is taken to be playing it there; if none fits, to be putting it back), and
    /// lands or is back after a uniform share of one of his action times.
    fn sample(view: &SpitView, reaction: &PreparedModel, rng: &mut SimRng) -> Sample<SpitRules> {
        let cfg = view.rules();
        let slots = view.slots();
        let me = view.me();
        let opp = 1 - me;
        let mut s = SpitState::EMPTY;
        let mut seen = CardSet::EMPTY;
        for (mine, p) in [(true, me), (false, opp)] {
            for i in 0..slots {
                let up = view.top(mine, i);
                s.players[p].slots[i] = Slot { down: view.face_down(mine, i), up };
                if let Some(c) = up {
                    seen.insert(c);
                }
            }
            s.players[p].spit = view.spit_count(mine) as u8;
        }
        for j in 0..2 {
            s.active[j] = view.pile_active(j);
            s.piles[j].top = view.pile_top(j);
            if let Some(c) = s.piles[j].top {
                seen.insert(c);
                s.piles[j].cards.insert(c);
            }
        }
        s.solo_spit_pile = view.solo_spit_pile().map(|j| j as u8);
        let mut pool = CardSet(CardSet::FULL.0 & !seen.0);

        // The opponent's card in flight, if he holds one.
        let mut hands = [Hand::Idle; MAX_PLAYERS];
        let shown: u32 = s.players[opp].slots[..slots].iter().map(Slot::len).sum();
        let from = s.players[opp].slots[..slots].iter().position(|x| x.up.is_none());
        if let (true, Some(from)) = (view.stock_count(false) > shown, from) {
            let targets: [u64; 2] = std::array::from_fn(|j| match s.piles[j].top {
                Some(t) if may_target(cfg, &s, opp, j) => view.fitting(t) & pool.0,
                _ => 0,
            });
            let fitting = CardSet(targets[0] | targets[1]);
            let c = if fitting.is_empty() { pool.draw(rng) } else { CardSet(fitting.0).draw(rng) };
            pool.remove(c);
            s.players[opp].flying = Some(c);
            let at = after(0, rng.random::<f64>() * reaction.action_time(crate::reaction::Motion::Play, 5, 3, rng));
            hands[opp] = match (0..2).find(|&j| targets[j] >> c.0 & 1 == 1) {
                Some(j) => Hand::Acting { at, action: SpitAction::Play { slot: from as u8, pile: j as u8 } },
                None => Hand::Returning { at, action: SpitAction::Play { slot: from as u8, pile: 0 } },
            };
        }

        for p in [me, opp] {
            let x = &mut s.players[p];
            let need = x.slots[..slots].iter().map(|x| x.down as u32).sum::<u32>() + x.spit as u32;
            x.hidden = take(&mut pool, need, rng);
            x.zone = ChanceKey(rng.random());
        }
        for j in 0..2 {
            let below = view.pile_len(j).saturating_sub(s.piles[j].top.is_some() as u32);
            let cards = take(&mut pool, below, rng);
            s.piles[j].cards = s.piles[j].cards.union(cards);
        }
        rebuild(cfg, &mut s);
        Sample { state: s, hands }
    }

    /// The value of a rollout's end for player `me`: the opponent's stockpile cards
    /// minus his own, plus or minus [`ROUND_END`] for the player who ended the round.
    fn value(s: &SpitState, me: usize, end: RoundEnd) -> f64 {
        let mut v = s.players[1 - me].stock_count() as f64 - s.players[me].stock_count() as f64;
        match end.first_out {
            Some(p) if p == me => v += ROUND_END,
            Some(_) => v -= ROUND_END,
            None => {}
        }
        v
    }

    /// The search: the candidate with the best mean rollout value (ties go to the
    /// earlier candidate; `smart`'s choice is put first), and the think time charged.
    fn search(&self, view: &SpitView, legal: impl Iterator<Item = SpitAction> + Clone, reaction: &ReactionModel, rng: &mut SimRng) -> (Option<SpitAction>, f64) {
        let first = Smart::STANDARD.pick(view, legal.clone());
        let Some(first) = first else { return (None, 0.0) };
        let mut candidates: ActionList<SpitAction> = ActionList::new();
        candidates.push(first);
        let options = legal.clone().count() as u32;
        for a in legal {
            let keep = match a {
                // A fill that exposes a card, to the first empty slot only (the empty
                // slots are alike).
                SpitAction::Fill { from, .. } => view.face_down(true, from as usize) > 0 && !candidates.iter().any(|b| matches!(*b, SpitAction::Fill { from: f, .. } if f == from)),
                _ => true,
            };
            if keep && a != first {
                candidates.push(a);
            }
        }
        let think = self.think_ms(candidates.len());
        if candidates.len() < 2 {
            return (Some(first), think);
        }
        let rules = SpitRules { cfg: *view.rules() };
        let bots: [Bot<dyn SpitStrategy>; 2] = std::array::from_fn(|_| Bot { strategy: Box::new(Rollout) as Box<dyn SpitStrategy>, reaction: *reaction });
        let seats = Seated::new(&[&bots[0], &bots[1]]);
        let me = view.me();
        let search = Lookahead { rules: &rules, seats: &seats, me, options: options as usize };
        let best = search.best_candidate(&candidates, think, &self.budget, rng, |r| Self::sample(view, seats.reaction(me), r), |s, end| Self::value(s, me, end));
        (Some(candidates[best]), think)
    }
}

impl SpitStrategy for Search {
    /// Without the engine's reaction model (a caller outside a match), the search
    /// models both players with the default preset.
    fn choose(&self, view: &SpitView, legal: &[SpitAction], rng: &mut SimRng) -> Option<SpitAction> {
        self.search(view, legal.iter().copied(), &crate::realtime::DEFAULT_PRESET.model(), rng).0
    }
    fn choose_moves(&self, view: &SpitView, moves: &SpitMoves, rng: &mut SimRng) -> Option<SpitAction> {
        self.search(view, moves.iter(), &crate::realtime::DEFAULT_PRESET.model(), rng).0
    }
    fn choose_timed(&self, view: &SpitView, moves: &SpitMoves, reaction: &ReactionModel, rng: &mut SimRng) -> (Option<SpitAction>, f64) {
        self.search(view, moves.iter(), reaction, rng)
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
