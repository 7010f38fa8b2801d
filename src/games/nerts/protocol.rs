//! Nerts in the bot protocol (docs/bot-protocol.md section 5.3): the player's view and
//! legal actions as JSON, and [`External`], the strategy that asks an external bot.

use super::rules::{NertsAction, Source};
use super::state::{Eff, WORK_PILES};
use super::strategies::NertsStrategy;
use super::trace::describe;
use super::view::{NertsView, Opens};
use crate::cards::Card;
use crate::external::ExternalBot;
use crate::rng::SimRng;
use serde_json::{json, Value};
use std::sync::Arc;

/// Never legal: what a faulted bot "chooses", so that the engine's legality check stops
/// the match.
const STOP: NertsAction = NertsAction::Fill { from: Source::Nerts, to: u8::MAX };

/// A card as it stands: `7h`, `Jk` (a free Joker) or `Jk:R:red` (a Joker on a card).
fn eff(e: Eff) -> Value {
    match e {
        Eff::Card(c) => json!(c.name()),
        Eff::Implied { rank, red } => json!(format!("Jk:{rank}:{}", if red { "red" } else { "black" })),
        Eff::Wild => json!("Jk"),
    }
}

fn opens(o: Opens) -> Value {
    json!({"nerts": o.nerts, "waste": o.waste, "work": o.work})
}

/// The view as the protocol writes it.
pub fn view_json(view: &NertsView) -> Value {
    let work: Vec<Vec<Value>> = (0..WORK_PILES)
        .map(|pile| (0..view.work_len(pile)).filter_map(|depth| view.source_eff(Source::Work { pile: pile as u8, depth })).map(eff).collect())
        .collect();
    let needs: Vec<String> = (0..52u8).filter(|&v| view.needs() >> v & 1 == 1).map(|v| Card(v).name()).collect();
    json!({
        "seat": view.seat(),
        "team": view.team(),
        "teams": view.teams(),
        "nerts_left": view.nerts_len(),
        "nerts_top": view.nerts_top().map_or(Value::Null, eff),
        "waste_top": view.waste_top().map_or(Value::Null, eff),
        "stock": view.stock_len(),
        "work": work,
        "needs": needs,
        "foundation_cards": view.foundation_cards(),
        "totals": view.totals(),
        "deal_scores": view.deal_scores()[..view.teams()],
        "fewest_other_nerts": view.fewest_other_nerts(),
        "nerts_counts": view.nerts_counts().collect::<Vec<u8>>(),
        "partner_busy": view.partner_busy(),
        "open": opens(view.open_after(None)),
    })
}

/// One legal action as the protocol writes it (without its index): a move between work
/// piles also says what it opens.
pub fn action_json(view: &NertsView, a: NertsAction) -> Value {
    let (_, mut fields, text) = describe(a);
    if let NertsAction::Build { from: Source::Work { .. }, .. } | NertsAction::Fill { from: Source::Work { .. }, .. } | NertsAction::SlipUnder { from: Source::Work { .. }, .. } = a {
        fields["opens"] = opens(view.open_after(Some(a)));
    }
    fields["text"] = json!(text);
    fields
}

/// A Nerts strategy played by an external bot.
pub struct External(pub Arc<ExternalBot>);

impl NertsStrategy for External {
    fn choose(&self, view: &NertsView, legal: &[NertsAction], _: &mut SimRng) -> Option<NertsAction> {
        self.0.choose_move(view_json(view), legal, |a| action_json(view, a), STOP)
    }
}
