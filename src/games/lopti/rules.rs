//! Actions and the legality of plays: the `legal` function of lopti.md §17.

use super::config::{Rules, SevenOnSeven};
use super::pile::Pile;
use super::ranks::{parse_rank, rank_name, Rank, Ranks, SEVEN, TEN, THREE, TWO};
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

/// Every action at its bit in [`Actions`]: the play `n` x `r` at `4 * r + n - 1` (its bit
/// in [`Plays`]), then `blind`, `pickup` and `pass` at [`OTHERS`] to `OTHERS + 2`.
static ACTIONS: [Action; OTHERS as usize + 3] = {
    let mut all = [Action::Pass; OTHERS as usize + 3];
    let mut i = 0;
    while i < 52 {
        all[i] = Action::Play { rank: (i / 4) as Rank, count: (i % 4 + 1) as u8 };
        i += 1;
    }
    all[OTHERS as usize] = Action::Blind;
    all[OTHERS as usize + 1] = Action::Pickup;
    all
};

/// The bit of `blind` in [`Actions`], just above the plays; `pickup` and `pass` follow.
const OTHERS: u32 = 52;

/// The legal actions of one decision, in the order `cardsim legal lopti` prints them:
/// the plays (rank low to high, then count), then `blind`, `pickup` and `pass`. Held as
/// one bit set in that order (the plays as in [`Plays`]), so it is built and asked in a
/// few word operations; `legal[i]` is the `i`-th action in that order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Actions(u64);

impl Actions {
    /// No action.
    pub fn new() -> Actions {
        Actions::default()
    }

    /// How many actions.
    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    /// True if there is no action.
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// The only legal action, if there is exactly one (the turn loop then asks nobody).
    pub fn single(&self) -> Option<Action> {
        // One bit set: `x & (x - 1)` clears it (`is_power_of_two` counts the bits, which
        // is a software routine on the baseline x86-64 target).
        (self.0 != 0 && self.0 & self.0.wrapping_sub(1) == 0).then(|| ACTIONS[self.0.trailing_zeros() as usize])
    }

    /// The legal plays.
    pub fn plays(&self) -> Plays {
        Plays(self.0 & EVERY)
    }

    /// True if `action` is legal.
    pub fn contains(&self, action: &Action) -> bool {
        let bit = match *action {
            Action::Play { rank, count } => return rank < 13 && self.plays().contains(rank, count),
            Action::Blind => OTHERS,
            Action::Pickup => OTHERS + 1,
            Action::Pass => OTHERS + 2,
        };
        self.0 >> bit & 1 != 0
    }

    /// The actions in order.
    pub fn iter(&self) -> impl Iterator<Item = &'static Action> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            let b = bits.trailing_zeros();
            bits &= bits.wrapping_sub(1);
            ACTIONS.get(b as usize)
        })
    }
}

impl std::ops::Index<usize> for Actions {
    type Output = Action;

    /// The `i`-th action in legal order; panics if `i >= len`.
    fn index(&self, i: usize) -> &Action {
        let mut bits = self.0;
        for _ in 0..i {
            bits &= bits.wrapping_sub(1);
        }
        assert!(bits != 0, "action {i} of {} legal actions", self.len());
        &ACTIONS[bits.trailing_zeros() as usize]
    }
}

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

/// A set of plays `(rank, count)` as bits laid out like the counters of [`Ranks`]: bit
/// `4 * r + n - 1` stands for `n` cards of rank `r` (`n` in 1..=4). Legality is decided on
/// whole sets at once, so finding every legal play of a hand is a few word operations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Plays(pub u64);

/// One in the lowest bit of every rank's counter.
const ONES: u64 = crate::cards::RANK_NIBBLE_ONES;
/// Every count of every rank.
const EVERY: u64 = 0xF * ONES;
/// Ranks the low rule allows on a 7 besides 3s (LOPTI-7-2): 2, 4, 5 and 6.
const LOW_ON_SEVEN: u64 = rank_bits(TWO) | rank_bits(2) | rank_bits(3) | rank_bits(4);

/// Every count of rank `r`.
const fn rank_bits(r: Rank) -> u64 {
    0xF << (4 * r as u32)
}

/// Four cards of any rank but 3 and 10: the plays that clear an empty pile (or one whose
/// top play is another rank) as four of a kind.
const FOUR_ANY: u64 = ONES << 3 & !(rank_bits(THREE) | rank_bits(TEN));

/// The ranks besides 3 that may go on a top of rank `q` without the obligation: on a 7
/// the low ones, else 2, 7, 10 and every rank above `q` (all of them on a 2).
const fn others_on(q: Rank) -> u64 {
    if q == SEVEN {
        LOW_ON_SEVEN
    } else {
        let higher = if q == TWO { EVERY } else { EVERY & !((1 << (4 * q as u32 + 4)) - 1) };
        rank_bits(TWO) | rank_bits(SEVEN) | rank_bits(TEN) | higher
    }
}

/// The plays legal on a pile whose top play is `m` x `q` with top run `run`, for a player
/// without the obligation, under `seven_on_seven=equal_more` (the rules of
/// [`Plays::allowed_from_scratch`]).
const fn allowed_on(q: Rank, m: u8, run: u8) -> u64 {
    let mut plays = others_on(q) | rank_bits(THREE);
    if q != THREE {
        let more = (0xF << m) & 0xF;
        let complete = if run < 4 { 1 << (3 - run) } else { 0 };
        plays = plays & !rank_bits(q) | (more | complete) << (4 * q as u32);
    }
    plays
}

/// The plays that clear a pile whose top play is of rank `q` with top run `run` as four
/// of a kind (the rules of [`Clears::four_from_scratch`]).
const fn four_on(q: Rank, run: u8) -> u64 {
    if q == THREE || q == TEN {
        return FOUR_ANY;
    }
    let complete = if run < 4 { 1 << (3 - run) } else { 0 };
    FOUR_ANY & !rank_bits(q) | complete << (4 * q as u32)
}

/// Entries per rank in [`ON_TOP`]: top play counts 1..=4, top runs 0..=4 (a longer run
/// allows what a run of 4 allows).
const PER_RANK: usize = 4 * 5;

/// [`allowed_on`] and [`four_on`] for every top play and top run, so that a push keeps
/// them with one lookup.
static ON_TOP: [(u64, u64); 13 * PER_RANK] = {
    let mut table = [(0, 0); 13 * PER_RANK];
    let mut i = 0;
    while i < table.len() {
        let (q, m, run) = ((i / PER_RANK) as Rank, (i % PER_RANK / 5 + 1) as u8, (i % 5) as u8);
        table[i] = (allowed_on(q, m, run), four_on(q, run));
        i += 1;
    }
    table
};

/// What a pile keeps about its top (see [`Pile::allowed`] and [`Pile::four`]): for the
/// top play `m` x `q` with top run `run`, or `None` for an empty table, the plays legal
/// without the obligation under `seven_on_seven=equal_more`, and the plays that clear it
/// as four of a kind.
#[inline]
pub(super) fn on_top(top: Option<(Rank, u8, u8)>) -> (u64, u64) {
    match top {
        None => (EVERY, FOUR_ANY),
        Some((q, m, run)) => ON_TOP[q as usize * PER_RANK + (m as usize - 1) * 5 + run.min(4) as usize],
    }
}

impl Plays {
    /// No play.
    pub const NONE: Plays = Plays(0);

    /// The plays the cards of `hand` make: 1 to `hand.count(r)` cards of each rank `r`.
    pub fn held(hand: Ranks) -> Plays {
        // Per counter c <= 4 (no carry between counters): c + 8 - k has bit 3 set iff c >= k.
        let h = hand.0;
        let at_least = |k: u64| (h + (8 - k) * ONES) & (8 * ONES);
        Plays(at_least(1) >> 3 | at_least(2) >> 2 | at_least(3) >> 1 | at_least(4))
    }

    /// Every play legal on `pile`, whatever the hand, for a player who holds the 3
    /// obligation when `obligated` (lopti.md §17 `legal`, LOPTI-PLAY-*, §9): anything on
    /// an empty table (LOPTI-TURN-2); under an obligation only 3s (LOPTI-3-7); otherwise
    /// 3s on anything (LOPTI-3-1); on the top play's rank `q` more cards than the top play
    /// or exactly the cards that complete four (LOPTI-PLAY-2, LOPTI-PLAY-3; any number of
    /// 7s on a 7 under `seven_on_seven=free`, LOPTI-7-5); on a 7 only 2, 4, 5 and 6 besides
    /// (LOPTI-7-2); elsewhere 2, 7 and 10 (LOPTI-PLAY-4) and, after a 2 any rank
    /// (LOPTI-2-2), else the ranks above `q` (LOPTI-PLAY-2).
    pub fn allowed(pile: &Pile, obligated: bool, rules: &Rules) -> Plays {
        if obligated && !pile.is_empty() {
            return Plays(rank_bits(THREE));
        }
        // The pile keeps its plays under `equal_more`; `free` adds every count of 7 on a 7.
        let mut plays = pile.allowed();
        if rules.seven_on_seven == SevenOnSeven::Free && pile.top().is_some_and(|(q, _)| q == SEVEN) {
            plays |= rank_bits(SEVEN);
        }
        Plays(plays)
    }

    /// [`Plays::allowed`] computed from the pile's plays, not from what the pile keeps
    /// (the invariant checks compare the two).
    pub fn allowed_from_scratch(pile: &Pile, obligated: bool, rules: &Rules) -> Plays {
        let Some((q, m)) = pile.top() else { return Plays(EVERY) };
        if obligated {
            return Plays(rank_bits(THREE));
        }
        let mut plays = others_on(q) | rank_bits(THREE);
        if q == SEVEN && rules.seven_on_seven == SevenOnSeven::Free {
            plays |= rank_bits(SEVEN);
        } else if q != THREE {
            // Counts n > m, and n = 4 - run when that completes four.
            let run = pile.top_run() as u32;
            let more = (0xF << m) & 0xF;
            let complete = if run < 4 { 1 << (3 - run) } else { 0 };
            plays = plays & !rank_bits(q) | (more | complete) << (4 * q as u32);
        }
        Plays(plays)
    }

    /// True if the set holds `n` cards of rank `r`.
    pub fn contains(self, r: Rank, n: u8) -> bool {
        (1..=4).contains(&n) && self.0 >> (4 * r as u32 + n as u32 - 1) & 1 != 0
    }

    /// True if the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The plays of both sets.
    pub fn and(self, other: Plays) -> Plays {
        Plays(self.0 & other.0)
    }

    /// The plays of rank `r` only.
    pub fn of_rank(self, r: Rank) -> Plays {
        Plays(self.0 & rank_bits(r))
    }

    /// The plays of the ordinary ranks (all but 2, 3, 7 and 10, LOPTI-DECK-3).
    pub fn ordinary(self) -> Plays {
        Plays(self.0 & !(rank_bits(TWO) | rank_bits(THREE) | rank_bits(SEVEN) | rank_bits(TEN)))
    }

    /// The first play in legal order: the lowest rank, its fewest cards.
    pub fn first(self) -> Option<(Rank, u8)> {
        (self.0 != 0).then(|| {
            let b = self.0.trailing_zeros();
            ((b / 4) as Rank, (b % 4 + 1) as u8)
        })
    }

    /// The last play in legal order: the highest rank, its most cards.
    pub fn last(self) -> Option<(Rank, u8)> {
        (self.0 != 0).then(|| {
            let b = 63 - self.0.leading_zeros();
            ((b / 4) as Rank, (b % 4 + 1) as u8)
        })
    }

    /// The play with the fewest cards, the lowest rank among equals.
    pub fn fewest(self) -> Option<(Rank, u8)> {
        (0..4).map(|k| self.0 & ONES << k).find(|&b| b != 0).map(|b| {
            let b = b.trailing_zeros();
            ((b / 4) as Rank, (b % 4 + 1) as u8)
        })
    }

    /// The plays as `(rank, count)`, rank low to high, then count.
    pub fn iter(self) -> impl Iterator<Item = (Rank, u8)> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let b = bits.trailing_zeros();
            bits &= bits - 1;
            Some(((b / 4) as Rank, (b % 4 + 1) as u8))
        })
    }
}

/// True if playing `n` cards of rank `r` is legal on `pile`, for a player who holds the
/// 3 obligation when `obligated` (lopti.md §17 `legal`; see [`Plays::allowed`]).
pub fn is_legal_play(pile: &Pile, obligated: bool, r: Rank, n: u8, rules: &Rules) -> bool {
    Plays::allowed(pile, obligated, rules).contains(r, n)
}

/// What a legal play of `n` x `r` clears, if anything, given `run3` discarded 3s beside
/// the pile (LOPTI-CLEAR-2 (1)-(4)). A 3-run of four on an empty table is reported as a
/// [`ClearCause::ThreeRun`]; whether it counts is `lopti.empty_clear_bonus` (LOPTI-3-6).
pub fn clear_cause(pile: &Pile, run3: u8, r: Rank, n: u8) -> Option<ClearCause> {
    let clears = Clears::on(pile, run3);
    [ClearCause::Ten, ClearCause::ThreeRun, ClearCause::FourOfAKind].into_iter().find(|&c| clears.by(c).contains(r, n))
}

/// The plays that would clear one pile, by cause ([`clear_cause`] for every play at once).
#[derive(Clone, Copy, Debug)]
pub struct Clears {
    /// Four of a kind at the top: on the top play's rank the cards that complete its
    /// run to four, on any other rank (but 3 and 10) four cards.
    four: Plays,
    /// The 3s that bring the discarded 3s beside the pile to four.
    three_run: Plays,
}

impl Clears {
    /// The pile `pile` with `run3` discarded 3s beside it.
    pub fn on(pile: &Pile, run3: u8) -> Clears {
        Clears { four: Plays(pile.four()), three_run: Plays(three_run(run3)) }
    }

    /// The four-of-a-kind plays of [`Clears::on`] computed from the pile's plays, not from
    /// what the pile keeps (the invariant checks compare the two).
    pub fn four_from_scratch(pile: &Pile) -> Plays {
        let mut four = ONES << 3 & !(rank_bits(THREE) | rank_bits(TEN));
        if let Some((q, _)) = pile.top().filter(|&(q, _)| q != THREE && q != TEN) {
            let run = pile.top_run() as u32;
            let complete = if run < 4 { 1 << (3 - run) } else { 0 };
            four = four & !rank_bits(q) | complete << (4 * q as u32);
        }
        Plays(four)
    }

    /// The plays that clear by `cause` (none by a special rule: that is no play's doing).
    pub fn by(&self, cause: ClearCause) -> Plays {
        match cause {
            ClearCause::FourOfAKind => self.four,
            ClearCause::ThreeRun => self.three_run,
            ClearCause::Ten => Plays(rank_bits(TEN)),
            ClearCause::SpecialRule => Plays::NONE,
        }
    }
}

/// The 3s that bring `run3` discarded 3s beside the pile to four.
fn three_run(run3: u8) -> u64 {
    if run3 < 4 { 1 << (4 * THREE as u32 + 3 - run3 as u32) } else { 0 }
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
#[inline]
pub fn legal_actions(d: &Decision, rules: &Rules) -> Actions {
    let from_hand = !d.hand.is_empty();
    let mut bits = if from_hand { legal_plays(d, rules).0 } else { ((d.face_down > 0) as u64) << OTHERS };
    bits |= ((!d.pile.is_empty() && (from_hand || rules.facedown_may_pickup)) as u64) << (OTHERS + 1);
    bits |= ((d.bonus && rules.bonus_optional) as u64) << (OTHERS + 2);
    Actions(bits)
}

/// The legal plays from the hand (LOPTI-TURN-2, LOPTI-TURN-3).
#[inline]
pub fn legal_plays(d: &Decision, rules: &Rules) -> Plays {
    Plays::held(d.hand).and(Plays::allowed(d.pile, d.obligated, rules))
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
    fn the_action_set_lists_every_legal_play_of_the_hand_in_order() {
        use rand::RngExt;
        let mut rng = crate::rng::rng_from(3);
        for _ in 0..20_000 {
            let mut hand = Ranks::EMPTY;
            for r in 0..13 {
                if rng.random_range(0..3) == 0 {
                    hand.add(r, rng.random_range(1..=4));
                }
            }
            let mut p = Pile::default();
            for _ in 0..rng.random_range(0..4) {
                p.push(rng.random_range(0..13), rng.random_range(1..=2));
            }
            let rules = Rules { bonus_optional: true, ..Rules::default() };
            let d = Decision { hand, face_down: 1, pile: &p, obligated: rng.random_range(0..5) == 0, bonus: rng.random_bool(0.5) };
            let mut want: Vec<Action> = hand
                .ranks()
                .flat_map(|r| (1..=hand.count(r)).map(move |n| Action::Play { rank: r, count: n }))
                .filter(|&a| matches!(a, Action::Play { rank, count } if is_legal_play(&p, d.obligated, rank, count, &rules)))
                .collect();
            want.extend([(hand.is_empty(), Action::Blind), (!hand.is_empty() && !p.is_empty(), Action::Pickup), (d.bonus, Action::Pass)].iter().filter(|(on, _)| *on).map(|&(_, a)| a));
            let legal = legal_actions(&d, &rules);
            assert_eq!(legal.iter().copied().collect::<Vec<_>>(), want, "{hand:?} on {p:?}");
            assert_eq!(legal.len(), want.len());
            assert!((0..want.len()).all(|i| legal[i] == want[i] && legal.contains(&want[i])));
            assert_eq!(legal.contains(&Action::Blind), hand.is_empty());
        }
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
