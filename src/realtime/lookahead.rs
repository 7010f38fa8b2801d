//! Determinized rollouts, the lookahead the real-time games' `search` strategies share.
//! A game's searching strategy builds its candidate moves and a sampler of positions
//! consistent with its player's view (every hidden card dealt at random among the
//! unseen ones, the other players' hands in flight guessed); [`Lookahead::best_candidate`] plays
//! each candidate out from the same samples on the real-time engine, with the same
//! random numbers (common random numbers, all drawn from the player's own stream), and
//! returns the candidate with the best mean value. What the search costs is charged to
//! the player as think time ([`RolloutBudget::think_ms`]), added by the engine to the
//! action's time (see [`RealtimePolicy::choose_timed`]).
//!
//! Nothing here allocates: a rollout copies the `Copy` state and runs
//! [`play_from`] on it.

use super::engine::{after, play_from, Hand, MatchRngs, RealtimeRules, RoundCounts, RoundEnd, MAX_ACTIONS, MAX_PLAYERS};
use super::policy::{RealtimePolicy, Seated};
use crate::games::params::{ParamDef, ParamValues};
use crate::rng::{mix, rng_from, SimRng};
use rand::RngExt;

/// How much a search looks ahead and what that costs: the first three parameters of
/// every `search` strategy ([`budget_params`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutBudget {
    /// Rollouts per candidate move.
    pub rollouts: u32,
    /// Landed actions (all players) a rollout plays before it is scored.
    pub horizon: u64,
    /// Think time charged per rollout run (ms).
    pub ms_per_rollout: f64,
}

/// The budget parameters with the given defaults, in the order
/// [`RolloutBudget::from_params`] reads them (`rollouts`, `horizon`, `ms_per_rollout`).
pub const fn budget_params(rollouts: f64, horizon: f64, ms_per_rollout: f64) -> [ParamDef; 3] {
    [
        ParamDef { name: "rollouts", about: "rollouts per candidate move (the search budget)", default: rollouts, min: 1.0, max: 1024.0, integer: true },
        ParamDef { name: "horizon", about: "landed actions (all players) a rollout plays before it is scored", default: horizon, min: 1.0, max: 2000.0, integer: true },
        ParamDef { name: "ms_per_rollout", about: "think time charged per rollout run (ms), added to the action's time", default: ms_per_rollout, min: 0.0, max: 1000.0, integer: false },
    ]
}

impl RolloutBudget {
    /// The budget from parameter values whose first three are [`budget_params`].
    pub fn from_params(v: &ParamValues) -> RolloutBudget {
        RolloutBudget { rollouts: v.int(0) as u32, horizon: v.int(1) as u64, ms_per_rollout: v.get(2) }
    }

    /// The think time charged for a decision among `candidates` moves: every rollout of
    /// every candidate, none below two candidates (nothing to search).
    pub fn think_ms(&self, candidates: usize) -> f64 {
        if candidates < 2 { 0.0 } else { (candidates as u64 * self.rollouts as u64) as f64 * self.ms_per_rollout }
    }
}

/// A position consistent with a player's view, from which a rollout starts: the state
/// (hidden cards dealt, derived data up to date) and every player's hand (the searching
/// player's is replaced by his candidate).
pub struct Sample<R: RealtimeRules> {
    /// The sampled state.
    pub state: R::State,
    /// The hands in flight, as guessed.
    pub hands: [Hand<R::Action>; MAX_PLAYERS],
}

/// What a rollout search needs besides the engine: the player it searches for, the
/// moves he weighs, and how positions are sampled and scored.
pub struct Lookahead<'a, R: RealtimeRules, S: ?Sized> {
    /// The rules the rollouts play under.
    pub rules: &'a R,
    /// The bots that play every seat of a rollout (the rollout policy); the searching
    /// player's seat has his reaction model, which also times his candidate action.
    pub seats: &'a Seated<'a, S>,
    /// The searching player.
    pub me: usize,
    /// Legal moves he saw (for the candidate's action time).
    pub options: usize,
}

impl<R: RealtimeRules, S: RealtimePolicy<R> + ?Sized> Lookahead<'_, R, S> {
    /// The index in `candidates` (at least one) with the best mean rollout value, ties
    /// to the earlier one (the values summed from [`Lookahead::rollouts`]).
    pub fn best_candidate(
        &self,
        candidates: &[R::Action],
        think: f64,
        budget: &RolloutBudget,
        rng: &mut SimRng,
        sample: impl Fn(&mut SimRng) -> Sample<R>,
        value: impl Fn(&R::State, RoundEnd) -> f64,
    ) -> usize {
        let mut totals = [0.0f64; MAX_ACTIONS];
        self.rollouts(candidates, think, budget, rng, sample, value, |k, v| totals[k] += v);
        (1..candidates.len()).fold(0, |best, k| if totals[k] > totals[best] { k } else { best })
    }

    /// Runs the rollouts and hands each value to `record` with its candidate's index,
    /// rollout by rollout, candidates in order. Each of `budget.rollouts` rollouts
    /// draws a seed from `rng`, samples a position with `sample` from it, and plays
    /// every candidate from that position on the same random numbers: the candidate is
    /// lifted and lands after the player's action time plus `think` ms, then the engine
    /// plays `budget.horizon` landed actions (or to the round's end), and `value` scores
    /// the state reached and how the round ended, for the searching player.
    #[allow(clippy::too_many_arguments)]
    pub fn rollouts(
        &self,
        candidates: &[R::Action],
        think: f64,
        budget: &RolloutBudget,
        rng: &mut SimRng,
        sample: impl Fn(&mut SimRng) -> Sample<R>,
        value: impl Fn(&R::State, RoundEnd) -> f64,
        mut record: impl FnMut(usize, f64),
    ) {
        let (rules, me) = (self.rules, self.me);
        for _ in 0..budget.rollouts {
            let seed: u64 = rng.random();
            let start = sample(&mut rng_from(mix(&[seed, 0])));
            for (k, &a) in candidates.iter().enumerate() {
                let mut s = start.state;
                let mut rngs = MatchRngs { chance: rng_from(mix(&[seed, 1])), players: std::array::from_fn(|q| rng_from(mix(&[seed, 2, q as u64]))) };
                let took = self.seats.reaction(me).action_time(rules.motion(a), rules.candidates(&s, me), self.options as u32, &mut rngs.players[me]) + think;
                rules.lift(&mut s, me, a);
                let mut hands = start.hands;
                hands[me] = Hand::Acting { at: after(0, took), action: a };
                let (mut left, mut counts) = (budget.horizon, RoundCounts::default());
                let end = play_from(rules, self.seats, &mut s, 0, hands, &mut left, &mut counts, &mut rngs, &mut ());
                record(k, value(&s, end));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_time_is_every_rollout_of_every_candidate() {
        let b = RolloutBudget { rollouts: 4, horizon: 8, ms_per_rollout: 2.5 };
        assert_eq!(b.think_ms(3), 30.0);
        assert_eq!(b.think_ms(1), 0.0, "one candidate: nothing to search, nothing charged");
        assert_eq!(b.think_ms(0), 0.0);
    }

    #[test]
    fn the_budget_reads_its_three_parameters() {
        let defs = budget_params(16.0, 8.0, 0.05);
        let v = ParamValues::resolve("search", &defs, &[("horizon".into(), 30.0)]).unwrap();
        assert_eq!(RolloutBudget::from_params(&v), RolloutBudget { rollouts: 16, horizon: 30, ms_per_rollout: 0.05 });
    }
}
