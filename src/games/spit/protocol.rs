//! Spit in the bot protocol (docs/bot-protocol.md section 5.1): the player's view and
//! legal actions as JSON, and [`External`], the strategy that asks an external bot.

use super::rules::SpitAction;
use super::strategies::{smaller_pile, SpitStrategy};
use super::trace::describe;
use super::view::SpitView;
use crate::cards::Card;
use crate::external::{Answer, Decisions, ExternalBot};
use crate::rng::SimRng;
use serde_json::{json, Value};
use std::sync::Arc;

/// The decisions Spit asks.
pub const DECISIONS: Decisions = Decisions { all: &["move", "slap", "spit_pile", "give_away"], optional: &["slap", "spit_pile", "give_away"] };

/// Never legal: what a faulted bot "chooses", so that the engine's legality check stops
/// the match.
const STOP: SpitAction = SpitAction::Play { slot: u8::MAX, pile: u8::MAX };

fn card(c: Option<Card>) -> Value {
    c.map_or(Value::Null, |c| Value::from(c.name()))
}

/// The view as the protocol writes it.
pub fn view_json(view: &SpitView) -> Value {
    let side = |mine: bool| {
        let slots = 0..view.slots();
        json!({
            "tops": slots.clone().map(|i| card(view.top(mine, i))).collect::<Vec<_>>(),
            "face_down": slots.map(|i| view.face_down(mine, i)).collect::<Vec<_>>(),
            "stock": view.stock_count(mine),
            "spit": view.spit_count(mine),
        })
    };
    let piles: Vec<Value> = (0..2).map(|j| json!({"top": card(view.pile_top(j)), "cards": view.pile_len(j)})).collect();
    json!({"seat": view.me(), "slots": view.slots(), "mine": side(true), "theirs": side(false), "piles": piles})
}

/// One legal action as the protocol writes it (without its index).
pub fn action_json(view: &SpitView, a: SpitAction) -> Value {
    let moved = match a {
        SpitAction::Play { slot, .. } | SpitAction::Fill { from: slot, .. } => view.top(true, slot as usize),
        SpitAction::Flip { .. } => None,
    };
    let (_, mut fields, text) = describe(a, moved);
    if let SpitAction::Fill { from, .. } = a {
        fields["exposes"] = json!(view.face_down(true, from as usize) > 0);
    }
    fields["text"] = json!(text);
    fields
}

/// A Spit strategy played by an external bot.
pub struct External(pub Arc<ExternalBot>);

impl External {
    /// Asks a pile decision, or gives `default` when the bot leaves it to cardsim.
    fn pile(&self, decision: &'static str, view: &SpitView, default: usize) -> usize {
        if !self.0.plays(decision) {
            return default;
        }
        let piles = (0..2).map(|j| json!({"pile": j, "cards": view.pile_len(j), "text": format!("pile {j} ({} cards)", view.pile_len(j))})).collect();
        match self.0.ask(decision, view_json(view), piles, false) {
            Answer::Index(j) => j,
            Answer::Idle | Answer::Stop => default,
        }
    }
}

impl SpitStrategy for External {
    fn choose(&self, view: &SpitView, legal: &[SpitAction], _: &mut SimRng) -> Option<SpitAction> {
        self.0.choose_move(view_json(view), legal, |a| action_json(view, a), STOP)
    }
    fn slap_target(&self, view: &SpitView, _: &mut SimRng) -> usize {
        self.pile("slap", view, smaller_pile(view))
    }
    fn spit_target(&self, view: &SpitView, _: &mut SimRng) -> usize {
        self.pile("spit_pile", view, smaller_pile(view))
    }
    fn give_away(&self, view: &SpitView, _: &mut SimRng) -> usize {
        self.pile("give_away", view, 1 - smaller_pile(view))
    }
}
