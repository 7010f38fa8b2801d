//! Bring your own strategy: a tutorial on cardsim's library API (`cardsim::api`).
//!
//! Run it with `cargo run --example custom_strategy`. It adds one Lopti and one Spit
//! strategy written here, seats each next to built-in bots and prints the summary that
//! `cardsim match` would print: games, wins, win rates with their intervals, paired
//! scores. Nothing in cardsim is edited: a strategy is a type implementing the game's
//! `Strategy` trait, handed to a `Match` as a `Custom`.
//!
//! The two strategies below are written from the rules of the built-in `lowest` (Lopti)
//! and `greedy` (Spit) strategies, so they play exactly as those do: the test
//! `tests/api.rs` checks that they give the same figures, which shows the view, the
//! legal actions and the dice reach a custom strategy exactly as they reach a built-in
//! one.

use cardsim::api::{lopti, spit, Custom, Match, SimRng, Summary};

// ---------------------------------------------------------------- Lopti ----------
//
// A Lopti strategy answers two questions from its player's view: which swap to make
// at setup (or none), and which of the legal actions to take on its turn. The round
// loop asks only when there is a real choice, checks the answer against the legal
// list, and stops the match (reported as a strategy bug) if it was not offered.

/// Plays its lowest ordinary rank (every copy it may play), keeps the special ranks
/// (2, 3, 7, 10) for when nothing else is legal, and takes the pile only when forced.
pub struct MyLowest;

/// How useful a card is late in the round: the specials above the ace, 10 and 2 best.
fn late_value(rank: lopti::Rank) -> u8 {
    match rank {
        lopti::TEN => 16,
        lopti::TWO => 15,
        lopti::SEVEN => 14,
        lopti::THREE => 13,
        ordinary => ordinary,
    }
}

impl lopti::Strategy for MyLowest {
    /// At setup: put the most useful hand card face-up in exchange for the least useful
    /// face-up card, when that is an improvement.
    fn swap(&self, view: &lopti::View, _rng: &mut SimRng) -> Option<lopti::Swap> {
        let give = view.hand().ranks().max_by_key(|&r| late_value(r))?;
        let take = view.face_up().ranks().min_by_key(|&r| late_value(r))?;
        (late_value(give) > late_value(take)).then_some(lopti::Swap { hand: give, face_up: take })
    }

    /// On turn: `legal` lists the plays lowest rank first (fewest cards first within a
    /// rank), then a blind play, a pick-up or a pass where legal.
    fn act(&self, _view: &lopti::View, legal: &lopti::Actions, _rng: &mut SimRng) -> lopti::Action {
        let plays = || {
            legal.iter().filter_map(|a| match *a {
                lopti::Action::Play { rank, count } => Some((rank, count)),
                _ => None,
            })
        };
        // The lowest ordinary rank, as many cards of it as legal.
        if let Some((rank, _)) = plays().find(|&(r, _)| !lopti::is_special(r)) {
            let count = plays().filter(|&(r, _)| r == rank).map(|(_, c)| c).max().expect("a play of that rank");
            return lopti::Action::Play { rank, count };
        }
        // Else the cheapest special, as few cards as legal.
        for special in [lopti::TWO, lopti::SEVEN, lopti::THREE, lopti::TEN] {
            if let Some((rank, count)) = plays().find(|&(r, _)| r == special) {
                return lopti::Action::Play { rank, count };
            }
        }
        // Else a face-down card, else the pile.
        [lopti::Action::Blind, lopti::Action::Pickup].into_iter().find(|a| legal.contains(a)).unwrap_or(legal[0])
    }

    /// It never rolls a die: a game among such bots that repeats a position is stopped
    /// as `cycled` (it would go on forever).
    fn deterministic(&self) -> bool {
        true
    }
}

// ---------------------------------------------------------------- Spit -----------
//
// Spit is played in virtual real time: the engine asks a player for a move whenever
// it is free, and the player's reaction model (its preset) decides how long the move
// takes. A strategy picks one of the legal actions or stays idle (`None`); the slap
// and the spit-pile choices have defaults (the smaller pile).

/// The first legal play, else the first flip, else the first fill that exposes a
/// face-down card; idle when only aimless fills are left.
pub struct MyGreedy;

impl spit::Strategy for MyGreedy {
    fn choose(&self, view: &spit::View, legal: &[spit::Action], _rng: &mut SimRng) -> Option<spit::Action> {
        // Legal actions come as plays, then flips, then fills, each in slot order.
        legal.iter().copied().find(|a| match *a {
            spit::Action::Fill { from, .. } => view.face_down(true, from as usize) > 0,
            _ => true,
        })
    }
}

// ---------------------------------------------------------------- Running --------

/// The two matches of this tutorial with `games` matches each: `MyLowest` against
/// Lopti's `burner` and `random`, `MyGreedy` against Spit's `smart`.
pub fn summaries(games: u64) -> Result<[Summary; 2], String> {
    // Built-in bots are named as on the command line; a custom one gets a label.
    let lopti = Match::new("lopti").custom("my-lowest", Custom::lopti(|| MyLowest)).bot("burner").bot("random").games(games).seed(7).run()?;
    // A real-time bot's label may carry a reaction preset, as `--bot` does.
    let spit = Match::new("spit").custom("my-greedy@skilled", Custom::spit(|| MyGreedy)).bot("smart@skilled").games(games).seed(7).run()?;
    Ok([lopti, spit])
}

/// Prints the pooled row of every bot: games, wins, win rate and its 95% interval.
pub fn print(summary: &Summary) {
    let cols = ["bot", "games", "wins", "draws", "win_rate", "win_ci_low", "win_ci_high"];
    println!("{}", cols.join("\t"));
    for row in summary.rows() {
        let cell = |c: &str| row.header.iter().position(|h| h == c).map_or("", |i| row.values[i].as_str());
        if cell("seat") == "all" && cell("after").is_empty() {
            println!("{}", cols.map(cell).join("\t"));
        }
    }
}

/// Plays both matches (2,000 games each) and prints their summaries.
pub fn main() {
    match summaries(2_000) {
        Ok(all) => {
            for s in &all {
                print(s);
                println!();
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
