//! A running Lopti game allocates nothing, and its state is small and `Copy`.

use cardsim::bot::BotSpec;
use cardsim::games::lopti::config::FLAGS;
use cardsim::games::lopti::state::State;
use cardsim::games::lopti::LOPTI;
use cardsim::games::GameEntry;
use cardsim::settings::Settings;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting allocations per thread (tests run in parallel).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn games_allocate_nothing_while_they_run() {
    let bots: Vec<BotSpec> = ["lowest", "burner", "random", "mcts"].iter().map(|b| BotSpec::parse(b).unwrap()).collect();
    let settings = Settings::parse(&FLAGS, &["lopti.mcts_iterations=20".to_string()]).unwrap();
    let game = LOPTI.build(&bots, &settings).unwrap();
    let game = game.as_match_game();
    let before = ALLOCATIONS.with(Cell::get);
    let mut turns = 0;
    for deal in 0..20u64 {
        turns += game.play(&[0, 1, 2, 3], deal, deal + 1).metrics[0];
    }
    let after = ALLOCATIONS.with(Cell::get);
    assert!(turns > 100);
    assert_eq!(after - before, 0, "heap allocations during {turns} turns of play");
}

#[test]
fn the_state_is_small() {
    let size = std::mem::size_of::<State>();
    assert!(size <= 320, "State is {size} bytes");
}
