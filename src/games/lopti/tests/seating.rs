//! Common random numbers: every seating of a deal sees the same cards (the deal, the
//! draw pile in order, each seat's face-down cards), whoever sits where and whatever
//! the bots' dice do.

use crate::games::lopti::config::Rules;
use crate::games::lopti::events::{Event, Observer};
use crate::games::lopti::ranks::{Rank, Ranks};
use crate::games::lopti::round::{play_round, Dice};
use crate::games::lopti::state::State;
use crate::games::lopti::strategies::{Burner, Lowest, Random, Strategy};
use crate::rng::{MatchSeeds, SimRng};
use crate::games::lopti::entry::MAX_SEATS;

/// The chance a game met: the deal per seat, the cards drawn from the draw pile in
/// order, and each seat's face-down cards in the order revealed.
#[derive(Default, Debug)]
struct Chance {
    dealt: Vec<(Ranks, Ranks, Ranks)>,
    drawn: Vec<Rank>,
    revealed: [Vec<Rank>; MAX_SEATS],
}

impl Observer for Chance {
    fn event(&mut self, _: &State, ev: Event) {
        match ev {
            Event::Deal { hand, face_up, face_down, .. } => self.dealt.push((hand, face_up, face_down)),
            Event::Draw { rank, .. } => self.drawn.push(rank),
            Event::Reveal { seat, rank, .. } => self.revealed[seat as usize].push(rank),
            _ => {}
        }
    }
}

/// Deal `deal` played by `bots` (seat order), each seat with its own player stream.
fn play(deal: u64, bots: &[&dyn Strategy]) -> Chance {
    let seeds = MatchSeeds::of_deal(deal);
    let mut chance = Chance::default();
    let mut s = State::deal(bots.len() as u8, 0, Rules::default(), &seeds, &mut chance);
    let mut dice: Vec<SimRng> = (0..bots.len()).map(|p| seeds.player_rng(p)).collect();
    play_round(&mut s, bots, Dice::Seats(&mut dice), &mut chance).expect("built-in bots choose legal actions");
    chance
}

/// One of `a`, `b` is a prefix of the other.
fn agree(a: &[Rank], b: &[Rank]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

#[test]
fn two_seatings_of_a_deal_draw_and_reveal_the_same_cards() {
    let (lowest, burner, random): (&dyn Strategy, &dyn Strategy, &dyn Strategy) = (&Lowest, &Burner, &Random);
    let (mut draws, mut reveals) = (0, 0);
    for deal in 0..300 {
        let a = play(deal, &[lowest, burner, random]);
        let b = play(deal, &[random, lowest, burner]);
        assert_eq!(a.dealt, b.dealt, "deal {deal}: the same cards dealt to each seat");
        assert!(agree(&a.drawn, &b.drawn), "deal {deal}: the k-th card drawn is the same: {:?} vs {:?}", a.drawn, b.drawn);
        for seat in 0..3 {
            let (x, y) = (&a.revealed[seat], &b.revealed[seat]);
            assert!(agree(x, y), "deal {deal}: seat {seat} reveals the same face-down cards in order: {x:?} vs {y:?}");
            reveals += x.len().min(y.len());
        }
        draws += a.drawn.len().min(b.drawn.len());
    }
    // Both seatings go far enough for the comparison to mean something.
    assert!(draws > 3_000 && reveals > 300, "{draws} draws and {reveals} reveals compared");
}

#[test]
fn the_hidden_cards_do_not_depend_on_the_bots_dice() {
    // Two `random` bots with different dice play different games on the same cards.
    let random: &dyn Strategy = &Random;
    let mut differ = 0;
    for deal in 0..100 {
        let seeds = MatchSeeds::of_deal(deal);
        let twins = MatchSeeds::new(deal, &[1, 1]);
        let run = |seeds: &MatchSeeds| {
            let mut chance = Chance::default();
            let mut s = State::deal(2, 0, Rules::default(), seeds, &mut chance);
            let mut dice: Vec<SimRng> = (0..2).map(|p| seeds.player_rng(p)).collect();
            play_round(&mut s, &[random, random], Dice::Seats(&mut dice), &mut chance).expect("built-in bots choose legal actions");
            (chance, s.counters)
        };
        let ((a, ca), (b, cb)) = (run(&seeds), run(&twins));
        differ += (ca != cb) as u32;
        assert_eq!(a.dealt, b.dealt);
        assert!(agree(&a.drawn, &b.drawn), "deal {deal}");
        assert!((0..2).all(|p| agree(&a.revealed[p], &b.revealed[p])), "deal {deal}");
    }
    assert!(differ > 50, "other dice, other games ({differ} of 100 differ)");
}
