//! Lopti as the command line and the runner see it: [`LOPTI`] and the runnable game.

use super::config::{Rules, FLAGS};
use super::events::{NoObserver, Observer};
use super::state::{play_round, State};
use super::strategies::{self, Params, Strategy, INFOS};
use super::trace::TraceObserver;
use crate::bot::BotSpec;
use crate::games::{check_bots, GameEntry, StrategyInfo, TracedGame};
use crate::rng::rng_from;
use crate::runner::{MatchGame, MatchRecord, MetricDef, MAX_METRICS, MAX_SEATS};
use crate::settings::{FlagDef, Settings};
use crate::trace::TraceSink;
use arrayvec::ArrayVec;

/// Per-game metrics, in [`MatchRecord::metrics`] order.
static METRICS: [MetricDef; 3] = [
    MetricDef { name: "turns", scale: 1, doc: "turns in the game (a turn is one player's turn, its bonus plays included)" },
    MetricDef { name: "pickups", scale: 1, doc: "times a player took the play pile" },
    MetricDef { name: "clears", scale: 1, doc: "times the play pile was cleared (10, four of a kind, four 3s)" },
];

/// The Lopti registry entry.
pub struct LoptiEntry;

/// Lopti, for `games::registry()`.
pub static LOPTI: LoptiEntry = LoptiEntry;

impl GameEntry for LoptiEntry {
    fn name(&self) -> &'static str {
        "lopti"
    }
    fn about(&self) -> &'static str {
        "shedding game with 2 (reset), 3 (pass on), 7 (play low) and 10 (clear); first player out wins"
    }
    fn players(&self) -> (usize, usize) {
        (2, MAX_SEATS)
    }
    fn real_time(&self) -> bool {
        false
    }
    fn flags(&self) -> &'static [FlagDef] {
        &FLAGS
    }
    fn strategies(&self) -> &'static [StrategyInfo] {
        &INFOS
    }
    fn default_bots(&self) -> &'static [&'static str] {
        &["lowest", "burner", "random"]
    }
    fn metrics(&self) -> &'static [MetricDef] {
        &METRICS
    }
    fn build(&self, bots: &[BotSpec], settings: &Settings) -> Result<Box<dyn TracedGame>, String> {
        check_bots(self, bots)?;
        let params = Params { mcts_iterations: settings.get_int("lopti.mcts_iterations") as u32 };
        let bots = bots
            .iter()
            .map(|b| strategies::build(&b.strategy, &params).ok_or_else(|| format!("--bot {}: unknown strategy", b.label)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Box::new(LoptiGame { rules: Rules::from_settings(settings), bots }))
    }
}

/// A Lopti match: bots and rules, ready to play deals.
pub struct LoptiGame {
    rules: Rules,
    bots: Vec<Box<dyn Strategy>>,
}

impl LoptiGame {
    /// A game of `bots` (2 to 5) under `rules`.
    pub fn new(rules: Rules, bots: Vec<Box<dyn Strategy>>) -> LoptiGame {
        assert!((2..=MAX_SEATS).contains(&bots.len()), "Lopti needs 2 to 5 players (LOPTI-DECK-1)");
        LoptiGame { rules, bots }
    }

    /// Plays one round with seat 0 dealing and playing first, telling `obs` everything.
    pub fn run<O: Observer>(&self, seat_bots: &[usize], deal_seed: u64, play_seed: u64, obs: &mut O) -> MatchRecord {
        let mut state = State::deal(self.bots.len() as u8, 0, self.rules, deal_seed, obs);
        let bots: ArrayVec<&dyn Strategy, MAX_SEATS> = seat_bots.iter().map(|&b| &*self.bots[b]).collect();
        play_round(&mut state, &bots, &mut rng_from(play_seed), obs);
        let mut metrics = [0; MAX_METRICS];
        metrics[0] = state.counters.turns as u64;
        metrics[1] = state.counters.pickups as u64;
        metrics[2] = state.counters.clears as u64;
        MatchRecord { winner: if state.capped { None } else { state.winner }, capped: state.capped, metrics }
    }
}

impl MatchGame for LoptiGame {
    fn name(&self) -> &'static str {
        "lopti"
    }
    fn seats(&self) -> usize {
        self.bots.len()
    }
    fn metrics(&self) -> &'static [MetricDef] {
        &METRICS
    }
    fn play(&self, seat_bots: &[usize], deal_seed: u64, play_seed: u64) -> MatchRecord {
        self.run(seat_bots, deal_seed, play_seed, &mut NoObserver)
    }
}

impl TracedGame for LoptiGame {
    fn trace(&self, seat_bots: &[usize], deal_seed: u64, play_seed: u64, sink: &mut dyn TraceSink) -> MatchRecord {
        self.run(seat_bots, deal_seed, play_seed, &mut TraceObserver::new(sink))
    }
    fn as_match_game(&self) -> &dyn MatchGame {
        self
    }
}
