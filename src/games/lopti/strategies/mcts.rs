//! `mcts`: determinized Monte Carlo search over the hidden cards.

use super::{lowest_choice, strong_face_up_swap, Params, Registered, Strategy};
use crate::games::lopti::events::NoObserver;
use crate::games::lopti::rules::{Action, Actions, MAX_ACTIONS};
use crate::games::lopti::round::{play_round, Dice};
use crate::games::lopti::state::{State, Swap};
use crate::games::lopti::view::View;
use crate::games::params::{ParamDef, ParamValues};
use crate::games::StrategyInfo;
use crate::rng::SimRng;
use crate::games::lopti::entry::MAX_SEATS;
use crate::runner::Ending;
use arrayvec::ArrayVec;
use rand::RngExt;

/// Turns a simulation may last before it is scored as a half win.
const ROLLOUT_TURNS: u32 = 400;
/// The parameters: the UCB1 exploration constant for rewards in [0, 1], and the chance
/// that a playout move is uniformly random rather than `lowest`'s (without it, two
/// `lowest` players can repeat the same cycle of plays and pick-ups forever).
const PARAMS: &[ParamDef] = &[
    ParamDef { name: "exploration", about: "UCB1 exploration constant (rewards in [0, 1])", default: 0.7, min: 0.0, max: 4.0, integer: false },
    ParamDef { name: "playout_noise", about: "chance that a playout move is random rather than lowest's", default: 0.1, min: 0.0, max: 1.0, integer: false },
];

/// The playout policy: `lowest`, with a random legal action now and then.
struct Playout {
    noise: f64,
}

impl Strategy for Playout {
    fn swap(&self, view: &View, _: &mut SimRng) -> Option<Swap> {
        strong_face_up_swap(view)
    }

    fn act(&self, _: &View, legal: &Actions, rng: &mut SimRng) -> Action {
        if rng.random_bool(self.noise) {
            legal[rng.random_range(0..legal.len())]
        } else {
            lowest_choice(legal)
        }
    }
}

/// For each decision with several options, runs `iterations` simulations. Each deals
/// the cards it cannot see at random, consistently with everything public (hand sizes,
/// cards seen going into hands, face-up cards, the pile, cleared cards), applies one
/// candidate chosen by UCB1, and plays the round out with every seat playing `lowest`
/// with 10% random moves.
/// It scores 1 when it goes out first (a playout stopped after 400 turns scores 1/2). The
/// most simulated candidate is chosen, the earliest in legal order on a tie. The setup
/// swap is chosen the same way among no swap and the distinct swaps.
pub struct Mcts {
    iterations: u32,
    exploration: f64,
    playout: Playout,
}

/// Registry entry.
pub const ENTRY: Registered = Registered {
    info: StrategyInfo {
        name: "mcts",
        about: "determinized Monte Carlo search, UCB1 over its options, noisy `lowest` playouts (budget: lopti.mcts_iterations)",
        params: PARAMS,
    },
    build: |p: &Params, v: &ParamValues| Box::new(Mcts { iterations: p.mcts_iterations, exploration: v.get(0), playout: Playout { noise: v.get(1) } }),
};

impl Mcts {
    /// A search with `iterations` simulations per decision and the default parameters.
    pub fn new(iterations: u32) -> Mcts {
        let v = ParamValues::defaults(PARAMS);
        Mcts { iterations, exploration: v.get(0), playout: Playout { noise: v.get(1) } }
    }

    /// The index of the best of `k` candidates; `apply(state, j)` makes candidate `j` in a
    /// determinized state. Every random number (the determinizations, their hidden draws,
    /// the playouts' noise) comes from `rng`, the bot's own dice.
    fn search(&self, view: &View, k: usize, apply: impl Fn(&mut State, usize), rng: &mut SimRng) -> usize {
        let mut visits = [0u32; MAX_ACTIONS];
        let mut wins = [0f64; MAX_ACTIONS];
        let playouts = [&self.playout as &dyn Strategy; MAX_SEATS];
        for i in 0..self.iterations {
            let pick = if (i as usize) < k {
                i as usize
            } else {
                let log_n = crate::fpmath::ln(i as f64);
                (0..k)
                    .max_by(|&a, &b| {
                        let ucb = |j: usize| wins[j] / visits[j] as f64 + self.exploration * (log_n / visits[j] as f64).sqrt();
                        ucb(a).total_cmp(&ucb(b))
                    })
                    .expect("at least one candidate")
            };
            let mut sim = State::determinize(view, rng);
            sim.rules.play_for_rankings = false;
            sim.rules.max_turns = ROLLOUT_TURNS;
            apply(&mut sim, pick);
            // A playout strategy's illegal choice stops the playout, capped (scored below
            // as a draw); the playouts are built in and offered only legal actions.
            let _ = play_round(&mut sim, &playouts, Dice::Shared(rng), &mut NoObserver);
            visits[pick] += 1;
            wins[pick] += match sim.ending() {
                Ending::Finished => (sim.winner == Some(view.seat())) as u8 as f64,
                Ending::Capped | Ending::Cycled => 0.5,
            };
        }
        // The most simulated candidate; ties go to the earliest (plays before the pick-up,
        // so a search that sees no difference never stalls the game by taking the pile).
        (0..k).min_by_key(|&j| (std::cmp::Reverse(visits[j]), j)).expect("at least one candidate")
    }
}

impl Strategy for Mcts {
    fn swap(&self, view: &View, rng: &mut SimRng) -> Option<Swap> {
        // No swap, and each distinct (hand rank, face-up rank) pair: a special rule can give a
        // hand more than three cards before the swaps (up to 13 ranks x 3 face-up cards).
        let mut options: ArrayVec<Option<Swap>, { 1 + 13 * 3 }> = ArrayVec::new();
        options.push(None);
        for hand in view.hand().ranks() {
            for face_up in view.face_up().ranks().filter(|&f| f != hand) {
                options.push(Some(Swap { hand, face_up }));
            }
        }
        let best = self.search(view, options.len(), |s, j| s.apply_swap(view.seat(), options[j], &mut NoObserver), rng);
        options[best]
    }

    fn act(&self, view: &View, legal: &Actions, rng: &mut SimRng) -> Action {
        legal[self.search(view, legal.len(), |s, j| s.apply(legal[j], &mut NoObserver), rng)]
    }
}
