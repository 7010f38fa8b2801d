//! The policy side of a real-time match: the seated bots. The rules
//! ([`super::RealtimeRules`]) never call a strategy; the engine and a game's match loop
//! ask the bots through [`Seated`], and a game connects its strategy trait to the engine
//! by implementing [`RealtimePolicy`] for it (building the player's view there).

use super::engine::{RealtimeRules, MAX_PLAYERS};
use crate::bot::BotSpec;
use crate::external::{ExternalBot, Externals};
use std::sync::Arc;
use crate::games::Registered;
use crate::reaction::{PreparedModel, ReactionModel};
use crate::rng::SimRng;
use arrayvec::ArrayVec;

/// A real-time bot: a game's strategy plus a reaction model.
pub struct Bot<S: ?Sized> {
    /// The policy.
    pub strategy: Box<S>,
    /// Its reaction times.
    pub reaction: ReactionModel,
}

/// Builds the bots of `specs` from a game's strategy registry (names already checked).
pub fn build_bots<S: ?Sized + 'static>(specs: &[BotSpec], registry: &[Registered<S>]) -> Result<Vec<Bot<S>>, String> {
    build_table_bots(specs, registry, &vec![None; specs.len()], |_| unreachable!("no external bot"), &|_| None)
}

/// Builds the bots of `specs`: bot `i` is the game's adapter `external` around
/// `externals[i]` when that is an external bot, the strategy `custom(i)` makes when its
/// strategy is [`CUSTOM`](crate::bot::CUSTOM) (see
/// [`GameEntry::build_with`](crate::games::GameEntry::build_with)), else a strategy of
/// `registry`.
pub fn build_table_bots<S: ?Sized + 'static>(
    specs: &[BotSpec],
    registry: &[Registered<S>],
    externals: &Externals,
    external: impl Fn(Arc<ExternalBot>) -> Box<S>,
    custom: &dyn Fn(usize) -> Option<Box<dyn std::any::Any>>,
) -> Result<Vec<Bot<S>>, String> {
    specs
        .iter()
        .zip(externals)
        .enumerate()
        .map(|(i, (b, x))| {
            let strategy = match x {
                Some(x) => external(x.clone()),
                None if b.strategy == crate::bot::CUSTOM => crate::games::custom_strategy(&b.label, i, custom)?,
                None => registry.iter().find(|r| r.info.name == b.strategy).ok_or_else(|| format!("--bot {}: unknown strategy", b.label))?.make_for(b)?,
            };
            Ok(Bot { strategy, reaction: b.reaction(super::DEFAULT_PRESET) })
        })
        .collect()
}

/// What the engine and a game's match loop ask a strategy of rules `R`: an action from
/// the legal ones, and the answer to a decision the rules put (see
/// [`RealtimeRules::Decision`]). A game implements it for its strategy trait object and
/// hands the strategy only the player's view of `s`, so a strategy cannot see hidden
/// cards.
pub trait RealtimePolicy<R: RealtimeRules> {
    /// Player `p`'s move: one of his legal moves `legal` (at least one), or `None` to
    /// stay idle. `rng` is the player's own stream.
    fn choose(&self, rules: &R, s: &R::State, p: usize, legal: &R::Moves, rng: &mut SimRng) -> Option<R::Action>;
    /// What the engine asks: player `p`'s move as [`RealtimePolicy::choose`], and the
    /// time in milliseconds the strategy spent thinking about it (at least 0), which the
    /// engine adds to the action time drawn from `reaction` (the player's own model, which
    /// a strategy that simulates play may use). A searching strategy reports its budget
    /// here, so thinking longer makes it slower. Default: `choose`, no think time.
    fn choose_timed(&self, rules: &R, s: &R::State, p: usize, legal: &R::Moves, reaction: &ReactionModel, rng: &mut SimRng) -> (Option<R::Action>, f64) {
        let _ = reaction;
        (self.choose(rules, s, p, legal, rng), 0.0)
    }
    /// Player `p`'s answer to decision `d` on state `s`. `rng` is the player's own stream.
    fn decide(&self, rules: &R, s: &R::State, p: usize, d: R::Decision, rng: &mut SimRng) -> R::Choice;
}

/// The bots of one match in seat order: bot `p` plays seat `p`. Its length is the
/// number of players. Each bot's reaction model is prepared here, once a match
/// ([`ReactionModel::prepare`]), for the engine's draws.
pub struct Seated<'a, S: ?Sized> {
    bots: ArrayVec<&'a Bot<S>, MAX_PLAYERS>,
    /// `bots[p].reaction` prepared.
    reactions: ArrayVec<PreparedModel, MAX_PLAYERS>,
}

impl<'a, S: ?Sized> FromIterator<&'a Bot<S>> for Seated<'a, S> {
    /// The bots in seat order (at most [`MAX_PLAYERS`]; more panics).
    fn from_iter<I: IntoIterator<Item = &'a Bot<S>>>(bots: I) -> Self {
        let bots: ArrayVec<&'a Bot<S>, MAX_PLAYERS> = bots.into_iter().collect();
        let reactions = bots.iter().map(|b| b.reaction.prepare()).collect();
        Seated { bots, reactions }
    }
}

impl<'a, S: ?Sized> Seated<'a, S> {
    /// The bots in seat order (at most [`MAX_PLAYERS`]).
    pub fn new(bots: &[&'a Bot<S>]) -> Self {
        assert!(bots.len() <= MAX_PLAYERS, "{} players; the engine seats at most {MAX_PLAYERS}", bots.len());
        bots.iter().copied().collect()
    }
    /// Number of players.
    pub fn len(&self) -> usize {
        self.bots.len()
    }
    /// True with no player.
    pub fn is_empty(&self) -> bool {
        self.bots.is_empty()
    }
    /// The reaction model of player `p`, prepared: it draws the same times as the bot's
    /// [`ReactionModel`].
    pub fn reaction(&self, p: usize) -> &PreparedModel {
        &self.reactions[p]
    }
    /// The strategy of player `p`.
    pub fn strategy(&self, p: usize) -> &S {
        &self.bots[p].strategy
    }
    /// Asks player `p`'s strategy for a move (see [`RealtimePolicy::choose`]).
    pub fn choose<R: RealtimeRules>(&self, rules: &R, s: &R::State, p: usize, legal: &R::Moves, rng: &mut SimRng) -> Option<R::Action>
    where
        S: RealtimePolicy<R>,
    {
        self.bots[p].strategy.choose(rules, s, p, legal, rng)
    }
    /// Asks player `p`'s strategy for a move and its think time in milliseconds (see
    /// [`RealtimePolicy::choose_timed`]).
    pub fn choose_timed<R: RealtimeRules>(&self, rules: &R, s: &R::State, p: usize, legal: &R::Moves, rng: &mut SimRng) -> (Option<R::Action>, f64)
    where
        S: RealtimePolicy<R>,
    {
        let bot = self.bots[p];
        bot.strategy.choose_timed(rules, s, p, legal, &bot.reaction, rng)
    }
    /// Asks player `p`'s strategy to answer decision `d` (see [`RealtimePolicy::decide`]).
    pub fn decide<R: RealtimeRules>(&self, rules: &R, s: &R::State, p: usize, d: R::Decision, rng: &mut SimRng) -> R::Choice
    where
        S: RealtimePolicy<R>,
    {
        self.bots[p].strategy.decide(rules, s, p, d, rng)
    }
}

/// The decision type of a game whose rules ask no decision besides moves (it has no
/// value, so [`RealtimePolicy::decide`] can never be called: `match d {}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoDecision {}
