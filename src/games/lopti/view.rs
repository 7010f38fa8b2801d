//! What one player may see (LOPTI-STATE-1): his own hand and face-up cards, the count of
//! his face-down cards, the public table, and for every seat the public facts. Bots see
//! only this, so they cannot cheat.

use super::config::Rules;
use super::pile::Pile;
use super::ranks::Ranks;
use super::rules::{legal_actions, Actions, Decision};
use super::entry::MAX_SEATS;

/// The public facts about one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatInfo {
    /// Cards in his hand.
    pub hand: u8,
    /// Hand cards everyone has seen (taken face-up cards, picked-up piles) that he has
    /// not necessarily played since: a lower bound on his hand.
    pub known: Ranks,
    /// His face-up cards (public).
    pub face_up: Ranks,
    /// His face-down cards left.
    pub face_down: u8,
    /// He is out of the round.
    pub out: bool,
    /// He has taken the pile at least once this round.
    pub picked_up: bool,
}

/// The view of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// His seat.
    pub seat: u8,
    /// Players at the table.
    pub players: u8,
    /// The seat on turn (the starter during setup).
    pub current: u8,
    /// Setup is under way: the only decision is the swap (LOPTI-SETUP-4).
    pub setup: bool,
    /// Seats whose setup swap is already applied (bit per seat).
    pub swapped: u8,
    /// His hand.
    pub hand: Ranks,
    /// His face-up cards.
    pub face_up: Ranks,
    /// His face-down cards left (their ranks are hidden even from him).
    pub face_down: u8,
    /// The play pile.
    pub pile: Pile,
    /// Discarded 3s beside the pile (LOPTI-3-2).
    pub run3: u8,
    /// He must answer a 3 obligation (LOPTI-3-3).
    pub obligated: bool,
    /// This decision is a bonus play (LOPTI-BONUS-1).
    pub bonus: bool,
    /// His draw for this turn is still to come at the end of the turn
    /// (`lopti.draw_timing=end_of_turn`).
    pub draw_owed: bool,
    /// Cards left in the draw pile.
    pub draw_pile: u8,
    /// Cards out of the round (cleared cards and discarded 3s; all were seen).
    pub out_of_round: Ranks,
    /// Public facts per seat (entries beyond `players` are unused).
    pub seats: [SeatInfo; MAX_SEATS],
    /// The rules in force.
    pub rules: Rules,
}

impl View {
    /// His legal actions, in the order `cardsim legal lopti` prints them (empty during setup).
    pub fn legal_actions(&self) -> Actions {
        if self.setup {
            return Actions::new();
        }
        let d = Decision { hand: self.hand, face_down: self.face_down, pile: &self.pile, obligated: self.obligated, bonus: self.bonus };
        legal_actions(&d, &self.rules)
    }
}
