//! Lopti in the bot protocol (docs/bot-protocol.md section 5.4): the player's view, his
//! legal actions, setup swaps and gifts as JSON, and [`External`], the strategy that
//! asks an external bot.

use super::ranks::{rank_name, Rank};
use super::rules::{Action, Actions};
use super::state::Swap;
use super::strategies::{least_useful, strong_face_up_swap, Strategy};
use super::trace::pile_json;
use super::view::View;
use crate::external::{Answer, Decisions, ExternalBot};
use crate::rng::SimRng;
use serde_json::{json, Value};
use std::sync::Arc;

/// The decisions Lopti asks.
pub const DECISIONS: Decisions = Decisions { all: &["move", "swap", "give", "rule_swap"], optional: &["swap", "give", "rule_swap"] };

/// Never legal (no play has 0 cards): what a faulted bot "chooses", so that the round
/// loop's legality check stops the game.
const STOP: Action = Action::Play { rank: 0, count: 0 };

/// The view as the protocol writes it (field names as in `cardsim legal lopti` positions).
pub fn view_json(view: &View) -> Value {
    let n = view.players as usize;
    let table: Vec<Value> = view.seats[..n]
        .iter()
        .map(|s| json!({"hand": s.hand, "known": s.known.names(), "face_up": s.face_up.names(), "face_down": s.face_down, "out": s.out, "picked_up": s.picked_up}))
        .collect();
    json!({
        "seat": view.seat,
        "players": view.players,
        "current": view.current,
        "setup": view.setup,
        "swapped": (0..n).filter(|&s| view.swapped >> s & 1 == 1).collect::<Vec<_>>(),
        "hand": view.hand.names(),
        "face_up": view.face_up.names(),
        "face_down": view.face_down,
        "pile": pile_json(&view.pile),
        "run3": view.run3,
        "obligation": view.obligated,
        "bonus": view.bonus,
        "draw_owed": view.draw_owed,
        "draw_pile": view.draw_pile,
        "out_of_round": view.out_of_round.names(),
        "table": table,
    })
}

/// One legal action as the protocol writes it (without its index).
pub fn action_json(a: Action) -> Value {
    let text = a.to_string();
    match a {
        Action::Play { rank, count } => json!({"action": "play", "rank": rank_name(rank), "count": count, "text": text}),
        _ => json!({"action": text, "text": text}),
    }
}

/// The swap options of `view`: keep, then every distinct (hand rank, face-up rank) pair.
fn swaps(view: &View) -> Vec<Option<Swap>> {
    let pairs = view.hand.ranks().flat_map(|hand| view.face_up.ranks().map(move |face_up| Some(Swap { hand, face_up })));
    std::iter::once(None).chain(pairs).collect()
}

fn swap_json(s: Option<Swap>) -> Value {
    match s {
        None => json!({"action": "keep", "text": "keep"}),
        Some(w) => json!({"action": "swap", "hand": rank_name(w.hand), "face_up": rank_name(w.face_up), "text": w.to_string()}),
    }
}

/// A Lopti strategy played by an external bot.
pub struct External(pub Arc<ExternalBot>);

impl External {
    /// Asks a swap decision, or gives the built-in default.
    fn swap_decision(&self, decision: &'static str, view: &View) -> Option<Swap> {
        if !self.0.plays(decision) {
            return strong_face_up_swap(view);
        }
        let options = swaps(view);
        match self.0.ask(decision, view_json(view), options.iter().map(|&s| swap_json(s)).collect(), false) {
            Answer::Index(i) => options[i],
            Answer::Idle | Answer::Stop => None,
        }
    }
}

impl Strategy for External {
    fn swap(&self, view: &View, _: &mut SimRng) -> Option<Swap> {
        self.swap_decision("swap", view)
    }
    fn act(&self, view: &View, legal: &Actions, _: &mut SimRng) -> Action {
        let actions = legal.iter().map(|&a| action_json(a)).collect();
        match self.0.ask("move", view_json(view), actions, false) {
            Answer::Index(i) => legal[i],
            Answer::Idle | Answer::Stop => STOP,
        }
    }
    fn give(&self, view: &View, _: &mut SimRng) -> Rank {
        if !self.0.plays("give") {
            return least_useful(view.hand);
        }
        let ranks: Vec<Rank> = view.hand.ranks().collect();
        let options = ranks.iter().map(|&r| json!({"action": "give", "rank": rank_name(r), "text": format!("give {}", rank_name(r))})).collect();
        match self.0.ask("give", view_json(view), options, false) {
            Answer::Index(i) => ranks[i],
            Answer::Idle | Answer::Stop => least_useful(view.hand),
        }
    }
    fn rule_swap(&self, view: &View, _: &mut SimRng) -> Option<Swap> {
        self.swap_decision("rule_swap", view)
    }
}
