//! The play pile: an ordered list of plays, each one or more cards of one rank
//! (LOPTI-STATE-2, LOPTI-STATE-3), stored inline so a game state stays `Copy`.

use super::ranks::{rank_name, Rank, Ranks};
use super::rules::on_top;
use std::fmt;

/// Most plays a pile can hold: it never holds a 3 or a 10 (LOPTI-INV-4), so at most
/// 44 cards, each play at least one card.
pub const MAX_PLAYS: usize = 44;

/// The play pile, bottom to top.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Pile {
    /// Play `i` packed as `rank | count << 4`.
    plays: [u8; MAX_PLAYS],
    len: u8,
    /// The top run, kept up to date by `push` (see [`Pile::top_run`]).
    run: u8,
    cards: Ranks,
    /// Kept up to date by `push` (a function of the top play and the top run): the plays
    /// legal on this pile for a player without the 3 obligation under
    /// `seven_on_seven=equal_more` ([`Pile::allowed`]).
    allowed: u64,
    /// Kept like `allowed`: the plays that would clear this pile as four of a kind
    /// ([`Pile::four`]).
    four: u64,
}

impl Default for Pile {
    fn default() -> Self {
        let (allowed, four) = on_top(None);
        Pile { plays: [0; MAX_PLAYS], len: 0, run: 0, cards: Ranks::EMPTY, allowed, four }
    }
}

impl Pile {
    /// True if the table is empty (LOPTI-STATE-3).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Every card in the pile.
    pub fn cards(&self) -> Ranks {
        self.cards
    }
    /// The plays, bottom to top, as `(rank, count)`.
    pub fn plays(&self) -> impl Iterator<Item = (Rank, u8)> + '_ {
        self.plays[..self.len as usize].iter().map(|&p| (p & 0xF, p >> 4))
    }
    /// The top play `(q, m)`, if any.
    pub fn top(&self) -> Option<(Rank, u8)> {
        self.len.checked_sub(1).map(|i| {
            let p = self.plays[i as usize];
            (p & 0xF, p >> 4)
        })
    }
    /// The top run: consecutive cards of the top play's rank at the top of the pile,
    /// counted across successive plays, whoever made them (LOPTI-STATE-3).
    pub fn top_run(&self) -> u8 {
        self.run
    }
    /// The plays legal on this pile for a player without the 3 obligation under
    /// `seven_on_seven=equal_more`, as [`Plays`](super::rules::Plays) bits: kept up to
    /// date by `push`, so asking costs one load ([`Plays::allowed`](super::rules::Plays::allowed)
    /// adds the rest).
    pub fn allowed(&self) -> u64 {
        self.allowed
    }
    /// The plays that would clear this pile as four of a kind (LOPTI-PLAY-3, LOPTI-7-4),
    /// as [`Plays`](super::rules::Plays) bits, kept up to date by `push`.
    pub fn four(&self) -> u64 {
        self.four
    }
    /// Puts a play of `n` cards of rank `r` on top.
    #[inline]
    pub fn push(&mut self, r: Rank, n: u8) {
        debug_assert!((1..=4).contains(&n));
        self.run = if self.top().is_some_and(|(q, _)| q == r) { self.run + n } else { n };
        self.plays[self.len as usize] = r | n << 4;
        self.len += 1;
        self.cards.add(r, n);
        (self.allowed, self.four) = on_top(Some((r, n, self.run)));
    }
    /// A 64-bit hash of the plays, bottom to top (equal piles give equal fingerprints).
    pub fn fingerprint(&self) -> u64 {
        // Eight plays a word; entries past the top are zero and may be taken in.
        let used = ((self.len as usize).div_ceil(8) * 8).min(MAX_PLAYS);
        self.plays[..used].chunks(8).fold(self.len as u64, |h, w| {
            let mut word = [0; 8];
            word[..w.len()].copy_from_slice(w);
            crate::rng::splitmix64(h ^ u64::from_le_bytes(word))
        })
    }
    /// Empties the pile and returns its cards.
    pub fn take(&mut self) -> Ranks {
        let cards = self.cards;
        *self = Pile::default();
        cards
    }
}

impl fmt::Debug for Pile {
    /// Bottom to top in the notation of lopti.md §18, e.g. `[9][Q Q]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("[]");
        }
        for (r, n) in self.plays() {
            write!(f, "[{}]", vec![rank_name(r); n as usize].join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_play_and_top_run_across_plays_lopti_state_3() {
        let mut p = Pile::default();
        assert!(p.is_empty() && p.top().is_none() && p.top_run() == 0, "LOPTI-STATE-3: empty table");
        p.push(7, 3); // 9 9 9
        p.push(3, 1); // 5
        p.push(3, 2); // 5 5
        assert_eq!(p.top(), Some((3, 2)), "LOPTI-STATE-3: the top play is the last one");
        assert_eq!(p.top_run(), 3, "LOPTI-STATE-3: the run counts across successive plays of one rank");
        assert_eq!(format!("{p:?}"), "[9 9 9][5][5 5]");
        assert_eq!(p.cards().len(), 6);
        assert_eq!(p.take().len(), 6);
        assert!(p.is_empty());
    }

    #[test]
    fn the_kept_legal_plays_and_clears_are_checked_against_a_recomputation() {
        use crate::games::lopti::config::Rules;
        use crate::games::lopti::events::NoObserver;
        use crate::games::lopti::invariants::check_kept;
        use crate::games::lopti::state::State;
        let mut s = State::deal(2, 0, Rules::default(), &crate::rng::MatchSeeds::of_deal(1), &mut NoObserver);
        for (r, n) in [(7, 1), (7, 2), (5, 1), (5, 2), (0, 1), (11, 3)] {
            s.pile.push(r, n);
            assert_eq!(check_kept(&s), Ok(()), "after {n} x {}", rank_name(r));
        }
        let mut wrong = s;
        wrong.pile.allowed ^= 1;
        assert!(check_kept(&wrong).is_err_and(|e| e.starts_with("kept legal plays")));
        let mut wrong = s;
        wrong.pile.four ^= 1 << 3;
        assert!(check_kept(&wrong).is_err_and(|e| e.starts_with("kept four-of-a-kind")));
    }
}
