//! The games, each in its own folder, and the registry the command line uses.

use crate::bot::BotSpec;
use crate::runner::{MatchGame, MetricDef, RateSet};
use crate::settings::{FlagDef, Settings};
use crate::trace::TraceSink;
use std::any::Any;

pub mod lopti;
pub mod params;

/// A strategy a game offers, for `cardsim list`.
#[derive(Clone, Copy, Debug)]
pub struct StrategyInfo {
    /// Name used in `--bot NAME[@PRESET]`.
    pub name: &'static str,
    /// One line on how it plays.
    pub about: &'static str,
    /// Its numeric choices, settable per bot ([`params`]); empty for most.
    pub params: &'static [params::ParamDef],
}

/// A registered strategy of a game whose strategies implement trait `S`: its listing
/// and its constructor. A game's registry is an array of these, one line per strategy.
pub struct Registered<S: ?Sized> {
    /// Name and description.
    pub info: StrategyInfo,
    /// Builds a fresh instance with these parameter values (in the order of
    /// `info.params`).
    pub make: fn(&params::ParamValues) -> Box<S>,
}

impl<S: ?Sized> Registered<S> {
    /// An instance with every parameter at its default: the standard strategy.
    pub fn make_default(&self) -> Box<S> {
        (self.make)(&params::ParamValues::defaults(self.info.params))
    }
    /// An instance for `bot`, its parameters checked against `info.params`.
    pub fn make_for(&self, bot: &BotSpec) -> Result<Box<S>, String> {
        Ok((self.make)(&params::ParamValues::resolve(&bot.label, self.info.params, &bot.params)?))
    }
}

/// A game as the command line sees it: its options, and a way to build a runnable match.
pub trait GameEntry: Sync {
    /// Name on the command line, e.g. `spit`.
    fn name(&self) -> &'static str;
    /// One line describing the game.
    fn about(&self) -> &'static str;
    /// Smallest and largest number of bots.
    fn players(&self) -> (usize, usize);
    /// True for real-time games, whose bots take a reaction preset.
    fn real_time(&self) -> bool;
    /// Variant flags, with defaults (including the shared `sim.*` flags).
    fn flags(&self) -> &'static [FlagDef];
    /// Strategies, in registry order.
    fn strategies(&self) -> Vec<StrategyInfo>;
    /// Bot specs used when the command line gives no --bot.
    fn default_bots(&self) -> &'static [&'static str];
    /// Per-match metrics reported in the CSV.
    fn metrics(&self) -> &'static [MetricDef];
    /// Per-seat rates reported per bot in the CSV (none by default).
    fn rates(&self) -> Option<&'static RateSet> {
        None
    }
    /// Bytes of the game's full state (`size_of`), for `cardsim bench`.
    fn state_bytes(&self) -> usize;
    /// For a real-time game, the trace event of a landed card play to a shared pile
    /// (the engine's `Motion::Play`; its `start` event names the same action), which
    /// `fit-rt` times in play; `None` for a turn-based game.
    fn play_event(&self) -> Option<&'static str> {
        None
    }
    /// Builds a match of `bots` under `settings`, validating both.
    fn build(&self, bots: &[BotSpec], settings: &Settings) -> Result<Box<dyn TracedGame>, String> {
        self.build_with(bots, settings, &|_| None)
    }
    /// [`GameEntry::build`] where bot `i` of strategy [`CUSTOM`](crate::bot::CUSTOM)
    /// plays the strategy `custom(i)` makes: a `Box<S>` of the game's strategy trait
    /// object `S`, as [`Any`] (see [`custom_strategy`]).
    fn build_with(&self, bots: &[BotSpec], settings: &Settings, custom: &dyn Fn(usize) -> Option<Box<dyn Any>>) -> Result<Box<dyn TracedGame>, String>;
}

/// The strategy of custom bot `bot` (label `label`) for a game whose strategies are `S`:
/// the `Box<S>` that `custom(bot)` made, or a one-line error naming the bot.
pub fn custom_strategy<S: ?Sized + 'static>(label: &str, bot: usize, custom: &dyn Fn(usize) -> Option<Box<dyn Any>>) -> Result<Box<S>, String> {
    let made = custom(bot).ok_or_else(|| format!("--bot {}: strategy '{}' is given by a library caller, and none was", crate::output::quote::clip(label), crate::bot::CUSTOM))?;
    made.downcast::<Box<S>>().map(|b| *b).map_err(|_| format!("--bot {}: its strategy is written for another game", crate::output::quote::clip(label)))
}

/// A runnable game that can also log one match event by event.
pub trait TracedGame: MatchGame {
    /// Plays the match the runner would play for these seeds, sending every event to
    /// `sink`; returns the same record as [`MatchGame::play`].
    fn trace(&self, seat_bots: &[usize], seeds: &crate::rng::MatchSeeds, sink: &mut dyn TraceSink) -> crate::runner::MatchRecord;
    /// Upcast for the runner.
    fn as_match_game(&self) -> &dyn MatchGame;
}

pub mod nerts;
pub mod speed;
pub mod spit;

/// Every game, in the order `cardsim list` shows them.
pub fn registry() -> Vec<&'static dyn GameEntry> {
    vec![&spit::SPIT, &speed::SPEED, &lopti::LOPTI, &nerts::NERTS]
}

/// Finds a game by name, or says which names exist.
pub fn find(name: &str) -> Result<&'static dyn GameEntry, String> {
    let all = registry();
    all.iter().copied().find(|g| g.name() == name).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|g| g.name()).collect();
        format!("unknown game '{}'; known games: {}", crate::output::quote::clip(name), names.join(", "))
    })
}

/// Checks the number of bots and each strategy name against a game.
pub fn check_bots(game: &dyn GameEntry, bots: &[BotSpec]) -> Result<(), String> {
    let (lo, hi) = game.players();
    if bots.len() < lo || bots.len() > hi {
        let want = if lo == hi { format!("exactly {lo}") } else { format!("{lo} to {hi}") };
        return Err(format!("{} needs {want} --bot options, got {}", game.name(), bots.len()));
    }
    let names: Vec<&str> = game.strategies().iter().map(|s| s.name).collect();
    for b in bots {
        b.check_strategy(game.name(), &names)?;
        if b.has_reaction() && !game.real_time() {
            return Err(format!("--bot {}: {} is turn-based, so bots take no @PRESET", crate::output::quote::clip(&b.label), game.name()));
        }
    }
    Ok(())
}
