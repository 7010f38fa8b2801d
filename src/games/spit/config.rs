//! Spit's variant flags (spit.md section 13) and the `Copy` configuration built from them.

use crate::settings::{FlagDef, FlagKind, Needs, Settings, BOOL, SIM_FLAGS};

/// Which spit piles a player may play onto (SPIT-AMB-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayTarget {
    /// Either pile.
    Any,
    /// Only his own pile (two-pile mode).
    Own,
}

/// Where a stall spit goes (SPIT-STALL-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpitTarget {
    /// Onto the player's own pile.
    Own,
    /// Onto a pile the player's policy chooses.
    Any,
}

/// How the spit piles are shared out at round end (SPIT-AMB-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allocation {
    /// Slap race (SPIT-SLAP-1).
    Slap,
    /// The first-out player chooses (SPIT-SLAP-3).
    FirstOutChooses,
}

/// How a short layout is dealt (SPIT-SHORT-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShortDeal {
    /// One card to each remaining slot per row, like Klondike.
    Rowwise,
    /// Fill slot 1, then 2, ... in full.
    Pilewise,
}

/// How the match is won (SPIT-WIN-1, SPIT-SCORE-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// First to hold no cards wins.
    Standard,
    /// Points per unplayed card; lowest total when someone reaches 100 wins.
    Points,
}

/// How rounds run and are scored under `scoring=points` (SPIT-SCORE-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointsMode {
    /// Ordinary rounds; score own unplayed cards before collection.
    CarryOverUnplayed,
    /// A fresh 26/26 deal every round, no slap.
    FreshDeal,
    /// Ordinary rounds; score the holding after collection.
    CarryOver,
}

/// Points that end a points match (SPIT-SCORE-1).
pub const POINTS_TO_END: u32 = 100;

/// What `spit.points_round_mode` and `spit.points_tie` need to have an effect.
const POINTS_SCORING: Option<Needs> = Some(Needs { key: "spit.scoring", when: |v| v == "points", text: "spit.scoring=points" });

/// Every Spit flag with its default (spit.md section 13, "All flags with their defaults").
pub static SPIT_FLAGS: [FlagDef; 12] = [
    FlagDef { key: "spit.num_stockpiles", kind: FlagKind::IntChoice(&[5, 4]), default: "5", doc: "stockpile slots; 4 gives slots 1..4 and T=10 (SPIT-VAR-1)", needs: None },
    FlagDef { key: "spit.play_target", kind: FlagKind::Choice(&["any", "own"]), default: "any", doc: "spit piles a player may play onto (SPIT-AMB-2)", needs: None },
    FlagDef { key: "spit.stall_spit_target", kind: FlagKind::Choice(&["own", "any"]), default: "own", doc: "pile a stall spit goes onto (SPIT-STALL-3)", needs: None },
    FlagDef { key: "spit.round_end_allocation", kind: FlagKind::Choice(&["slap", "first_out_chooses"]), default: "slap", doc: "how spit piles are shared at round end (SPIT-SLAP-1, SPIT-SLAP-3)", needs: None },
    FlagDef { key: "spit.short_deal", kind: FlagKind::Choice(&["rowwise", "pilewise"]), default: "rowwise", doc: "layout of a short player (SPIT-SHORT-2)", needs: None },
    FlagDef { key: "spit.single_pile_deadlock", kind: FlagKind::Choice(&["fewer_stock_first_out"]), default: "fewer_stock_first_out", doc: "single-pile stall with no spit cards left (SPIT-SHORT-5)", needs: None },
    FlagDef { key: "spit.alternate_colors", kind: BOOL, default: "false", doc: "plays must change colour (SPIT-VAR-3)", needs: None },
    FlagDef { key: "spit.allow_abort", kind: BOOL, default: "false", doc: "a player who sees his target change may stop and pay only the return (SPIT-RT-6)", needs: None },
    FlagDef { key: "spit.scoring", kind: FlagKind::Choice(&["standard", "points"]), default: "standard", doc: "first to hold no cards, or points to 100 with lowest winning (SPIT-SCORE-1)", needs: None },
    FlagDef { key: "spit.points_round_mode", kind: FlagKind::Choice(&["carry_over_unplayed", "fresh_deal", "carry_over"]), default: "carry_over_unplayed", doc: "how points rounds run and score, with spit.scoring=points (SPIT-SCORE-2)", needs: POINTS_SCORING },
    FlagDef { key: "spit.points_tie", kind: FlagKind::Choice(&["extra_round"]), default: "extra_round", doc: "equal lowest totals at the end play another round, with spit.scoring=points (SPIT-SCORE-2)", needs: POINTS_SCORING },
    SIM_FLAGS[0],
];

/// The rules in force for a Spit match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpitConfig {
    /// Stockpile slots (5 or 4).
    pub slots: u8,
    /// `spit.play_target`.
    pub play_target: PlayTarget,
    /// `spit.stall_spit_target`.
    pub stall_spit_target: SpitTarget,
    /// `spit.round_end_allocation`.
    pub allocation: Allocation,
    /// `spit.short_deal`.
    pub short_deal: ShortDeal,
    /// `spit.alternate_colors`.
    pub alternate_colors: bool,
    /// `spit.allow_abort`.
    pub allow_abort: bool,
    /// `spit.scoring`.
    pub scoring: Scoring,
    /// `spit.points_round_mode`.
    pub points_mode: PointsMode,
    /// `sim.max_actions`: landed actions after which the match is capped.
    pub max_actions: u64,
}

impl Default for SpitConfig {
    fn default() -> Self {
        SpitConfig::from_settings(&Settings::parse(&SPIT_FLAGS, &[]).expect("defaults are valid"))
    }
}

impl SpitConfig {
    /// Stockpile capacity T: 15 with five slots, 10 with four (SPIT-SETUP-5).
    pub fn stock_capacity(&self) -> u32 {
        (1..=self.slots as u32).sum()
    }

    /// Reads the typed flags (parsed and checked once by [`Settings::parse`]).
    pub fn from_settings(s: &Settings) -> SpitConfig {
        SpitConfig {
            slots: s.get_int("spit.num_stockpiles") as u8,
            play_target: s.get_choice("spit.play_target", &[("any", PlayTarget::Any), ("own", PlayTarget::Own)]),
            stall_spit_target: s.get_choice("spit.stall_spit_target", &[("own", SpitTarget::Own), ("any", SpitTarget::Any)]),
            allocation: s.get_choice("spit.round_end_allocation", &[("slap", Allocation::Slap), ("first_out_chooses", Allocation::FirstOutChooses)]),
            short_deal: s.get_choice("spit.short_deal", &[("rowwise", ShortDeal::Rowwise), ("pilewise", ShortDeal::Pilewise)]),
            alternate_colors: s.get_bool("spit.alternate_colors"),
            allow_abort: s.get_bool("spit.allow_abort"),
            scoring: s.get_choice("spit.scoring", &[("standard", Scoring::Standard), ("points", Scoring::Points)]),
            points_mode: s.get_choice(
                "spit.points_round_mode",
                &[("carry_over_unplayed", PointsMode::CarryOverUnplayed), ("fresh_deal", PointsMode::FreshDeal), ("carry_over", PointsMode::CarryOver)],
            ),
            max_actions: s.get_int("sim.max_actions"),
        }
    }
}
