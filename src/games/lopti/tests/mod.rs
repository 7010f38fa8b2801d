//! Rule tests: a harness that builds positions by hand and plays actions in them, with
//! the invariant checker watching every step.

mod engine;
mod examples;
mod flags;
mod random_games;
mod seating;

use super::config::Rules;
use super::events::{Event, Observer};
use super::invariants::InvariantChecker;
use super::pile::Pile;
use super::ranks::{ranks_from, Ranks};
use super::rules::Action;
use super::state::{Phase, State, TurnState};
use crate::rng::MatchSeeds;

/// Records events and checks invariants.
pub(super) struct Recorder {
    pub log: Vec<Event>,
    pub inv: InvariantChecker,
}

impl Observer for Recorder {
    fn event(&mut self, s: &State, ev: Event) {
        self.log.push(ev);
        self.inv.event(s, ev);
    }
    fn resolved(&mut self, s: &State) {
        self.inv.resolved(s);
    }
}

/// A hand-built position being played.
pub(super) struct Table {
    pub st: State,
    pub rec: Recorder,
}

/// A pile from §18 notation without brackets: plays separated by `|`, e.g. `"9|Q Q"`.
pub(super) fn pile(text: &str) -> Pile {
    let mut p = Pile::default();
    for play in text.split('|').filter(|s| !s.trim().is_empty()) {
        let cards = ranks_from(play).unwrap();
        p.push(cards.ranks().next().unwrap(), cards.len() as u8);
    }
    p
}

fn r(text: &str) -> Ranks {
    ranks_from(text).unwrap()
}

/// Builds a position: every zone starts empty; cards not placed anywhere are out of the
/// round, so the 52 cards are conserved.
pub(super) struct Build {
    st: State,
}

/// A table of `n` players, A = seat 0 on turn, default rules.
pub(super) fn table(n: u8) -> Build {
    let mut st = State::deal(n, 0, Rules::default(), &MatchSeeds::of_deal(1), &mut super::events::NoObserver);
    st.players = Default::default();
    st.draw = Ranks::EMPTY;
    Build { st }
}

impl Build {
    pub fn hand(mut self, seat: u8, cards: &str) -> Self {
        self.st.players[seat as usize].hand = r(cards);
        self
    }
    pub fn up(mut self, seat: u8, cards: &str) -> Self {
        self.st.players[seat as usize].face_up = r(cards);
        self
    }
    pub fn down(mut self, seat: u8, cards: &str) -> Self {
        self.st.players[seat as usize].face_down = r(cards);
        self
    }
    pub fn pile(mut self, text: &str) -> Self {
        self.st.pile = pile(text);
        self
    }
    pub fn run3(mut self, k: u8) -> Self {
        self.st.run3 = k;
        self
    }
    pub fn obliged(mut self, seat: u8) -> Self {
        self.st.obligation = Some(seat);
        self
    }
    pub fn draw(mut self, cards: &str) -> Self {
        self.st.draw = r(cards);
        self
    }
    pub fn turn(mut self, seat: u8) -> Self {
        self.st.current = seat;
        self
    }
    pub fn picked_up(mut self, seat: u8) -> Self {
        self.st.picked_mask |= 1 << seat;
        self
    }
    pub fn rules(mut self, f: impl FnOnce(&mut Rules)) -> Self {
        f(&mut self.st.rules);
        self
    }
    pub fn start(self) -> Table {
        let mut st = self.st;
        let mut out = Ranks::DECK;
        out.remove_all(st.draw);
        out.remove_all(st.pile.cards());
        for (s, p) in st.players[..st.n as usize].iter().enumerate() {
            out.remove_all(p.hand);
            out.remove_all(p.face_up);
            out.remove_all(p.face_down);
            if p.hand.len() > 3 {
                st.picked_mask |= 1 << s;
            }
            if p.cards() == 0 {
                st.out_mask |= 1 << s;
            }
        }
        st.out = out;
        st.phase = Phase::Play;
        st.turn = TurnState { first: true, bonus: false, draw_owed: false };
        st.counters.turns = 1;
        super::invariants::check_state(&st).expect("the hand-built position is consistent");
        let inv = InvariantChecker::starting_from(&st);
        Table { st, rec: Recorder { log: Vec::new(), inv } }
    }
}

impl Table {
    /// The legal action lines of the player on turn.
    pub fn legal(&self) -> Vec<String> {
        self.st.view(self.st.current).legal_actions().iter().map(|a| a.to_string()).collect()
    }
    /// Plays a legal action given as a line, e.g. `play 9 x2`.
    pub fn act(&mut self, line: &str) -> &mut Self {
        let a = Action::parse(line).unwrap_or_else(|| panic!("bad action line {line}"));
        let legal = self.legal();
        assert!(legal.contains(&line.to_string()), "{line} is not legal for P{}: {legal:?}", self.st.current);
        self.st.apply(a, &mut self.rec);
        assert_eq!(self.rec.inv.error, None, "an invariant broke after {line}");
        self
    }
    /// A copy of the game, to explore another branch.
    pub fn clone_of(t: &Table) -> Table {
        Table { st: t.st, rec: Recorder { log: Vec::new(), inv: InvariantChecker::starting_from(&t.st) } }
    }
    /// The events so far, emptied.
    pub fn events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.rec.log)
    }
    pub fn hand(&self, seat: u8) -> Ranks {
        self.st.players[seat as usize].hand
    }
}

/// True if `events` contains a draw.
pub(super) fn drew(events: &[Event]) -> bool {
    events.iter().any(|e| matches!(e, Event::Draw { .. }))
}

/// The seat whose turn started last in `events`.
pub(super) fn turn_started(events: &[Event]) -> Option<u8> {
    events.iter().rev().find_map(|e| match e {
        Event::TurnStart { seat, .. } => Some(*seat),
        _ => None,
    })
}

/// Ranks from text (shorthand for assertions).
pub(super) fn cards(text: &str) -> Ranks {
    r(text)
}
