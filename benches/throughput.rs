//! Throughput benchmark: matches per second per thread for every game with its default
//! bots, on one thread and on all cores, plus the size of the hot state.
//! Run with `cargo bench` (or `cargo bench -- GAME` for one game).

use cardsim::bot::BotSpec;
use cardsim::games::registry;
use cardsim::runner::{run, RunConfig};
use cardsim::settings::Settings;
use std::time::Instant;

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    println!(
        "state sizes: spit {} bytes, speed {} bytes, lopti {} bytes",
        std::mem::size_of::<cardsim::games::spit::state::SpitState>(),
        std::mem::size_of::<cardsim::games::speed::state::SpeedState>(),
        std::mem::size_of::<cardsim::games::lopti::state::State>()
    );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for entry in registry() {
        if filter.as_deref().is_some_and(|f| f != entry.name()) {
            continue;
        }
        let specs: Vec<BotSpec> = entry.default_bots().iter().map(|s| BotSpec::parse(s).unwrap()).collect();
        let game = entry.build(&specs, &Settings::parse(entry.flags(), &[]).unwrap()).unwrap();
        for threads in [1, cores] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let games = 20_000 * threads as u64;
            let cfg = RunConfig::distinct(games, 1, specs.len());
            let start = Instant::now();
            let stats = pool.install(|| run(game.as_match_game(), &cfg));
            let secs = start.elapsed().as_secs_f64();
            let n = stats.total_games() as f64;
            println!(
                "{:<6} {:<40} threads {threads}: {:>9.0} matches/s total, {:>9.0} matches/s per thread",
                entry.name(),
                entry.default_bots().join(" vs "),
                n / secs,
                n / secs / threads as f64
            );
        }
    }
}
