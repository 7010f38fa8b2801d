//! Speed's variant flags (spit.md sections 10 and 13, SPEED-AMB-*) and the `Copy`
//! configuration built from them.

use crate::settings::{FlagDef, FlagKind, Settings, BOOL, SIM_FLAGS};

/// What the winner of a deal scores for (SPEED-SCORE-1, SPEED-AMB-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreCounts {
    /// One point per card left in the opponent's personal stock.
    StockOnly,
    /// One point per card the opponent still holds, hand and stock.
    HandAndStock,
}

/// Every Speed flag with its default.
pub static SPEED_FLAGS: [FlagDef; 5] = [
    FlagDef { key: "speed.side_pile_size", kind: FlagKind::IntChoice(&[10, 5]), default: "10", doc: "cards in each side pile; 5 gives each player a stock of 20 (SPEED-SETUP-1)", needs: None },
    FlagDef { key: "speed.wrap", kind: BOOL, default: "true", doc: "A is next to both K and 2; false: straight order 2..K,A (SPEED-PLAY-1, SPEED-AMB-1)", needs: None },
    FlagDef { key: "speed.score_counts", kind: FlagKind::Choice(&["stock_only", "hand_and_stock"]), default: "stock_only", doc: "the deal winner scores the opponent's stock, or hand and stock (SPEED-SCORE-1)", needs: None },
    FlagDef { key: "speed.target", kind: FlagKind::Int { min: 0, max: 10_000 }, default: "0", doc: "points that win a match of fresh deals; 0: one deal, its winner wins (SPEED-SCORE-1)", needs: None },
    SIM_FLAGS[0],
];

/// The rules in force for a Speed match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpeedConfig {
    /// Cards in each side pile (10 or 5).
    pub side_pile_size: u8,
    /// `speed.wrap`: circular ranks.
    pub wrap: bool,
    /// `speed.score_counts`.
    pub score_counts: ScoreCounts,
    /// `speed.target`: points that end the match; 0 plays a single deal.
    pub target: u32,
    /// `sim.max_actions`: landed actions after which the match is capped.
    pub max_actions: u64,
}

impl Default for SpeedConfig {
    fn default() -> Self {
        SpeedConfig::from_settings(&Settings::parse(&SPEED_FLAGS, &[]).expect("defaults are valid"))
    }
}

impl SpeedConfig {
    /// Cards in each player's personal stock at the deal, his first five hand cards
    /// included: 15 with side piles of 10, 20 with side piles of 5 (SPEED-SETUP-1).
    pub fn stock_size(&self) -> u32 {
        (52 - 2 - 2 * self.side_pile_size as u32) / 2
    }

    /// Reads the typed flags (parsed and checked once by [`Settings::parse`]).
    pub fn from_settings(s: &Settings) -> SpeedConfig {
        SpeedConfig {
            side_pile_size: s.get_int("speed.side_pile_size") as u8,
            wrap: s.get_bool("speed.wrap"),
            score_counts: s.get_choice("speed.score_counts", &[("stock_only", ScoreCounts::StockOnly), ("hand_and_stock", ScoreCounts::HandAndStock)]),
            target: s.get_int("speed.target") as u32,
            max_actions: s.get_int("sim.max_actions"),
        }
    }
}
