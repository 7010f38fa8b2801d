//! What one player may see (LOPTI-STATE-1): his own hand and face-up cards, the count of
//! his face-down cards, the public table, and for every seat the public facts. Bots see
//! only this, so they cannot cheat.
//!
//! A [`View`] borrows the state and reads each fact when it is asked for: nothing is
//! built for a decision that does not look at it.

use super::config::Rules;
use super::pile::Pile;
use super::ranks::Ranks;
use super::rules::{legal_actions, Actions, Decision};
use super::state::{Phase, State};

/// The public facts about one seat ([`View::seat_info`]).
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

/// The view of one player: a borrowed state read through methods that show only what
/// he may see.
///
/// ```
/// use cardsim::games::lopti::config::Rules;
/// use cardsim::games::lopti::events::NoObserver;
/// use cardsim::games::lopti::state::State;
/// use cardsim::rng::MatchSeeds;
///
/// let state = State::deal(3, 0, Rules::default(), &MatchSeeds::of_deal(7), &mut NoObserver);
/// let view = state.view(1);
/// assert!(view.setup() && view.seat() == 1 && view.players() == 3);
/// assert_eq!((view.hand().len(), view.face_up().len(), view.face_down()), (3, 3, 3));
/// assert_eq!(view.seat_info(2).hand, 3, "another seat's hand size is public");
/// assert_eq!(view.draw_pile(), 52 - 27);
/// assert!(view.legal_actions().is_empty(), "setup asks for a swap, not an action");
/// ```
#[derive(Clone, Copy)]
pub struct View<'a> {
    state: &'a State,
    seat: u8,
}

impl<'a> View<'a> {
    /// The view of seat `seat` (below the state's player count) of `state`.
    pub fn new(state: &'a State, seat: u8) -> Self {
        debug_assert!(seat < state.n, "seat {seat} of {} players", state.n);
        View { state, seat }
    }
    /// His seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }
    /// Players at the table.
    pub fn players(&self) -> u8 {
        self.state.n
    }
    /// The seat on turn (the starter during setup).
    pub fn current(&self) -> u8 {
        self.state.current
    }
    /// Setup is under way: the only decision is the swap (LOPTI-SETUP-4).
    pub fn setup(&self) -> bool {
        self.state.phase == Phase::Setup
    }
    /// Seats whose setup swap is already applied (bit per seat).
    pub fn swapped(&self) -> u8 {
        self.state.swapped
    }
    /// His hand.
    pub fn hand(&self) -> Ranks {
        self.state.players[self.seat as usize].hand
    }
    /// His face-up cards.
    pub fn face_up(&self) -> Ranks {
        self.state.players[self.seat as usize].face_up
    }
    /// His face-down cards left (their ranks are hidden even from him).
    pub fn face_down(&self) -> u8 {
        self.state.players[self.seat as usize].face_down.len() as u8
    }
    /// The play pile.
    pub fn pile(&self) -> &'a Pile {
        &self.state.pile
    }
    /// Discarded 3s beside the pile (LOPTI-3-2).
    pub fn run3(&self) -> u8 {
        self.state.run3
    }
    /// He must answer a 3 obligation (LOPTI-3-3).
    pub fn obligated(&self) -> bool {
        self.state.obligation == Some(self.seat)
    }
    /// This decision is a bonus play (LOPTI-BONUS-1).
    pub fn bonus(&self) -> bool {
        self.on_turn() && self.state.turn.bonus
    }
    /// His draw for this turn is still to come at the end of the turn
    /// (`lopti.draw_timing=end_of_turn`).
    pub fn draw_owed(&self) -> bool {
        self.on_turn() && self.state.turn.draw_owed
    }
    /// Cards left in the draw pile.
    pub fn draw_pile(&self) -> u8 {
        self.state.draw.len() as u8
    }
    /// Cards out of the round (cleared cards and discarded 3s; all were seen).
    pub fn out_of_round(&self) -> Ranks {
        self.state.out
    }
    /// The public facts about seat `seat` (below [`View::players`]), his own included.
    pub fn seat_info(&self, seat: u8) -> SeatInfo {
        debug_assert!(seat < self.state.n, "seat {seat} of {} players", self.state.n);
        let p = &self.state.players[seat as usize];
        SeatInfo {
            hand: p.hand.len() as u8,
            known: p.known,
            face_up: p.face_up,
            face_down: p.face_down.len() as u8,
            out: self.state.is_out(seat),
            picked_up: self.state.picked_mask & (1 << seat) != 0,
        }
    }
    /// The rules in force.
    pub fn rules(&self) -> &'a Rules {
        &self.state.rules
    }
    /// His legal actions, in the order `cardsim legal lopti` prints them (empty during setup).
    #[inline]
    pub fn legal_actions(&self) -> Actions {
        if self.setup() {
            return Actions::new();
        }
        let d = Decision { hand: self.hand(), face_down: self.face_down(), pile: self.pile(), obligated: self.obligated(), bonus: self.bonus() };
        legal_actions(&d, self.rules())
    }

    /// True if it is his turn to act.
    fn on_turn(&self) -> bool {
        self.state.phase == Phase::Play && self.state.current == self.seat
    }
}
