//! The `lopti.*` flags (lopti.md §20) and the small `Copy` rules configuration they
//! become at build time.

use crate::output::quote::clip;
use crate::settings::{FlagDef, FlagKind, Settings, BOOL, SIM_FLAGS};

/// How many of [`FLAGS`], from the first, are rules (the rest are bot and harness limits).
const RULE_FLAGS: usize = 7;

/// Every flag Lopti accepts: the base-game decisions of lopti.md §20 (the first
/// `RULE_FLAGS`), the `mcts` iteration budget, and the shared simulation cap (used as
/// the turn cap).
pub static FLAGS: [FlagDef; 9] = BASE_FLAGS;

/// [`FLAGS`] as a constant, for flag lists that extend it (sessions).
pub const BASE_FLAGS: [FlagDef; 9] = [
    FlagDef {
        key: "lopti.seven_on_seven",
        kind: FlagKind::Choice(&["equal_more", "free"]),
        default: "equal_more",
        doc: "LOPTI-7-5 / AMB-1: 7s on 7s need more cards or must complete four (equal_more), or any count (free)",
        needs: None,
    },
    FlagDef {
        key: "lopti.draw_timing",
        kind: FlagKind::Choice(&["before_bonus", "end_of_turn"]),
        default: "before_bonus",
        doc: "LOPTI-DRAW-4 / AMB-2: the draw after a clearing first play comes before the bonus play, or at the end of the turn",
        needs: None,
    },
    FlagDef {
        key: "lopti.empty_clear_bonus",
        kind: BOOL,
        default: "true",
        doc: "LOPTI-3-6 / AMB-3: a 3-run reaching four on an empty table counts as a clear with a bonus play",
        needs: None,
    },
    FlagDef {
        key: "lopti.facedown_may_pickup",
        kind: BOOL,
        default: "false",
        doc: "LOPTI-FD-4 / AMB-4: a face-down-phase player may take a non-empty pile instead of revealing",
        needs: None,
    },
    FlagDef {
        key: "lopti.bonus_optional",
        kind: BOOL,
        default: "false",
        doc: "LOPTI-BONUS-1 / AMB-5: the bonus play may be declined (action `pass`)",
        needs: None,
    },
    FlagDef {
        key: "lopti.swap_order",
        kind: FlagKind::Choice(&["simultaneous", "clockwise_from_starter"]),
        default: "simultaneous",
        doc: "LOPTI-SETUP-4 / AMB-6: setup swaps are decided on the dealt state and applied together, or one player after another from the starter, each seeing the earlier swaps",
        needs: None,
    },
    FlagDef {
        key: "lopti.play_for_rankings",
        kind: BOOL,
        default: "false",
        doc: "LOPTI-WIN-4 / AMB-9: keep playing after the winner goes out until one player holds cards (the winner is still the first out)",
        needs: None,
    },
    FlagDef {
        key: "lopti.mcts_iterations",
        kind: FlagKind::Int { min: 1, max: 1_000_000 },
        default: "200",
        doc: "simulations per decision of the `mcts` strategy (not a rule)",
        needs: None,
    },
    SIM_FLAGS[0],
];

/// LOPTI-7-5: how 7s may follow 7s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SevenOnSeven {
    /// "If equal, more", or complete the four (default).
    EqualMore,
    /// Any number of 7s on 7s.
    Free,
}

/// LOPTI-DRAW-4: when the draw earned by the first play happens if that play cleared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawTiming {
    /// Right after the first play, before the bonus play (default).
    BeforeBonus,
    /// When the turn ends, after the bonus plays.
    EndOfTurn,
}

/// LOPTI-SETUP-4: how the setup swaps are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwapOrder {
    /// Everyone decides on the state just after the deal; swaps are applied together (default).
    Simultaneous,
    /// One player after another, clockwise from the starter, each seeing earlier swaps.
    ClockwiseFromStarter,
}

/// The rule variant in force, as a small `Copy` value read by the engine and the bots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// `lopti.seven_on_seven`.
    pub seven_on_seven: SevenOnSeven,
    /// `lopti.draw_timing`.
    pub draw_timing: DrawTiming,
    /// `lopti.empty_clear_bonus`.
    pub empty_clear_bonus: bool,
    /// `lopti.facedown_may_pickup`.
    pub facedown_may_pickup: bool,
    /// `lopti.bonus_optional`.
    pub bonus_optional: bool,
    /// `lopti.swap_order`.
    pub swap_order: SwapOrder,
    /// `lopti.play_for_rankings`.
    pub play_for_rankings: bool,
    /// `sim.max_actions`: turns after which a game is stopped and counted as capped.
    pub max_turns: u32,
}

impl Default for Rules {
    /// The defaults of lopti.md §20 and a cap of 200,000 turns.
    fn default() -> Self {
        Rules {
            seven_on_seven: SevenOnSeven::EqualMore,
            draw_timing: DrawTiming::BeforeBonus,
            empty_clear_bonus: true,
            facedown_may_pickup: false,
            bonus_optional: false,
            swap_order: SwapOrder::Simultaneous,
            play_for_rankings: false,
            max_turns: 200_000,
        }
    }
}

impl Rules {
    /// Reads the rules from typed settings (parsed and checked once by [`Settings::parse`]).
    pub fn from_settings(s: &Settings) -> Rules {
        Rules {
            seven_on_seven: s.get_choice("lopti.seven_on_seven", &[("equal_more", SevenOnSeven::EqualMore), ("free", SevenOnSeven::Free)]),
            draw_timing: s.get_choice("lopti.draw_timing", &[("before_bonus", DrawTiming::BeforeBonus), ("end_of_turn", DrawTiming::EndOfTurn)]),
            empty_clear_bonus: s.get_bool("lopti.empty_clear_bonus"),
            facedown_may_pickup: s.get_bool("lopti.facedown_may_pickup"),
            bonus_optional: s.get_bool("lopti.bonus_optional"),
            swap_order: s.get_choice("lopti.swap_order", &[("simultaneous", SwapOrder::Simultaneous), ("clockwise_from_starter", SwapOrder::ClockwiseFromStarter)]),
            play_for_rankings: s.get_bool("lopti.play_for_rankings"),
            max_turns: u32::try_from(s.get_int("sim.max_actions")).expect("sim.max_actions is at most 10^8"),
        }
    }

    /// Rejects flags that would do nothing with `players` players and these bot
    /// strategies: `lopti.play_for_rankings` with two players (when the winner goes out
    /// only one player holds cards), `lopti.mcts_iterations` without an `mcts` bot.
    pub fn check_table(s: &Settings, players: usize, strategies: &[&str]) -> Result<(), String> {
        if players == 2 && s.is_set("lopti.play_for_rankings") {
            return Err("--set lopti.play_for_rankings=true: has no effect with 2 players (the game ends when the first goes out either way)".into());
        }
        if s.is_set("lopti.mcts_iterations") && !strategies.contains(&"mcts") {
            return Err(format!("--set lopti.mcts_iterations={}: has no effect without an mcts bot", s.get("lopti.mcts_iterations")));
        }
        Ok(())
    }

    /// Applies one `key=value` rule setting given without the `lopti.` prefix (the
    /// `rules` object of a position query). Errors name the key and the valid values.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let full = format!("lopti.{key}");
        let def = FLAGS[..RULE_FLAGS]
            .iter()
            .find(|d| d.key == full)
            .ok_or_else(|| {
                let keys: Vec<&str> = FLAGS[..RULE_FLAGS].iter().map(|d| &d.key["lopti.".len()..]).collect();
                format!("rules.{}: unknown rule; valid rules: {}", clip(key), keys.join(", "))
            })?;
        let settings = Settings::parse(&FLAGS, &[format!("{full}={value}")])
            .map_err(|_| format!("rules.{key}: invalid value '{}'; valid values: {}", clip(value), def.accepted()))?;
        let parsed = Rules::from_settings(&settings);
        let max_turns = self.max_turns;
        match key {
            "seven_on_seven" => self.seven_on_seven = parsed.seven_on_seven,
            "draw_timing" => self.draw_timing = parsed.draw_timing,
            "empty_clear_bonus" => self.empty_clear_bonus = parsed.empty_clear_bonus,
            "facedown_may_pickup" => self.facedown_may_pickup = parsed.facedown_may_pickup,
            "bonus_optional" => self.bonus_optional = parsed.bonus_optional,
            "swap_order" => self.swap_order = parsed.swap_order,
            _ => self.play_for_rankings = parsed.play_for_rankings,
        }
        self.max_turns = max_turns;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_least_change_readings_lopti_ruling_5() {
        let s = Settings::parse(&FLAGS, &[]).unwrap();
        assert_eq!(Rules::from_settings(&s), Rules::default(), "LOPTI-RULING-5: the engine settles readings by the §20 defaults");
    }

    #[test]
    fn every_flag_is_read() {
        let sets: Vec<String> = [
            "lopti.seven_on_seven=free",
            "lopti.draw_timing=end_of_turn",
            "lopti.empty_clear_bonus=false",
            "lopti.facedown_may_pickup=true",
            "lopti.bonus_optional=true",
            "lopti.swap_order=clockwise_from_starter",
            "lopti.play_for_rankings=true",
            "sim.max_actions=500",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let r = Rules::from_settings(&Settings::parse(&FLAGS, &sets).unwrap());
        let mut by_key = Rules::default();
        for (k, v) in sets[..7].iter().map(|s| s["lopti.".len()..].split_once('=').unwrap()) {
            by_key.set(k, v).unwrap();
        }
        assert_eq!(r, Rules { max_turns: 500, ..by_key });
        assert_eq!(r.seven_on_seven, SevenOnSeven::Free);
        assert_eq!(r.draw_timing, DrawTiming::EndOfTurn);
        assert!(!r.empty_clear_bonus && r.facedown_may_pickup && r.bonus_optional && r.play_for_rankings);
        assert_eq!(r.swap_order, SwapOrder::ClockwiseFromStarter);
    }

    #[test]
    fn bad_rule_names_and_values_are_explained() {
        let mut r = Rules::default();
        let e = r.set("sevens", "free").unwrap_err();
        assert!(e.starts_with("rules.sevens: unknown rule") && e.contains("seven_on_seven"), "{e}");
        let e = r.set("seven_on_seven", "maybe").unwrap_err();
        assert!(e.contains("equal_more|free"), "{e}");
        assert!(r.set("mcts_iterations", "5").is_err(), "a bot budget is not a rule");
    }
}
