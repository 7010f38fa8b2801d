//! Common random numbers: every seating of a deal meets the same cards. Two seatings of
//! one deal swap the bots; the k-th card a seat turns up (Spit flips, Speed draws) must
//! be the same in both, however differently the bots play.

use cardsim::bot::BotSpec;
use cardsim::games::{self, TracedGame};
use cardsim::rng::MatchSeeds;
use cardsim::settings::Settings;
use cardsim::trace::VecSink;

fn build(game: &str, bots: &[&str]) -> Box<dyn TracedGame> {
    let entry = games::find(game).unwrap();
    let specs: Vec<BotSpec> = bots.iter().map(|b| BotSpec::parse(b).unwrap()).collect();
    entry.build(&specs, &Settings::parse(entry.flags(), &[]).unwrap()).unwrap()
}

/// The cards each seat turned up from its hidden cards in the first deal of a match, in
/// order: Spit's opening flip, flips and stall spits (Spit rounds end with `round_end`);
/// Speed's draws from the stock.
fn revealed(game: &dyn TracedGame, seat_bots: &[usize], seeds: &MatchSeeds, deal_start: &str, deal_end: &str) -> [Vec<String>; 2] {
    let mut sink = VecSink::default();
    game.trace(seat_bots, seeds, &mut sink);
    let mut out = [Vec::new(), Vec::new()];
    let mut deals = 0;
    for ev in &sink.0 {
        if ev.kind == deal_start {
            deals += 1;
        }
        if ev.kind == deal_end || deals > 1 {
            break;
        }
        let name = |v: &serde_json::Value| v.as_str().unwrap().to_string();
        match ev.kind {
            "opening" if deal_end == "round_end" => {
                for (seat, top) in ev.detail["pile_tops"].as_array().unwrap().iter().enumerate() {
                    out[seat].push(name(top));
                }
            }
            "flip" | "draw" if ev.seat.is_some() => out[ev.seat.unwrap()].push(name(&ev.detail["card"])),
            "spit" => {
                for laid in ev.detail["spits"].as_array().unwrap() {
                    out[laid["seat"].as_u64().unwrap() as usize].push(name(&laid["card"]));
                }
            }
            _ => {}
        }
    }
    out
}

fn assert_same_cards_in_both_seatings(game: &str, bots: [&str; 2], deal_start: &str, deal_end: &str) {
    let g = build(game, &bots);
    let mut compared = 0;
    for deal in 0..40u64 {
        let seeds = MatchSeeds::of_deal(cardsim::rng::deal_seed(9, deal));
        let a = revealed(&*g, &[0, 1], &seeds, deal_start, deal_end);
        let b = revealed(&*g, &[1, 0], &seeds, deal_start, deal_end);
        for seat in 0..2 {
            let n = a[seat].len().min(b[seat].len());
            assert_eq!(a[seat][..n], b[seat][..n], "{game} deal {deal} seat {seat}: the k-th card turned differs between seatings");
            compared += n;
        }
    }
    assert!(compared > 200, "{game}: only {compared} reveals compared");
}

#[test]
fn spit_seatings_of_a_deal_turn_the_same_cards() {
    assert_same_cards_in_both_seatings("spit", ["smart@expert", "random@novice"], "deal", "round_end");
}

#[test]
fn speed_seatings_of_a_deal_draw_the_same_cards() {
    assert_same_cards_in_both_seatings("speed", ["smart@expert", "random@novice"], "deal", "deal_end");
}
