//! Long statistical checks, run by hand: `cargo test --release -- --ignored`.
//! (Each takes tens of seconds to minutes on two cores.)

use cardsim::bot::BotSpec;
use cardsim::games::find;
use cardsim::runner::{run, MatchupStats, RunConfig};
use cardsim::settings::Settings;
use cardsim::stats::{wilson_interval, Z_95};

fn play(game: &str, bots: &[&str], games: u64, seed: u64) -> MatchupStats {
    let entry = find(game).unwrap();
    let specs: Vec<BotSpec> = bots.iter().map(|b| BotSpec::parse(b).unwrap()).collect();
    let g = entry.build(&specs, &Settings::parse(entry.flags(), &[]).unwrap()).unwrap();
    run(g.as_match_game(), &RunConfig::distinct(games, seed, 2))
}

fn rate(s: &MatchupStats, bot: usize) -> f64 {
    s.wins[bot].iter().sum::<u64>() as f64 / s.games[bot].iter().sum::<u64>() as f64
}

/// In a mirror match each seat's 95% interval contains 0.5.
fn assert_seats_balanced(game: &str, spec: &str) {
    let s = play(game, &[spec, spec], 100_000, 5);
    for seat in 0..2 {
        let wins = s.wins[0][seat] + s.wins[1][seat];
        let games = s.games[0][seat] + s.games[1][seat];
        let (lo, hi) = wilson_interval(wins, games, Z_95);
        assert!(lo <= 0.5 && 0.5 <= hi, "{game} {spec}: seat {seat} wins {wins}/{games}, interval [{lo:.4}, {hi:.4}]");
    }
}

#[test]
#[ignore]
fn spit_mirror_matches_are_balanced_by_seat() {
    assert_seats_balanced("spit", "greedy@skilled");
    assert_seats_balanced("spit", "smart@expert");
}

#[test]
#[ignore]
fn spit_machine_beats_novice_and_smart_beats_random() {
    let s = play("spit", &["greedy@machine", "greedy@novice"], 20_000, 6);
    assert!(rate(&s, 0) > 0.9, "greedy@machine won {:.3}", rate(&s, 0));
    for preset in ["novice", "casual", "skilled", "expert", "machine"] {
        let s = play("spit", &[&format!("smart@{preset}"), &format!("random@{preset}")], 20_000, 7);
        assert!(rate(&s, 0) > 0.5, "smart@{preset} won only {:.3} against random", rate(&s, 0));
    }
}

#[test]
#[ignore]
fn speed_mirror_matches_are_balanced_and_faster_presets_win() {
    assert_seats_balanced("speed", "greedy@skilled");
    assert_seats_balanced("speed", "smart@skilled");
    let s = play("speed", &["greedy@expert", "greedy@casual"], 20_000, 8);
    assert!(rate(&s, 0) > 0.8, "greedy@expert won only {:.3} against greedy@casual", rate(&s, 0));
    let s = play("speed", &["smart@skilled", "greedy@skilled"], 200_000, 9);
    let (lo, _) = wilson_interval(s.wins[0].iter().sum(), s.games[0].iter().sum(), Z_95);
    assert!(lo > 0.5, "smart@skilled does not beat greedy@skilled: interval starts at {lo:.4}");
}
