//! A player's legal moves as the rules hand them to the engine and the strategies. A
//! game may keep them in whatever form is cheapest to build (Spit and Speed: bit sets of
//! candidate cards per target); the engine only counts them and checks a choice against
//! them, and a strategy walks them in the legal order without a list being written. An
//! [`ActionList`] is itself a set of moves, for a game that builds its list.

use super::engine::ActionList;

/// A player's legal moves at one instant, in a fixed legal order.
pub trait LegalMoves<A: Copy> {
    /// Number of legal moves (what a player scans, for his reaction time).
    fn count(&self) -> usize;
    /// True if `a` is one of them.
    fn contains(&self, a: A) -> bool;
    /// Appends them to `out` in the legal order (the list the protocol, traces and
    /// `RealtimeRules::legal` give).
    fn write(&self, out: &mut ActionList<A>);
    /// True with no legal move.
    fn is_empty(&self) -> bool {
        self.count() == 0
    }
}

impl<A: Copy + PartialEq> LegalMoves<A> for ActionList<A> {
    fn count(&self) -> usize {
        self.len()
    }
    fn contains(&self, a: A) -> bool {
        self.as_slice().contains(&a)
    }
    fn write(&self, out: &mut ActionList<A>) {
        out.extend(self.iter().copied());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_list_is_its_own_moves() {
        let list: ActionList<u8> = [3, 1, 4].into_iter().collect();
        assert_eq!(LegalMoves::count(&list), 3);
        assert!(LegalMoves::contains(&list, 4) && !LegalMoves::contains(&list, 2));
        let mut out = ActionList::new();
        out.push(9);
        list.write(&mut out);
        assert_eq!(out.as_slice(), [9, 3, 1, 4]);
        assert!(!LegalMoves::is_empty(&list) && LegalMoves::is_empty(&ActionList::<u8>::new()));
    }
}
