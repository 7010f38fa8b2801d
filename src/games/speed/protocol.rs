//! Speed in the bot protocol (docs/bot-protocol.md section 5.2): the player's view and
//! legal actions as JSON, and [`External`], the strategy that asks an external bot.

use super::rules::SpeedAction;
use super::strategies::SpeedStrategy;
use super::trace::describe;
use super::view::SpeedView;
use crate::cards::{Card, CardSet};
use crate::external::ExternalBot;
use crate::rng::SimRng;
use serde_json::{json, Value};
use std::sync::Arc;

/// Never legal: what a faulted bot "chooses", so that the engine's legality check stops
/// the match.
const STOP: SpeedAction = SpeedAction::Play { card: Card(0), pile: u8::MAX };

fn names(cards: CardSet) -> Vec<String> {
    cards.iter().map(Card::name).collect()
}

/// The view as the protocol writes it.
pub fn view_json(view: &SpeedView) -> Value {
    let seat = view.seat();
    let counts = if seat == 0 { [view.hand_count(true), view.hand_count(false)] } else { [view.hand_count(false), view.hand_count(true)] };
    let piles: Vec<Value> = (0..2).map(|j| view.pile_top(j).map_or(Value::Null, |c| Value::from(c.name()))).collect();
    json!({"seat": seat, "hand": names(view.hand()), "hand_counts": counts, "piles": piles, "shown": names(view.shown())})
}

/// One legal action as the protocol writes it (without its index).
pub fn action_json(a: SpeedAction) -> Value {
    let (_, mut fields, text) = describe(a, None);
    if a == SpeedAction::Draw {
        fields.as_object_mut().expect("an object").remove("card");
    }
    fields["text"] = json!(text);
    fields
}

/// A Speed strategy played by an external bot.
pub struct External(pub Arc<ExternalBot>);

impl SpeedStrategy for External {
    fn choose(&self, view: &SpeedView, legal: &[SpeedAction], _: &mut SimRng) -> Option<SpeedAction> {
        self.0.choose_move(view_json(view), legal, action_json, STOP)
    }
}
