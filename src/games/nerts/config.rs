//! Nerts' variant flags (nerts.md section 16, NERTS-AMB-*) and the `Copy` configuration
//! built from them.
//!
//! `nerts.tie_window` is in seconds as the rules write it, a decimal of at most six
//! places (microseconds) from 0 to 1.

use crate::realtime::Micros;
use crate::settings::{parse_decimal, FlagDef, FlagKind, Needs, Settings, BOOL, SIM_FLAGS};

/// What a FLIP does with fewer than three stock cards (NERTS-STOCK-3, NERTS-AMB-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShortPacket {
    /// The 1-2 leftover cards go onto the waste unseen and the waste is turned over (a
    /// RECYCLE), as the source says.
    Merge,
    /// The 1-2 cards are turned over as a short packet; only an empty stock recycles.
    Flip,
}

/// When a player may ROTATE (NERTS-STUCK-3, NERTS-AMB-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RotateWhen {
    /// Only while stuck (NERTS-STUCK-1).
    StuckOnly,
    /// At any time.
    AnyTime,
}

/// Who keeps a card that lands on a foundation just after an identical one (NERTS-RT-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TiePolicy {
    /// Cards of the same rank and suit landing within the tie window both stay.
    BothKeep,
    /// Strict first touch.
    FirstOnly,
}

/// Which cards may be slipped under a work pile (NERTS-WORK-6, NERTS-AMB-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlipSources {
    /// The waste top and the Nerts top.
    WasteAndNerts,
    /// The waste top only.
    WasteOnly,
}

/// How long a Joker's declared identity lasts (NERTS-JOKER-4, NERTS-AMB-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JokerIdentity {
    /// Once fixed, for the rest of the deal.
    Permanent,
    /// Only while cards lie on it: taking the last card off it frees it again.
    UntilUncovered,
}

/// Whether players form teams of two (NERTS-PART-1, NERTS-AMB-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partnerships {
    /// Teams of two neighbours with an even number of players, six or more.
    Auto,
    /// Everyone plays alone.
    None,
    /// Teams of two neighbours with any even number of players, four or more (a
    /// decision beyond the rules: lets four players try partnerships).
    Pairs,
}

/// How a team plays (NERTS-PART-2, NERTS-PART-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartnershipMode {
    /// One deck and one layout per team, two hands on it.
    SharedLayout,
    /// A deck and a layout each, scores summed.
    SeparateLayoutsSummed,
}

/// Common tie windows in seconds (NERTS-RT-6; any decimal from 0 to 1 with at most six
/// places is accepted), the default first.
pub const TIE_WINDOWS: &[&str] = &["0.05", "0", "0.01", "0.02", "0.03", "0.1", "0.15", "0.2", "0.3", "0.5", "1"];

/// Decimal places of `nerts.tie_window` (microseconds).
const TIE_PLACES: u32 = 6;

/// Every Nerts flag with its default (nerts.md section 16), then `sim.max_actions`.
pub static NERTS_FLAGS: [FlagDef; 15] = [
    FlagDef {
        key: "nerts.flip_count",
        kind: FlagKind::IntChoice(&[3, 1]),
        default: "3",
        doc: "stock cards turned per FLIP, as a packet whose last card is playable (NERTS-STOCK-1, NERTS-AMB-1)",
        needs: None,
    },
    FlagDef {
        key: "nerts.short_packet",
        kind: FlagKind::Choice(&["merge", "flip"]),
        default: "merge",
        doc: "a FLIP with 1-2 stock cards recycles them unseen (merge) or turns them as a short packet (flip); with nerts.flip_count=3 (NERTS-STOCK-3)",
        needs: Some(Needs { key: "nerts.flip_count", when: |v| v == "3", text: "nerts.flip_count=3" }),
    },
    FlagDef {
        key: "nerts.rotate_when",
        kind: FlagKind::Choice(&["stuck_only", "any_time"]),
        default: "stuck_only",
        doc: "when a player may move his stock's top card to the bottom (NERTS-STUCK-3)",
        needs: None,
    },
    FlagDef {
        key: "nerts.global_reset_rotate",
        kind: FlagKind::IntChoice(&[1, 0]),
        default: "1",
        doc: "cards moved from top to bottom of each new stock at a global reset (NERTS-STUCK-4)",
        needs: None,
    },
    FlagDef {
        key: "nerts.max_global_resets",
        kind: FlagKind::Choice(&["unlimited", "1"]),
        default: "unlimited",
        doc: "global resets per deal; the next global stuck state ends the deal (NERTS-STUCK-5)",
        needs: None,
    },
    FlagDef {
        key: "nerts.tie_window",
        kind: FlagKind::Decimal { places: TIE_PLACES, min: 0, max: 1_000_000 },
        default: "0.05",
        doc: "seconds within which an identical foundation card also stays, with nerts.tie_policy=both_keep (NERTS-RT-6)",
        needs: Some(Needs { key: "nerts.tie_policy", when: |v| v == "both_keep", text: "nerts.tie_policy=both_keep" }),
    },
    FlagDef {
        key: "nerts.tie_policy",
        kind: FlagKind::Choice(&["both_keep", "first_only"]),
        default: "both_keep",
        doc: "obvious foundation ties: both cards stay, or strict first touch; a tie_window of 0 is strict already (NERTS-RT-6)",
        needs: Some(Needs { key: "nerts.tie_window", when: |v| v != "0", text: "a nerts.tie_window above 0" }),
    },
    FlagDef {
        key: "nerts.slip_under_sources",
        kind: FlagKind::Choice(&["waste_and_nerts", "waste_only"]),
        default: "waste_and_nerts",
        doc: "cards that may be slipped under a work pile (NERTS-WORK-6)",
        needs: None,
    },
    FlagDef { key: "nerts.partial_stack_moves", kind: BOOL, default: "true", doc: "a work-pile stack may start at any depth; false: whole piles only (NERTS-WORK-3)", needs: None },
    FlagDef { key: "nerts.jokers_per_deck", kind: FlagKind::IntChoice(&[0, 1, 2]), default: "0", doc: "wild Jokers in each deck (NERTS-JOKER-1)", needs: None },
    FlagDef {
        key: "nerts.joker_identity",
        kind: FlagKind::Choice(&["permanent", "until_uncovered"]),
        default: "permanent",
        doc: "how long a Joker's identity stays fixed once a card is placed on it, with Jokers in the deck (NERTS-JOKER-4)",
        needs: Some(Needs { key: "nerts.jokers_per_deck", when: |v| v != "0", text: "nerts.jokers_per_deck=1 or 2" }),
    },
    FlagDef {
        key: "nerts.partnerships",
        kind: FlagKind::Choice(&["auto", "none", "pairs"]),
        default: "auto",
        doc: "teams of two neighbours: auto (even counts of 6+), none, or pairs (even counts of 4+) (NERTS-PART-1)",
        needs: None,
    },
    FlagDef {
        key: "nerts.partnership_mode",
        kind: FlagKind::Choice(&["shared_layout", "separate_layouts_summed"]),
        default: "shared_layout",
        doc: "a team shares one deck and layout with two hands, or plays two layouts and sums; with teams (NERTS-PART-2, NERTS-PART-4)",
        needs: Some(Needs { key: "nerts.partnerships", when: |v| v != "none", text: "nerts.partnerships=auto or pairs" }),
    },
    FlagDef { key: "nerts.target", kind: FlagKind::Int { min: 1, max: 100_000 }, default: "100", doc: "match points that end the match at the end of a deal (NERTS-MATCH-1)", needs: None },
    SIM_FLAGS[0],
];

/// The rules in force for a Nerts match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NertsConfig {
    /// `nerts.flip_count`: 3 or 1.
    pub flip_count: u8,
    /// `nerts.short_packet`.
    pub short_packet: ShortPacket,
    /// `nerts.rotate_when`.
    pub rotate_when: RotateWhen,
    /// `nerts.global_reset_rotate`: move the top card to the bottom at a global reset.
    pub global_reset_rotate: bool,
    /// `nerts.max_global_resets`: `None` for unlimited.
    pub max_global_resets: Option<u16>,
    /// `nerts.tie_window`, in microseconds.
    pub tie_window: Micros,
    /// `nerts.tie_policy`.
    pub tie_policy: TiePolicy,
    /// `nerts.slip_under_sources`.
    pub slip_under_sources: SlipSources,
    /// `nerts.partial_stack_moves`.
    pub partial_stack_moves: bool,
    /// `nerts.jokers_per_deck`: 0, 1 or 2.
    pub jokers_per_deck: u8,
    /// `nerts.joker_identity`.
    pub joker_identity: JokerIdentity,
    /// `nerts.partnerships`.
    pub partnerships: Partnerships,
    /// `nerts.partnership_mode`.
    pub partnership_mode: PartnershipMode,
    /// `nerts.target`: match points that end the match.
    pub target: i32,
    /// `sim.max_actions`: landed actions after which the match is capped.
    pub max_actions: u64,
}

impl Default for NertsConfig {
    fn default() -> Self {
        NertsConfig::from_settings(&Settings::parse(&NERTS_FLAGS, &[]).expect("defaults are valid"))
    }
}

/// Parses a decimal number of seconds such as `0.05` into microseconds (tests; the
/// flag itself is parsed by [`Settings::parse`]). Panics on text that is not one.
pub fn seconds_to_micros(text: &str) -> Micros {
    parse_decimal(text, TIE_PLACES).unwrap_or_else(|| panic!("{text} is not a number of seconds with at most six decimals")) as Micros
}

impl NertsConfig {
    /// Reads the typed flags (parsed and checked once by [`Settings::parse`]).
    pub fn from_settings(s: &Settings) -> NertsConfig {
        NertsConfig {
            flip_count: s.get_int("nerts.flip_count") as u8,
            short_packet: s.get_choice("nerts.short_packet", &[("merge", ShortPacket::Merge), ("flip", ShortPacket::Flip)]),
            rotate_when: s.get_choice("nerts.rotate_when", &[("stuck_only", RotateWhen::StuckOnly), ("any_time", RotateWhen::AnyTime)]),
            global_reset_rotate: s.get_int("nerts.global_reset_rotate") == 1,
            max_global_resets: s.get_choice("nerts.max_global_resets", &[("unlimited", None), ("1", Some(1))]),
            tie_window: s.get_decimal("nerts.tie_window") as Micros,
            tie_policy: s.get_choice("nerts.tie_policy", &[("both_keep", TiePolicy::BothKeep), ("first_only", TiePolicy::FirstOnly)]),
            slip_under_sources: s.get_choice("nerts.slip_under_sources", &[("waste_and_nerts", SlipSources::WasteAndNerts), ("waste_only", SlipSources::WasteOnly)]),
            partial_stack_moves: s.get_bool("nerts.partial_stack_moves"),
            jokers_per_deck: s.get_int("nerts.jokers_per_deck") as u8,
            joker_identity: s.get_choice("nerts.joker_identity", &[("permanent", JokerIdentity::Permanent), ("until_uncovered", JokerIdentity::UntilUncovered)]),
            partnerships: s.get_choice("nerts.partnerships", &[("auto", Partnerships::Auto), ("none", Partnerships::None), ("pairs", Partnerships::Pairs)]),
            partnership_mode: s.get_choice(
                "nerts.partnership_mode",
                &[("shared_layout", PartnershipMode::SharedLayout), ("separate_layouts_summed", PartnershipMode::SeparateLayoutsSummed)],
            ),
            target: s.get_int("nerts.target") as i32,
            max_actions: s.get_int("sim.max_actions"),
        }
    }

    /// True if ties within the window keep both cards (NERTS-RT-6): `both_keep` and a
    /// window above zero.
    pub fn ties_kept(&self) -> bool {
        self.tie_policy == TiePolicy::BothKeep && self.tie_window > 0
    }

    /// True if `players` players form teams of two under `nerts.partnerships`
    /// (NERTS-DECK-1, NERTS-PART-1): neighbours pair up, odd counts play alone.
    pub fn teams(&self, players: usize) -> bool {
        players.is_multiple_of(2)
            && match self.partnerships {
                Partnerships::Auto => players >= 6,
                Partnerships::Pairs => players >= 4,
                Partnerships::None => false,
            }
    }
}
