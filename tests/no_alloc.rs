//! No heap allocation happens while a match runs (design notes section 4): a counting
//! global allocator watches `MatchGame::play` for every game and every strategy; and
//! the game states are small `Copy` values.

use cardsim::bot::BotSpec;
use cardsim::games::registry;
use cardsim::settings::Settings;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// True while the thread's allocations are counted.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    /// Allocations the thread made while counting. Per thread: the tests of this file run
    /// on parallel threads, and one thread's allocations must not reach another's count
    /// (the first test allocates on purpose to check that the counter works).
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.try_with(|c| c.get()).unwrap_or(false) {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// The heap allocations this thread makes while `f` runs.
fn allocations_in(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(|n| n.get());
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.with(|n| n.get()) - before
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn matches_do_not_allocate() {
    // The counter sees an allocation on this thread.
    assert!(allocations_in(|| drop(std::hint::black_box(vec![0u8; 16]))) > 0, "the counting allocator is not in use");

    for entry in registry() {
        // Every strategy of the game plays, at as many seats as the game allows (more
        // tables when it has more strategies than seats).
        let names: Vec<String> = entry.strategies().iter().map(|s| s.name.to_string()).collect();
        let (lo, hi) = entry.players();
        let seats = names.len().clamp(lo, hi);
        for first in (0..names.len()).step_by(seats) {
            let table: Vec<&String> = (0..seats).map(|i| &names[(first + i) % names.len()]).collect();
            let specs: Vec<BotSpec> = table.iter().map(|name| BotSpec::parse(name).unwrap()).collect();
            let game = entry.build(&specs, &Settings::parse(entry.flags(), &[]).unwrap()).unwrap();
            let seat_bots: Vec<usize> = (0..seats).collect();
            game.play(&seat_bots, &cardsim::rng::MatchSeeds::of_deal(1)); // warm-up (lazy statics)
            let n = allocations_in(|| {
                for i in 0..5 {
                    game.play(&seat_bots, &cardsim::rng::MatchSeeds::of_deal(i));
                }
            });
            assert_eq!(n, 0, "{}: {n} allocations in 5 matches of {table:?}", entry.name());
        }
    }
}

/// Recording finished matches into the run's statistics (wins, seat and neighbour
/// tables, deal scores, rates and the length histograms) allocates nothing either, once
/// a chunk's statistics have reserved room for its matches as the runner does.
#[test]
fn recording_matches_in_the_statistics_does_not_allocate() {
    use cardsim::runner::{play_deal, MatchupStats, RunConfig};
    for entry in registry() {
        let defaults = entry.default_bots();
        let seats = defaults.len().max(entry.players().0);
        let specs: Vec<BotSpec> = (0..seats).map(|i| BotSpec::parse(defaults[i % defaults.len()]).unwrap()).collect();
        let game = entry.build(&specs, &Settings::parse(entry.flags(), &[]).unwrap()).unwrap();
        let game = game.as_match_game();
        let cfg = RunConfig::distinct(1000, 3, seats);
        let seatings = cfg.seatings(seats);
        let mut stats = MatchupStats::for_game(game, seatings);
        stats.reserve(4 * seatings);
        play_deal(game, &cfg, 0, &mut stats); // warm-up (lazy statics)
        let n = allocations_in(|| {
            for deal in 1..4 {
                play_deal(game, &cfg, deal, &mut stats);
            }
        });
        assert_eq!(n, 0, "{}: {n} allocations recording 3 deals", entry.name());
        assert_eq!(stats.deals(), 4, "{}", entry.name());
        assert!(stats.metrics.iter().all(|h| h.count() + stats.capped + stats.cycled == 4 * seatings), "{}: every match is in the histograms", entry.name());
    }
}

#[test]
fn game_states_are_small_and_copy() {
    fn copy_size<T: Copy>() -> usize {
        std::mem::size_of::<T>()
    }
    assert!(copy_size::<cardsim::games::spit::state::SpitState>() <= 128, "Spit state");
    assert!(copy_size::<cardsim::games::speed::state::SpeedState>() <= 128, "Speed state");
    assert!(copy_size::<cardsim::games::lopti::state::State>() <= 320, "Lopti state");
}
