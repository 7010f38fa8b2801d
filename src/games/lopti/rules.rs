//! Actions and the legality of plays: the `legal` function of lopti.md §17.

use super::config::{Rules, SevenOnSeven};
use super::pile::Pile;
use super::ranks::{parse_rank, rank_name, Rank, Ranks, SEVEN, TEN, THREE, TWO};
use arrayvec::ArrayVec;
use std::fmt;

/// One decision of the player on turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Play `count` cards of `rank` from the hand (LOPTI-PLAY-1).
    Play {
        /// The rank played.
        rank: Rank,
        /// How many cards.
        count: u8,
    },
    /// Take the whole play pile (LOPTI-PICK-1).
    Pickup,
    /// Reveal one face-down card and play it (LOPTI-FD-1).
    Blind,
    /// Decline a bonus play (only with `lopti.bonus_optional=true`, LOPTI-BONUS-1).
    Pass,
}

impl fmt::Display for Action {
    /// The line `cardsim legal lopti` prints: `play 9 x2`, `pickup`, `blind` or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Play { rank, count } => write!(f, "play {} x{count}", rank_name(rank)),
            Action::Pickup => f.write_str("pickup"),
            Action::Blind => f.write_str("blind"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

impl Action {
    /// Parses a line as printed by [`Action`]'s `Display`.
    pub fn parse(line: &str) -> Option<Action> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["pickup"] => Some(Action::Pickup),
            ["blind"] => Some(Action::Blind),
            ["pass"] => Some(Action::Pass),
            ["play", r, n] => {
                let count = n.strip_prefix('x')?.parse().ok().filter(|c| (1..=4).contains(c))?;
                Some(Action::Play { rank: parse_rank(r)?, count })
            }
            _ => None,
        }
    }
}

/// Most legal actions in one position: 13 ranks x 4 counts, plus pick-up and pass.
pub const MAX_ACTIONS: usize = 13 * 4 + 2;

/// The legal actions of one decision, in the order `cardsim legal lopti` prints them.
pub type Actions = ArrayVec<Action, MAX_ACTIONS>;

/// How a pile was cleared (LOPTI-CLEAR-2; way (4), four 7s, is a [`ClearCause::FourOfAKind`];
/// way (5) is [`ClearCause::SpecialRule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClearCause {
    /// A 10 (LOPTI-10-2).
    Ten,
    /// Four cards of one rank at the top of the pile (LOPTI-PLAY-3, LOPTI-7-4).
    FourOfAKind,
    /// The fourth discarded 3 in a row (LOPTI-3-4).
    ThreeRun,
    /// The condition of a special clearing rule (LOPTI-CLEAR-2 (5), LOPTI-MAKE-8).
    SpecialRule,
}

impl ClearCause {
    /// Name used in traces.
    pub fn name(self) -> &'static str {
        match self {
            ClearCause::Ten => "ten",
            ClearCause::FourOfAKind => "four_of_a_kind",
            ClearCause::ThreeRun => "three_run",
            ClearCause::SpecialRule => "special_rule",
        }
    }
}

/// True if playing `n` cards of rank `r` is legal on `pile`, for a player who holds the
/// 3 obligation when `obligated` (lopti.md §17 `legal`, LOPTI-PLAY-*, §9).
pub fn is_legal_play(pile: &Pile, obligated: bool, r: Rank, n: u8, rules: &Rules) -> bool {
    let Some((q, m)) = pile.top() else { return true };
    if obligated {
        return r == THREE;
    }
    if r == THREE {
        return true;
    }
    if r == q {
        if q == SEVEN && rules.seven_on_seven == SevenOnSeven::Free {
            return true;
        }
        return n > m || pile.top_run() + n == 4;
    }
    if q == SEVEN {
        return matches!(r, TWO | 2..=4);
    }
    if matches!(r, TWO | SEVEN | TEN) {
        return true;
    }
    q == TWO || r > q
}

/// What a legal play of `n` x `r` clears, if anything, given `run3` discarded 3s beside
/// the pile (LOPTI-CLEAR-2 (1)-(4)). A 3-run of four on an empty table is reported as a
/// [`ClearCause::ThreeRun`]; whether it counts is `lopti.empty_clear_bonus` (LOPTI-3-6).
pub fn clear_cause(pile: &Pile, run3: u8, r: Rank, n: u8) -> Option<ClearCause> {
    if r == THREE {
        return (run3 + n == 4).then_some(ClearCause::ThreeRun);
    }
    if r == TEN {
        return Some(ClearCause::Ten);
    }
    let run = match pile.top() {
        Some((q, _)) if q == r => pile.top_run(),
        _ => 0,
    };
    (run + n == 4).then_some(ClearCause::FourOfAKind)
}

/// The decision in front of the player on turn, as far as legality is concerned.
#[derive(Clone, Copy, Debug)]
pub struct Decision<'a> {
    /// His hand (after any face-up takeover).
    pub hand: Ranks,
    /// His face-down cards left.
    pub face_down: u8,
    /// The play pile.
    pub pile: &'a Pile,
    /// He holds the 3 obligation.
    pub obligated: bool,
    /// This is a bonus play.
    pub bonus: bool,
}

/// The legal actions, plays first (rank low to high, then count), then `blind`,
/// `pickup`, `pass` (LOPTI-TURN-2, LOPTI-TURN-3, LOPTI-TURN-5, LOPTI-FD-4, LOPTI-BONUS-1).
pub fn legal_actions(d: &Decision, rules: &Rules) -> Actions {
    let mut out = Actions::new();
    let from_hand = !d.hand.is_empty();
    if from_hand {
        for r in d.hand.ranks() {
            for n in 1..=d.hand.count(r) {
                if is_legal_play(d.pile, d.obligated, r, n, rules) {
                    out.push(Action::Play { rank: r, count: n });
                }
            }
        }
    } else if d.face_down > 0 {
        out.push(Action::Blind);
    }
    if !d.pile.is_empty() && (from_hand || rules.facedown_may_pickup) {
        out.push(Action::Pickup);
    }
    if d.bonus && rules.bonus_optional {
        out.push(Action::Pass);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lopti::ranks::ranks_from;
    use crate::games::lopti::tests::pile;

    fn legal(pile_text: &str, play: &str) -> bool {
        legal_with(pile_text, play, &Rules::default())
    }

    fn legal_with(pile_text: &str, play: &str, rules: &Rules) -> bool {
        let cards = ranks_from(play).unwrap();
        is_legal_play(&pile(pile_text), false, cards.ranks().next().unwrap(), cards.len() as u8, rules)
    }

    #[test]
    fn empty_table_takes_any_rank_and_count_lopti_turn_2() {
        for r in 0..13 {
            for n in 1..=4 {
                assert!(is_legal_play(&Pile::default(), false, r, n, &Rules::default()), "LOPTI-TURN-2: {r} x{n}");
            }
        }
    }

    #[test]
    fn play_higher_or_equal_with_more_lopti_play_2() {
        assert!(legal("8", "9"), "LOPTI-PLAY-2: higher rank");
        assert!(legal("8", "A A"), "LOPTI-PLAY-2: higher rank, any count");
        assert!(!legal("8", "6"), "LOPTI-PLAY-2: lower rank");
        assert!(legal("8", "8 8"), "LOPTI-PLAY-2: equal rank, more cards");
        assert!(!legal("8 8", "8"), "LOPTI-PLAY-2: equal rank, fewer cards");
        assert!(!legal("K K", "K K") || pile("K K").top_run() + 2 == 4, "LOPTI-PLAY-2");
        assert!(legal("J", "J J"), "LOPTI-AMB-15: more than the top play's count");
    }

    #[test]
    fn a_play_is_cards_of_one_rank_lopti_play_1() {
        assert_eq!(Action::parse("play 9 x2"), Some(Action::Play { rank: 7, count: 2 }), "LOPTI-PLAY-1");
        assert_eq!(Action::parse("play 10 x0"), None, "LOPTI-PLAY-1: n >= 1");
        assert_eq!(Action::Play { rank: TEN, count: 1 }.to_string(), "play 10 x1");
        assert_eq!(Action::parse("pickup"), Some(Action::Pickup));
    }

    #[test]
    fn completing_four_overrides_equal_more_lopti_play_3() {
        assert!(legal("6 6 6", "6"), "LOPTI-PLAY-3 / LOPTI-RULING-2: one card on three of its rank");
        assert!(legal("4|6 6", "6 6"), "LOPTI-PLAY-3: run 2+2 = 4");
        assert!(legal("7", "6 6 6 6"), "LOPTI-PLAY-3: four 6s are allowed on a 7");
        assert!(!legal("7", "8 8 8 8"), "LOPTI-PLAY-3 / LOPTI-RULING-3: four 8s are not allowed on a 7");
        assert!(!legal("K", "9 9 9 9"), "LOPTI-PLAY-3: the rank must be allowed first");
        assert_eq!(clear_cause(&pile("6 6 6"), 0, 4, 1), Some(ClearCause::FourOfAKind));
        assert_eq!(clear_cause(&pile("7"), 0, 4, 4), Some(ClearCause::FourOfAKind));
        assert_eq!(clear_cause(&pile("6 6"), 0, 4, 1), None);
    }

    #[test]
    fn specials_override_play_higher_lopti_play_4() {
        assert!(legal("A", "2") && legal("A", "7") && legal("A", "10") && legal("A", "3"), "LOPTI-PLAY-4");
        assert!(legal("2", "4"), "LOPTI-PLAY-4: after a 2 any rank");
        assert!(!legal("7", "8"), "LOPTI-PLAY-4: after a 7, 7 or lower");
    }

    #[test]
    fn two_on_anything_but_an_obligation_lopti_2_1() {
        for top in ["A", "K", "7", "5", "2 2"] {
            assert!(legal(top, "2 2 2"), "LOPTI-2-1: 2s on {top}");
        }
        assert!(!is_legal_play(&pile("K"), true, TWO, 1, &Rules::default()), "LOPTI-2-1: not under an obligation");
    }

    #[test]
    fn after_a_two_any_rank_lopti_2_2() {
        for r in 0..13 {
            assert!(
                r == TWO || is_legal_play(&pile("Q|2"), false, r, 1, &Rules::default()),
                "LOPTI-2-2: {} on a 2",
                rank_name(r)
            );
        }
    }

    #[test]
    fn twos_on_twos_equal_more_or_complete_four_lopti_2_3() {
        assert!(!legal("Q|2", "2"), "LOPTI-2-3: equal count");
        assert!(legal("Q|2", "2 2"), "LOPTI-2-3: more");
        assert!(legal("Q|2|2 2", "2"), "LOPTI-2-3: completes four");
    }

    #[test]
    fn three_on_anything_and_only_three_under_obligation_lopti_3_1_and_3_7() {
        for top in ["A", "7", "2", "Q Q Q"] {
            assert!(legal(top, "3"), "LOPTI-3-1: a 3 on {top}");
            assert!(is_legal_play(&pile(top), true, THREE, 2, &Rules::default()), "LOPTI-3-1: 3s answer an obligation");
        }
        for r in (0..13).filter(|&r| r != THREE) {
            for n in 1..=4 {
                assert!(!is_legal_play(&pile("K|K"), true, r, n, &Rules::default()), "LOPTI-3-7: {} x{n} under an obligation", rank_name(r));
            }
        }
        assert!(!is_legal_play(&pile("6 6 6"), true, 4, 1, &Rules::default()), "LOPTI-3-7: no four-of-a-kind completion");
    }

    #[test]
    fn seven_on_anything_and_low_rule_lopti_7_1_and_7_2() {
        for top in ["A", "K", "2", "4"] {
            assert!(legal(top, "7"), "LOPTI-7-1: a 7 on {top}");
        }
        assert!(!is_legal_play(&pile("K"), true, SEVEN, 1, &Rules::default()), "LOPTI-7-1: not under an obligation");
        for (play, ok) in [("2", true), ("3", true), ("4", true), ("5 5", true), ("6", true), ("8", false), ("10", false), ("A", false)] {
            assert_eq!(legal("Q|7", play), ok, "LOPTI-7-2: {play} on a 7");
        }
    }

    #[test]
    fn low_rule_applies_to_the_next_play_only_lopti_7_3() {
        assert!(!legal("7|5", "4"), "LOPTI-7-3 / EX-6: the low rule covered one play");
        assert!(legal("7|5", "8"), "LOPTI-7-3");
        assert!(!legal("7|5|7", "8"), "LOPTI-7-3: a new 7 starts a new low rule");
    }

    #[test]
    fn four_sevens_clear_lopti_7_4() {
        assert_eq!(clear_cause(&pile("Q"), 0, SEVEN, 4), Some(ClearCause::FourOfAKind), "LOPTI-7-4: four in one play");
        assert!(legal("7|7 7", "7"), "LOPTI-7-4");
        assert_eq!(clear_cause(&pile("7|7 7"), 0, SEVEN, 1), Some(ClearCause::FourOfAKind), "LOPTI-7-4: completing four across plays");
    }

    #[test]
    fn seven_on_seven_flag_lopti_7_5() {
        assert!(!legal("Q|7", "7"), "LOPTI-7-5: equal_more by default");
        assert!(legal("Q|7", "7 7"), "LOPTI-7-5");
        let free = Rules { seven_on_seven: SevenOnSeven::Free, ..Rules::default() };
        assert!(legal_with("Q|7", "7", &free), "LOPTI-7-5: seven_on_seven=free");
        assert!(legal_with("Q|7 7", "7", &free), "LOPTI-7-5: seven_on_seven=free");
        assert!(!legal_with("Q|2", "2", &free), "the flag concerns 7s only");
    }

    #[test]
    fn ten_on_anything_but_a_seven_or_obligation_lopti_10_1() {
        for top in ["A", "2", "K K", "4"] {
            assert!(legal(top, "10"), "LOPTI-10-1: a 10 on {top}");
        }
        assert!(!legal("A|7", "10"), "LOPTI-10-1: not on a 7");
        assert!(!is_legal_play(&pile("A"), true, TEN, 1, &Rules::default()), "LOPTI-10-1: not under an obligation");
        assert_eq!(clear_cause(&pile("A"), 0, TEN, 1), Some(ClearCause::Ten), "LOPTI-10-2");
    }

    #[test]
    fn legal_actions_order_and_pickup_lopti_turn_3() {
        let d = Decision { hand: ranks_from("9 9 K 4").unwrap(), face_down: 3, pile: &pile("9"), obligated: false, bonus: false };
        let lines: Vec<String> = legal_actions(&d, &Rules::default()).iter().map(|a| a.to_string()).collect();
        assert_eq!(lines, ["play 9 x2", "play K x1", "pickup"], "LOPTI-TURN-3: a play or the pile, even with a legal play");
        let d = Decision { hand: ranks_from("4 5").unwrap(), ..d };
        let lines: Vec<String> = legal_actions(&d, &Rules::default()).iter().map(|a| a.to_string()).collect();
        assert_eq!(lines, ["pickup"], "LOPTI-TURN-3: no legal play, so he must take the pile");
    }
}
