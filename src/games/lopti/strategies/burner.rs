//! `burner`: clears the pile whenever it can.

use super::{lowest_choice, strong_face_up_swap, Registered, Strategy};
use crate::games::lopti::rules::{Action, Actions, ClearCause, Clears, Plays};
use crate::games::lopti::state::Swap;
use crate::games::lopti::view::View;
use crate::games::StrategyInfo;
use crate::rng::SimRng;

/// Makes a clearing play whenever one is legal, preferring to complete four of a kind,
/// then a run of four 3s, then a 10 (keeping 10s for when nothing else clears), each
/// with as few cards as possible; otherwise plays like `lowest`.
pub struct Burner;

/// Registry entry.
pub const ENTRY: Registered = Registered {
    info: StrategyInfo { name: "burner", about: "clears whenever it can (four of a kind, then four 3s, then a 10), otherwise like lowest", params: &[] },
    build: |_, _| Box::new(Burner),
};

impl Strategy for Burner {
    fn swap(&self, view: &View, _: &mut SimRng) -> Option<Swap> {
        strong_face_up_swap(view)
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn act(&self, view: &View, legal: &Actions, _: &mut SimRng) -> Action {
        let clears = Clears::on(view.pile(), view.run3());
        let three_run_counts = !view.pile().is_empty() || view.rules().empty_clear_bonus;
        let plays = legal.plays();
        let clearing = |c| if c != ClearCause::ThreeRun || three_run_counts { plays.and(clears.by(c)) } else { Plays::NONE };
        // The first cause with a legal clearing play, then its fewest cards (most
        // decisions have none: three tests, then play like `lowest`).
        [ClearCause::FourOfAKind, ClearCause::ThreeRun, ClearCause::Ten]
            .map(clearing)
            .into_iter()
            .find(|p| !p.is_empty())
            .and_then(Plays::fewest)
            .map_or_else(|| lowest_choice(legal), |(rank, count)| Action::Play { rank, count })
    }
}
