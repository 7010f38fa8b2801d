//! No heap allocation happens while a match runs (design notes section 4): a counting
//! global allocator watches `MatchGame::play` for every real-time game.

use cardsim::bot::BotSpec;
use cardsim::games::registry;
use cardsim::settings::Settings;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn matches_do_not_allocate() {
    for entry in registry() {
        let (lo, _) = entry.players();
        let names: Vec<String> = entry.strategies().iter().map(|s| s.name.to_string()).collect();
        let specs: Vec<BotSpec> = (0..lo).map(|i| BotSpec::parse(&names[i % names.len()]).unwrap()).collect();
        let game = entry.build(&specs, &Settings::parse(entry.flags(), &[]).unwrap()).unwrap();
        let seats: Vec<usize> = (0..lo).collect();
        game.play(&seats, 1, 2); // warm-up (lazy statics)
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        for i in 0..50 {
            game.play(&seats, i, i + 100);
        }
        let after = ALLOCATIONS.load(Ordering::Relaxed);
        assert_eq!(after - before, 0, "{}: {} allocations in 50 matches", entry.name(), after - before);
    }
}
